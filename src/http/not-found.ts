import type { Context, Hono, MiddlewareHandler } from "hono";
import type { AppEnv } from "./env";
import { ApiError, problemResponse } from "../core/errors";

/** A route's path split at "/", a parameter (`:code`) as null. */
type Segments = (string | null)[];

interface Template {
  segments: Segments;
  /** Where the parameters sit: "0" a literal, "1" a parameter; the smaller, the more specific. */
  rank: string;
  methods: Set<string>;
}

/** The order an Allow header lists methods in. */
const METHOD_ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** The app's route templates by segment count, read once (every route is registered by then). */
function templatesOf(app: Hono<never>): Map<number, Template[]> {
  const byPath = new Map<string, Template>();
  for (const route of app.routes) {
    // `app.use` middleware is "ALL"; a route's own middleware shares its route's method.
    if (route.method === "ALL" || route.path.includes("*")) continue;
    let template = byPath.get(route.path);
    if (!template) {
      const segments = route.path.split("/").map((s) => (s.startsWith(":") ? null : s));
      const rank = segments.map((s) => (s === null ? "1" : "0")).join("");
      template = { segments, rank, methods: new Set() };
      byPath.set(route.path, template);
    }
    template.methods.add(route.method);
    // A GET answers HEAD too (Hono runs the GET and drops the body).
    if (route.method === "GET") template.methods.add("HEAD");
  }
  const bySize = new Map<number, Template[]>();
  for (const template of byPath.values()) {
    const size = template.segments.length;
    bySize.set(size, [...(bySize.get(size) ?? []), template]);
  }
  return bySize;
}

const matches = (template: Template, parts: string[]) =>
  template.segments.every((s, i) => (s === null ? parts[i] !== "" : s === parts[i]));

/**
 * The methods a path allows, or undefined when no route has that path. Where several route
 * templates take the path, the most specific decides, literal segments before parameters (as
 * OpenAPI matches paths): `/v1/api/pricelist/individual` is its own path, never the pricelist
 * with id "individual".
 */
export function allowedMethods(
  templates: Map<number, Template[]>,
  path: string,
): string[] | undefined {
  const parts = path.split("/");
  const found = (templates.get(parts.length) ?? []).filter((t) => matches(t, parts));
  if (!found.length) return undefined;
  const best = found.reduce((a, b) => (b.rank < a.rank ? b : a)).rank;
  const methods = new Set(found.filter((t) => t.rank === best).flatMap((t) => [...t.methods]));
  return METHOD_ORDER.filter((m) => methods.has(m));
}

/**
 * 405 METHOD_NOT_ALLOWED with an `Allow` header for a known path asked with another method,
 * before authentication, rate limits, body reading and idempotency: the answer depends on the
 * path and the method only, so neither a missing key (401), a read key (403), a spent rate limit
 * (429) nor an `Idempotency-Key` can turn it into anything else (docs/api/errors-and-limits.md §7).
 */
export function methodNotAllowed(app: Hono<never>): MiddlewareHandler<AppEnv> {
  let templates: Map<number, Template[]> | undefined;
  return async (c, next) => {
    templates ??= templatesOf(app);
    const allowed = allowedMethods(templates, c.req.path);
    if (allowed && !allowed.includes(c.req.method)) {
      throw new ApiError(
        405,
        "METHOD_NOT_ALLOWED",
        `${c.req.method} is not allowed on ${c.req.path}`,
        undefined,
        { headers: { allow: allowed.join(", ") } },
      );
    }
    await next();
  };
}

/** A path no route has: 404 (a known path with another method never gets here, see above). */
export const notFoundHandler = (c: Context) =>
  problemResponse(c, new ApiError(404, "NOT_FOUND", `no route for ${c.req.method} ${c.req.path}`));
