import { createRoute } from "@hono/zod-openapi";
import { bulkUpsertRoute, CodeParams, errors, IdParams, json, jsonBody } from "../../http/openapi";
import { tag as pricelistsTag } from "../pricelists/pricelists.routes";
import { PricelistRefSchema } from "../pricelists/pricelists.schemas";
import { customerList } from "./customers.list";
import {
  CustomerCreateSchema,
  CustomerDetailSchema,
  CustomerListSchema,
  CustomerPricelistSchema,
  CustomerSchema,
  CustomersUpsertSchema,
  CustomerUpdateSchema,
} from "./customers.schemas";

/** The group of this resource's operations in /doc. */
export const tag = {
  name: "Customers",
  description: "Business customers: their groups, channels, pricelists and trade conditions",
};

const tags = [tag.name];

export const list = customerList.route({
  method: "get",
  path: "/v1/api/customer",
  tags,
  operationId: "listCustomers",
  summary: "List customers",
  description:
    "Each with its group and channel codes. Newest first by default; `search` matches code and " +
    "name case-insensitively. Any query that cannot be honoured is a 400 naming the parameter.",
  responses: { 200: json(CustomerListSchema, "A page of customers"), ...errors(400, 401) },
});

export const create = createRoute({
  method: "post",
  path: "/v1/api/customer",
  tags,
  operationId: "createCustomer",
  summary: "Create a customer",
  description:
    "Optionally puts the customer into customer groups and channels. Unknown codes → 400 naming them; nothing is written.",
  request: { body: jsonBody(CustomerCreateSchema) },
  responses: {
    201: json(CustomerSchema, "The created customer"),
    ...errors(400, 401, 403, 409, 413, 415),
  },
});

export const upsert = bulkUpsertRoute({
  path: "/v1/api/customer",
  tags,
  operationId: "upsertCustomers",
  noun: "customers",
  example: "body.customers.12.customerGroupCodes",
  rules:
    "`customerGroupCodes` and `channelCodes`, when given, replace the customer's memberships " +
    "([] removes all; only the differences are written); absent, they are left as they are. " +
    "Unknown group or channel codes → 400 naming them on the row.",
  body: CustomersUpsertSchema,
});

export const get = createRoute({
  method: "get",
  path: "/v1/api/customer/{code}",
  tags,
  operationId: "getCustomer",
  summary: "Get a customer by code, with its pricelists and primary pricelist",
  description:
    "`pricelists` are the customer's own: the INDIVIDUAL ones it owns and the GENERAL ones assigned to it, " +
    "INDIVIDUAL first, then priority descending, then id. `primaryPricelist` is the first of them that is " +
    "ACTIVE and valid now (validFrom null or past, validTo null or future), or null.",
  request: { params: CodeParams },
  responses: {
    200: json(CustomerDetailSchema, "The customer with its pricelists"),
    ...errors(400, 401, 404),
  },
});

export const update = createRoute({
  method: "patch",
  path: "/v1/api/customer/{code}",
  tags,
  operationId: "updateCustomer",
  summary: "Update a customer",
  description:
    "Changes any of code and name; `customerGroupCodes` and `channelCodes`, when given, replace the memberships. " +
    "Atomic: unknown codes → 400 and nothing is written; a new code already taken → 409.",
  request: { params: CodeParams, body: jsonBody(CustomerUpdateSchema) },
  responses: {
    200: json(CustomerSchema, "The updated customer"),
    ...errors(400, 401, 403, 404, 409, 413, 415),
  },
});

export const remove = createRoute({
  method: "delete",
  path: "/v1/api/customer/{code}",
  tags,
  operationId: "deleteCustomer",
  summary: "Delete a customer",
  description:
    "Its group and channel memberships, pricelist and trade condition assignments, and its own " +
    "INDIVIDUAL pricelists (with their prices) are deleted with it.",
  request: { params: CodeParams },
  responses: { 204: { description: "Deleted" }, ...errors(400, 401, 403, 404, 413) },
});

export const assignPricelist = createRoute({
  method: "post",
  path: "/v1/api/customer/{code}/pricelist",
  tags,
  operationId: "assignPricelistToCustomer",
  summary: "Assign a pricelist to a customer",
  description:
    "Makes a GENERAL pricelist one of the customer's own (listed in `pricelists` of GET customer/{code}); " +
    "DRAFT and INACTIVE ones can be assigned. Assigning again is a no-op with the same answer. The " +
    "customer's own INDIVIDUAL pricelist is already its own: same answer, nothing written. An INDIVIDUAL " +
    "pricelist of another customer, a FLOOR or an ARCHIVED one → 409 PRICELIST_NOT_ASSIGNABLE. Unknown customer " +
    "or pricelist → 404 naming which.",
  request: { params: CodeParams, body: jsonBody(PricelistRefSchema) },
  responses: {
    201: json(CustomerPricelistSchema, "The assignment"),
    ...errors(400, 401, 403, 404, 409, 413, 415),
  },
});

export const listPricelistCustomers = customerList.route({
  method: "get",
  path: "/v1/api/pricelist/{id}/customers",
  tags: [pricelistsTag.name],
  operationId: "listPricelistCustomers",
  summary: "Find the customers who own or are assigned a pricelist",
  description:
    "The owner of an INDIVIDUAL pricelist and the customers it is assigned to directly " +
    "(`POST /v1/api/customer/{code}/pricelist`), each once. Not expanded through customer groups " +
    "or channels. Unknown pricelist → 404.",
  request: { params: IdParams },
  responses: {
    200: json(CustomerListSchema, "A page of customers"),
    ...errors(400, 401, 404),
  },
});
