import { and, eq, gte, ne, or, sql } from "drizzle-orm";
import { writersOf } from "../../core/writers";
import type { Db } from "../../db/client";
import { changeRequests } from "../../db/schema";
import type { Touch } from "./change-requests.repo";

/*
 * The requests a change request is judged with (docs/api/change-requests.md §17.4): its cumulative
 * change is measured from before the ones already applied that stack with it, and one still pending
 * on a record it names keeps it from the policy. One round trip.
 */

/** How far back a writer's own applied requests count: 24 hours. */
export const CUMULATIVE_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface Related {
  /** The earliest moment of the applied requests counted, or null when there are none. */
  since: number | null;
  /** The applied requests counted, by id. */
  appliedIds: number[];
  /** The pending requests that name a pricelist, condition or promotion this one names. */
  pendingIds: number[];
}

interface RelatedQuery {
  /** The request judged, left out. */
  id: number;
  /** The moment it takes effect (effectiveAt, or now). */
  at: number;
  now: number;
  writers: readonly string[];
  touch: Touch;
}

// An immediate request's rows start at the instant it was approved (by the policy: at its submit).
const moment = sql<number>`coalesce(${changeRequests.effectiveAt}, ${changeRequests.approvedAt})`;

/** The records the items of a request name, as `kind id` strings (SQL, one JSON array). */
const namedRecords = sql<string>`(select json_group_array(case
    when json_extract(i.body, '$.target.kind') is not null
      then json_extract(i.body, '$.target.kind') || ' ' || json_extract(i.body, '$.target.id')
    else 'pricelist ' || json_extract(i.body, '$.pricelistId') end)
  from change_request_items i where i.change_request_id = ${changeRequests.id})`;

/**
 * The requests that stack with request `query.id` at `query.at`: APPLIED ones in force by then
 * that are not in force yet (anyone's), or that one of its writers applied within the window; and
 * PENDING_APPROVAL ones naming a record it names.
 */
export async function readRelated(db: Db, query: RelatedQuery): Promise<Related> {
  const rows = await db
    .select({
      id: changeRequests.id,
      status: changeRequests.status,
      moment,
      appliedAt: changeRequests.appliedAt,
      editors: changeRequests.editors,
      named: namedRecords,
    })
    .from(changeRequests)
    .where(
      and(
        ne(changeRequests.id, query.id),
        or(
          eq(changeRequests.status, "PENDING_APPROVAL"),
          and(
            eq(changeRequests.status, "APPLIED"),
            sql`${moment} <= ${query.at}`,
            or(
              sql`${moment} > ${query.now}`,
              gte(changeRequests.appliedAt, query.now - CUMULATIVE_WINDOW_MS),
            ),
          ),
        ),
      ),
    )
    .orderBy(changeRequests.id);
  const mine = new Set([
    ...query.touch.pricelistIds.map((id) => `pricelist ${id}`),
    ...query.touch.tradeConditionIds.map((id) => `tradeCondition ${id}`),
    ...query.touch.promotionIds.map((id) => `promotion ${id}`),
  ]);
  const writers = new Set(query.writers);
  const applied = rows.filter(
    (row) =>
      row.status === "APPLIED" &&
      (row.moment > query.now || writersOf(row.editors).some((name) => writers.has(name))),
  );
  const pending = rows.filter(
    (row) =>
      row.status === "PENDING_APPROVAL" &&
      (JSON.parse(row.named) as string[]).some((record) => mine.has(record)),
  );
  return {
    since: applied.length ? Math.min(...applied.map((row) => row.moment)) : null,
    appliedIds: applied.map((row) => row.id),
    pendingIds: pending.map((row) => row.id),
  };
}
