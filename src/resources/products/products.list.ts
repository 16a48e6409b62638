import { productGroups, products } from "../../db/schema";
import { defineList } from "../../list";

export const productList = defineList({
  fields: {
    id: { column: products.id, type: "number", sortable: true },
    code: { column: products.code, type: "text", sortable: true, searchable: true },
    name: { column: products.name, type: "text", sortable: true, searchable: true },
    // The group joined by the repository: `= ?` starts from its unique code, then products_group_idx.
    productGroupCode: { column: productGroups.code, type: "text", filter: ["$null"] },
  },
  selectable: [
    "id",
    "code",
    "name",
    "productGroupCode",
    "minOrderQuantity",
    "orderIncrement",
    "maxOrderQuantity",
    "createdAt",
    "updatedAt",
  ],
  // The seed searches codes only; names are searched when asked for (searchBy=name).
  defaultSearchBy: ["code"],
});
