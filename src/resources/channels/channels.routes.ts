import { createRoute } from "@hono/zod-openapi";
import { CodeParams, errors, inUseError, json, jsonBody, invalidError } from "../../http/openapi";
import { CustomerGroupCodesSchema } from "../../core/schemas";
import { assignmentRoutes } from "../../http/assignments";
import { customerGroupList } from "../customer-groups/customer-groups.list";
import { CustomerGroupListSchema } from "../customer-groups/customer-groups.schemas";
import { customerList } from "../customers/customers.list";
import { CustomerCodesSchema, CustomerListSchema } from "../customers/customers.schemas";
import { channelList, channelPricelistList } from "./channels.list";
import {
  AssignedPricelistListSchema,
  ChannelCreateSchema,
  ChannelListSchema,
  ChannelPricelistSchema,
  ChannelSchema,
  ChannelUpdateSchema,
  ChannelWithPrimarySchema,
} from "./channels.schemas";
import { PricelistRefSchema } from "../pricelists/pricelists.schemas";

/** The group of this resource's operations in /doc. */
export const tag = {
  name: "Channels",
  description: "Where prices are asked for; each has pricelists, one of them primary",
};

const tags = [tag.name];

export const list = channelList.route({
  method: "get",
  path: "/v1/api/channel",
  tags,
  operationId: "listChannels",
  summary: "Find all channels",
  description:
    "Newest first by default; `search` matches name and code case-insensitively. Any query that " +
    "cannot be honoured is a 400 naming the parameter.",
  responses: { 200: json(ChannelListSchema, "A page of channels"), ...errors(400, 401) },
});

export const create = createRoute({
  method: "post",
  path: "/v1/api/channel",
  tags,
  operationId: "createChannel",
  summary: "Create a channel",
  description: "Active unless `isActive` is false. The code must be unique: a taken code → 409.",
  request: { body: jsonBody(ChannelCreateSchema) },
  responses: {
    201: json(ChannelSchema, "The created channel"),
    ...errors(400, 401, 403, 409, 413, 415),
    ...invalidError("body.code", "must be 1-64 characters of A-Z a-z 0-9 . _ - (not . or ..)"),
  },
});

export const get = createRoute({
  method: "get",
  path: "/v1/api/channel/{code}",
  tags,
  operationId: "getChannel",
  summary: "Get a channel by code",
  description: "With the id of its primary pricelist, if it has one. Unknown code → 404.",
  request: { params: CodeParams },
  responses: { 200: json(ChannelSchema, "The channel"), ...errors(400, 401, 404) },
});

export const update = createRoute({
  method: "patch",
  path: "/v1/api/channel/{code}",
  tags,
  operationId: "updateChannel",
  summary: "Update a channel",
  description: "Changes any of code, name and isActive. A new code that is already taken → 409.",
  request: { params: CodeParams, body: jsonBody(ChannelUpdateSchema) },
  responses: {
    200: json(ChannelSchema, "The updated channel"),
    ...errors(400, 401, 403, 404, 409, 413, 415),
  },
});

export const remove = createRoute({
  method: "delete",
  path: "/v1/api/channel/{code}",
  tags,
  operationId: "deleteChannel",
  summary: "Delete a channel",
  description:
    "Its customer and customer-group memberships and pricelist assignments go with it. " +
    "A channel named by a trade condition or promotion cannot be deleted: 409 IN_USE naming " +
    "them in `blockers` (each kind with its count and up to 20 ids).",
  request: { params: CodeParams },
  responses: {
    204: { description: "Deleted" },
    ...errors(400, 401, 403, 404, 413),
    ...inUseError("channel WEB-DE", [
      { kind: "tradeCondition", noun: "trade condition", count: 1, ids: [12] },
      { kind: "promotion", noun: "promotion", count: 1, ids: [7] },
    ]),
  },
});

export const customerGroupAssignments = assignmentRoutes({
  owner: "channel",
  path: "/v1/api/channel/{code}/customer-group",
  params: CodeParams,
  body: CustomerGroupCodesSchema,
  tags,
});

export const customerAssignments = assignmentRoutes({
  owner: "channel",
  path: "/v1/api/channel/{code}/customer",
  params: CodeParams,
  body: CustomerCodesSchema,
  tags,
});

export const assignPricelist = createRoute({
  method: "post",
  path: "/v1/api/channel/{code}/pricelist",
  tags,
  operationId: "assignPricelistToChannel",
  summary: "Assign a pricelist to a channel",
  description:
    "Only GENERAL pricelists that are not ARCHIVED can be assigned (INDIVIDUAL or ARCHIVED → 409 " +
    "PRICELIST_NOT_ASSIGNABLE); DRAFT and INACTIVE ones can, and FLOOR ones (the channel's minimum " +
    "prices). Assigning again is a no-op with the same " +
    "answer and keeps an existing primary mark. Unknown channel or pricelist → 404 naming which.",
  request: { params: CodeParams, body: jsonBody(PricelistRefSchema) },
  responses: {
    201: json(ChannelPricelistSchema, "The assignment"),
    ...errors(400, 401, 403, 404, 409, 413, 415),
  },
});

export const setPrimaryPricelist = createRoute({
  method: "put",
  path: "/v1/api/channel/{code}/pricelist/primary",
  tags,
  operationId: "setChannelPrimaryPricelist",
  summary: "Set the primary pricelist of a channel",
  description:
    "Assigns the pricelist to the channel first if needed, then moves the primary mark to it; the " +
    "pricelist that had the mark stays assigned. Atomic. Setting the current primary again is a no-op " +
    "that writes nothing (no audit entry; the pricing version and price ETags stay as they are). " +
    "Only GENERAL SALES pricelists that are not ARCHIVED qualify (INDIVIDUAL, FLOOR or ARCHIVED → " +
    "409 PRICELIST_NOT_ASSIGNABLE). Unknown channel or pricelist → 404 naming which.",
  request: { params: CodeParams, body: jsonBody(PricelistRefSchema) },
  responses: {
    200: json(ChannelWithPrimarySchema, "The channel with its primary pricelist"),
    ...errors(400, 401, 403, 404, 409, 413, 415),
  },
});

export const clearPrimaryPricelist = createRoute({
  method: "delete",
  path: "/v1/api/channel/{code}/pricelist/primary",
  tags,
  operationId: "clearChannelPrimaryPricelist",
  summary: "Remove the primary mark from a channel's pricelist",
  description:
    "The pricelist stays assigned; only the mark goes. A channel without a primary pricelist also " +
    "gets 204, and nothing is written. Unknown channel → 404.",
  request: { params: CodeParams },
  responses: {
    204: { description: "The channel has no primary pricelist now" },
    ...errors(400, 401, 403, 404, 413),
  },
});

// ---- read-outs: what was assigned to the channel ----

export const listPricelists = channelPricelistList.route({
  method: "get",
  path: "/v1/api/channel/{code}/pricelists",
  tags,
  operationId: "listChannelPricelists",
  summary: "Find the pricelists assigned to a channel",
  description:
    "Every pricelist assigned to the channel, SALES and FLOOR, as GET pricelist shows it, plus " +
    "`isPrimary`. Newest first by default; `search` matches the name; filter `scope`, `status`, " +
    "`kind` and `isPrimary`. Unknown channel → 404.",
  request: { params: CodeParams },
  responses: {
    200: json(AssignedPricelistListSchema, "A page of the channel's pricelists"),
    ...errors(400, 401, 404),
  },
});

export const listCustomers = customerList.route({
  method: "get",
  path: "/v1/api/channel/{code}/customers",
  tags,
  operationId: "listChannelCustomers",
  summary: "Find the customers of a channel",
  description:
    "The channel's own customers (`channelCodes` of the customer), as GET customer shows them; " +
    "not expanded through the channel's customer groups (list those with " +
    "…/customer-groups). Newest first by default. Unknown channel → 404.",
  request: { params: CodeParams },
  responses: {
    200: json(CustomerListSchema, "A page of the channel's customers"),
    ...errors(400, 401, 404),
  },
});

export const listCustomerGroups = customerGroupList.route({
  method: "get",
  path: "/v1/api/channel/{code}/customer-groups",
  tags,
  operationId: "listChannelCustomerGroups",
  summary: "Find the customer groups assigned to a channel",
  description:
    "As GET customer-group shows them. Newest first by default; `search` matches code and name. " +
    "Unknown channel → 404.",
  request: { params: CodeParams },
  responses: {
    200: json(CustomerGroupListSchema, "A page of the channel's customer groups"),
    ...errors(400, 401, 404),
  },
});
