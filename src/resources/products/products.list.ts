import { brands, productGroups, products } from "../../db/schema";
import { defineRefs } from "../../db/refs";
import { defineList, refFilters } from "../../list";

/**
 * The product's foreign keys by code, declared once (db/refs.ts): the API names a product's group
 * by its code, the table stores its id. The repository selects the code and resolves the codes a
 * body names from here, bulk upserts included, and the list filters by it (`filter.<field>`).
 */
export const productRefs = defineRefs(products, {
  productGroupCode: { key: "productGroupId", to: productGroups, noun: "product group" },
  brandCode: { key: "brandId", to: brands, noun: "brand" },
});

export const productList = defineList({
  fields: {
    id: { column: products.id, type: "number", sortable: true },
    code: { column: products.code, type: "text", sortable: true, searchable: true },
    name: { column: products.name, type: "text", sortable: true, searchable: true },
    ...refFilters(productRefs),
  },
  selectable: [
    "id",
    "code",
    "name",
    "productGroupCode",
    "brandCode",
    "minOrderQuantity",
    "orderIncrement",
    "maxOrderQuantity",
    "createdAt",
    "updatedAt",
  ],
  // The seed searches codes only; names are searched when asked for (searchBy=name).
  defaultSearchBy: ["code"],
});
