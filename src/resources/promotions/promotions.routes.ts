import { createRoute } from "@hono/zod-openapi";
import { errors, IdParams, json, jsonBody, withRules } from "../../http/openapi";
import { promotionList } from "./promotions.list";
import {
  PromotionCreateSchema,
  PromotionListSchema,
  PromotionSchema,
  PromotionUpdateSchema,
} from "./promotions.schemas";

/** The group of this resource's operations in /doc. */
export const tag = {
  name: "Promotions",
  description: "Time-limited reductions by product, channel and customer group",
};

const tags = [tag.name];

export const list = promotionList.route({
  method: "get",
  path: "/v1/api/promotion",
  tags,
  operationId: "listPromotions",
  summary: "Find all promotions",
  description:
    "Newest first by default; `search` matches the name, `filter.status` narrows by status. Any " +
    "query that cannot be honoured is a 400 naming the parameter.",
  responses: { 200: json(PromotionListSchema, "A page of promotions"), ...errors(400, 401) },
});

export const create = createRoute({
  method: "post",
  path: "/v1/api/promotion",
  tags,
  operationId: "createPromotion",
  summary: "Create a promotion",
  description: withRules(
    "Links are written with the promotion in one atomic batch; unknown product, product group, channel or customer group codes are refused (400) and nothing is written. A VALUE `threshold` needs `currency`. There is no DELETE: archive instead.",
    "window",
  ),
  request: { body: jsonBody(PromotionCreateSchema) },
  responses: {
    201: json(PromotionSchema, "The created promotion"),
    ...errors(400, 401, 403, 409, 413, 415),
  },
});

export const get = createRoute({
  method: "get",
  path: "/v1/api/promotion/{id}",
  tags,
  operationId: "getPromotion",
  summary: "Get a single promotion",
  description:
    "With its product, product group, channel and customer group codes and its threshold. Unknown id → 404.",
  request: { params: IdParams },
  responses: { 200: json(PromotionSchema, "The promotion"), ...errors(400, 401, 404) },
});

export const update = createRoute({
  method: "patch",
  path: "/v1/api/promotion/{id}",
  tags,
  operationId: "updatePromotion",
  summary: "Update a promotion",
  description: withRules(
    "Any subset of the create fields; given code lists and threshold replace the stored ones; the merged record is checked with the create rules. Status changes follow the allowed transitions (409); an ARCHIVED promotion cannot be edited (409).",
    "window",
  ),
  request: { params: IdParams, body: jsonBody(PromotionUpdateSchema) },
  responses: {
    200: json(PromotionSchema, "The updated promotion"),
    ...errors(400, 401, 403, 404, 409, 413, 415),
  },
});
