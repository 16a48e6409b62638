import { createRoute } from "@hono/zod-openapi";
import { errors, IdParams, json, jsonBody } from "../../lib/openapi";
import { pricelistList } from "./pricelists.repo";
import {
  IndividualPricelistCreateSchema,
  PricelistCreateSchema,
  PricelistListSchema,
  PricelistSchema,
  PricelistUpdateSchema,
} from "./pricelists.schemas";

const tags = ["Pricelists"];

export const list = createRoute({
  method: "get",
  path: "/v1/api/pricelist",
  tags,
  operationId: "listPricelists",
  summary: "Find all pricelists",
  middleware: [pricelistList.middleware],
  parameters: pricelistList.parameters,
  responses: { 200: json(PricelistListSchema, "A page of pricelists"), ...errors(400, 401) },
});

export const create = createRoute({
  method: "post",
  path: "/v1/api/pricelist",
  tags,
  operationId: "createPricelist",
  summary: "Create a GENERAL pricelist",
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
  request: { params: IdParams },
  responses: { 200: json(PricelistSchema, "The pricelist"), ...errors(400, 401, 404) },
});

export const update = createRoute({
  method: "patch",
  path: "/v1/api/pricelist/{id}",
  tags,
  operationId: "updatePricelist",
  summary: "Update a pricelist or change its status",
  description:
    "Status transitions: DRAFT→ACTIVE, ACTIVE→INACTIVE, INACTIVE→ACTIVE, any non-archived→ARCHIVED; anything else is 409. " +
    "An ARCHIVED pricelist cannot be changed. The currency can change only while DRAFT.",
  request: { params: IdParams, body: jsonBody(PricelistUpdateSchema) },
  responses: {
    200: json(PricelistSchema, "The updated pricelist"),
    ...errors(400, 401, 403, 404, 409, 413, 415),
  },
});
