import { and, count, eq, getTableColumns, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { coded, type LinkSpec, linkedCodes } from "../../db/links";
import {
  channels,
  customerGroups,
  customers,
  products,
  tradeConditionChannels,
  tradeConditionCustomerGroups,
  tradeConditionCustomers,
  tradeConditionProducts,
  tradeConditions,
  tradeConditionScales,
} from "../../db/schema";
import { isForeignKeyViolation, type Db } from "../../lib/db";
import { conflict, invalid, type FieldIssue } from "../../lib/errors";
import { CHANGED, changesNothing, nextUpdatedAt, optimistically } from "../../lib/optimistic";
import { iso, isoOrNull } from "../../lib/schemas";
import { assertTransition } from "../../lib/status";
import type { ListRequest } from "../../list";
import { links } from "./customer-links";
import type { ConditionScope } from "../../pricing/vocabulary";
import {
  tradeConditionIssues,
  type Scale,
  type TradeConditionCreate,
  type TradeConditionTerms,
  type TradeConditionUpdate,
} from "./trade-conditions.schemas";

// ---------------------------------------------------------------------------------------------
// Code resolution, shared with promotions: one statement per code table, all in one round trip.

type CodeTable = typeof products | typeof channels | typeof customerGroups;

/** `select id, code` of the given codes; the list travels as one JSON parameter. */
export const codeLookup = (db: Db, table: CodeTable, codes: readonly string[]) =>
  db
    .select({ id: table.id, code: table.code })
    .from(table)
    .where(sql`${table.code} in (select value from json_each(${JSON.stringify(codes)}))`);

/** The ids of the found codes, or an issue naming the unknown ones. */
export function resolveCodes(
  path: string,
  noun: string,
  codes: readonly string[],
  found: { id: number; code: string }[],
  issues: FieldIssue[],
): number[] {
  const known = new Set(found.map((row) => row.code));
  const unknown = codes.filter((code) => !known.has(code));
  if (unknown.length)
    issues.push({ path, message: `unknown ${noun} codes: ${unknown.join(", ")}` });
  return found.map((row) => row.id);
}

/** JSON text from json_group_array, as a sorted list. */
export const codesFrom = (json: string) => (JSON.parse(json) as string[]).sort();

export type Batch = [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]];

// ---------------------------------------------------------------------------------------------

const fullRecord = {
  ...getTableColumns(tradeConditions),
  productCodes: linkedCodes(
    "trade_condition_products",
    "trade_condition_id",
    "trade_conditions.id",
    "product_id",
    "products",
  ),
  channelCodes: linkedCodes(
    "trade_condition_channels",
    "trade_condition_id",
    "trade_conditions.id",
    "channel_id",
    "channels",
  ),
  scales: sql<string>`(select json_group_array(json_object('minQuantity', s.min_quantity, 'value', s.value)) from trade_condition_scales s where s.trade_condition_id = trade_conditions.id)`,
  customerGroupCodes: linkedCodes(
    "trade_condition_customer_groups",
    "trade_condition_id",
    "trade_conditions.id",
    "customer_group_id",
    "customer_groups",
  ),
  customerCodes: linkedCodes(
    "trade_condition_customers",
    "trade_condition_id",
    "trade_conditions.id",
    "customer_id",
    "customers",
  ),
};

const selectFull = (db: Db) => db.select(fullRecord).from(tradeConditions);

type TradeConditionRow = typeof tradeConditions.$inferSelect & {
  productCodes: string;
  channelCodes: string;
  scales: string;
  customerGroupCodes: string;
  customerCodes: string;
};

const scalesFrom = (json: string) =>
  (JSON.parse(json) as Scale[]).sort((a, b) => a.minQuantity - b.minQuantity);

export const toTradeCondition = (row: TradeConditionRow) => ({
  id: row.id,
  name: row.name,
  scope: row.scope,
  status: row.status,
  type: row.type,
  discountType: row.discountType,
  value: row.value,
  currency: row.currency,
  validFrom: isoOrNull(row.validFrom),
  validTo: isoOrNull(row.validTo),
  priority: row.priority,
  stackable: row.stackable,
  productCodes: codesFrom(row.productCodes),
  channelCodes: codesFrom(row.channelCodes),
  scales: scalesFrom(row.scales),
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
 * A page with its links and count in one round trip; with a channel, its existence check rides in
 * the same batch. `undefined` when the channel does not exist.
 */
export async function listTradeConditions(db: Db, list: ListRequest, channelCode?: string) {
  const where = channelCode === undefined ? list.where : and(list.where, appliesIn(channelCode));
  const statements: Batch = [
    selectFull(db)
      .where(where)
      .orderBy(...list.orderBy)
      .limit(list.limit)
      .offset(list.offset),
    db.select({ n: count() }).from(tradeConditions).where(where),
  ];
  if (channelCode !== undefined) statements.push(codeLookup(db, channels, [channelCode]));
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

/** Inserts of the links and scales of condition `id` (an SQL expression inside the batch), while `guard` holds. */
function linkInserts(
  db: Db,
  id: SQL,
  links: { productIds?: number[]; channelIds?: number[]; scales?: Scale[] },
  guard = sql`true`,
): BatchItem<"sqlite">[] {
  const out: BatchItem<"sqlite">[] = [];
  if (links.productIds?.length) {
    out.push(
      db
        .insert(tradeConditionProducts)
        .select(
          sql`select ${id}, value from json_each(${JSON.stringify(links.productIds)}) where ${guard}`,
        ),
    );
  }
  if (links.channelIds?.length) {
    out.push(
      db
        .insert(tradeConditionChannels)
        .select(
          sql`select ${id}, value from json_each(${JSON.stringify(links.channelIds)}) where ${guard}`,
        ),
    );
  }
  if (links.scales?.length) {
    out.push(
      db
        .insert(tradeConditionScales)
        .select(
          sql`select ${id}, json_extract(value, '$.minQuantity'), json_extract(value, '$.value') from json_each(${JSON.stringify(links.scales)}) where ${guard}`,
        ),
    );
  }
  return out;
}

/** Runs a write batch; its last statement reads the full record back. */
async function writeBatch(db: Db, statements: Batch): Promise<unknown[]> {
  try {
    return (await db.batch(statements)) as unknown[];
  } catch (err) {
    // A product or channel deleted between the read that resolved it and this batch.
    if (!isForeignKeyViolation(err)) throw err;
    throw conflict("a named product or channel was deleted meanwhile; nothing was written");
  }
}

const lastRow = (results: unknown[]) => (results[results.length - 1] as TradeConditionRow[])[0]!;

/** One read resolves the codes (skipped when none are named), one batch writes everything. */
export async function createTradeCondition(db: Db, input: TradeConditionCreate) {
  const discountType = input.discountType ?? (input.type === "NET_PRICE" ? "ABSOLUTE" : undefined);
  const terms: TradeConditionTerms = {
    ...input,
    discountType,
    currency: input.currency ?? null,
    validFrom: input.validFrom ?? null,
    validTo: input.validTo ?? null,
  };
  const issues = tradeConditionIssues(terms);
  let productIds: number[] = [];
  let channelIds: number[] = [];
  if (input.productCodes.length || input.channelCodes.length) {
    const [foundProducts, foundChannels] = await db.batch([
      codeLookup(db, products, input.productCodes),
      codeLookup(db, channels, input.channelCodes),
    ]);
    productIds = resolveCodes(
      "body.productCodes",
      "product",
      input.productCodes,
      foundProducts,
      issues,
    );
    channelIds = resolveCodes(
      "body.channelCodes",
      "channel",
      input.channelCodes,
      foundChannels,
      issues,
    );
  }
  if (issues.length || !discountType) throw invalid(issues);

  // A D1 batch is one serialized transaction, so the newest id is the row inserted just before.
  const newId = sql`(select max(id) from trade_conditions)`;
  const results = await writeBatch(db, [
    db.insert(tradeConditions).values({
      name: input.name,
      scope: input.scope,
      status: input.status,
      type: input.type,
      discountType,
      value: input.value,
      currency: terms.currency,
      validFrom: terms.validFrom,
      validTo: terms.validTo,
      priority: input.priority,
      stackable: input.stackable,
    }),
    ...linkInserts(db, newId, { productIds, channelIds, scales: input.scales }),
    selectFull(db).where(eq(tradeConditions.id, newId)),
  ]);
  return lastRow(results);
}

/** The target links each scope may have; the others would be meaningless. */
const TARGETS = {
  CUSTOMER_GROUP: { field: "customerGroupCodes", noun: "customer groups", path: "customer-groups" },
  CUSTOMER: { field: "customerCodes", noun: "customers", path: "customers" },
} as const;

/**
 * A scope change away from CUSTOMER_GROUP or CUSTOMER is refused while the condition still has
 * targets of the old scope: silently dropping them would lose data the caller may still want.
 */
function assertNoStrandedTargets(current: TradeConditionRow, scope: ConditionScope) {
  if (scope === current.scope || !(current.scope in TARGETS)) return;
  const target = TARGETS[current.scope as keyof typeof TARGETS];
  const codes = codesFrom(current[target.field]);
  if (codes.length === 0) return;
  throw conflict(
    `trade condition ${current.id} still targets ${codes.length} ${target.noun}; ` +
      `unassign them (POST /v1/api/trade-conditions/${current.id}/${target.path}/unassign) ` +
      `before changing its scope from ${current.scope} to ${scope}`,
  );
}

/** `undefined` when the condition does not exist. */
export const updateTradeCondition = (db: Db, id: number, input: TradeConditionUpdate) =>
  optimistically(`trade condition ${id}`, () => attemptUpdate(db, id, input));

/**
 * One read loads the record and resolves the named codes; the merged record is checked with the
 * create rules; one batch writes, every statement guarded by the version read, so a concurrent
 * write first turns the whole batch into a no-op (CHANGED).
 */
async function attemptUpdate(db: Db, id: number, input: TradeConditionUpdate) {
  const [[current], foundProducts, foundChannels] = await db.batch([
    selectFull(db).where(eq(tradeConditions.id, id)),
    codeLookup(db, products, input.productCodes ?? []),
    codeLookup(db, channels, input.channelCodes ?? []),
  ]);
  if (!current) return undefined;
  if (current.status === "ARCHIVED") {
    throw conflict(`trade condition ${id} is ARCHIVED and can no longer be edited`);
  }
  if (input.status) assertTransition(`trade condition ${id}`, current.status, input.status);
  if (input.scope) assertNoStrandedTargets(current, input.scope);

  const patch = Object.fromEntries(
    Object.entries(input).filter(([, value]) => value !== undefined),
  ) as TradeConditionUpdate;
  const merged = {
    ...current,
    channelCodes: codesFrom(current.channelCodes),
    scales: scalesFrom(current.scales),
    ...patch,
  };
  const issues = tradeConditionIssues(merged);
  const productIds = input.productCodes
    ? resolveCodes("body.productCodes", "product", input.productCodes, foundProducts, issues)
    : undefined;
  const channelIds = input.channelCodes
    ? resolveCodes("body.channelCodes", "channel", input.channelCodes, foundChannels, issues)
    : undefined;
  if (issues.length) throw invalid(issues);
  if (changesNothing(current, patch)) return current;

  const { productCodes, channelCodes, scales, ...fields } = patch;
  // Targets are linked without touching updatedAt: a scope change re-checks that none appeared.
  const noTargets =
    fields.scope && fields.scope !== current.scope
      ? sql`not exists (select 1 from ${tradeConditionCustomerGroups}
          where ${tradeConditionCustomerGroups.tradeConditionId} = ${id})
        and not exists (select 1 from ${tradeConditionCustomers}
          where ${tradeConditionCustomers.tradeConditionId} = ${id})`
      : undefined;
  const unchanged = and(
    sql`exists (select 1 from ${tradeConditions} where ${tradeConditions.id} = ${id}
      and ${tradeConditions.updatedAt} = ${current.updatedAt})`,
    noTargets,
  )!;
  const replaced: BatchItem<"sqlite">[] = [];
  const linksOf = (table: typeof tradeConditionProducts | typeof tradeConditionChannels) =>
    db.delete(table).where(and(eq(table.tradeConditionId, id), unchanged));
  if (productCodes) replaced.push(linksOf(tradeConditionProducts));
  if (channelCodes) replaced.push(linksOf(tradeConditionChannels));
  if (scales) {
    replaced.push(
      db
        .delete(tradeConditionScales)
        .where(and(eq(tradeConditionScales.tradeConditionId, id), unchanged)),
    );
  }
  const statements: BatchItem<"sqlite">[] = [
    ...replaced,
    ...linkInserts(db, sql`${id}`, { productIds, channelIds, scales }, unchanged),
    // Last, so the statements before it still see the version they are guarded by.
    db
      .update(tradeConditions)
      .set({ ...fields, updatedAt: nextUpdatedAt(current.updatedAt) })
      .where(and(eq(tradeConditions.id, id), unchanged))
      .returning({ id: tradeConditions.id }),
    selectFull(db).where(eq(tradeConditions.id, id)),
  ];
  const results = await writeBatch(db, statements as Batch);
  return (results[results.length - 2] as unknown[]).length ? lastRow(results) : CHANGED;
}

// ---------------------------------------------------------------------------------------------
// Targets of CUSTOMER_GROUP- and CUSTOMER-scope conditions (bulk assign and unassign by code).

/** What decides whether targets may change: existence, scope and status. */
export const findTradeConditionState = (db: Db, id: number) =>
  db
    .select({ scope: tradeConditions.scope, status: tradeConditions.status })
    .from(tradeConditions)
    .where(eq(tradeConditions.id, id))
    .get();

export const conditionGroups: LinkSpec = {
  table: tradeConditionCustomerGroups,
  ownerKey: "tradeConditionId",
  targetKey: "customerGroupId",
  target: coded(customerGroups),
};

export const conditionCustomers: LinkSpec = {
  table: tradeConditionCustomers,
  ownerKey: "tradeConditionId",
  targetKey: "customerId",
  target: coded(customers),
};

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
export async function listCustomerTradeConditions(db: Db, customerCode: string, list: ListRequest) {
  const where = reaching(customerCode, list.where);
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
