import { createRoute } from "@hono/zod-openapi";
import { errors, IdParams, json, jsonBody, tooManyError, withRules } from "../../http/openapi";
import { keyBusy, SIMULATION_LIMITS } from "../simulations/simulations.service";
import { changeRequestList } from "./change-requests.list";
import {
  ChangeRequestCreateSchema,
  ChangeRequestListSchema,
  ChangeRequestRejectSchema,
  ChangeRequestSchema,
  ChangeRequestUpdateSchema,
} from "./change-requests.schemas";
import { PolicySchema, PolicyStateSchema } from "./change-requests.policy.schemas";

/** The group of this resource's operations in /doc. */
export const tag = {
  name: "Change requests",
  description:
    "Price changes prepared, checked for their impact, approved by a second key and applied on a date (admin keys only)",
};

const tags = [tag.name];

const LIFECYCLE =
  "DRAFT —submit→ PENDING_APPROVAL (or APPLIED when the approval policy allows it) —approve→ " +
  "APPLIED; reject → REJECTED; withdraw (DRAFT, PENDING_APPROVAL) and cancel (APPLIED, before " +
  "effectiveAt) → CANCELLED. Another action in another status: 409 INVALID_TRANSITION naming both " +
  "(docs/api/change-requests.md §17.2).";

export const list = changeRequestList.route({
  method: "get",
  path: "/v1/api/change-requests",
  tags,
  operationId: "listChangeRequests",
  summary: "List change requests (admin keys only)",
  description:
    "Newest first by default; sort by id or effectiveAt, filter.status. Each without its items " +
    "(`itemCount` says how many): GET one for them.",
  responses: {
    200: json(ChangeRequestListSchema, "A page of change requests"),
    ...errors(400, 401, 403),
  },
});

export const create = createRoute({
  method: "post",
  path: "/v1/api/change-requests",
  tags,
  operationId: "createChangeRequest",
  summary: "Create a change request (DRAFT)",
  description: withRules(
    "1-100 items (SET_PRICES, ADJUST_PRICES, ACTIVATE, DEACTIVATE), at most 10,000 price rows in " +
      "all, made in order at effectiveAt (an instant not in the past, or null: when applied). " +
      "Unknown pricelists, products, product groups and records: 400 naming each. The key that " +
      "creates it is its author. " +
      LIFECYCLE,
    "effectiveAt",
    "rounding",
  ),
  request: { body: jsonBody(ChangeRequestCreateSchema) },
  responses: {
    201: json(ChangeRequestSchema, "The new change request"),
    ...errors(400, 401, 403, 413, 415),
  },
});

export const getPolicy = createRoute({
  method: "get",
  path: "/v1/api/change-requests/policy",
  tags,
  operationId: "getChangeRequestPolicy",
  summary: "Get the approval policy (admin keys only)",
  description:
    "The limits in force, who set and approved them, and a change waiting for approval. Both " +
    "limits null (the default): every request needs an approver. docs/api/change-requests.md §17.4.",
  responses: { 200: json(PolicyStateSchema, "The approval policy"), ...errors(401, 403) },
});

export const putPolicy = createRoute({
  method: "put",
  path: "/v1/api/change-requests/policy",
  tags,
  operationId: "putChangeRequestPolicy",
  summary: "Set the approval policy (a loosening waits for a second owner)",
  description:
    "A request is approved at submit by `policy` when both limits are set, its impact's " +
    "maxRaiseBp and maxCutBp are within them and it omitted nothing; null turns a limit off. " +
    "Limits approving no more than those in force apply at once (200); others wait for an " +
    "admin key of another owner (202, `proposal`). docs/api/change-requests.md §17.4.",
  request: { body: jsonBody(PolicySchema) },
  responses: {
    200: json(PolicyStateSchema, "The limits are in force"),
    202: json(PolicyStateSchema, "The limits wait for approval by another owner (`proposal`)"),
    ...errors(400, 401, 403, 409, 413, 415),
  },
});

export const approvePolicy = createRoute({
  method: "post",
  path: "/v1/api/change-requests/policy/approve",
  tags,
  operationId: "approveChangeRequestPolicy",
  summary: "Approve the waiting change of the approval policy",
  description:
    "With the proposal's limits as body (else 409 POLICY_PROPOSAL_CHANGED; none: 409 " +
    "NO_POLICY_PROPOSAL), by a key of another owner than the proposer's (else 403 SELF_APPROVAL).",
  request: { body: jsonBody(PolicySchema) },
  responses: {
    200: json(PolicyStateSchema, "The approved limits are in force"),
    ...errors(400, 401, 403, 409, 413, 415),
  },
});

export const get = createRoute({
  method: "get",
  path: "/v1/api/change-requests/{id}",
  tags,
  operationId: "getChangeRequest",
  summary: "Get a change request with its items and impact (admin keys only)",
  description: LIFECYCLE,
  request: { params: IdParams },
  responses: {
    200: json(ChangeRequestSchema, "The change request"),
    ...errors(400, 401, 403, 404),
  },
});

export const update = createRoute({
  method: "patch",
  path: "/v1/api/change-requests/{id}",
  tags,
  operationId: "updateChangeRequest",
  summary: "Change a DRAFT change request",
  description: withRules(
    "title, effectiveAt, items (replacing every item). Only while DRAFT: else 409 " +
      "INVALID_TRANSITION. A key that changes it may not approve it either.",
    "effectiveAt",
    "rounding",
  ),
  request: { params: IdParams, body: jsonBody(ChangeRequestUpdateSchema) },
  responses: {
    200: json(ChangeRequestSchema, "The changed request"),
    ...errors(400, 401, 403, 404, 409, 413, 415),
  },
});

type ActionName = "submit" | "approve" | "withdraw" | "cancel";

/**
 * An action's route. Its words and its own answers (`responses`, beside the generic ones) are in
 * one object, as createRoute takes them, which the Worker's source leaves out with the rest of
 * /doc (scripts/lib/worker-source.mjs).
 */
const action = (
  name: ActionName,
  words: {
    summary: string;
    description: string;
    responses?: Partial<ReturnType<typeof tooManyError>>;
  },
) =>
  createRoute({
    method: "post",
    path: `/v1/api/change-requests/{id}/${name}`,
    tags,
    operationId: `${name}ChangeRequest`,
    summary: words.summary,
    description: `${words.description} ${LIFECYCLE}`,
    request: { params: IdParams },
    responses: {
      200: json(ChangeRequestSchema, "The change request after the action"),
      // A body is not read, but its size and type are checked before routing.
      ...errors(400, 401, 403, 404, 409, 413, 415),
      ...words.responses,
    },
  });

export const submit = action("submit", {
  summary: "Submit a DRAFT: its impact, then approval",
  description:
    "Computes and stores the impact (the publish simulation of the items at effectiveAt, " +
    "docs/api/change-requests.md §17.3); APPLIED at once when the approval policy allows it, else " +
    "PENDING_APPROVAL. 409 EFFECTIVE_IN_PAST when effectiveAt has passed; 400 naming an item " +
    "that names what no longer exists or cannot change then. The impact is a publish " +
    "simulation and counts as one: 429 TOO_MANY_SIMULATIONS while a simulation (or a submit) " +
    "of the same key runs, or as many as a server instance runs at once.",
  responses: tooManyError(
    "TOO_MANY_SIMULATIONS: a simulation or submit of this API key is still running, or as many " +
      `as a server instance runs at once (${SIMULATION_LIMITS.perIsolate}); or RATE_LIMITED: ` +
      "the key's write limit is used up. Retry after the Retry-After seconds",
    keyBusy(),
  ),
});

export const approve = action("approve", {
  summary: "Approve and apply a PENDING_APPROVAL request",
  description:
    "Writes everything in one batch dated effectiveAt. 403 SELF_APPROVAL with a key of an owner " +
    "that wrote it (a rotated key is still its owner's); 409 STALE_CHANGE_REQUEST when a record or price it touches, or any price of its " +
    "impact (rates, derived lists, trade conditions, promotions, floors, costs in its " +
    "channels), changed after the submit, and 409 EFFECTIVE_IN_PAST when effectiveAt has " +
    "passed: both send it back to DRAFT. Approve computes the impact again to know, so it " +
    "counts as a simulation like submit: 429 TOO_MANY_SIMULATIONS.",
  responses: tooManyError(
    "TOO_MANY_SIMULATIONS: a simulation, submit or approve of this API key is still running, " +
      `or as many as a server instance runs at once (${SIMULATION_LIMITS.perIsolate}); or ` +
      "RATE_LIMITED: the key's write limit is used up. Retry after the Retry-After seconds",
    keyBusy(),
  ),
});

export const reject = createRoute({
  method: "post",
  path: "/v1/api/change-requests/{id}/reject",
  tags,
  operationId: "rejectChangeRequest",
  summary: "Reject a PENDING_APPROVAL request",
  description: `With a reason for the author. ${LIFECYCLE}`,
  request: { params: IdParams, body: jsonBody(ChangeRequestRejectSchema) },
  responses: {
    200: json(ChangeRequestSchema, "The change request after the action"),
    ...errors(400, 401, 403, 404, 409, 413, 415),
  },
});

export const withdraw = action("withdraw", {
  summary: "Withdraw a DRAFT or PENDING_APPROVAL request",
  description: "Nothing was written; it becomes CANCELLED.",
});

export const cancel = action("cancel", {
  summary: "Cancel an APPLIED request before its effectiveAt",
  description:
    "Restores exactly what was there: the rows it inserted deleted, the rows it cut given their " +
    "validTo back, the records it changed as they were. From effectiveAt on: 409 " +
    "ALREADY_EFFECTIVE; rows or records of it changed since by other writes: 409, nothing restored.",
});
