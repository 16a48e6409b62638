import { sql, type SQL } from "drizzle-orm";
import { rawBatch, type Db } from "../db/client";
import type { Visibility } from "../db/visibility";
import { iso } from "../core/schemas";
import { DIMENSIONS, type TargetEntity, type TargetField } from "../pricing/targeting";
import { CHANGE_EVENTS, type AuditAction, type ChangeEvent } from "../pricing/vocabulary";
import type { Affected } from "./affects";
import { affectedOf, codesOf, toEntry } from "./context";
import { ENTITIES, entitiesOf, type Dimension, type Ref } from "./entities";
import type { Entry } from "./history";

/**
 * The change feed (docs/api/feed-and-webhooks.md §13): the audit trail read in id order. The audit
 * entries are written by triggers in the same D1 batch as every write, and D1 runs each batch as
 * one serialized transaction, so an entry's id is its commit order and a reader never sees a later
 * id before an earlier one: reading on from the last cursor misses nothing and repeats nothing.
 */

export type Affects = { [F in TargetField]?: string[] } & {
  pricelistIds?: number[];
  channelCodes?: string[];
  customerCodes?: string[];
  customerGroupCodes?: string[];
};

export interface Change {
  cursor: number;
  at: string;
  event: ChangeEvent;
  entity: string;
  key: Record<string, number | string>;
  action: AuditAction;
  operation: string;
  requestId: string;
  affects: Affects;
}

export interface FeedPage {
  changes: Change[];
  /** The cursor to read on from: the last change's, or further when entries were passed over. */
  next: number;
  hasMore: boolean;
}

/** `after` is older than the retention: the oldest cursor still served. */
export interface Expired {
  expired: number;
}

export interface FeedQuery {
  /** Read the changes after this cursor; 0 is the start: the oldest change still kept. */
  after: number;
  limit: number;
  /** Only the changes of these events (a webhook's); entries are then scanned in windows. */
  events?: readonly ChangeEvent[];
  /** The last cursor to read (a webhook's batch in flight, read again for a retry). */
  until?: number;
}

/** How many ids a filtered read looks through at most: a call stays bounded however sparse. */
export const SCAN_WINDOW = 10_000;

const KEY_OF: Record<Ref, keyof Affects> = {
  ...(Object.fromEntries(DIMENSIONS.map((d) => [d.entity, d.field])) as Record<
    TargetEntity,
    TargetField
  >),
  pricelist: "pricelistIds",
  channel: "channelCodes",
  customer: "customerCodes",
  customerGroup: "customerGroupCodes",
};

/** The key an empty dimension is answered under ("none of them"). */
const FIRST_KEY: Record<Dimension, keyof Affects> = {
  products: "productCodes",
  pricelists: "pricelistIds",
  channels: "channelCodes",
  customers: "customerCodes",
};

/** One dimension as lists; undefined when a record in it has no name any more (then it is open). */
function named(records: Set<string>, codes: Map<string, string>) {
  const lists: Record<string, (string | number)[]> = {};
  for (const record of records) {
    const [, ref, by, value] = /^([a-zA-Z]+)([#=])(.*)$/.exec(record)!;
    const name = ref === "pricelist" ? Number(value) : by === "=" ? value : codes.get(record);
    if (name === undefined) return undefined;
    (lists[KEY_OF[ref as Ref]] ??= []).push(name!);
  }
  return lists;
}

export function toAffects(affected: Affected, codes: Map<string, string>): Affects {
  const affects: Record<string, (string | number)[]> = {};
  for (const [dimension, records] of Object.entries(affected) as [Dimension, Set<string>][]) {
    const lists = named(records, codes);
    if (!lists) continue;
    if (!Object.keys(lists).length) affects[FIRST_KEY[dimension]] = [];
    for (const [key, list] of Object.entries(lists)) {
      affects[key] = [...new Set(list)].sort((a, b) =>
        typeof a === "number" ? a - (b as number) : String(a).localeCompare(String(b)),
      );
    }
  }
  return affects as Affects;
}

function toChange(entry: Entry, affects: Affects): Change {
  return {
    cursor: entry.id,
    at: iso(entry.at),
    // Every audited entity has its line (test/feed/changes.test.ts checks); the fallback is never
    // taken.
    event: ENTITIES[entry.entity]?.event ?? "products",
    entity: entry.entity,
    key: entry.entityKey,
    action: entry.action,
    operation: entry.operation,
    requestId: entry.requestId,
    affects,
  };
}

/** The changes of `entries`, with `affects` worked out and named: two more round trips at most. */
export async function changesOf(db: Db, entries: readonly Entry[]): Promise<Change[]> {
  if (!entries.length) return [];
  const affected = await affectedOf(db, entries);
  const codes = await codesOf(db, affected);
  return entries.map((entry, i) => toChange(entry, toAffects(affected[i]!, codes)));
}

interface Bounds {
  oldest: number | null;
  newest: number | null;
  seq: number | null;
}

/** The feed's ends in one statement; AUTOINCREMENT's counter still knows them when all are pruned. */
const BOUNDS = sql`select (select min(id) from audit_log) as oldest, (select max(id) from audit_log) as newest,
  (select seq from sqlite_sequence where name = 'audit_log') as seq`;

/** The cursor before the oldest entry kept: older cursors have lost entries to the retention. */
const oldestCursor = ({ oldest, seq }: Bounds) => (oldest !== null ? oldest - 1 : (seq ?? 0));
const newestCursor = ({ newest, seq }: Bounds) => newest ?? seq ?? 0;

/** The oldest cursor still served and the newest cursor. */
export async function feedBounds(db: Db) {
  const [[bounds]] = await rawBatch<[Bounds[]]>(db, [BOUNDS]);
  return { oldest: oldestCursor(bounds!), newest: newestCursor(bounds!) };
}

/**
 * Where a read starts, as SQL: `after`, or for 0 the cursor before the oldest entry kept, so a
 * reader starting from the beginning is never told that the retention took what it never had
 * (docs/api/feed-and-webhooks.md §13.3). In the read's own statement: one round trip, and no prune
 * between.
 */
const startOf = (after: number) =>
  after === 0 ? sql`(select coalesce(min(id) - 1, 0) from audit_log)` : sql`${after}`;

/** The entities that name a pricelist in their key, and those that name a trade condition. */
const byList = Object.keys(ENTITIES).filter((e) => ENTITIES[e]!.refs?.pricelistId === "pricelist");
const byCondition = Object.keys(ENTITIES).filter(
  (e) => ENTITIES[e]!.owner?.kind === "tradeCondition" && ENTITIES[e]!.owner?.field !== "id",
);

/** No id at all: what a scope that hides nothing of a table hides of it. */
const NO_IDS = sql`(select null where 0)`;

/**
 * The entries of records the scope hides (docs/api/access.md §18), from the scope's hidden ids
 * (src/db/visibility.ts): a hidden pricelist (its own entry, its rows, its assignments), a hidden
 * trade condition (its own entry, its scales and links), a change request that names one (an
 * item, now or in any entry of the trail: an item replaced since; whoever wrote it, the request's
 * `affects` names those lists). Pricelists and trade conditions are never deleted (an INDIVIDUAL
 * DRAFT list, never COST, aside), so the record is there to ask. Null: the scope hides nothing.
 */
function hiddenEntries({ hiddenPricelistIds, hiddenConditionIds }: Visibility) {
  if (!hiddenPricelistIds && !hiddenConditionIds) return null;
  const [lists, conditions] = [hiddenPricelistIds ?? NO_IDS, hiddenConditionIds ?? NO_IDS];
  // Whether a change request item's `body` (SQL, JSON text) names a hidden list or condition.
  const namesHidden = (body: SQL) => sql`(json_extract(${body}, '$.pricelistId') in ${lists}
    or (json_extract(${body}, '$.target.kind') = 'pricelist'
      and json_extract(${body}, '$.target.id') in ${lists})
    or (json_extract(${body}, '$.target.kind') = 'tradeCondition'
      and json_extract(${body}, '$.target.id') in ${conditions}))`;
  const requests = sql`(select change_request_id from change_request_items
      where ${namesHidden(sql`body`)}
    union select json_extract(entity_key, '$.changeRequestId') from audit_log
      where entity = 'changeRequestItem'
        and ${namesHidden(sql`json_extract(coalesce(after, before), '$.body')`)})`;
  // A row's owner from the row itself: a link with an id of its own is keyed by that id alone.
  const owner = (field: string) =>
    sql.raw(`coalesce(json_extract(after, '$.${field}'),
      json_extract(before, '$.${field}'))`);
  return sql`(entity = 'pricelist' and json_extract(entity_key, '$.id') in ${lists})
    or (entity in (select value from json_each(${JSON.stringify(byList)}))
      and ${owner("pricelistId")} in ${lists})
    or (entity = 'tradeCondition' and json_extract(entity_key, '$.id') in ${conditions})
    or (entity in (select value from json_each(${JSON.stringify(byCondition)}))
      and ${owner("tradeConditionId")} in ${conditions})
    or (entity = 'changeRequest' and json_extract(entity_key, '$.id') in ${requests})
    or (entity = 'changeRequestItem'
      and json_extract(entity_key, '$.changeRequestId') in ${requests})`;
}

/**
 * Whether a change names a list the scope hides, in its `affects`: `hiddenEntries` leaves out
 * every entry known to, and this holds the rest to it, whatever entity is added later.
 */
const namesHiddenList = (change: Change, hidden: ReadonlySet<number>) =>
  (change.affects.pricelistIds ?? []).some((id) => hidden.has(id));

/**
 * One page of the feed after `after` as `scope` sees it (a webhook's: everything): one round trip
 * for the entries, two for their `affects`.
 */
export async function readChanges(
  db: Db,
  query: FeedQuery,
  scope: Visibility,
): Promise<FeedPage | Expired> {
  const { after, limit, events, until = Number.MAX_SAFE_INTEGER } = query;
  const from = startOf(after);
  const window = events ? sql`and id <= ${from} + ${SCAN_WINDOW}` : sql``;
  // The pricing data's entities only: the audit trail also holds webhook settings
  // (docs/api/feed-and-webhooks.md §11).
  const entities = JSON.stringify(entitiesOf(events ?? CHANGE_EVENTS));
  const only = sql`and entity in (select value from json_each(${entities}))`;
  const hidden = hiddenEntries(scope);
  // An unknown answer (NULL) hides nothing.
  const seen = hidden ? sql`and not coalesce((${hidden}), 0)` : sql``;
  const [rows, [bounds], hiddenRows = []] = await rawBatch<
    [Record<string, unknown>[], Bounds[], { id: number }[]?]
  >(db, [
    sql`select * from audit_log where id > ${from} and id <= ${until} ${window} ${only} ${seen} order by id limit ${limit}`,
    BOUNDS,
    // The ids of the hidden lists, read with the page to check the `affects` worked out.
    ...(scope.hiddenPricelistIds ? [sql`select id from ${scope.hiddenPricelistIds}`] : []),
  ]);
  const oldest = oldestCursor(bounds!);
  if (after !== 0 && after < oldest) return { expired: oldest };
  const start = after === 0 ? oldest : after;
  const upTo = Math.min(until, events ? start + SCAN_WINDOW : Number.MAX_SAFE_INTEGER);
  const newest = newestCursor(bounds!);
  const entries = rows.map(toEntry);
  const full = entries.length === limit;
  const next = full ? entries.at(-1)!.id : Math.max(start, Math.min(newest, upTo));
  const changes = await changesOf(db, entries);
  const hiddenIds = new Set(hiddenRows.map((row) => Number(row.id)));
  // The cursor moves past a change left out here, as past one the statement left out.
  const seenChanges = hiddenIds.size
    ? changes.filter((c) => !namesHiddenList(c, hiddenIds))
    : changes;
  return { changes: seenChanges, next, hasMore: next < newest };
}
