import { createRoute, type z } from "@hono/zod-openapi";
import { allowWriters, requireAdmin } from "../../http/auth";
import { errors, IdParams, json, jsonBody } from "../../http/openapi";
import { quoteList } from "./quotes.list";
import {
  QuoteCreateSchema,
  QuoteDeclineSchema,
  QuoteListSchema,
  QuotePolicySchema,
  QuotePolicyStateSchema,
  QuoteRedeemSchema,
  QuoteRejectSchema,
  QuoteSchema,
  QuoteUpdateSchema,
} from "./quotes.schemas";

/** The group of this resource's operations in /doc. */
export const tag = {
  name: "Quotes",
  description:
    "Prices a sales rep negotiates for one customer, priced and judged by the engine, approved by authority, sent, and answered by the buyer (docs/quotes.md)",
};

const tags = [tag.name];

const LIFECYCLE =
  "DRAFT —submit→ PENDING_APPROVAL (or APPROVED by `policy` or `envelope`) —approve→ APPROVED " +
  "—send→ SENT —accept→ ACCEPTED —redeem→ REDEEMED (ONCE); reject → DRAFT; decline → DECLINED " +
  "or RENEGOTIATING (a PATCH starts the next revision as DRAFT); withdraw → WITHDRAWN. Reads " +
  "EXPIRED once validTo has passed unless ACCEPTED, DECLINED, WITHDRAWN or REDEEMED: every " +
  "action → 409 QUOTE_EXPIRED. Another action in another status: 409 INVALID_TRANSITION naming " +
  "both (docs/quotes.md §3).";

const VISIBILITY =
  "`marginBp` for admin and sales keys, `costUnitAmount` for admin keys only; a read key sees neither.";

/**
 * Sales keys write quotes; read keys answer them for the buyer (docs/quotes.md §1). `x-roles`
 * says so in /doc: the README's role column and the visibility tests read it.
 */
const salesWrite = (what: string) => ({
  middleware: [allowWriters(what, "sales")],
  "x-roles": ["admin", "sales"],
});
const buyerWrite = (what: string) => ({
  middleware: [allowWriters(what, "read")],
  "x-roles": ["admin", "read"],
});

export const list = quoteList.route({
  method: "get",
  path: "/v1/api/quotes",
  tags,
  operationId: "listQuotes",
  summary: "List quotes",
  description:
    "Newest first by default; sort by id, validTo or createdAt; filter.status (as read: EXPIRED " +
    "included), filter.customerCode. Each without its lines (`lineCount`): GET one for them.",
  responses: { 200: json(QuoteListSchema, "A page of quotes"), ...errors(400, 401) },
});

export const create = createRoute({
  method: "post",
  path: "/v1/api/quotes",
  tags,
  operationId: "createQuote",
  summary: "Create a quote (DRAFT), priced now (admin and sales keys)",
  description:
    "Prices every line as one resolve of the customer in the channel would now, and stores per " +
    "line the regular price, floor, quoted price, line amount, cut and margin and the regular " +
    "price's breakdown. Unknown customer, channel or products and a product named twice: 400 " +
    "naming each; a line that is not OK: 422 LINE_NOT_PRICED; a quoted price under its floor: " +
    "422 BELOW_FLOOR at lines.i.unitAmount; validTo not in the next 366 days: 422 " +
    `VALID_TO_OUT_OF_RANGE. ${VISIBILITY} ${LIFECYCLE}`,
  ...salesWrite("create quotes"),
  request: { body: jsonBody(QuoteCreateSchema) },
  responses: {
    201: json(QuoteSchema, "The new quote"),
    ...errors(400, 401, 403, 404, 409, 413, 415, 422),
  },
});

export const getPolicy = createRoute({
  method: "get",
  path: "/v1/api/quotes/policy",
  tags,
  operationId: "getQuotePolicy",
  summary: "Get the quote policy (admin keys only)",
  description:
    "Auto-approval and the approval tiers in rising authority. Default: no auto-approval and one " +
    "tier ADMIN (any cut, no margin test) that admin keys approve. docs/quotes.md §4.",
  middleware: [requireAdmin("read the quote policy")],
  responses: { 200: json(QuotePolicyStateSchema, "The quote policy"), ...errors(401, 403) },
});

export const putPolicy = createRoute({
  method: "put",
  path: "/v1/api/quotes/policy",
  tags,
  operationId: "putQuotePolicy",
  summary: "Set the quote policy (admin keys only)",
  description:
    "In force at once for every later submit and approve. A tier's approvers are key owners " +
    "(docs/api/access.md §6); tier names unique (else 400).",
  request: { body: jsonBody(QuotePolicySchema) },
  responses: {
    200: json(QuotePolicyStateSchema, "The policy in force"),
    ...errors(400, 401, 403, 413, 415),
  },
});

export const get = createRoute({
  method: "get",
  path: "/v1/api/quotes/{id}",
  tags,
  operationId: "getQuote",
  summary: "Get a quote with its lines and approved revisions",
  description: `${VISIBILITY} ${LIFECYCLE}`,
  request: { params: IdParams },
  responses: { 200: json(QuoteSchema, "The quote"), ...errors(400, 401, 404) },
});

export const update = createRoute({
  method: "patch",
  path: "/v1/api/quotes/{id}",
  tags,
  operationId: "updateQuote",
  summary: "Change a DRAFT or RENEGOTIATING quote, priced again (admin and sales keys)",
  description:
    "Replaces lines, validTo, mode and lock as given and prices every line again (the errors of " +
    "create); the key's owner joins its writers. In RENEGOTIATING it starts the next revision, " +
    "as DRAFT. Another status: 409 INVALID_TRANSITION.",
  ...salesWrite("change quotes"),
  request: { params: IdParams, body: jsonBody(QuoteUpdateSchema) },
  responses: {
    200: json(QuoteSchema, "The changed quote"),
    ...errors(400, 401, 403, 404, 409, 413, 415, 422),
  },
});

type ActionName =
  "submit" | "approve" | "reject" | "send" | "accept" | "decline" | "withdraw" | "redeem";

interface ActionOptions {
  summary: string;
  description: string;
  who: "sales" | "buyer";
  statuses?: 422[];
}

/** What every action shares: its path, id, middleware and answers. */
const actionConfig = (name: ActionName, options: ActionOptions) => ({
  method: "post" as const,
  path: `/v1/api/quotes/{id}/${name}`,
  tags,
  operationId: `${name}Quote`,
  summary: options.summary,
  description: `${options.description} ${LIFECYCLE}`,
  ...(options.who === "sales" ? salesWrite(`${name} quotes`) : buyerWrite(`${name} quotes`)),
  responses: {
    200: json(QuoteSchema, "The quote after the action"),
    // A body-less action reads none, but its size and type are checked before routing.
    ...errors(400, 401, 403, 404, 409, 413, 415, ...(options.statuses ?? [])),
  },
});

const action = (name: ActionName, options: ActionOptions) =>
  createRoute({ ...actionConfig(name, options), request: { params: IdParams } });

const actionWithBody = <B extends z.ZodType>(name: ActionName, options: ActionOptions, body: B) =>
  createRoute({
    ...actionConfig(name, options),
    request: { params: IdParams, body: jsonBody(body) },
  });

const SALES = "Admin and sales keys.";
const BUYER =
  "Admin and read keys (the storefront answers for the buyer); a sales key → 403: the buyer's " +
  "answers are not the rep's to give.";

export const submit = action("submit", {
  summary: "Submit a DRAFT for approval",
  description:
    "Prices the lines again (422 BELOW_FLOOR when a floor rose above a quoted price), then: within " +
    "autoApprove → APPROVED by `policy`; no worse than an approved earlier revision → APPROVED by " +
    "`envelope`; else PENDING_APPROVAL with requiredTier, the first tier it is within; none → " +
    `422 NO_APPROVAL_TIER (it stays DRAFT). ${SALES}`,
  who: "sales",
  statuses: [422],
});

export const approve = action("approve", {
  summary: "Approve a PENDING_APPROVAL quote",
  description:
    "403 SELF_APPROVAL for a key of an owner among its writers (checked first); 403 NOT_AN_APPROVER for a " +
    "sales key whose owner neither requiredTier nor a later tier names (admin keys approve at " +
    "every tier). 409 STALE_QUOTE when a line's regular price or floor changed since the submit: " +
    `the quote is DRAFT again with the new prices. ${SALES}`,
  who: "sales",
});

export const reject = actionWithBody(
  "reject",
  {
    summary: "Reject a PENDING_APPROVAL quote back to DRAFT",
    description: `By the keys that may approve it (403 as approve), with the reason. ${SALES}`,
    who: "sales",
  },
  QuoteRejectSchema,
);

export const send = action("send", {
  summary: "Send an APPROVED quote to the buyer",
  description: `SENT: it never changes again. ${SALES}`,
  who: "sales",
});

export const withdraw = action("withdraw", {
  summary: "Withdraw a quote",
  description: `From DRAFT, PENDING_APPROVAL, APPROVED, SENT or RENEGOTIATING. ${SALES}`,
  who: "sales",
});

export const accept = action("accept", {
  summary: "Accept a SENT quote (the buyer)",
  description: `ACCEPTED. ${BUYER}`,
  who: "buyer",
});

export const decline = actionWithBody(
  "decline",
  {
    summary: "Decline a SENT quote (the buyer), maybe to renegotiate",
    description: `DECLINED, or RENEGOTIATING with renegotiate: true. ${BUYER}`,
    who: "buyer",
  },
  QuoteDeclineSchema,
);

export const redeem = actionWithBody(
  "redeem",
  {
    summary: "Redeem an ACCEPTED ONCE quote with its order",
    description: `REDEEMED with orderRef; again → 409 QUOTE_REDEEMED; an AGREEMENT → 409 INVALID_TRANSITION. ${BUYER}`,
    who: "buyer",
  },
  QuoteRedeemSchema,
);
