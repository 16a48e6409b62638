import { and, asc, count, eq, inArray, isNull, lte, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { insertRows, rowField, rowsOf } from "../../db/bulk";
import { readScalarFacts } from "../../db/bulk-facts";
import type { Db } from "../../db/client";
import { mayDeriveFurther, primaryCurrency } from "../../db/pricing/facts";
import { READ_DIMENSIONS } from "../../db/pricing/reach";
import { rowSetsSql, type RowSelection } from "../../db/price-rows";
import { codes, decodedBatch, flag, int, select, statement, text, type RowOf } from "../../db/rows";
import {
  changeRequestItems,
  changeRequestPolicy,
  changeRequests,
  changeRequestWrites,
  pricelists,
  promotions,
  tradeConditions,
} from "../../db/schema";
import { readPage, type ListRequest } from "../../list";
import { DIMENSIONS, type TargetField } from "../../pricing";
import type {
  ChangeRequestItemKind,
  ChangeRequestTargetKind,
  Status,
  TierMode,
} from "../../pricing/vocabulary";

/*
 * Change requests in D1 (docs/api/change-requests.md §17): the request row and its items, the facts
 * of what its items touch (one scalar JSON text, re-read by the guard of the batch that applies
 * it), and where its records can price (for the impact). Every write of a request is a batch item
 * the service runs under a guard (db/bulk-facts.ts `writeJudged`), so a concurrent action is
 * noticed.
 */

export type ChangeRequestRow = typeof changeRequests.$inferSelect;

/** An item as stored: its kind and the rest of its JSON. */
export interface StoredItem {
  kind: ChangeRequestItemKind;
  body: Record<string, unknown>;
}

const json = (value: unknown) => JSON.stringify(value);
const inJson = (values: readonly (string | number)[]) =>
  sql`(select value from json_each(${json(values)}))`;

/** The request's state as a guard reads it: answered once, compared again inside the write. */
export const requestState = (id: number): SQL<string> =>
  sql<string>`(select json_object('status', status, 'updatedAt', updated_at)
    from ${changeRequests} where id = ${id})`;

/** updatedAt moves forward with every write, so it versions the row (db/optimistic.ts). */
const nextUpdatedAt = sql`max(cast(unixepoch('subsec') * 1000 as integer), ${changeRequests.updatedAt} + 1)`;

export async function findChangeRequest(db: Db, id: number) {
  const [rows, items] = await db.batch([
    db.select().from(changeRequests).where(eq(changeRequests.id, id)),
    db
      .select({ kind: changeRequestItems.kind, body: changeRequestItems.body })
      .from(changeRequestItems)
      .where(eq(changeRequestItems.changeRequestId, id))
      .orderBy(asc(changeRequestItems.position)),
  ]);
  const row = rows[0];
  if (!row) return undefined;
  return {
    row,
    items: items.map((i) => ({
      kind: i.kind,
      body: JSON.parse(i.body) as Record<string, unknown>,
    })),
  };
}

export type FoundRequest = NonNullable<Awaited<ReturnType<typeof findChangeRequest>>>;

const itemCount = sql<number>`(select count(*) from ${changeRequestItems}
  where ${changeRequestItems.changeRequestId} = ${changeRequests.id})`;

export const listChangeRequests = (db: Db, list: ListRequest) =>
  readPage(
    db,
    db
      .select({ row: changeRequests, itemCount })
      .from(changeRequests)
      .where(list.where)
      .orderBy(...list.orderBy)
      .limit(list.limit)
      .offset(list.offset),
    db.select({ n: count() }).from(changeRequests).where(list.where),
  );

/** Items a statement inserts at most: their JSON stays about 100 KB (a big SET_PRICES alone). */
const ITEMS_JSON_PER_STATEMENT = 100_000;

/** The statements writing `items` as the items of request `id` (a new one: the newest id). */
function insertItems(db: Db, items: readonly StoredItem[], id: SQL): BatchItem<"sqlite">[] {
  const rows = items.map((item, position) => ({
    position,
    kind: item.kind,
    body: json(item.body),
  }));
  const chunks: (typeof rows)[] = [];
  let size = Infinity;
  for (const row of rows) {
    if (size + row.body.length > ITEMS_JSON_PER_STATEMENT) {
      chunks.push([]);
      size = 0;
    }
    chunks.at(-1)!.push(row);
    size += row.body.length;
  }
  return chunks.flatMap((chunk) =>
    insertRows(db, changeRequestItems, chunk, { changeRequestId: id }),
  );
}

export type NewRequest = Pick<ChangeRequestRow, "title" | "effectiveAt" | "author" | "editors">;

/** Inserts a request and its items in one batch; the stored row. */
export async function insertChangeRequest(
  db: Db,
  values: NewRequest,
  items: readonly StoredItem[],
) {
  const newest = sql`(select max(${changeRequests.id}) from ${changeRequests})`;
  const [inserted] = await db.batch([
    db.insert(changeRequests).values(values).returning(),
    ...insertItems(db, items, newest),
  ]);
  return inserted[0]!;
}

/** An update of the request (updatedAt moves forward). */
export const updateRequest = (db: Db, id: number, set: Partial<ChangeRequestRow>) =>
  db
    .update(changeRequests)
    .set({ ...set, updatedAt: nextUpdatedAt } as never)
    .where(eq(changeRequests.id, id));

/** The statements replacing every item of request `id`. */
export const replaceItems = (db: Db, id: number, items: readonly StoredItem[]) => [
  db.delete(changeRequestItems).where(eq(changeRequestItems.changeRequestId, id)),
  ...insertItems(db, items, sql`${id}`),
];

export const findRequestRow = (db: Db, id: number) =>
  db.select().from(changeRequests).where(eq(changeRequests.id, id)).get();

// ---------------------------------------------------------------------------------------------
// What the items touch: facts, rows, product ids
// ---------------------------------------------------------------------------------------------

/** The records, products, groups and rows a request's items name. */
export type Touch = {
  pricelistIds: number[];
  tradeConditionIds: number[];
  promotionIds: number[];
  /** One per price item, in item order. */
  selections: RowSelection[];
} & Record<TargetField, string[]>;

/** A record an item names, as its facts hold it. */
export interface RecordFacts {
  id: number;
  status: Status;
  validFrom: number | null;
  validTo: number | null;
  updatedAt: number;
  /** Pricelists only: how its tiers price (a VOLUME list takes no flat amounts, §29). */
  tierMode?: TierMode;
}

export interface ItemFacts {
  pricelists: RecordFacts[];
  tradeConditions: RecordFacts[];
  promotions: RecordFacts[];
  /** The codes named in each targeting dimension that name nothing, by `UNKNOWN_KEYS`. */
  [unknown: `unknown${string}`]: string[];
  rows: { n: number; h: number; k: number };
}

type Lifecycle = SQLiteTable & {
  id: SQLiteColumn;
  status: SQLiteColumn;
  validFrom: SQLiteColumn;
  validTo: SQLiteColumn;
  updatedAt: SQLiteColumn;
};

export const TABLES: Record<ChangeRequestTargetKind, Lifecycle> = {
  pricelist: pricelists,
  tradeCondition: tradeConditions,
  promotion: promotions,
};

/** `extra`: more fields of the record, as `, 'name', column` (a pricelist's tierMode). */
const recordsOf = (table: Lifecycle, ids: readonly number[], extra: SQL = sql``) =>
  sql`json((select json_group_array(json_object('id', id, 'status', status,
    'validFrom', valid_from, 'validTo', valid_to, 'updatedAt', updated_at${extra}))
    from (select * from ${table} where id in ${inJson(ids)} order by id)))`;

const unknownOf = (table: SQL, codesJson: readonly string[]) =>
  sql`json((select json_group_array(value) from (select value from json_each(${json(codesJson)})
    where value not in (select code from ${table}) order by value)))`;

/**
 * The key of the facts listing a targeting dimension's unknown codes: `unknown` and its reach
 * kind in the plural (`unknownProducts`, `unknownGroups`, `unknownBrands`; kept, so that the facts
 * stored at submit compare equal at approve).
 */
const UNKNOWN_KEYS = Object.fromEntries(
  DIMENSIONS.map((d) => [d.field, `unknown${d.kind[0]}${d.kind.slice(1).toLowerCase()}s`]),
) as Record<TargetField, `unknown${string}`>;

/** The codes of `field` the items name that name nothing. */
export const unknownIn = (facts: ItemFacts, field: TargetField): string[] =>
  facts[UNKNOWN_KEYS[field]] ?? [];

/**
 * The facts of what the items touch as ONE scalar JSON text: the named records (status, window,
 * updatedAt), the codes that name nothing, and the digest of the selected price rows. A record
 * or row that changes changes the text: stale detection at approve, and the guard of the apply.
 */
export function itemFactsSql(touch: Touch): SQL<string> {
  const { digest } = rowSetsSql(touch.selections);
  return sql<string>`json_object(
    'pricelists', ${recordsOf(pricelists, touch.pricelistIds, sql`, 'tierMode', tier_mode`)},
    'tradeConditions', ${recordsOf(tradeConditions, touch.tradeConditionIds)},
    'promotions', ${recordsOf(promotions, touch.promotionIds)},
    ${sql.join(
      READ_DIMENSIONS.map(
        (d) => sql`${UNKNOWN_KEYS[d.field]}, ${unknownOf(sql.raw(d.target), touch[d.field])},`,
      ),
      sql` `,
    )}
    'rows', json(${digest}))`;
}

const productIdsStatement = (codesJson: readonly string[]) =>
  statement(
    select({ code: text(sql`code`), id: int(sql`id`) }),
    sql`from products where code in ${inJson(codesJson)}`,
  );

/**
 * The facts of the request (its state and its items' facts, one text the apply's guard reads
 * again), the stored rows the price items select, and the ids of the products they name: one
 * round trip.
 */
export async function readTouch(db: Db, id: number, touch: Touch) {
  const facts = sql<string>`json_object('request', json(${requestState(id)}),
    'items', json(${itemFactsSql(touch)}))`;
  const { rows, sameAs } = rowSetsSql(touch.selections);
  const factsStatement = statement(select({ facts: text(facts) }), sql``);
  const [[read], stored, ids] = await decodedBatch(db, [
    factsStatement,
    touch.selections.length ? rows : null,
    productIdsStatement(touch.productCodes),
  ] as const);
  const value = JSON.parse(read!.facts) as {
    request: { status: string; updatedAt: number } | null;
    items: ItemFacts;
  };
  return {
    facts,
    text: read!.facts,
    /** The items' part alone, as stored at submit. */
    itemsText: JSON.stringify(value.items),
    value,
    rows: stored,
    /** The selection whose rows selection `i` reads (identical ones are read once). */
    sameAs,
    // The products named by code, and those of the rows selected through groups or whole lists.
    productIds: new Map([
      ...ids.map((p) => [p.code, p.id] as const),
      ...stored.map((row) => [row.productCode, row.productId] as const),
    ]),
  };
}

export type Touched = Awaited<ReturnType<typeof readTouch>>;
export type StoredRow = RowOf<ReturnType<typeof rowSetsSql>["rows"]>;

/** The facts of the items alone, as a text comparable with the one stored at submit. */
export async function readItemFacts(db: Db, touch: Touch) {
  return readScalarFacts<ItemFacts>(db, itemFactsSql(touch));
}

// ---------------------------------------------------------------------------------------------
// Records: ACTIVATE and DEACTIVATE
// ---------------------------------------------------------------------------------------------

/** A record's lifecycle fields as a write sets them. */
export interface RecordState {
  id: number;
  status: Status;
  validFrom: number | null;
  validTo: number | null;
}

/** One UPDATE per table: each record gets `status` and its window (updatedAt moves on). */
export function writeRecords(
  db: Db,
  kind: ChangeRequestTargetKind,
  states: readonly RecordState[],
): BatchItem<"sqlite">[] {
  if (!states.length) return [];
  const table = TABLES[kind];
  return [
    db
      .update(table)
      .set({
        status: rowField("status"),
        validFrom: rowField("validFrom"),
        validTo: rowField("validTo"),
        updatedAt: sql`max(cast(unixepoch('subsec') * 1000 as integer), ${table.updatedAt} + 1)`,
      } as never)
      .from(rowsOf(json(states)))
      .where(sql`${table.id} = ${rowField("id")}`),
  ];
}

/** How many of `states` their records no longer hold (SQL, for a guard). */
export function recordsDivergedSql(kind: ChangeRequestTargetKind, states: readonly RecordState[]) {
  const table = TABLES[kind];
  return sql<number>`(select count(*) from ${rowsOf(json(states))} left join ${table} t
    on t.id = ${rowField("id")}
    where t.id is null or t.status is not ${rowField("status")}
      or t.valid_from is not ${rowField("validFrom")} or t.valid_to is not ${rowField("validTo")})`;
}

// ---------------------------------------------------------------------------------------------
// The approval policy
// ---------------------------------------------------------------------------------------------

export const readPolicy = async (db: Db) =>
  (await db.select().from(changeRequestPolicy).where(eq(changeRequestPolicy.id, 1)).get())!;

export type PolicyRow = Awaited<ReturnType<typeof readPolicy>>;

/**
 * Writes `set` only while the policy still has the `updatedAt` it was read with (it moves forward
 * with every write): the row written, or undefined when another write got in first.
 */
export const writePolicy = async (
  db: Db,
  updatedAt: number,
  set: Partial<Omit<PolicyRow, "id" | "updatedAt">>,
): Promise<PolicyRow | undefined> =>
  db
    .update(changeRequestPolicy)
    .set({
      ...set,
      updatedAt: sql`max(cast(unixepoch('subsec') * 1000 as integer), ${changeRequestPolicy.updatedAt} + 1)`,
    } as never)
    .where(and(eq(changeRequestPolicy.id, 1), eq(changeRequestPolicy.updatedAt, updatedAt)))
    .returning()
    .get();

// ---------------------------------------------------------------------------------------------
// Where the touched records price (the impact)
// ---------------------------------------------------------------------------------------------

/** What the impact simulates: the touched records' channels and products. */
export interface Reach {
  /** Active channels where a touched record can price, by code, each with a currency. */
  channels: { code: string; currency: string; customers: number }[];
  /** Products of the touched records (not the price items'), by code. */
  productCodes: string[];
  /** A touched condition or promotion names no product: every product. */
  everyProduct: boolean;
  /** The first 1,000 products of the catalogue by code, when everyProduct. */
  catalogue: string[];
  catalogueSize: number;
  /** The tiers (minQuantity) of the activated and deactivated lists and their bases, ascending. */
  quantities: number[];
}

/**
 * The lists `ids` and every list deriving from them, up to MAX_DERIVATION_STEPS steps
 * (docs/api/relations.md §5.8; src/db/pricing/facts.ts).
 */
const withDerived = (ids: readonly number[]) => sql`with recursive
  lists(id, steps) as (select value, 0 from json_each(${json(ids)})
    union select p.id, l.steps + 1 from lists l join pricelists p on p.base_pricelist_id = l.id
      where ${mayDeriveFurther(sql`l.steps`)})`;

/** Lists `ids` and every list they derive from, up to MAX_DERIVATION_STEPS steps. */
const withBases = (ids: readonly number[]) => sql`with recursive
  bases(id, steps) as (select value, 0 from json_each(${json(ids)})
    union select p.base_pricelist_id, b.steps + 1 from bases b join pricelists p on p.id = b.id
      where p.base_pricelist_id is not null and ${mayDeriveFurther(sql`b.steps`)})`;

/** Channels of records that name channels, or every channel when one names none. */
const ownerChannels = (owner: string, ids: readonly number[]) => {
  const link = sql.raw(`${owner}_channels`);
  const key = sql.raw(`${owner}_id`);
  return sql`select l.channel_id from ${link} l where l.${key} in ${inJson(ids)}
    union select c.id from channels c where exists (select 1 from json_each(${json(ids)}) o
      where not exists (select 1 from ${link} l where l.${key} = o.value))`;
};

/**
 * The active channels where a touched record can price, each with the currency to simulate in:
 * the currency of a touched pricelist (or one deriving from it) that reaches the channel
 * (assigned to it, to one of its customer groups or customers, or a customer's own), and for
 * conditions and promotions the currency of the channel's primary pricelist.
 */
function channelsStatement(touch: Touch) {
  const listed = (from: SQL) => sql`select x.channel_id, p.currency from ${from}
    join pricelists p on p.id = x.pricelist_id where x.pricelist_id in (select id from lists)`;
  return statement(
    select({
      code: text(sql`c.code`),
      currency: text(sql`x.currency`),
      customers: int(sql`(select count(*) from channel_customers n where n.channel_id = c.id)`),
    }),
    sql`from (
      ${listed(sql`channel_pricelists x`)}
      union ${listed(sql`(select cg.channel_id, gp.pricelist_id from channel_customer_groups cg
        join customer_group_pricelists gp on gp.customer_group_id = cg.customer_group_id) x`)}
      union ${listed(sql`(select cc.channel_id, cp.pricelist_id from channel_customers cc
        join customer_pricelists cp on cp.customer_id = cc.customer_id) x`)}
      union ${listed(sql`(select cc.channel_id, p.id as pricelist_id from channel_customers cc
        join pricelists p on p.customer_id = cc.customer_id) x`)}
      union select o.channel_id, ${primaryCurrency(sql`o.channel_id`)}
        from (${ownerChannels("trade_condition", touch.tradeConditionIds)}
          union ${ownerChannels("promotion", touch.promotionIds)}) o
    ) x join channels c on c.id = x.channel_id
    where c.is_active = 1 and x.currency is not null order by c.code, x.currency`,
    withDerived(touch.pricelistIds),
  );
}

/**
 * Products a condition or promotion names (in any targeting dimension), as one select: D1 allows
 * 5 terms in a compound SELECT, so the dimensions' union is a subquery of its own.
 */
const ownerProducts = (owner: string, ids: readonly number[]) => {
  const key = sql.raw(`${owner}_id`);
  const each = READ_DIMENSIONS.map((d) =>
    d.owned(sql.raw(`${owner}_${d.link}`), key, sql`${json(ids)}`),
  );
  return sql`select code from (${sql.join(
    each,
    sql`
    union `,
  )})`;
};

const namesNoProduct = (owner: string, ids: readonly number[]) => {
  const key = sql.raw(`${owner}_id`);
  const none = READ_DIMENSIONS.map(
    (d) =>
      sql`not exists (select 1 from ${sql.raw(`${owner}_${d.link}`)} l where l.${key} = o.value)`,
  );
  return sql`exists (select 1 from json_each(${json(ids)}) o where ${sql.join(none, sql` and `)})`;
};

/**
 * The channels (with their customer counts), products and tiers of the records the request
 * touches, in one round trip: `pricelists` are the lists whose products and tiers count (ACTIVATE
 * and DEACTIVATE of lists: theirs and their bases').
 */
export async function readReach(
  db: Db,
  touch: Touch,
  pricelistIds: readonly number[],
): Promise<Reach> {
  const products = statement(
    select({ code: text(sql`code`) }),
    sql`from (select pr.code from pricelist_prices pp join products pr on pr.id = pp.product_id
        where pp.pricelist_id in (select id from bases)
      union ${ownerProducts("trade_condition", touch.tradeConditionIds)}
      union ${ownerProducts("promotion", touch.promotionIds)}) order by code`,
    withBases(pricelistIds),
  );
  const every = statement(
    select({
      every: flag(sql`${namesNoProduct("trade_condition", touch.tradeConditionIds)}
        or ${namesNoProduct("promotion", touch.promotionIds)}`),
      size: int(sql`(select count(*) from products)`),
      first: codes(
        sql`(select json_group_array(code) from (select code from products order by code limit 1000))`,
      ),
    }),
    sql``,
  );
  const quantities = statement(
    select({ minQuantity: int(sql`min_quantity`) }),
    sql`from (select distinct min_quantity from pricelist_prices
      where pricelist_id in (select id from bases) order by min_quantity)`,
    withBases(pricelistIds),
  );
  const [channels, named, [all], tiers] = await decodedBatch(db, [
    channelsStatement(touch),
    products,
    every,
    quantities,
  ] as const);
  return {
    channels,
    productCodes: named.map((p) => p.code),
    everyProduct: all!.every,
    catalogue: all!.first,
    catalogueSize: all!.size,
    quantities: tiers.map((t) => t.minQuantity),
  };
}

/**
 * Go-live without anyone awake (docs/api/change-requests.md §17.6): on every tick of the per-minute
 * Cron Trigger, each APPLIED change request whose effectiveAt (or, without one, its apply) has come
 * gets its `effective_recorded_at`, once: the UPDATE only takes rows that have none, so overlapping
 * runs cannot both take one. The trigger of migration 0022 turns that into the one
 * `change-request.effective` entry of the change feed, which the webhook sweep that runs next
 * delivers. A request in effect can no longer be cancelled, so the rows kept for its cancel go.
 * Returns the ids recorded.
 */
export async function recordEffective(db: Db, now: number): Promise<number[]> {
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
