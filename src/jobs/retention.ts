import { lt, sql } from "drizzle-orm";
import { auditLog, idempotencyKeys, webhookDeliveries } from "../db/schema";
import type { Db } from "../db/client";
import { IDEMPOTENCY_TTL_MS } from "../db/idempotency";

/**
 * What the scheduled clean-up keeps (docs/operations.md, "Retention"): audit entries for
 * AUDIT_RETENTION_DAYS (400 by default: a year and a quarter, so last year's price history can
 * still be explained), idempotency keys for 24 hours. One changed price is one audit row, so
 * without this the table only grows.
 */
export const DEFAULT_AUDIT_RETENTION_DAYS = 400;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Webhook delivery attempts (GET /v1/api/webhooks/{id}/deliveries) are kept for 30 days. */
export const DELIVERY_RETENTION_DAYS = 30;

/** Rows per DELETE and DELETEs per run: each statement stays short, a run stays bounded. */
export const RETENTION_BATCH = 5_000;
export const RETENTION_MAX_BATCHES = 40;

/** A positive whole number of days from the variable, else the default (a typo must not delete everything). */
export function retentionDays(value: string | undefined): number {
  const days = Number(value);
  return Number.isInteger(days) && days > 0 ? days : DEFAULT_AUDIT_RETENTION_DAYS;
}

async function deleteInBatches(db: Db, statement: () => Promise<number>): Promise<number> {
  let total = 0;
  for (let i = 0; i < RETENTION_MAX_BATCHES; i++) {
    const deleted = await statement();
    total += deleted;
    if (deleted < RETENTION_BATCH) break;
  }
  return total;
}

/**
 * Deletes audit entries older than the retention, expired idempotency keys and webhook delivery
 * attempts older than DELIVERY_RETENTION_DAYS; returns the counts.
 */
export async function applyRetention(db: Db, now: number, auditDays: number) {
  const auditCutoff = now - auditDays * DAY_MS;
  const keyCutoff = now - IDEMPOTENCY_TTL_MS;
  const audit = await deleteInBatches(db, async () => {
    const result = await db.run(
      sql`delete from ${auditLog} where ${auditLog.id} in (select ${auditLog.id} from ${auditLog}
        where ${lt(auditLog.at, auditCutoff)} order by ${auditLog.id} limit ${RETENTION_BATCH})`,
    );
    return result.meta.changes ?? 0;
  });
  const keys = await deleteInBatches(db, async () => {
    const result = await db.run(
      sql`delete from ${idempotencyKeys} where rowid in (select rowid from ${idempotencyKeys}
        where ${lt(idempotencyKeys.createdAt, keyCutoff)} limit ${RETENTION_BATCH})`,
    );
    return result.meta.changes ?? 0;
  });
  const deliveryCutoff = now - DELIVERY_RETENTION_DAYS * DAY_MS;
  const deliveries = await deleteInBatches(db, async () => {
    const result = await db.run(
      sql`delete from ${webhookDeliveries} where ${webhookDeliveries.id} in (select ${webhookDeliveries.id}
        from ${webhookDeliveries} where ${lt(webhookDeliveries.at, deliveryCutoff)} limit ${RETENTION_BATCH})`,
    );
    return result.meta.changes ?? 0;
  });
  return { auditEntries: audit, idempotencyKeys: keys, webhookDeliveries: deliveries };
}
