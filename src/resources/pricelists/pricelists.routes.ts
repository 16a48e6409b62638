import { createRoute } from "@hono/zod-openapi";
import { errors, IdParams, json, jsonBody, withRules } from "../../http/openapi";
import { CustomerGroupCodesSchema } from "../../core/schemas";
import { assignmentRoutes } from "../../http/assignments";
import { ProductCodesSchema } from "../products/products.schemas";
import { pricelistPricesList, pricelistsList } from "./pricelists.list";
import {
  IndividualPricelistCreateSchema,
  PriceListSchema,
  PricesDeleteResultSchema,
  PricesUpsertResultSchema,
  PricesUpsertSchema,
  PricelistCreateSchema,
  PricelistListSchema,
  PricelistSchema,
  PricelistUpdateSchema,
  PricesAtQuery,
} from "./pricelists.schemas";

/** The group of this resource's operations in /doc. */
export const tag = {
  name: "Pricelists",
  description:
    "Unit prices per product and quantity tier, GENERAL or INDIVIDUAL; DRAFT → ACTIVE ⇄ INACTIVE, any → ARCHIVED",
};

const tags = [tag.name];

export const list = pricelistsList.route({
  method: "get",
  path: "/v1/api/pricelist",
  tags,
  operationId: "listPricelists",
  summary: "Find all pricelists",
  description:
    "GENERAL and INDIVIDUAL ones, newest first by default; filter with `filter.scope` and " +
    "`filter.status`. Any query that cannot be honoured is a 400 naming the parameter.",
  responses: { 200: json(PricelistListSchema, "A page of pricelists"), ...errors(400, 401) },
});

export const create = createRoute({
  method: "post",
  path: "/v1/api/pricelist",
  tags,
  operationId: "createPricelist",
  summary: "Create a GENERAL pricelist",
  description: withRules(
    "Starts as DRAFT unless `status` is ACTIVE. A DRAFT pricelist prices nothing; it can be " +
      "filled (PUT …/prices) and assigned first, then activated with PATCH. validTo must be after " +
      "validFrom. `kind` FLOOR makes a pricelist of minimum prices for channels. A SALES pricelist " +
      "may have a `derivation`: its base must exist (400), be GENERAL SALES in the same currency " +
      "and not the pricelist itself (409); a chain of bases has at most 3 steps and no cycle (409 " +
      "naming the chain).",
    "window",
    "rounding",
  ),
  request: { body: jsonBody(PricelistCreateSchema) },
  responses: {
    201: json(PricelistSchema, "The created pricelist"),
    ...errors(400, 401, 403, 413, 415),
  },
});

export const createIndividual = createRoute({
  method: "post",
  path: "/v1/api/pricelist/individual",
  tags,
  operationId: "createIndividualPricelist",
  summary: "Create an INDIVIDUAL pricelist for one customer (starts as DRAFT)",
  description: withRules(
    "The pricelist belongs to `customerCode` and ranks first for that customer once ACTIVE. " +
      "Unknown customer → 400 naming it. validTo must be after validFrom.",
    "window",
  ),
  request: { body: jsonBody(IndividualPricelistCreateSchema) },
  responses: {
    201: json(PricelistSchema, "The created pricelist"),
    ...errors(400, 401, 403, 413, 415),
  },
});

export const get = createRoute({
  method: "get",
  path: "/v1/api/pricelist/{id}",
  tags,
  operationId: "getPricelist",
  summary: "Get a pricelist",
  description: "GENERAL or INDIVIDUAL, in any status. Unknown id → 404.",
  request: { params: IdParams },
  responses: { 200: json(PricelistSchema, "The pricelist"), ...errors(400, 401, 404) },
});

export const update = createRoute({
  method: "patch",
  path: "/v1/api/pricelist/{id}",
  tags,
  operationId: "updatePricelist",
  summary: "Update a pricelist or change its status",
  description: withRules(
    "Status transitions: DRAFT→ACTIVE, ACTIVE→INACTIVE, INACTIVE→ACTIVE, any non-archived→ARCHIVED; anything else is 409. " +
      "An ARCHIVED pricelist cannot be changed. The currency and the kind can change only while DRAFT, " +
      "and not while other pricelists derive from it (409 naming them); a pricelist assigned to a " +
      "customer group or customer, or primary of a channel, cannot become FLOOR (409 " +
      "PRICELIST_NOT_ASSIGNABLE). `derivation` follows the create rules (null removes it).",
    "window",
    "rounding",
  ),
  request: { params: IdParams, body: jsonBody(PricelistUpdateSchema) },
  responses: {
    200: json(PricelistSchema, "The updated pricelist"),
    ...errors(400, 401, 403, 404, 409, 413, 415),
  },
});

export const customerGroupAssignments = assignmentRoutes({
  owner: "pricelist",
  path: "/v1/api/pricelist/{id}/customer-groups",
  params: IdParams,
  body: CustomerGroupCodesSchema,
  tags,
  assign: {
    rules:
      "An INDIVIDUAL pricelist belongs to its customer and is never assigned elsewhere, a FLOOR " +
      "pricelist is assigned to channels only, and an ARCHIVED pricelist cannot be assigned (409 " +
      "PRICELIST_NOT_ASSIGNABLE).",
    conflicts: true,
  },
  unassign: { rules: "Works in every status, so an ARCHIVED pricelist can still be detached." },
});

export const removeIndividual = createRoute({
  method: "delete",
  path: "/v1/api/pricelist/individual/{id}",
  tags,
  operationId: "deleteIndividualPricelist",
  summary: "Delete a DRAFT individual pricelist with its prices and assignments",
  description:
    "Only an INDIVIDUAL pricelist in status DRAFT can be deleted; its prices and any assignments " +
    "go with it. Unknown id, or a pricelist that is not INDIVIDUAL → 404; not DRAFT → 409 naming " +
    "the status (archive it through PATCH instead).",
  request: { params: IdParams },
  responses: { 204: { description: "Deleted" }, ...errors(400, 401, 403, 404, 409, 413) },
});

export const listPrices = pricelistPricesList.route({
  method: "get",
  path: "/v1/api/pricelist/{id}/prices",
  tags,
  operationId: "listPricelistPrices",
  summary: "Find the prices of a pricelist",
  description:
    "One item per row: a (productCode, minQuantity) tier over its window (validFrom, validTo). " +
    "Default order productCode ASC, minQuantity ASC, then validFrom ASC (from always first), the " +
    "natural order of a price sheet. `at` keeps only the rows valid at that instant. Unknown " +
    "pricelist → 404.",
  request: { params: IdParams, query: PricesAtQuery },
  responses: { 200: json(PriceListSchema, "A page of prices"), ...errors(400, 401, 404) },
});

export const upsertPrices = createRoute({
  method: "put",
  path: "/v1/api/pricelist/{id}/prices",
  tags,
  operationId: "upsertPricelistPrices",
  summary: "Create or overwrite 1-1000 prices atomically",
  description: withRules(
    "Each row sets the unit `amount` (integer minor units >= 0) of a product from `minQuantity` " +
      "(integer >= 1, default 1) on; an existing (productCode, minQuantity) row gets the new amount, " +
      "other rows of the pricelist stay. All or nothing: if any product code is unknown nothing is " +
      "written and the 400 lists the unknown codes. A (productCode, minQuantity) pair may appear " +
      "once per body (400). ARCHIVED pricelist → 409; unknown pricelist → 404. `upserted` is the " +
      "number of rows of the body, all now stored; a row already at its amount is left untouched " +
      "(no audit entry, no new pricing version), so re-sending an unchanged sheet writes nothing.",
    "window",
  ),
  request: { params: IdParams, body: jsonBody(PricesUpsertSchema) },
  responses: {
    200: json(PricesUpsertResultSchema, "How many rows of the body are stored"),
    ...errors(400, 401, 403, 404, 409, 413, 415),
  },
});

export const deletePrices = createRoute({
  method: "post",
  path: "/v1/api/pricelist/{id}/prices/delete",
  tags,
  operationId: "deletePricelistPrices",
  summary: "Bulk-delete the prices of products from a pricelist",
  description:
    "1-1000 product codes, duplicates counted once. `deleted`: codes of existing products, whose " +
    "rows (all quantity tiers) in this pricelist are gone, also when they had none, so a repeat " +
    "is harmless; `notFound`: codes that name no product. ARCHIVED pricelist → 409; unknown " +
    "pricelist → 404.",
  request: { params: IdParams, body: jsonBody(ProductCodesSchema) },
  responses: {
    200: json(PricesDeleteResultSchema, "What was deleted"),
    ...errors(400, 401, 403, 404, 409, 413, 415),
  },
});
