import type { Context } from "hono";
import type { Hono } from "hono";
import { ApiError, problemResponse } from "../core/errors";

/**
 * Hono answers an unmatched method with notFound; a known path with another method is a 405
 * with an Allow header. Route patterns are read once from the app.
 */
export function notFoundHandler(app: Hono<never>) {
  let patterns: { regex: RegExp; method: string }[] | undefined;
  return (c: Context) => {
    patterns ??= app.routes
      .filter((r) => r.method !== "ALL")
      .map((r) => ({
        method: r.method,
        regex: new RegExp(`^${r.path.replace(/:[^/]+/g, "[^/]+").replace(/\*/g, ".*")}$`),
      }));
    const allowed = [
      ...new Set(patterns.filter((p) => p.regex.test(c.req.path)).map((p) => p.method)),
    ];
    if (allowed.length) {
      return problemResponse(
        c,
        new ApiError(
          405,
          "METHOD_NOT_ALLOWED",
          `${c.req.method} is not allowed on ${c.req.path}`,
          undefined,
          { headers: { allow: allowed.join(", ") } },
        ),
      );
    }
    return problemResponse(
      c,
      new ApiError(404, "NOT_FOUND", `no route for ${c.req.method} ${c.req.path}`),
    );
  };
}
