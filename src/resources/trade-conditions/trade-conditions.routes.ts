import { createRoute } from "@hono/zod-openapi";
import { CodeParams, errors, IdParams, json, jsonBody, withRules } from "../../http/openapi";
import { CustomerGroupCodesSchema } from "../../core/schemas";
import { assignmentRoutes } from "../../http/assignments";
import { CustomerCodesSchema } from "../customers/customers.schemas";
import { tag as customersTag } from "../customers/customers.routes";
import { customerTradeConditionList, tradeConditionList } from "./trade-conditions.list";
import {
  CustomerTradeConditionListSchema,
  TradeConditionCreateSchema,
  TradeConditionHeaders,
  TradeConditionListSchema,
  TradeConditionSchema,
  TradeConditionUpdateSchema,
} from "./trade-conditions.schemas";

/** The group of this resource's operations in /doc. */
export const tag = {
  name: "Trade conditions",
  description: "Negotiated discounts, surcharges and net prices by scope",
};

const tags = [tag.name];

export const list = tradeConditionList.route({
  method: "get",
  path: "/v1/api/trade-conditions",
  tags,
  operationId: "listTradeConditions",
  summary: "Find all trade conditions",
  description:
    "Without `x-channel` every condition is listed (global mode); with it, only those whose channelCodes are empty or contain that channel.",
  request: { headers: TradeConditionHeaders },
  responses: {
    200: json(TradeConditionListSchema, "A page of trade conditions"),
    ...errors(400, 401, 404),
  },
});

export const create = createRoute({
  method: "post",
  path: "/v1/api/trade-conditions",
  tags,
  operationId: "createTradeCondition",
  summary: "Create a trade condition",
  description: withRules(
    "Links and scales are written with the condition in one atomic batch; unknown product, product group or channel codes are refused (400) and nothing is written. Scale rows take `minimum` (their former name `minQuantity` is still accepted, deprecated); `scaleBasis` ORDER_VALUE needs `currency`. There is no DELETE: archive instead.",
    "window",
  ),
  request: { body: jsonBody(TradeConditionCreateSchema) },
  responses: {
    201: json(TradeConditionSchema, "The created trade condition"),
    ...errors(400, 401, 403, 409, 413, 415),
  },
});

export const get = createRoute({
  method: "get",
  path: "/v1/api/trade-conditions/{id}",
  tags,
  operationId: "getTradeCondition",
  summary: "Get a trade condition by id",
  description:
    "With its product, product group and channel codes, scales and targets. Unknown id → 404.",
  request: { params: IdParams },
  responses: {
    200: json(TradeConditionSchema, "The trade condition"),
    ...errors(400, 401, 404),
  },
});

export const update = createRoute({
  method: "patch",
  path: "/v1/api/trade-conditions/{id}",
  tags,
  operationId: "updateTradeCondition",
  summary: "Update a trade condition",
  description: withRules(
    "Any subset of the create fields; given productCodes, productGroupCodes, channelCodes and scales replace the stored ones; the merged record is checked with the create rules. Status changes follow the allowed transitions (409); an ARCHIVED condition cannot be edited (409). " +
      "Changing the scope of a CUSTOMER_GROUP- or CUSTOMER-scope condition that still has target groups or customers is refused (409): unassign them first, nothing is dropped silently.",
    "window",
  ),
  request: { params: IdParams, body: jsonBody(TradeConditionUpdateSchema) },
  responses: {
    200: json(TradeConditionSchema, "The updated trade condition"),
    ...errors(400, 401, 403, 404, 409, 413, 415),
  },
});

const ARCHIVED_RULE = "An ARCHIVED condition's targets are frozen (409).";
export const customerGroupAssignments = assignmentRoutes({
  owner: "trade condition",
  path: "/v1/api/trade-conditions/{id}/customer-groups",
  params: IdParams,
  body: CustomerGroupCodesSchema,
  tags,
  assign: {
    rules: `Only a CUSTOMER_GROUP-scope condition takes customer groups; any other scope → 409 naming it. ${ARCHIVED_RULE}`,
    conflicts: true,
  },
  unassign: { rules: `Works whatever the scope. ${ARCHIVED_RULE}`, conflicts: true },
});

export const customerAssignments = assignmentRoutes({
  owner: "trade condition",
  path: "/v1/api/trade-conditions/{id}/customers",
  params: IdParams,
  body: CustomerCodesSchema,
  tags,
  assign: {
    rules: `Only a CUSTOMER-scope condition takes customers; any other scope → 409 naming it. ${ARCHIVED_RULE}`,
    conflicts: true,
  },
  unassign: { rules: `Works whatever the scope. ${ARCHIVED_RULE}`, conflicts: true },
});

export const listForCustomer = customerTradeConditionList.route({
  method: "get",
  path: "/v1/api/customer/{code}/trade-conditions",
  tags: [customersTag.name],
  operationId: "listCustomerTradeConditions",
  summary: "Get customer trade conditions",
  description:
    "One item per link through which a trade condition reaches the customer, whatever the condition's status " +
    "(filter `status` for that): `CUSTOMER` (a CUSTOMER-scope condition that targets the customer; `via.code` = the customer code), " +
    "`CUSTOMER_GROUP` (a CUSTOMER_GROUP-scope condition that targets one of the customer's groups; `via.code` = the group; " +
    "a condition reaching it through two groups gives two links), `CHANNEL` (a CHANNEL-scope condition of a channel the " +
    "customer is assigned to; `via.code` = the channel) and `GLOBAL` (every GLOBAL-scope condition; `via.code` null). " +
    "`id` identifies the link within the customer's list: 4 × the rowid of the link row + k, with k = 0 for CUSTOMER " +
    "(trade_condition_customers), 1 for CUSTOMER_GROUP (trade_condition_customer_groups), 2 for CHANNEL " +
    "(trade_condition_channels); GLOBAL links are 4 × the condition id + 3. " +
    "`filter.scope` and `filter.status` apply to the trade condition; `search` matches `tradeCondition.type`. " +
    "Unknown customer → 404. The customer check, the page and its count are one round trip.",
  request: { params: CodeParams },
  responses: {
    200: json(CustomerTradeConditionListSchema, "A page of the customer's trade-condition links"),
    ...errors(400, 401, 404),
  },
});
