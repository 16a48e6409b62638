import { createRoute } from "@hono/zod-openapi";
import { CodeParams, errors, json, jsonBody } from "../../lib/openapi";
import { customerGroupList } from "./customer-groups.repo";
import {
  CustomerGroupCreateSchema,
  CustomerGroupListSchema,
  CustomerGroupSchema,
  CustomerGroupUpdateSchema,
} from "./customer-groups.schemas";

const tags = ["Customer groups"];

export const list = createRoute({
  method: "get",
  path: "/v1/api/customer-group",
  tags,
  operationId: "listCustomerGroups",
  summary: "List customer groups",
  middleware: [customerGroupList.middleware],
  parameters: customerGroupList.parameters,
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
  request: { body: jsonBody(CustomerGroupCreateSchema) },
  responses: {
    201: json(CustomerGroupSchema, "The created customer group"),
    ...errors(400, 401, 403, 409, 413, 415),
  },
});

export const get = createRoute({
  method: "get",
  path: "/v1/api/customer-group/{code}",
  tags,
  operationId: "getCustomerGroup",
  summary: "Get a customer group by code",
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
