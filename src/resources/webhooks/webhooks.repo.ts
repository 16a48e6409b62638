import { and, count, eq, getTableColumns, sql } from "drizzle-orm";
import { webhookDeliveries, webhooks } from "../../db/schema";
import { readPage, type ListRequest } from "../../list";
import type { Db } from "../../db/client";
import { iso, isoOrNull } from "../../core/schemas";
import type { ChangeEvent } from "../../pricing/vocabulary";

export type WebhookRow = typeof webhooks.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export const toWebhook = (row: WebhookRow) => ({
  id: row.id,
  url: row.url,
  events: JSON.parse(row.events) as ChangeEvent[],
  active: row.active,
  cursor: row.cursor,
  failures: row.failures,
  nextAttemptAt: row.failures ? isoOrNull(row.retryAt) : null,
  pausedAt: isoOrNull(row.pausedAt),
  lastError: row.lastError,
  lastDeliveredAt: isoOrNull(row.lastDeliveredAt),
  previousSecretExpiresAt:
    row.previousSecretExpiresAt !== null && row.previousSecretExpiresAt > Date.now()
      ? iso(row.previousSecretExpiresAt)
      : null,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});

export const toDelivery = (row: DeliveryRow) => ({
  id: row.id,
  deliveryId: row.deliveryId,
  attempt: row.attempt,
  at: iso(row.at),
  fromCursor: row.fromCursor,
  toCursor: row.toCursor,
  changes: row.changes,
  outcome: row.outcome,
  status: row.status,
  error: row.error,
  responseBody: row.responseBody,
  latencyMs: row.latencyMs,
});

export type WebhookValues = Pick<WebhookRow, "url" | "events" | "active" | "secret" | "cursor">;

/**
 * Inserts the webhook while fewer than `max` exist; undefined when `max` do. One INSERT … SELECT
 * guarded by the count, so two creates at once cannot both take the last place. Every column is
 * given, in the table's order (Drizzle checks both): NULL for the id, which SQLite assigns.
 */
export function insertWebhook(db: Db, max: number, values: WebhookValues) {
  const now = Date.now();
  const given: Partial<Record<string, unknown>> = {
    ...values,
    failures: 0,
    createdAt: now,
    updatedAt: now,
  };
  const row = Object.fromEntries(
    Object.entries(getTableColumns(webhooks)).map(([key, column]) => [
      key,
      sql`${given[key] === undefined ? null : sql.param(given[key], column)}`.as(column.name),
    ]),
  );
  return db
    .insert(webhooks)
    .select(
      db
        .select(row)
        .from(sql`(select 1)`)
        .where(sql`(select count(*) from ${webhooks}) < ${max}`) as never,
    )
    .returning()
    .get();
}

export const findWebhook = (db: Db, id: number) =>
  db.select().from(webhooks).where(eq(webhooks.id, id)).get();

export const updateWebhook = (db: Db, id: number, set: Partial<WebhookRow>) =>
  db.update(webhooks).set(set).where(eq(webhooks.id, id)).returning().get();

/** Sets a new secret while the stored one is still `expected`; undefined otherwise. */
export const replaceSecret = (db: Db, id: number, expected: string, set: Partial<WebhookRow>) =>
  db
    .update(webhooks)
    .set(set)
    .where(and(eq(webhooks.id, id), eq(webhooks.secret, expected)))
    .returning()
    .get();

export const deleteWebhook = async (db: Db, id: number) =>
  (await db.delete(webhooks).where(eq(webhooks.id, id)).returning({ id: webhooks.id }).get()) !==
  undefined;

export const listWebhooks = (db: Db, list: ListRequest) =>
  readPage(
    db,
    db
      .select()
      .from(webhooks)
      .where(list.where)
      .orderBy(...list.orderBy)
      .limit(list.limit)
      .offset(list.offset),
    db.select({ n: count() }).from(webhooks).where(list.where),
  );

export function listDeliveries(db: Db, webhookId: number, list: ListRequest) {
  const where = and(eq(webhookDeliveries.webhookId, webhookId), list.where);
  return readPage(
    db,
    db
      .select()
      .from(webhookDeliveries)
      .where(where)
      .orderBy(...list.orderBy)
      .limit(list.limit)
      .offset(list.offset),
    db.select({ n: count() }).from(webhookDeliveries).where(where),
  );
}
