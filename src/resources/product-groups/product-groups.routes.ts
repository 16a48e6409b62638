import { createRoute } from "@hono/zod-openapi";
import {
  bulkUpsertRoute,
  CodeParams,
  errors,
  inUseError,
  json,
  jsonBody,
} from "../../http/openapi";
import { productGroupList } from "./product-groups.list";
import {
  ProductGroupCreateSchema,
  ProductGroupListSchema,
  ProductGroupSchema,
  ProductGroupsUpsertSchema,
  ProductGroupUpdateSchema,
} from "./product-groups.schemas";

/** The group of this resource's operations in /doc. */
export const tag = {
  name: "Product groups",
  description:
    "A forest of product groups: conditions and promotions that name a group reach its products and those of every group below it",
};

const tags = [tag.name];

export const list = productGroupList.route({
  method: "get",
  path: "/v1/api/product-group",
  tags,
  operationId: "listProductGroups",
  summary: "List product groups",
  description:
    "Newest first by default; `search` matches code and name case-insensitively; " +
    "`filter.parentCode=X` lists the children of group X, `filter.parentCode=$null` the roots. " +
    "Any query that cannot be honoured is a 400 naming the parameter.",
  responses: {
    200: json(ProductGroupListSchema, "A page of product groups"),
    ...errors(400, 401),
  },
});

export const create = createRoute({
  method: "post",
  path: "/v1/api/product-group",
  tags,
  operationId: "createProductGroup",
  summary: "Create a product group",
  description:
    "The code must be unique (a taken code → 409 naming it). `parentCode` names an existing " +
    "group (unknown → 400); a branch may have at most 8 levels (deeper → 409 naming it).",
  request: { body: jsonBody(ProductGroupCreateSchema) },
  responses: {
    201: json(ProductGroupSchema, "The created product group"),
    ...errors(400, 401, 403, 409, 413, 415),
  },
});

export const upsert = bulkUpsertRoute({
  path: "/v1/api/product-group",
  tags,
  operationId: "upsertProductGroups",
  noun: "product groups",
  example: "body.productGroups.12.parentCode",
  rules:
    "`parentCode` names a stored group or one of the same body, listed before or after; the " +
    "placement rules of create and PATCH hold in the forest the whole body makes: an unknown " +
    "parent, a cycle (within the body or with the stored groups) or a branch deeper than 8 " +
    "levels → 400 on each row concerned, naming the chain.",
  body: ProductGroupsUpsertSchema,
});

export const get = createRoute({
  method: "get",
  path: "/v1/api/product-group/{code}",
  tags,
  operationId: "getProductGroup",
  summary: "Get a product group by code",
  description: "Unknown code → 404.",
  request: { params: CodeParams },
  responses: { 200: json(ProductGroupSchema, "The product group"), ...errors(400, 401, 404) },
});

export const update = createRoute({
  method: "patch",
  path: "/v1/api/product-group/{code}",
  tags,
  operationId: "updateProductGroup",
  summary: "Update a product group",
  description:
    "Changes any of code, name and parentCode (null makes it a root). A taken code → 409; an " +
    "unknown parent → 400; a parent below the group itself (a cycle) or a branch of more than " +
    "8 levels, counted from the root above the new parent to the deepest group below this one, " +
    "→ 409 naming the chain.",
  request: { params: CodeParams, body: jsonBody(ProductGroupUpdateSchema) },
  responses: {
    200: json(ProductGroupSchema, "The updated product group"),
    ...errors(400, 401, 403, 404, 409, 413, 415),
  },
});

export const remove = createRoute({
  method: "delete",
  path: "/v1/api/product-group/{code}",
  tags,
  operationId: "deleteProductGroup",
  summary: "Delete a product group that nothing names",
  description:
    "While a product, a child group, a trade condition or a promotion names the group it cannot " +
    "be deleted: 409 IN_USE naming them in `blockers` (the count of each kind and up to 20 " +
    "codes or ids of each). Unknown code → 404.",
  request: { params: CodeParams },
  responses: {
    204: { description: "Deleted" },
    ...errors(400, 401, 403, 404, 413),
    ...inUseError("product group FAST", [
      { kind: "product", noun: "product", count: 2, codes: ["S-1", "W-1"] },
      { kind: "productGroup", noun: "child group", count: 1, codes: ["SCREWS"] },
    ]),
  },
});
