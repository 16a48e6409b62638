import { is } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import * as schema from "./schema";
import { entityName, NOT_AUDITED } from "./schema/audited";

/**
 * Who is writing, copied by the audit triggers (migration 0005) into every entry of a write
 * batch. Read at the moment of the write, so the key name set by authentication and the route
 * that is running are known.
 */
export interface AuditInfo {
  /** The server's id of the request (src/http/context.ts); never chosen by the client. */
  requestId: string;
  /** The client's own `x-request-id`, when valid: recorded beside the request id, not trusted. */
  correlationId: string | null;
  keyName: string;
  /** The route's OpenAPI operationId, e.g. `upsertPricelistPrices`. */
  operation: string;
  method: string;
  path: string;
  /** The request's claim on an Idempotency-Key (src/http/idempotency.ts), if it sent one. */
  idempotency?: IdempotencyClaim;
}

/**
 * A request's hold on an `Idempotency-Key`. Every write batch of the request also marks the key
 * COMMITTED (src/db/client.ts), so a retry can never write a second time.
 */
export interface IdempotencyClaim {
  keyName: string;
  idempotencyKey: string;
  requestId: string;
  /** Set once a write batch carrying the mark has succeeded and changed a row. */
  committed: boolean;
  /**
   * The body replays answer instead of the answer's own, when that holds what is shown once (a
   * webhook's secret): the store keeps only this (src/http/idempotency.ts `replayAs`).
   */
  replay?: string;
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

/** Every audited table (all of the schema's but NOT_AUDITED), by name. */
export const AUDITED_TABLES = (Object.values(schema) as unknown[])
  .filter((value): value is SQLiteTable => is(value, SQLiteTable))
  .map((table) => getTableConfig(table).name)
  .filter((name) => !NOT_AUDITED.has(name))
  .sort();

/**
 * The entity names the audit trail files the entries of the audited tables under
 * (`customerGroupMember`): the pricing data, each also in the change feed.
 */
export const AUDIT_ENTITIES = AUDITED_TABLES.map(entityName);

/**
 * Entities the audit trail also records, by hand-written triggers that leave columns out: the
 * webhooks' settings (migration 0019, never their secrets). They are no pricing data, so the
 * change feed leaves them out (src/feed/read.ts).
 */
export const SETTINGS_ENTITIES = ["webhook"] as const;

export { entityName };
