import type { Context } from "hono";
import { seesQuoteMargins } from "../../http/auth";
import type { AppEnv } from "../../http/env";
import type { AppRouteHandler } from "../../http/router";
import { listQuotes } from "./quotes.repo";
import type * as routes from "./quotes.routes";
import {
  acceptQuote,
  answerOf,
  approveQuote,
  createQuote,
  declineQuote,
  getQuotePolicy,
  putQuotePolicy,
  redeemQuote,
  rejectQuote,
  sendQuote,
  submitQuote,
  toQuoteSummary,
  updateQuote,
  withdrawQuote,
  type Caller,
  type QuoteView,
} from "./quotes.service";

/** What the key may see of a quote: margins for admin and sales keys, cost for admin keys. */
const viewOf = (c: { var: AppEnv["Variables"] }): QuoteView => ({
  margin: seesQuoteMargins(c),
  cost: c.var.scope.costs,
  owner: c.var.keyOwner,
});

const callerOf = (c: Context<AppEnv>): Caller => ({
  name: c.var.keyName,
  owner: c.var.keyOwner,
  role: c.var.role,
});

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const page = await listQuotes(c.var.db, c.var.list);
  const view = viewOf(c);
  const rows = page.rows.map((row) => toQuoteSummary(row, view));
  return c.json(c.var.list.envelope(rows, page.total), 200);
};

export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  const id = await createQuote(c.var.db, c.req.valid("json"), callerOf(c));
  return c.json(await answerOf(c.var.db, id, viewOf(c)), 201);
};

export const get: AppRouteHandler<typeof routes.get> = async (c) =>
  c.json(await answerOf(c.var.db, c.req.valid("param").id, viewOf(c)), 200);

export const update: AppRouteHandler<typeof routes.update> = async (c) => {
  const id = await updateQuote(
    c.var.db,
    c.req.valid("param").id,
    c.req.valid("json"),
    c.var.keyOwner,
  );
  return c.json(await answerOf(c.var.db, id, viewOf(c)), 200);
};

export const getPolicy: AppRouteHandler<typeof routes.getPolicy> = async (c) =>
  c.json(await getQuotePolicy(c.var.db), 200);

export const putPolicy: AppRouteHandler<typeof routes.putPolicy> = async (c) =>
  c.json(await putQuotePolicy(c.var.db, c.req.valid("json"), callerOf(c)), 200);

export const submit: AppRouteHandler<typeof routes.submit> = async (c) => {
  const id = await submitQuote(c.var.db, c.req.valid("param").id);
  return c.json(await answerOf(c.var.db, id, viewOf(c)), 200);
};

export const approve: AppRouteHandler<typeof routes.approve> = async (c) => {
  const id = await approveQuote(c.var.db, c.req.valid("param").id, callerOf(c));
  return c.json(await answerOf(c.var.db, id, viewOf(c)), 200);
};

export const reject: AppRouteHandler<typeof routes.reject> = async (c) => {
  const { reason } = c.req.valid("json");
  const id = await rejectQuote(c.var.db, c.req.valid("param").id, reason, callerOf(c));
  return c.json(await answerOf(c.var.db, id, viewOf(c)), 200);
};

export const send: AppRouteHandler<typeof routes.send> = async (c) => {
  const id = await sendQuote(c.var.db, c.req.valid("param").id);
  return c.json(await answerOf(c.var.db, id, viewOf(c)), 200);
};

export const accept: AppRouteHandler<typeof routes.accept> = async (c) => {
  const id = await acceptQuote(c.var.db, c.req.valid("param").id);
  return c.json(await answerOf(c.var.db, id, viewOf(c)), 200);
};

export const decline: AppRouteHandler<typeof routes.decline> = async (c) => {
  const id = await declineQuote(c.var.db, c.req.valid("param").id, c.req.valid("json"));
  return c.json(await answerOf(c.var.db, id, viewOf(c)), 200);
};

export const withdraw: AppRouteHandler<typeof routes.withdraw> = async (c) => {
  const id = await withdrawQuote(c.var.db, c.req.valid("param").id);
  return c.json(await answerOf(c.var.db, id, viewOf(c)), 200);
};

export const redeem: AppRouteHandler<typeof routes.redeem> = async (c) => {
  const { orderRef } = c.req.valid("json");
  const id = await redeemQuote(c.var.db, c.req.valid("param").id, orderRef);
  return c.json(await answerOf(c.var.db, id, viewOf(c)), 200);
};
