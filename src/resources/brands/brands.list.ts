import { brands } from "../../db/schema";
import { defineList } from "../../list";

export const brandList = defineList({
  fields: {
    id: { column: brands.id, type: "number", sortable: true },
    code: { column: brands.code, type: "text", sortable: true, searchable: true },
    name: { column: brands.name, type: "text", sortable: true, searchable: true },
  },
});
