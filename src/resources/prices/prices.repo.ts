import { sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { linkedCodes } from "../../db/links";
import {
  channels,
  pricelistPrices,
  pricelists,
  pricingVersion,
  products,
  promotions,
  tradeConditions,
} from "../../db/schema";
import type { Db } from "../../lib/db";
import {
  CONDITION_SCOPES,
  CONDITION_TYPES,
  DISCOUNT_TYPES,
  PRICELIST_LEVELS,
  PROMOTION_STACKINGS,
  STATUSES,
  type PricelistCandidate,
  type PriceRow,
  type PromotionCandidate,
  type TradeConditionCandidate,
} from "../../pricing";
import {
  asIntRecord,
  asMember,
  codes,
  decodedBatch,
  flag,
  int,
  jsonArray,
  member,
  nullableInt,
  nullableText,
  select,
  statement,
  text,
} from "./prices.rows";

/**
 * Everything a price request needs, read in ONE D1 round trip (one batch of seven statements,
 * the last one the pricing data version, so it describes exactly the data the answer used).
 * Every statement finds the channel, the customer and the effective groups G by code itself, so
 * none waits for another's answer. Only records that can matter are read: pricelists that reach
 * the request at some level, price rows of the requested products in ACTIVE pricelists of the
 * effective currency, and conditions and promotions that reach this channel, customer and these
 * products. Without `explain` those must also be ACTIVE and not expired (not-yet-valid ones
 * still count for `validUntil`); with it, every status and window is read so the engine can say
 * why a record lost.
 */
export interface PriceQuery {
  channelCode: string;
  customerCode: string | null;
  currency: string | null;
  at: number;
  explain: boolean;
  productCodes: string[];
}

export interface PriceContext {
  channel: { code: string; isActive: boolean } | undefined;
  customer: { code: string; inChannel: boolean } | undefined;
  groupCodes: string[];
  /** The request's currency, else the channel primary pricelist's; null when neither exists. */
  currency: string | null;
  knownProducts: string[];
  pricelists: PricelistCandidate[];
  tradeConditions: TradeConditionCandidate[];
  promotions: PromotionCandidate[];
  /** The pricing data version (table pricing_version, bumped by triggers on every price write). */
  version: number;
}

const json = (values: unknown) => JSON.stringify(values);

type Fragments = ReturnType<typeof fragments>;

/** The statements' shared building blocks, as SQL fragments of one query. */
function fragments(q: PriceQuery) {
  const products = sql`(select value from json_each(${json(q.productCodes)}))`;
  // G: the customer's groups that are assigned to this channel.
  const groups = sql`(select m.customer_group_id from customer_group_members m
    join customers cu on cu.id = m.customer_id
    join channel_customer_groups cg on cg.customer_group_id = m.customer_group_id
    join channels ch on ch.id = cg.channel_id
    where cu.code = ${q.customerCode} and ch.code = ${q.channelCode})`;
  const currency = sql`coalesce(${q.currency}, (select p.currency from channel_pricelists cp
    join channels ch on ch.id = cp.channel_id join pricelists p on p.id = cp.pricelist_id
    where ch.code = ${q.channelCode} and cp.is_primary = 1))`;
  // Every pricelist reaching the request, once per level (pricing-rules step 1).
  const reaching = sql`(
    select p.id as pricelist_id, 'INDIVIDUAL' as level from pricelists p
      join customers cu on cu.id = p.customer_id where cu.code = ${q.customerCode}
    union all select cp.pricelist_id, 'CUSTOMER' from customer_pricelists cp
      join customers cu on cu.id = cp.customer_id where cu.code = ${q.customerCode}
    union all select gp.pricelist_id, 'CUSTOMER_GROUP' from customer_group_pricelists gp
      where gp.customer_group_id in ${groups}
    union all select cp.pricelist_id, case when cp.is_primary = 1 then 'CHANNEL_PRIMARY' else 'CHANNEL' end
      from channel_pricelists cp join channels ch on ch.id = cp.channel_id
      where ch.code = ${q.channelCode})`;
  // Without explain, records that cannot price now or later are not read at all.
  const live = (table: string) =>
    q.explain
      ? sql`1 = 1`
      : sql`${sql.raw(table)}.status = 'ACTIVE' and (${sql.raw(table)}.valid_to is null or ${sql.raw(table)}.valid_to > ${q.at})`;
  const inChannel = (link: string, owner: string, id: string) =>
    sql`(not exists (select 1 from ${sql.raw(link)} l where l.${sql.raw(owner)} = ${sql.raw(id)})
      or exists (select 1 from ${sql.raw(link)} l join channels ch on ch.id = l.channel_id
        where l.${sql.raw(owner)} = ${sql.raw(id)} and ch.code = ${q.channelCode}))`;
  // The requested products' ids, and the records linked to any of them: read from the link
  // tables' product index (a few rows per product), once per statement, not per record.
  const productIds = sql`(select pr.id from products pr where pr.code in ${products})`;
  const forProducts = (link: string, owner: string, id: string) =>
    sql`(not exists (select 1 from ${sql.raw(link)} l where l.${sql.raw(owner)} = ${sql.raw(id)})
      or ${sql.raw(id)} in (select l.${sql.raw(owner)} from ${sql.raw(link)} l
        where l.product_id in ${productIds}))`;
  return { products, groups, currency, reaching, live, inChannel, forProducts };
}

// The aliases the statements give these tables in their FROM clauses.
const ch = alias(channels, "ch");
const p = alias(pricelists, "p");
const pp = alias(pricelistPrices, "pp");
const pr = alias(products, "pr");

function contextStatement(q: PriceQuery, f: Fragments) {
  const columns = select({
    channelCode: text(ch.code),
    channelIsActive: flag(ch.isActive),
    customerCode: nullableText(sql`(select code from customers where code = ${q.customerCode})`),
    customerInChannel: flag(sql`exists (select 1 from channel_customers cc
      join customers cu on cu.id = cc.customer_id
      where cc.channel_id = ch.id and cu.code = ${q.customerCode})`),
    groupCodes: codes(
      sql`(select json_group_array(g.code) from customer_groups g where g.id in ${f.groups})`,
    ),
    currency: nullableText(f.currency),
  });
  return statement(columns, sql`from channels ch where ch.code = ${q.channelCode}`);
}

const pricelistColumns = select({
  id: int(p.id),
  name: text(p.name),
  status: member(STATUSES, p.status),
  currency: text(p.currency),
  priority: int(p.priority),
  validFrom: nullableInt(p.validFrom),
  validTo: nullableInt(p.validTo),
  allowsTradeDiscounts: flag(p.allowsTradeDiscounts),
  taxInclusive: flag(p.taxInclusive),
  levels: jsonArray(asMember(PRICELIST_LEVELS), sql`json_group_array(distinct r.level)`),
});

const pricelistsStatement = (f: Fragments) =>
  statement(
    pricelistColumns,
    sql`from ${f.reaching} r join pricelists p on p.id = r.pricelist_id group by p.id`,
  );

const priceColumns = select({
  pricelistId: int(pp.pricelistId),
  productCode: text(pr.code),
  minQuantity: int(pp.minQuantity),
  amount: int(pp.amount),
});

const pricesStatement = (f: Fragments) =>
  statement(
    priceColumns,
    sql`from pricelist_prices pp join products pr on pr.id = pp.product_id
    where pr.code in ${f.products}
      and pp.pricelist_id in (select r.pricelist_id from ${f.reaching} r
        join pricelists p on p.id = r.pricelist_id
        where p.status = 'ACTIVE' and p.currency = ${f.currency})`,
  );

/**
 * The codes linked to the outer record through a link table, trimmed to what this request can
 * match: never empty when the record has links (the statements' filters guarantee a match), so
 * "empty = all" keeps its meaning.
 */
const linked =
  (owner: string, ownerFk: string) => (link: string, targetFk: string, target: string, only: SQL) =>
    codes(linkedCodes(link, ownerFk, owner, targetFk, target, only));

function conditionColumns(q: PriceQuery, f: Fragments) {
  const t = tradeConditions;
  const via = linked("trade_conditions.id", "trade_condition_id");
  return select({
    id: int(t.id),
    name: text(t.name),
    scope: member(CONDITION_SCOPES, t.scope),
    status: member(STATUSES, t.status),
    type: member(CONDITION_TYPES, t.type),
    discountType: member(DISCOUNT_TYPES, t.discountType),
    value: int(t.value),
    currency: nullableText(t.currency),
    validFrom: nullableInt(t.validFrom),
    validTo: nullableInt(t.validTo),
    priority: int(t.priority),
    stackable: flag(t.stackable),
    productCodes: via(
      "trade_condition_products",
      "product_id",
      "products",
      sql`t.code in ${f.products}`,
    ),
    channelCodes: via(
      "trade_condition_channels",
      "channel_id",
      "channels",
      sql`t.code = ${q.channelCode}`,
    ),
    customerCodes: via(
      "trade_condition_customers",
      "customer_id",
      "customers",
      sql`t.code = ${q.customerCode}`,
    ),
    customerGroupCodes: via(
      "trade_condition_customer_groups",
      "customer_group_id",
      "customer_groups",
      sql`t.id in ${f.groups}`,
    ),
    scales: jsonArray(
      asIntRecord("minQuantity", "value"),
      sql`(select json_group_array(json_object('minQuantity', s.min_quantity, 'value', s.value))
        from trade_condition_scales s where s.trade_condition_id = trade_conditions.id)`,
    ),
  });
}

// Driven from the candidates the scope can admit (GLOBAL and CHANNEL ones, those linked to the
// customer or to a group in G), not from every ACTIVE condition: the filters below then run
// for a few hundred records at most. The scope test stays, so the rows are the same.
function conditionsStatement(q: PriceQuery, f: Fragments) {
  const tc = sql.raw("trade_conditions.id");
  return statement(
    conditionColumns(q, f),
    sql`from (select t.id from trade_conditions t where t.scope in ('GLOBAL', 'CHANNEL') and ${f.live("t")}
        union select l.trade_condition_id from trade_condition_customers l
          join customers cu on cu.id = l.customer_id where cu.code = ${q.customerCode}
        union select l.trade_condition_id from trade_condition_customer_groups l
          where l.customer_group_id in ${f.groups}) candidate
      cross join trade_conditions on trade_conditions.id = candidate.id
    where ${f.live("trade_conditions")}
      and ${f.inChannel("trade_condition_channels", "trade_condition_id", "trade_conditions.id")}
      and ${f.forProducts("trade_condition_products", "trade_condition_id", "trade_conditions.id")}
      and (trade_conditions.scope in ('GLOBAL', 'CHANNEL')
        or (trade_conditions.scope = 'CUSTOMER_GROUP' and exists (select 1 from trade_condition_customer_groups l
              where l.trade_condition_id = ${tc} and l.customer_group_id in ${f.groups}))
        or (trade_conditions.scope = 'CUSTOMER' and exists (select 1 from trade_condition_customers l
              join customers cu on cu.id = l.customer_id
              where l.trade_condition_id = ${tc} and cu.code = ${q.customerCode})))`,
  );
}

function promotionColumns(q: PriceQuery, f: Fragments) {
  const t = promotions;
  const via = linked("promotions.id", "promotion_id");
  return select({
    id: int(t.id),
    name: text(t.name),
    status: member(STATUSES, t.status),
    discountType: member(DISCOUNT_TYPES, t.discountType),
    value: int(t.value),
    currency: nullableText(t.currency),
    validFrom: nullableInt(t.validFrom),
    validTo: nullableInt(t.validTo),
    priority: int(t.priority),
    stacking: member(PROMOTION_STACKINGS, t.stacking),
    productCodes: via("promotion_products", "product_id", "products", sql`t.code in ${f.products}`),
    channelCodes: via(
      "promotion_channels",
      "channel_id",
      "channels",
      sql`t.code = ${q.channelCode}`,
    ),
    customerGroupCodes: via(
      "promotion_customer_groups",
      "customer_group_id",
      "customer_groups",
      sql`t.id in ${f.groups}`,
    ),
  });
}

function promotionsStatement(q: PriceQuery, f: Fragments) {
  const pr = sql.raw("promotions.id");
  return statement(
    promotionColumns(q, f),
    sql`from promotions
    where ${f.live("promotions")}
      and ${f.inChannel("promotion_channels", "promotion_id", "promotions.id")}
      and ${f.forProducts("promotion_products", "promotion_id", "promotions.id")}
      and (not exists (select 1 from promotion_customer_groups l where l.promotion_id = ${pr})
        or exists (select 1 from promotion_customer_groups l
          where l.promotion_id = ${pr} and l.customer_group_id in ${f.groups}))`,
  );
}

const knownStatement = (f: Fragments) =>
  statement(select({ code: text(products.code) }), sql`from products where code in ${f.products}`);

const versionStatement = statement(
  select({ version: int(pricingVersion.version) }),
  sql`from pricing_version where id = 1`,
);

/** The price rows of each pricelist, by pricelist id. */
function pricesByPricelist(rows: readonly (PriceRow & { pricelistId: number })[]) {
  const byId = new Map<number, PriceRow[]>();
  for (const { pricelistId, productCode, minQuantity, amount } of rows) {
    const list = byId.get(pricelistId);
    const row = { productCode, minQuantity, amount };
    if (list) list.push(row);
    else byId.set(pricelistId, [row]);
  }
  return byId;
}

/** The loader's batch, each statement with its decoder; the version last (see PriceQuery). */
export function priceStatements(q: PriceQuery) {
  const f = fragments(q);
  return [
    contextStatement(q, f),
    pricelistsStatement(f),
    pricesStatement(f),
    conditionsStatement(q, f),
    promotionsStatement(q, f),
    knownStatement(f),
    versionStatement,
  ] as const;
}

export async function loadPriceContext(db: Db, q: PriceQuery): Promise<PriceContext> {
  const [context, pricelistRows, priceRows, conditions, promotionRows, known, version] =
    await decodedBatch(db, priceStatements(q));
  const head = context[0];
  const prices = pricesByPricelist(priceRows);
  return {
    channel: head && { code: head.channelCode, isActive: head.channelIsActive },
    customer:
      head?.customerCode != null
        ? { code: head.customerCode, inChannel: head.customerInChannel }
        : undefined,
    groupCodes: (head?.groupCodes ?? []).sort(),
    currency: head?.currency ?? null,
    knownProducts: known.map((row) => row.code),
    version: version[0]?.version ?? 0,
    // Issue 12's inputs (groups, derivations, order-level scales, thresholds) are not loaded
    // yet: every record reads as before them.
    pricelists: pricelistRows.map((row) => ({
      ...row,
      derivation: null,
      prices: prices.get(row.id) ?? [],
    })),
    tradeConditions: conditions.map((row) => ({
      ...row,
      productGroupCodes: [],
      scaleBasis: "LINE_QUANTITY" as const,
      scales: row.scales.map((s) => ({ minimum: s.minQuantity, value: s.value })),
    })),
    promotions: promotionRows.map((row) => ({ ...row, productGroupCodes: [], threshold: null })),
  };
}
