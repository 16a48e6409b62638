import { createRoute } from "@hono/zod-openapi";
import {
  bulkUpsertRoute,
  CodeParams,
  errors,
  inUseError,
  json,
  jsonBody,
} from "../../http/openapi";
import { brandList } from "./brands.list";
import {
  BrandCreateSchema,
  BrandListSchema,
  BrandSchema,
  BrandsUpsertSchema,
  BrandUpdateSchema,
} from "./brands.schemas";

/** The group of this resource's operations in /doc. */
export const tag = {
  name: "Brands",
  description:
    "Brands of products: conditions and promotions that name a brand reach its products (docs/brands.md)",
};

const tags = [tag.name];

export const list = brandList.route({
  method: "get",
  path: "/v1/api/brand",
  tags,
  operationId: "listBrands",
  summary: "List brands",
  description:
    "Newest first by default; `search` matches code and name case-insensitively. Any query " +
    "that cannot be honoured is a 400 naming the parameter.",
  responses: { 200: json(BrandListSchema, "A page of brands"), ...errors(400, 401) },
});

export const create = createRoute({
  method: "post",
  path: "/v1/api/brand",
  tags,
  operationId: "createBrand",
  summary: "Create a brand",
  description: "The code must be unique (a taken code → 409 naming it).",
  request: { body: jsonBody(BrandCreateSchema) },
  responses: {
    201: json(BrandSchema, "The created brand"),
    ...errors(400, 401, 403, 409, 413, 415),
  },
});

export const upsert = bulkUpsertRoute({
  path: "/v1/api/brand",
  tags,
  operationId: "upsertBrands",
  noun: "brands",
  example: "body.brands.12.name",
  rules: "A brand has a code and a name, nothing else.",
  body: BrandsUpsertSchema,
});

export const get = createRoute({
  method: "get",
  path: "/v1/api/brand/{code}",
  tags,
  operationId: "getBrand",
  summary: "Get a brand by code",
  description: "Unknown code → 404.",
  request: { params: CodeParams },
  responses: { 200: json(BrandSchema, "The brand"), ...errors(400, 401, 404) },
});

export const update = createRoute({
  method: "patch",
  path: "/v1/api/brand/{code}",
  tags,
  operationId: "updateBrand",
  summary: "Update a brand",
  description:
    "Changes its code or name. A taken code → 409. Products, conditions and promotions name " +
    "the brand by id, so a new code carries them along.",
  request: { params: CodeParams, body: jsonBody(BrandUpdateSchema) },
  responses: {
    200: json(BrandSchema, "The updated brand"),
    ...errors(400, 401, 403, 404, 409, 413, 415),
  },
});

export const remove = createRoute({
  method: "delete",
  path: "/v1/api/brand/{code}",
  tags,
  operationId: "deleteBrand",
  summary: "Delete a brand that nothing names",
  description:
    "While a product, a trade condition or a promotion names the brand it cannot be deleted: " +
    "409 IN_USE naming them in `blockers` (the count of each kind and up to 20 codes or ids of " +
    "each). Unknown code → 404.",
  request: { params: CodeParams },
  responses: {
    204: { description: "Deleted" },
    ...errors(400, 401, 403, 404, 413),
    ...inUseError("brand BOSCH", [
      { kind: "product", noun: "product", count: 2, codes: ["P-A", "P-C"] },
      { kind: "tradeCondition", noun: "trade condition", count: 1, codes: ["17"] },
    ]),
  },
});
