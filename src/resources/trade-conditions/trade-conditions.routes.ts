import { createRoute } from "@hono/zod-openapi";
import { errors, IdParams, json, jsonBody } from "../../lib/openapi";
import { tradeConditionList } from "./trade-conditions.repo";
import {
  TradeConditionCreateSchema,
  TradeConditionHeaders,
  TradeConditionListSchema,
  TradeConditionSchema,
  TradeConditionUpdateSchema,
} from "./trade-conditions.schemas";

const tags = ["Trade conditions"];

export const list = createRoute({
  method: "get",
  path: "/v1/api/trade-conditions",
  tags,
  operationId: "listTradeConditions",
  summary: "Find all trade conditions",
  description:
    "Without `x-channel` every condition is listed (global mode); with it, only those whose channelCodes are empty or contain that channel.",
  middleware: [tradeConditionList.middleware],
  parameters: tradeConditionList.parameters,
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
  description:
    "Links and scales are written with the condition in one atomic batch; unknown product or channel codes are refused (400) and nothing is written. There is no DELETE: archive instead.",
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
  description:
    "Any subset of the create fields; given productCodes, channelCodes and scales replace the stored ones. Status changes follow the allowed transitions (409); an ARCHIVED condition cannot be edited (409).",
  request: { params: IdParams, body: jsonBody(TradeConditionUpdateSchema) },
  responses: {
    200: json(TradeConditionSchema, "The updated trade condition"),
    ...errors(400, 401, 403, 404, 409, 413, 415),
  },
});
