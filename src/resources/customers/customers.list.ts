import { customers } from "../../db/schema";
import { defineList } from "../../list";

export const customerList = defineList({
  fields: {
    id: { column: customers.id, type: "number", sortable: true },
    code: { column: customers.code, type: "text", sortable: true, searchable: true },
    name: { column: customers.name, type: "text", sortable: true, searchable: true },
  },
});
