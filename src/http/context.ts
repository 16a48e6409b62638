import type { RouteDefinition } from "./router";
import type { Context, MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { AuditSource } from "../db/audit";
import { createDb, d1DelayMs, DbMeter } from "../db/client";
import type { AppEnv } from "./env";
import { isRead } from "./read-only";

/** What a client's `x-request-id` must be to be kept as its correlation id. */
const CORRELATION_ID = /^[\x21-\x7e]{1,128}$/;

/** Answers the client's valid `x-request-id`; `x-request-id` itself is always the server's. */
export const CORRELATION_HEADER = "x-correlation-id";

/** Carries a D1 Sessions bookmark between requests, both ways (the name D1's own examples use). */
export const BOOKMARK_HEADER = "x-d1-bookmark";

/**
 * What D1 hands out: dash-separated lowercase hex groups (`00000000-0000000b-00000000-<32 hex>`).
 * The pattern is a little wider than today's shape so a longer group does not break clients;
 * anything else is ignored (see `sessionStart`).
 */
const BOOKMARK = /^(?=[0-9a-f-]{3,128}$)[0-9a-f]+(?:-[0-9a-f]+)+$/;

/**
 * Where this request's D1 session starts. A well-formed bookmark from the client continues its
 * session: D1 serves the reads from a replica at least as new as that bookmark, so a client that
 * sends back what it last received reads its own writes. Without one, reads may go to any
 * replica (`first-unconstrained`) and writes start on the primary (`first-primary`). A malformed
 * bookmark is ignored rather than refused: it only ever asks for fresher data, a request must
 * not fail over it, and the response carries a valid bookmark the client can use instead.
 */
export function sessionStart(read: boolean, bookmark: string | undefined) {
  if (bookmark && BOOKMARK.test(bookmark)) return { constraint: bookmark, bookmark };
  const constraint = read ? "first-unconstrained" : "first-primary";
  return { constraint, bookmark: undefined };
}

/**
 * The OpenAPI operationId of a route, by method and Hono route pattern (`/v1/api/product/:code`).
 */
export type OperationOf = (method: string, route: string) => string | undefined;

/**
 * The client's `x-request-id` when it is 1-128 visible ASCII characters: its own reference for
 * the request, recorded and answered as the correlation id. Never the request id: a client could
 * then file its writes under another request's id in the audit trail.
 */
export function correlationId(header: string | undefined): string | undefined {
  return header !== undefined && CORRELATION_ID.test(header) ? header : undefined;
}

/**
 * Request id (always made here), the client's correlation id, the metered database handle on a
 * D1 session (recording every write in the audit trail), and the headers every response carries.
 */
export const requestContext =
  (operationOf: OperationOf = () => undefined): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const requestId = crypto.randomUUID();
    const correlation = correlationId(c.req.header("x-request-id"));
    const meter = new DbMeter(d1DelayMs(c.env.D1_DELAY_MS));
    const start = sessionStart(isRead(c), c.req.header(BOOKMARK_HEADER));
    const session = c.env.DB.withSession(start.constraint);
    c.set("requestId", requestId);
    c.set("meter", meter);
    // Read when a write happens: by then authentication has named the key and a route is running.
    const audit: AuditSource = () => {
      const route = routePath(c);
      return {
        requestId,
        correlationId: correlation ?? null,
        keyName: c.get("keyName") ?? "unknown",
        idempotency: c.get("idempotency"),
        operation: operationOf(c.req.method, route) ?? `${c.req.method} ${route}`,
        method: c.req.method,
        path: c.req.path,
      };
    };
    c.set("db", createDb(session, meter, audit));
    await next();
    c.header("x-request-id", requestId);
    if (correlation) c.header(CORRELATION_HEADER, correlation);
    c.header("server-timing", meter.serverTiming());
    // After errors too: a failed write still tells the client how far its session got.
    const bookmark =
      session.getBookmark() ?? start.bookmark ?? (await sessionBookmark(c, session, meter));
    if (bookmark) c.header(BOOKMARK_HEADER, bookmark);
  };

/**
 * The bookmark of an answer that made no successful D1 query and was sent none (a body the
 * schema refused, a unique violation's failed batch): one `select 1` on the session asks D1 for
 * it, so every answer to a key carries `x-d1-bookmark` (docs/api/access.md §10). Only for an
 * authenticated key (a request without one costs D1 nothing), and never an error of its own.
 * None while a round trip of the request is still out: a lookup answered through a D1 stall
 * (docs/api/prices.md §9.1) would otherwise wait for D1 after all, behind that round trip.
 */
async function sessionBookmark(
  c: Context<AppEnv>,
  session: D1DatabaseSession,
  meter: DbMeter,
): Promise<string | undefined> {
  if (!c.get("keyName") || meter.inFlight > 0) return undefined;
  try {
    await meter.time(() => session.prepare("select 1").first());
    return session.getBookmark() ?? undefined;
  } catch {
    return undefined;
  }
}

/** `POST /v1/api/pricelist/:id/prices` -> operationId, from the app's route definitions. */
export function operationIndex(definitions: readonly RouteDefinition[]): Map<string, string> {
  const index = new Map<string, string>();
  for (const { method, path, operationId } of definitions) {
    if (!operationId) continue;
    // OpenAPI's {param} is Hono's :param.
    index.set(`${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ":$1")}`, operationId);
  }
  return index;
}
