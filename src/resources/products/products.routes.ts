import { createRoute } from "@hono/zod-openapi";
import {
  bulkUpsertRoute,
  CodeParams,
  errors,
  inUseError,
  json,
  jsonBody,
} from "../../http/openapi";
import { productList } from "./products.list";
import {
  ProductCreateSchema,
  ProductListSchema,
  ProductSchema,
  ProductsUpsertSchema,
  ProductUpdateSchema,
} from "./products.schemas";

/** The group of this resource's operations in /doc. */
export const tag = {
  name: "Products",
  description: "The catalogue that pricelists, conditions and promotions name by code",
};

const tags = [tag.name];

export const list = productList.route({
  method: "get",
  path: "/v1/api/product",
  tags,
  operationId: "listProducts",
  summary: "List all products (paginated, searchable by code)",
  description:
    "Newest first by default. `search` matches the code (add `searchBy=name` for names) " +
    "case-insensitively; `filter.productGroupCode=X` lists the products whose own group is X " +
    "(`$null`: those in no group); `select` trims the items to id and the chosen fields. Any " +
    "query that cannot be honoured is a 400 naming the parameter.",
  responses: { 200: json(ProductListSchema, "A page of products"), ...errors(400, 401) },
});

export const create = createRoute({
  method: "post",
  path: "/v1/api/product",
  tags,
  operationId: "createProduct",
  summary: "Create a product",
  description:
    "The code must be unique: a taken code → 409 naming it. `productGroupCode` names an " +
    "existing group (unknown → 400); the quantity rule defaults to any quantity " +
    "(minOrderQuantity 1, orderIncrement 1, no maxOrderQuantity); a maximum below the minimum → 400.",
  request: { body: jsonBody(ProductCreateSchema) },
  responses: {
    201: json(ProductSchema, "The created product"),
    ...errors(400, 401, 403, 409, 413, 415),
  },
});

export const upsert = bulkUpsertRoute({
  path: "/v1/api/product",
  tags,
  operationId: "upsertProducts",
  noun: "products",
  example: "body.products.12.productGroupCode",
  rules:
    "Every row follows the rules of create and PATCH: an unknown productGroupCode → 400; a " +
    "maxOrderQuantity below the minOrderQuantity of the merged record → 400.",
  body: ProductsUpsertSchema,
});

export const get = createRoute({
  method: "get",
  path: "/v1/api/product/{code}",
  tags,
  operationId: "getProduct",
  summary: "Get a product by code",
  description: "Unknown code → 404.",
  request: { params: CodeParams },
  responses: { 200: json(ProductSchema, "The product"), ...errors(400, 401, 404) },
});

export const update = createRoute({
  method: "patch",
  path: "/v1/api/product/{code}",
  tags,
  operationId: "updateProduct",
  summary: "Update a product",
  description:
    "Changes any of code, name, productGroupCode (null: no group) and the quantity rule. A new " +
    "code that is already taken → 409; an unknown group → 400; the merged record must keep " +
    "maxOrderQuantity ≥ minOrderQuantity (400 naming the field the body set).",
  request: { params: CodeParams, body: jsonBody(ProductUpdateSchema) },
  responses: {
    200: json(ProductSchema, "The updated product"),
    ...errors(400, 401, 403, 404, 409, 413, 415),
  },
});

export const remove = createRoute({
  method: "delete",
  path: "/v1/api/product/{code}",
  tags,
  operationId: "deleteProduct",
  summary: "Delete a product that no pricelist, condition or promotion uses",
  description:
    "A product that still has prices in a pricelist, or is named by a trade condition or " +
    "promotion, cannot be deleted: 409 IN_USE naming them in `blockers` (each kind with its " +
    "count and up to 20 ids). Remove it from them first. Unknown code → 404.",
  request: { params: CodeParams },
  responses: {
    204: { description: "Deleted" },
    ...errors(400, 401, 403, 404, 413),
    ...inUseError("product P-A", [
      { kind: "pricelist", noun: "pricelist", count: 2, ids: [100, 101] },
      { kind: "promotion", noun: "promotion", count: 1, ids: [7] },
    ]),
  },
});
