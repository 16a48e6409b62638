import { createRoute } from "@hono/zod-openapi";
import {
  bulkUpsertRoute,
  CodeParams,
  errors,
  inUseError,
  json,
  jsonBody,
} from "../../http/openapi";
import { assignmentRoutes } from "../../http/assignments";
import { PricelistRefSchema } from "../pricelists/pricelists.schemas";
import { customerList } from "../customers/customers.list";
import { CustomerCodesSchema, CustomerListSchema } from "../customers/customers.schemas";
import { pricelistsList } from "../pricelists/pricelists.list";
import { PricelistListSchema } from "../pricelists/pricelists.schemas";
import { customerGroupList } from "./customer-groups.list";
import {
  CustomerGroupCreateSchema,
  CustomerGroupListSchema,
  CustomerGroupPricelistSchema,
  CustomerGroupSchema,
  CustomerGroupsUpsertSchema,
  CustomerGroupUpdateSchema,
} from "./customer-groups.schemas";

/** The group of this resource's operations in /doc. */
export const tag = {
  name: "Customer groups",
  description: "Groups of customers that pricelists, trade conditions and promotions target",
};

const tags = [tag.name];

export const list = customerGroupList.route({
  method: "get",
  path: "/v1/api/customer-group",
  tags,
  operationId: "listCustomerGroups",
  summary: "List customer groups",
  description:
    "Newest first by default; `search` matches code and name case-insensitively. Any query that " +
    "cannot be honoured is a 400 naming the parameter.",
  responses: {
    200: json(CustomerGroupListSchema, "A page of customer groups"),
    ...errors(400, 401),
  },
});

export const create = createRoute({
  method: "post",
  path: "/v1/api/customer-group",
  tags,
  operationId: "createCustomerGroup",
  summary: "Create a customer group",
  description: "The code must be unique: a taken code → 409 naming it.",
  request: { body: jsonBody(CustomerGroupCreateSchema) },
  responses: {
    201: json(CustomerGroupSchema, "The created customer group"),
    ...errors(400, 401, 403, 409, 413, 415),
  },
});

export const upsert = bulkUpsertRoute({
  path: "/v1/api/customer-group",
  tags,
  operationId: "upsertCustomerGroups",
  noun: "customer groups",
  example: "body.customerGroups.12.name",
  rules: "Every row follows the rules of create and PATCH (name and description).",
  body: CustomerGroupsUpsertSchema,
});

export const get = createRoute({
  method: "get",
  path: "/v1/api/customer-group/{code}",
  tags,
  operationId: "getCustomerGroup",
  summary: "Get a customer group by code",
  description: "Unknown code → 404.",
  request: { params: CodeParams },
  responses: { 200: json(CustomerGroupSchema, "The customer group"), ...errors(400, 401, 404) },
});

export const update = createRoute({
  method: "patch",
  path: "/v1/api/customer-group/{code}",
  tags,
  operationId: "updateCustomerGroup",
  summary: "Update a customer group",
  description: "Changes any of code, name and description. A new code that is already taken → 409.",
  request: { params: CodeParams, body: jsonBody(CustomerGroupUpdateSchema) },
  responses: {
    200: json(CustomerGroupSchema, "The updated customer group"),
    ...errors(400, 401, 403, 404, 409, 413, 415),
  },
});

export const remove = createRoute({
  method: "delete",
  path: "/v1/api/customer-group/{code}",
  tags,
  operationId: "deleteCustomerGroup",
  summary: "Delete a customer group",
  description:
    "Its memberships and its pricelist and channel assignments go with it, in one statement; " +
    "the customers, pricelists and channels stay. While a trade condition or a promotion names " +
    "the group (whatever its status) it cannot be deleted: 409 IN_USE naming them in " +
    "`blockers` (each kind with its count and up to 20 ids). Unknown code → 404.",
  request: { params: CodeParams },
  responses: {
    204: { description: "Deleted" },
    ...errors(400, 401, 403, 404, 413),
    ...inUseError("customer group RESELLER", [
      { kind: "tradeCondition", noun: "trade condition", count: 2, ids: [12, 14] },
      { kind: "promotion", noun: "promotion", count: 1, ids: [7] },
    ]),
  },
});

export const assignPricelist = createRoute({
  method: "post",
  path: "/v1/api/customer-group/{code}/pricelist",
  tags,
  operationId: "assignPricelistToCustomerGroup",
  summary: "Assign a pricelist to a customer group",
  description:
    "Only GENERAL SALES pricelists that are not ARCHIVED can be assigned (INDIVIDUAL, FLOOR or " +
    "ARCHIVED → 409 PRICELIST_NOT_ASSIGNABLE); DRAFT and INACTIVE ones can. Assigning again is a " +
    "no-op with the same answer. Unknown customer group or pricelist → 404 naming which.",
  request: { params: CodeParams, body: jsonBody(PricelistRefSchema) },
  responses: {
    201: json(CustomerGroupPricelistSchema, "The assignment"),
    ...errors(400, 401, 403, 404, 409, 413, 415),
  },
});

export const unassignPricelist = createRoute({
  method: "post",
  path: "/v1/api/customer-group/{code}/pricelist/unassign",
  tags,
  operationId: "unassignPricelistFromCustomerGroup",
  summary: "Unassign a pricelist from a customer group",
  description:
    "Unknown customer group, unknown pricelist, or a pricelist not assigned to the group → 404, " +
    "the detail saying which. ARCHIVED pricelists can be unassigned.",
  request: { params: CodeParams, body: jsonBody(PricelistRefSchema) },
  responses: {
    200: json(CustomerGroupPricelistSchema, "The removed assignment"),
    ...errors(400, 401, 403, 404, 413, 415),
  },
});

export const customerAssignments = assignmentRoutes({
  owner: "customer group",
  path: "/v1/api/customer-group/{code}/customer",
  params: CodeParams,
  body: CustomerCodesSchema,
  tags,
});

// ---- read-outs: what was assigned to the group ----

export const listCustomers = customerList.route({
  method: "get",
  path: "/v1/api/customer-group/{code}/customers",
  tags,
  operationId: "listCustomerGroupCustomers",
  summary: "Find the members of a customer group",
  description:
    "As GET customer shows them. Newest first by default; `search` matches code and name. " +
    "Unknown customer group → 404.",
  request: { params: CodeParams },
  responses: {
    200: json(CustomerListSchema, "A page of the group's members"),
    ...errors(400, 401, 404),
  },
});

export const listPricelists = pricelistsList.route({
  method: "get",
  path: "/v1/api/customer-group/{code}/pricelists",
  tags,
  operationId: "listCustomerGroupPricelists",
  summary: "Find the pricelists assigned to a customer group",
  description:
    "As GET pricelist shows them. Newest first by default; `search` matches the name; filter " +
    "`scope` and `status`. Unknown customer group → 404.",
  request: { params: CodeParams },
  responses: {
    200: json(PricelistListSchema, "A page of the group's pricelists"),
    ...errors(400, 401, 404),
  },
});
