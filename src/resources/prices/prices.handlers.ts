import type { Context } from "hono";
import type { Visibility } from "../../db/visibility";
import type { AppEnv } from "../../http/env";
import type { AppRouteHandler } from "../../http/router";
import { contextCacheEnabled, type PricingReadOptions } from "../../db/pricing/reader";
import { stallPolicy } from "../../db/pricing/stall";
import { resolvePrices } from "../../pricing";
import {
  answerTag,
  cacheControl,
  changesAt,
  isNotModified,
  STALE_HEADER,
  staleMark,
} from "./prices.cache";
import type { PriceLookup } from "./prices.schemas";
import { selectLines } from "./prices.select";
import { prepareCart, priceCart, type CartRequest } from "./prices.service";
import type * as routes from "./prices.routes";

/** Work that outlives the answer: in the request's waitUntil when it has an execution context. */
function background(c: Context<AppEnv>, work: Promise<unknown>) {
  try {
    c.executionCtx.waitUntil(work);
  } catch {
    // No execution context (app.request in a script): the work still runs, unawaited.
  }
}

/**
 * The channel context cache as configured, its use reported in Server-Timing (`ctx`), and how a
 * lookup answers through a D1 stall (D1_STALL_MS, D1_STALE_MAX_S; docs/api/prices.md §9.1).
 */
const pricing = (c: Context<AppEnv>): PricingReadOptions => ({
  cache: contextCacheEnabled(c.env.PRICE_CONTEXT_CACHE),
  onContext: (status) => c.var.meter.note("ctx", status),
  stall: stallPolicy(c.env, (work) => background(c, work)),
});

/** A stale answer says how old its data is and is kept by no cache (docs/api/prices.md §9.1). */
function markStale(c: Context<AppEnv>, staleMs: number) {
  c.header(STALE_HEADER, staleMark(staleMs));
  c.header("cache-control", "no-store");
}

export const resolve: AppRouteHandler<typeof routes.resolve> = async (c) => {
  const body = c.req.valid("json");
  // Cost and margin for admin keys only (docs/api/access.md §18).
  const cart: CartRequest = { ...body, scope: c.var.scope, location: "body" };
  const { answer, staleMs } = await priceCart(c.var.db, cart, pricing(c));
  if (staleMs !== undefined) markStale(c, staleMs);
  return c.json(selectLines(answer, cart), 200);
};

/** The GET lookup's query, validated by its schema (limits included), as a cart. */
const lookupCart = (query: PriceLookup, scope: Visibility): CartRequest => ({
  channelCode: query.channel,
  customerCode: query.customer || undefined,
  currency: query.currency,
  at: query.at,
  explain: query.explain === "true",
  ladder: query.ladder === "true",
  scope,
  lines: query.product.map((productCode) => ({ productCode, quantity: query.quantity ?? 1 })),
  // `select=` with nothing in it selects nothing: every field, as without it.
  select: query.select?.length ? query.select : undefined,
  location: "query",
});

export const lookup: AppRouteHandler<typeof routes.lookup> = async (c) => {
  const cart = lookupCart(c.req.valid("query"), c.var.scope);
  const { request, version, staleMs } = await prepareCart(c.var.db, cart, pricing(c));
  if (staleMs !== undefined) {
    // No ETag and no 304: the tag would promise the answer of a version D1 may have left.
    markStale(c, staleMs);
    c.var.meter.note("engine", "ran");
    return c.json(selectLines(resolvePrices(request), cart), 200);
  }
  // The tag and the lifetime are known before the engine runs: a 304 prices nothing.
  const until = changesAt(request);
  const tag = await answerTag(version, cart, until);
  c.header("etag", tag);
  c.header("cache-control", cacheControl(cart, request.at, until));
  const modified = !isNotModified(c.req.valid("header")["if-none-match"], tag);
  c.var.meter.note("engine", modified ? "ran" : "skipped");
  return modified ? c.json(selectLines(resolvePrices(request), cart), 200) : c.body(null, 304);
};
