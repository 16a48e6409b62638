import { and, eq, inArray, isNull, lte, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { changeRequests, changeRequestWrites } from "../../db/schema";

/**
 * Go-live without anyone awake (docs/api/change-requests.md §17.6): on every tick of the per-minute
 * Cron Trigger, each APPLIED change request whose effectiveAt (or, without one, its apply) has come
 * gets its `effective_recorded_at`, once: the UPDATE only takes rows that have none, so overlapping
 * runs cannot both take one. The trigger of migration 0022 turns that into the one
 * `change-request.effective` entry of the change feed, which the webhook sweep that runs next
 * delivers. A request in effect can no longer be cancelled, so the rows kept for its cancel go.
 * Returns the ids recorded.
 */
export async function recordEffectiveChangeRequests(db: Db, now: number): Promise<number[]> {
  const effective = sql`coalesce(${changeRequests.effectiveAt}, ${changeRequests.appliedAt})`;
  const [recorded] = await db.batch([
    db
      .update(changeRequests)
      .set({ effectiveRecordedAt: sql`cast(unixepoch('subsec') * 1000 as integer)` })
      .where(
        and(
          eq(changeRequests.status, "APPLIED"),
          isNull(changeRequests.effectiveRecordedAt),
          lte(effective, now),
        ),
      )
      .returning({ id: changeRequests.id }),
    db.delete(changeRequestWrites).where(
      inArray(
        changeRequestWrites.changeRequestId,
        db
          .select({ id: changeRequests.id })
          .from(changeRequests)
          .where(
            and(
              eq(changeRequests.status, "APPLIED"),
              sql`${changeRequests.effectiveRecordedAt} is not null`,
            ),
          ),
      ),
    ),
  ]);
  return recorded.map((row) => row.id);
}
