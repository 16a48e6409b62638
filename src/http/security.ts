import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { API_KEY_HEADER } from "./auth";
import { BOOKMARK_HEADER, CORRELATION_HEADER } from "./context";
import type { AppEnv } from "./env";
import { IDEMPOTENCY_HEADER } from "./idempotency";
import { ApiError, incompleteBody } from "../core/errors";

const API_PREFIX = "/v1/api/";
/** The API reference page sets its own CSP (frame-ancestors 'none'); its headers are its own. */
const isUiPage = (path: string) => path === "/ui" || path === "/ui/";

/**
 * Headers on every response, errors included: no MIME sniffing, no referrer, no framing (except
 * the /ui page, which governs itself with its CSP), and `cache-control: no-store` on every API
 * answer that did not choose its own caching (today only GET /v1/api/prices does), so no shared
 * cache or browser keeps authenticated data.
 */
export const securityHeaders = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  await next();
  c.header("x-content-type-options", "nosniff");
  c.header("referrer-policy", "no-referrer");
  if (!isUiPage(c.req.path)) c.header("x-frame-options", "DENY");
  if (c.req.path.startsWith(API_PREFIX) && !c.res.headers.has("cache-control")) {
    c.header("cache-control", "no-store");
  }
};

/** `https://a.example, https://b.example` -> the exact origins, cached per configured value. */
let parsed: { source: string; origins: Set<string> } | undefined;
export function allowedOrigins(source: string | undefined): Set<string> {
  const text = source ?? "";
  if (parsed?.source !== text) {
    const origins = text
      .split(",")
      .map((origin) => origin.trim().replace(/\/+$/, ""))
      .filter((origin) => origin !== "");
    parsed = { source: text, origins: new Set(origins) };
  }
  return parsed.origins;
}

const corsForListed = cors({
  // Reached only for a listed origin (see corsFromEnv), which is echoed.
  origin: (origin) => origin,
  allowMethods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"],
  allowHeaders: [
    API_KEY_HEADER,
    "content-type",
    "x-request-id",
    BOOKMARK_HEADER,
    "if-none-match",
    IDEMPOTENCY_HEADER,
  ],
  exposeHeaders: [
    "x-request-id",
    "idempotent-replayed",
    CORRELATION_HEADER,
    BOOKMARK_HEADER,
    "server-timing",
    "etag",
    "retry-after",
    "allow",
    // A price answered through a D1 stall (src/resources/prices/prices.cache.ts STALE_HEADER).
    "x-price-stale",
  ],
  maxAge: 600,
});

/**
 * CORS only when `CORS_ORIGINS` lists origins (comma-separated, exact `scheme://host[:port]`),
 * and then only for those: a listed origin gets CORS headers and its preflight answered (before
 * authentication, since a preflight carries no key); any other origin gets no CORS header at all,
 * and its preflight is an ordinary request with a method no path takes (405). Unset or empty: no CORS, so
 * browsers on other origins cannot call the API.
 */
export const corsFromEnv = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const allowed = allowedOrigins(c.env.CORS_ORIGINS);
  if (allowed.size === 0) return next();
  const origin = c.req.header("origin");
  if (origin && allowed.has(origin)) return corsForListed(c, next);
  await next();
  // Answers differ by origin once CORS is on: caches must keep them apart.
  c.header("vary", "Origin", { append: true });
};

export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Bodies over 1 MiB are refused before they are read, whatever the route. A chunked body is read
 * here to count it: an upload cut off while it is read is the client's doing, a 400 and not a
 * logged 500, and no route runs.
 */
export const limitBodySize = (): MiddlewareHandler<AppEnv> => {
  const limit = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw new ApiError(413, "PAYLOAD_TOO_LARGE", "the request body is larger than 1 MiB");
    },
  });
  return async (c, next) => {
    try {
      return await limit(c, next);
    } catch (err) {
      if (err instanceof ApiError) throw err;
      throw incompleteBody();
    }
  };
};
