import { and, eq } from "drizzle-orm";
import { idempotencyKeys } from "./schema";
import type { IdempotencyClaim } from "./audit";
import type { Db } from "./client";

/**
 * The idempotency store (docs/api/resources.md "Idempotent retries"): one row per API key name and
 * `Idempotency-Key`, claimed PENDING, moved to COMMITTED by the write batch that carries the
 * claim (src/db/client.ts), DONE with the stored answer. The middleware that uses it is
 * src/http/idempotency.ts.
 */

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A claim not moved for this long belongs to a request that died before writing. */
export const ABANDONED_AFTER_MS = 60_000;

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;

export type Decision =
  | { kind: "replay"; row: IdempotencyRow }
  | { kind: "reused" }
  | { kind: "wait" }
  | { kind: "expired" }
  | { kind: "abandoned" }
  | { kind: "lost"; requestId: string };

/** What an existing row means for a request with `fingerprint` at `now`. Pure. */
export function decide(row: IdempotencyRow, fingerprint: string, now: number): Decision {
  if (now - row.createdAt >= IDEMPOTENCY_TTL_MS) return { kind: "expired" };
  if (row.fingerprint !== fingerprint) return { kind: "reused" };
  if (row.state === "DONE") return { kind: "replay", row };
  if (now - row.updatedAt < ABANDONED_AFTER_MS) return { kind: "wait" };
  return row.state === "PENDING"
    ? { kind: "abandoned" }
    : { kind: "lost", requestId: row.requestId };
}

const where = (keyName: string, key: string) =>
  and(eq(idempotencyKeys.keyName, keyName), eq(idempotencyKeys.idempotencyKey, key));

/** Claims the key (one round trip); the row that holds it otherwise. */
export async function tryClaim(db: Db, claim: IdempotencyClaim, fingerprint: string) {
  const now = Date.now();
  const [inserted, rows] = await db.batch([
    db
      .insert(idempotencyKeys)
      .values({
        keyName: claim.keyName,
        idempotencyKey: claim.idempotencyKey,
        fingerprint,
        requestId: claim.requestId,
        state: "PENDING",
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning({ requestId: idempotencyKeys.requestId }),
    db.select().from(idempotencyKeys).where(where(claim.keyName, claim.idempotencyKey)),
  ]);
  return inserted.length > 0 ? undefined : rows[0];
}

/** Removes a row that is past its use (expired, or abandoned by a request that died), guarded by what was read. */
export const clearClaim = (db: Db, row: IdempotencyRow) =>
  db
    .delete(idempotencyKeys)
    .where(
      and(
        where(row.keyName, row.idempotencyKey),
        eq(idempotencyKeys.requestId, row.requestId),
        eq(idempotencyKeys.updatedAt, row.updatedAt),
      ),
    );

const held = (claim: IdempotencyClaim) =>
  and(where(claim.keyName, claim.idempotencyKey), eq(idempotencyKeys.requestId, claim.requestId));

/** Frees the key: nothing was written, a retry may try again. */
export async function releaseClaim(db: Db, claim: IdempotencyClaim) {
  await db.delete(idempotencyKeys).where(held(claim));
}

/** Stores the answer retries replay (the row becomes DONE). */
export async function storeAnswer(
  db: Db,
  claim: IdempotencyClaim,
  status: number,
  contentType: string | null,
  body: string,
) {
  await db
    .update(idempotencyKeys)
    .set({ state: "DONE", status, contentType, body, updatedAt: Date.now() })
    .where(held(claim));
}
