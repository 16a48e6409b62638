import type { OpenAPIHono } from "@hono/zod-openapi";

/**
 * Who is writing, copied by the audit triggers (migration 0005) into every entry of a write
 * batch. Read at the moment of the write, so the key name set by authentication and the route
 * that is running are known.
 */
export interface AuditInfo {
  /** The server's id of the request (src/lib/context.ts); never chosen by the client. */
  requestId: string;
  /** The client's own `x-request-id`, when valid: recorded beside the request id, not trusted. */
  correlationId: string | null;
  keyName: string;
  /** The route's OpenAPI operationId, e.g. `upsertPricelistPrices`. */
  operation: string;
  method: string;
  path: string;
  /** The request's claim on an Idempotency-Key (src/lib/idempotency.ts), if it sent one. */
  idempotency?: IdempotencyClaim;
}

/**
 * A request's hold on an `Idempotency-Key`. Every write batch of the request also marks the key
 * COMMITTED (src/lib/db.ts), so a retry can never write a second time.
 */
export interface IdempotencyClaim {
  keyName: string;
  idempotencyKey: string;
  requestId: string;
  /** Set once a write batch carrying the mark has succeeded. */
  committed: boolean;
}

export type AuditSource = () => AuditInfo;

const WRITE_VERB = /^(?:insert|update|delete|replace)\b/i;
const WRITE_IN_CTE = /\b(?:insert|update|delete)\b|\breplace\s+into\b/i;
const LEADING = /^(?:\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)+/;

/**
 * Whether a statement changes rows, by its SQL verb; a `WITH` statement counts when its body
 * inserts, updates or deletes. Errs towards "write": a read taken for a write only costs the
 * audit context rows in its batch, a write taken for a read would go unrecorded.
 */
export function isWriteSql(text: string): boolean {
  const statement = text.replace(LEADING, "");
  if (WRITE_VERB.test(statement)) return true;
  return /^with\b/i.test(statement) && WRITE_IN_CTE.test(statement);
}

/** `POST /v1/api/pricelist/:id/prices` -> operationId, from the app's OpenAPI registry. */
export function operationIndex(registry: OpenAPIHono["openAPIRegistry"]): Map<string, string> {
  const index = new Map<string, string>();
  for (const definition of registry.definitions) {
    if (definition.type !== "route" || !definition.route.operationId) continue;
    const { method, path, operationId } = definition.route;
    // OpenAPI's {param} is Hono's :param.
    index.set(`${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ":$1")}`, operationId);
  }
  return index;
}
