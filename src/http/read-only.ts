import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import type { AppEnv } from "./env";

/**
 * Route middleware that marks a POST which only reads: the price lookup is a POST only because
 * carts are long. It does nothing when it runs. Authentication and the D1 session choice run
 * app-wide, before any route middleware, but Hono has already matched the request's handlers by
 * then: they look for this one among them (see `isRead`).
 */
export const readOnly: MiddlewareHandler<AppEnv> = async (_c, next) => {
  await next();
};

/**
 * Reads are GET and HEAD, plus the routes marked `readOnly`: a read key may make them, and D1 may
 * serve them from any replica.
 */
export const isRead = (c: Context) =>
  c.req.method === "GET" ||
  c.req.method === "HEAD" ||
  matchedRoutes(c).some((route) => route.handler === readOnly);
