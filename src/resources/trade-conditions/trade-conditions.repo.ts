import { and, count, eq, getTableColumns, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { assignByCodes, codeLink, codesFrom, defineLinks, rowsLink } from "../../db/links";
import {
  channels,
  customerGroups,
  customers,
  tradeConditionChannels,
  tradeConditionCustomerGroups,
  tradeConditionCustomers,
  tradeConditions,
  tradeConditionScales,
} from "../../db/schema";
import type { Visibility } from "../../db/visibility";
import { targetCodesFrom, targetLinks, type TargetColumns } from "../../db/targeting";
import { insertLinked, writeVersioned } from "../../db/writes";
import type { Db } from "../../db/client";
import { iso, isoOrNull } from "../../core/schemas";
import type { ListRequest } from "../../list";
import type { ConditionScope, ScaleBasis } from "../../pricing/vocabulary";
import { links } from "./customer-links";
import type { Scale, TradeConditionCreate, TradeConditionUpdate } from "./trade-conditions.schemas";

type Batch = [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]];

/**
 * A condition's link tables, in the order its record shows them. The select of every record,
 * the writes of create and update and the bulk assignment of targets derive from this list.
 */
export const conditionLinks = defineLinks(tradeConditions.id, {
  ...targetLinks("tradeCondition"),
  channelCodes: codeLink(
    tradeConditionChannels.tradeConditionId,
    tradeConditionChannels.channelId,
    channels,
    "channel",
  ),
  // The API's `minimum` is stored in min_quantity, the column's name from before scale bases.
  scales: rowsLink(tradeConditionScales.tradeConditionId, {
    minimum: tradeConditionScales.minQuantity,
    value: tradeConditionScales.value,
  }),
  customerGroupCodes: codeLink(
    tradeConditionCustomerGroups.tradeConditionId,
    tradeConditionCustomerGroups.customerGroupId,
    customerGroups,
    "customer group",
  ),
  customerCodes: codeLink(
    tradeConditionCustomers.tradeConditionId,
    tradeConditionCustomers.customerId,
    customers,
    "customer",
  ),
});

const fullRecord = { ...getTableColumns(tradeConditions), ...conditionLinks.columns };

const selectFull = (db: Db) => db.select(fullRecord).from(tradeConditions);

export type TradeConditionRow = typeof tradeConditions.$inferSelect &
  TargetColumns & {
    channelCodes: string;
    scales: string;
    customerGroupCodes: string;
    customerCodes: string;
  };

export const scalesFrom = (json: string) =>
  (JSON.parse(json) as Scale[]).sort((a, b) => a.minimum - b.minimum);

/**
 * Scale rows as answers show them: `{ minimum, value }`, and for LINE_QUANTITY conditions also
 * the deprecated `minQuantity` (the same number), so readers of the former shape keep working.
 */
const toScales = (json: string, basis: ScaleBasis) =>
  scalesFrom(json).map((row) =>
    basis === "LINE_QUANTITY" ? { ...row, minQuantity: row.minimum } : row,
  );

export const toTradeCondition = (row: TradeConditionRow) => ({
  id: row.id,
  name: row.name,
  scope: row.scope,
  status: row.status,
  type: row.type,
  discountType: row.discountType,
  value: row.value,
  currency: row.currency,
  priceUnit: row.priceUnit,
  validFrom: isoOrNull(row.validFrom),
  validTo: isoOrNull(row.validTo),
  priority: row.priority,
  stackable: row.stackable,
  ...targetCodesFrom(row),
  channelCodes: codesFrom(row.channelCodes),
  scaleBasis: row.scaleBasis,
  scales: toScales(row.scales, row.scaleBasis),
  customerGroupCodes: codesFrom(row.customerGroupCodes),
  customerCodes: codesFrom(row.customerCodes),
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});

/** Conditions that apply in the channel: no channel list (= all) or one that names it. */
const appliesIn = (channelCode: string) => sql`(
  not exists (select 1 from trade_condition_channels l where l.trade_condition_id = trade_conditions.id)
  or exists (select 1 from trade_condition_channels l join channels c on c.id = l.channel_id
             where l.trade_condition_id = trade_conditions.id and c.code = ${channelCode}))`;

/**
 * A page with its links and count in one round trip, of the conditions the key sees
 * (docs/api/access.md §18); with a channel, its existence check rides in the same batch.
 * `undefined` when the channel does not exist.
 */
export async function listTradeConditions(
  db: Db,
  list: ListRequest,
  scope: Visibility,
  channelCode?: string,
) {
  const seen = and(list.where, scope.tradeConditions);
  const where = channelCode === undefined ? seen : and(seen, appliesIn(channelCode));
  const statements: Batch = [
    selectFull(db)
      .where(where)
      .orderBy(...list.orderBy)
      .limit(list.limit)
      .offset(list.offset),
    db.select({ n: count() }).from(tradeConditions).where(where),
  ];
  if (channelCode !== undefined) {
    statements.push(
      db.select({ id: channels.id }).from(channels).where(eq(channels.code, channelCode)),
    );
  }
  const [rows, counted, channel] = (await db.batch(statements)) as [
    TradeConditionRow[],
    { n: number }[],
    unknown[] | undefined,
  ];
  if (channel?.length === 0) return undefined;
  return { rows, total: counted[0]?.n ?? 0 };
}

export const findTradeCondition = (db: Db, id: number) =>
  selectFull(db).where(eq(tradeConditions.id, id)).get();

/** The condition, if the key sees it (an ACCRUAL one is not there for a read key). */
export const findSeenTradeCondition = (db: Db, id: number, scope: Visibility) =>
  selectFull(db)
    .where(and(eq(tradeConditions.id, id), scope.tradeConditions))
    .get();

type Links = ReturnType<typeof conditionLinks.resolve>["values"];
type Fields = Omit<TradeConditionUpdate, keyof typeof conditionLinks.links>;

/** The condition and its links in one batch; FOREIGN_KEY if a named row was deleted meanwhile. */
export const insertTradeCondition = (
  db: Db,
  fields: Omit<TradeConditionCreate, keyof typeof conditionLinks.links>,
  links: Links,
) =>
  insertLinked<TradeConditionRow>(
    db,
    tradeConditions,
    fields,
    (id) => conditionLinks.inserts(db, id, links),
    (id) => selectFull(db).where(eq(tradeConditions.id, id)),
  );

/** One round trip: the stored record and what the body's codes resolve to. */
export async function readForUpdate(db: Db, id: number, input: TradeConditionUpdate) {
  const [[current], ...found] = await db.batch([
    selectFull(db).where(eq(tradeConditions.id, id)),
    ...conditionLinks.lookups(db, input),
  ]);
  return { current, ...conditionLinks.resolve(input, found) };
}

/** Whether the condition has targets of either kind, as SQL to re-check inside a write. */
const hasNoTargets = (id: number) => sql`not exists (select 1 from ${tradeConditionCustomerGroups}
    where ${tradeConditionCustomerGroups.tradeConditionId} = ${id})
  and not exists (select 1 from ${tradeConditionCustomers}
    where ${tradeConditionCustomers.tradeConditionId} = ${id})`;

/**
 * Writes over the version the checks judged (db/writes.ts). Targets are linked without touching
 * updatedAt, so a scope change also re-checks that none appeared meanwhile.
 */
export const updateTradeCondition = (
  db: Db,
  current: TradeConditionRow,
  fields: Fields,
  links: Links,
) =>
  writeVersioned<TradeConditionRow>(db, tradeConditions, current, {
    set: fields,
    guard: fields.scope && fields.scope !== current.scope ? hasNoTargets(current.id) : undefined,
    links: (guard) => conditionLinks.replaces(db, current.id, links, guard),
    readBack: selectFull(db).where(eq(tradeConditions.id, current.id)),
  });

// ---------------------------------------------------------------------------------------------
// Targets of CUSTOMER_GROUP- and CUSTOMER-scope conditions (bulk assign and unassign by code).

export type TargetScope = "CUSTOMER_GROUP" | "CUSTOMER";

/** The link a target scope writes. */
export const targetLink = (scope: TargetScope) =>
  scope === "CUSTOMER"
    ? conditionLinks.links.customerCodes
    : conditionLinks.links.customerGroupCodes;

/** What decides whether targets may change: existence, scope and status. */
export const findTradeConditionState = (db: Db, id: number) =>
  db
    .select({ scope: tradeConditions.scope, status: tradeConditions.status })
    .from(tradeConditions)
    .where(eq(tradeConditions.id, id))
    .get();

/**
 * Links targets only while the condition still has that scope and is not ARCHIVED: the caller's
 * check ran a round trip earlier, so the insert re-checks it.
 */
export function assignTargets(db: Db, id: number, scope: TargetScope, codes: string[]) {
  const guard = sql`exists (select 1 from ${tradeConditions} where ${tradeConditions.id} = ${id}
    and ${tradeConditions.scope} = ${scope} and ${tradeConditions.status} <> 'ARCHIVED')`;
  return assignByCodes(db, targetLink(scope), id, codes, guard);
}

// ---------------------------------------------------------------------------------------------
// The links through which conditions reach a customer (seed endpoint 2).

/** A link counts only when its kind is the condition's scope (a GLOBAL condition's channel list narrows, it does not target). */
const reaching = (customerCode: string, where: SQL | undefined) =>
  and(eq(links.customerCode, customerCode), sql`${links.kind} = ${tradeConditions.scope}`, where);

const joinCondition = eq(tradeConditions.id, links.tradeConditionId);

type CustomerTradeConditionRow = {
  id: number;
  customerCode: string;
  kind: ConditionScope;
  viaCode: string | null;
  tradeCondition: TradeConditionRow;
};

export const toCustomerTradeCondition = (row: CustomerTradeConditionRow) => ({
  id: row.id,
  customerCode: row.customerCode,
  via: { kind: row.kind, code: row.viaCode },
  tradeCondition: toTradeCondition(row.tradeCondition),
});

/**
 * The customer check, the page and its count in one round trip. `undefined` when the customer
 * does not exist.
 */
export async function listCustomerTradeConditions(
  db: Db,
  customerCode: string,
  list: ListRequest,
  scope: Visibility,
) {
  const where = reaching(customerCode, and(list.where, scope.tradeConditions));
  const [customer, rows, counted] = await db.batch([
    db.select({ id: customers.id }).from(customers).where(eq(customers.code, customerCode)),
    db
      .select({
        id: links.id,
        customerCode: links.customerCode,
        kind: links.kind,
        viaCode: links.viaCode,
        tradeCondition: fullRecord,
      })
      .from(links)
      .innerJoin(tradeConditions, joinCondition)
      .where(where)
      .orderBy(...list.orderBy)
      .limit(list.limit)
      .offset(list.offset),
    db.select({ n: count() }).from(links).innerJoin(tradeConditions, joinCondition).where(where),
  ]);
  if (customer.length === 0) return undefined;
  return { rows: rows as CustomerTradeConditionRow[], total: counted[0]?.n ?? 0 };
}
