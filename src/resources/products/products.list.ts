import { products } from "../../db/schema";
import { defineList } from "../../list";

export const productList = defineList({
  fields: {
    id: { column: products.id, type: "number", sortable: true },
    code: { column: products.code, type: "text", searchable: true },
    name: { column: products.name, type: "text", sortable: true, searchable: true },
  },
  selectable: ["id", "code", "name", "createdAt", "updatedAt"],
  // The seed searches codes only; names are searched when asked for (searchBy=name).
  defaultSearchBy: ["code"],
});
