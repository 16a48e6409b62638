import type { Context } from "hono";
import type { AppEnv } from "../../lib/http/env";
import type { AppRouteHandler } from "../../lib/http/router";
import { answerTag, cacheControl, isNotModified } from "./prices.cache";
import { contextCacheEnabled } from "./prices.context-cache";
import type { PriceLookup } from "./prices.schemas";
import { priceCart, type CartRequest, type PricingOptions } from "./prices.service";
import type * as routes from "./prices.routes";

/** The channel context cache as configured, its use reported in Server-Timing (`ctx`). */
const pricing = (c: Context<AppEnv>): PricingOptions => ({
  cache: contextCacheEnabled(c.env.PRICE_CONTEXT_CACHE),
  onContext: (status) => c.var.meter.note("ctx", status),
});

export const resolve: AppRouteHandler<typeof routes.resolve> = async (c) => {
  const body = c.req.valid("json");
  const { answer } = await priceCart(c.var.db, { ...body, location: "body" }, pricing(c));
  return c.json(answer, 200);
};

/** The GET lookup's query, validated by its schema (limits included), as a cart. */
const lookupCart = (query: PriceLookup): CartRequest => ({
  channelCode: query.channel,
  customerCode: query.customer || undefined,
  currency: query.currency,
  at: query.at,
  explain: query.explain === "true",
  lines: query.product.map((productCode) => ({ productCode, quantity: query.quantity ?? 1 })),
  location: "query",
});

export const lookup: AppRouteHandler<typeof routes.lookup> = async (c) => {
  const cart = lookupCart(c.req.valid("query"));
  const { answer, version } = await priceCart(c.var.db, cart, pricing(c));
  const tag = await answerTag(version, cart, answer);
  c.header("etag", tag);
  c.header("cache-control", cacheControl(cart, answer));
  if (isNotModified(c.req.valid("header")["if-none-match"], tag)) return c.body(null, 304);
  return c.json(answer, 200);
};
