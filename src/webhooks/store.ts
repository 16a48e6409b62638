import { and, eq, isNull, lt, lte, or, sql } from "drizzle-orm";
import { webhookDeliveries, webhooks } from "../db/schema";
import type { Db } from "../db/client";

/*
 * The delivery engine's writes to a webhook's row. Every one that moves delivery state names the
 * lease it holds, so a consumer whose lease lapsed (and was taken over) changes nothing.
 */

export type WebhookRow = typeof webhooks.$inferSelect;
export type DeliveryValues = Omit<typeof webhookDeliveries.$inferInsert, "id" | "webhookId">;

/** How long a consumer may hold a webhook: longer than a run (LEASE_MS > budget + timeout). */
export const LEASE_MS = 60_000;

/** A retry that arrives this early still counts as due (queue delays are not to the millisecond). */
const EARLY_MS = 2_000;

const free = (now: number) => or(isNull(webhooks.leaseUntil), lt(webhooks.leaseUntil, now));
const due = (now: number) => or(isNull(webhooks.retryAt), lte(webhooks.retryAt, now + EARLY_MS));

/** The newest cursor of the feed (0 when nothing was ever written). */
const NEWEST = sql`(select coalesce(max(id), (select seq from sqlite_sequence where name = 'audit_log'), 0) from audit_log)`;

/** Active webhooks that are behind, not in backoff and not being delivered by anyone. */
export const dueWebhooks = async (db: Db, now: number) =>
  (
    await db
      .select({ id: webhooks.id })
      .from(webhooks)
      .where(and(eq(webhooks.active, true), free(now), due(now), lt(webhooks.cursor, NEWEST)))
  ).map((row) => row.id);

/** Whether an active webhook has changes after its cursor. */
export const isBehind = async (db: Db, id: number) =>
  (await db
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(and(eq(webhooks.id, id), eq(webhooks.active, true), lt(webhooks.cursor, NEWEST)))
    .get()) !== undefined;

/** Takes the webhook for one run, when it is active, due and free; undefined otherwise. */
export const claim = (db: Db, id: number, leaseId: string, now: number) =>
  db
    .update(webhooks)
    .set({ leaseId, leaseUntil: now + LEASE_MS })
    .where(and(eq(webhooks.id, id), eq(webhooks.active, true), free(now), due(now)))
    .returning()
    .get();

const held = (id: number, leaseId: string) =>
  and(eq(webhooks.id, id), eq(webhooks.leaseId, leaseId));

export const release = (db: Db, id: number, leaseId: string) =>
  db.update(webhooks).set({ leaseId: null, leaseUntil: null }).where(held(id, leaseId)).run();

/** Moves the webhook's state while the lease is still held; undefined if it was lost. */
export const update = (db: Db, id: number, leaseId: string, set: Partial<WebhookRow>) =>
  db.update(webhooks).set(set).where(held(id, leaseId)).returning().get();

/** An attempt: its row, and the webhook's new state, in one batch. */
export async function recordAttempt(
  db: Db,
  hook: WebhookRow,
  leaseId: string,
  attempt: DeliveryValues,
  set: Partial<WebhookRow>,
) {
  const [, updated] = await db.batch([
    db.insert(webhookDeliveries).values({ ...attempt, webhookId: hook.id }),
    db.update(webhooks).set(set).where(held(hook.id, leaseId)).returning(),
  ]);
  return updated[0];
}

/** A note on a webhook from outside a run (the dead-letter queue). */
export const noteError = (db: Db, id: number, error: string) =>
  db.update(webhooks).set({ lastError: error }).where(eq(webhooks.id, id)).run();
