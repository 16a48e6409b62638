import { sql, type SQL } from "drizzle-orm";
import { linkedCodes } from "../../db/links";
import { rawBatch, type Db } from "../../lib/db";
import type {
  PricelistCandidate,
  PricelistLevel,
  PromotionCandidate,
  TradeConditionCandidate,
} from "../../pricing";

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
const listOf = (text: string | null) => (text ? (JSON.parse(text) as string[]) : []);

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

function statements(q: PriceQuery): SQL[] {
  const f = fragments(q);
  const context = sql`select ch.code, ch.is_active,
      (select code from customers where code = ${q.customerCode}) as customer_code,
      exists (select 1 from channel_customers cc join customers cu on cu.id = cc.customer_id
        where cc.channel_id = ch.id and cu.code = ${q.customerCode}) as customer_in_channel,
      (select json_group_array(g.code) from customer_groups g where g.id in ${f.groups}) as group_codes,
      ${f.currency} as currency
    from channels ch where ch.code = ${q.channelCode}`;
  const pricelists = sql`select p.id, p.name, p.status, p.currency, p.priority, p.valid_from, p.valid_to,
      p.allows_trade_discounts, p.tax_inclusive, json_group_array(distinct r.level) as levels
    from ${f.reaching} r join pricelists p on p.id = r.pricelist_id group by p.id`;
  const prices = sql`select pp.pricelist_id, pr.code as product_code, pp.min_quantity, pp.amount
    from pricelist_prices pp join products pr on pr.id = pp.product_id
    where pr.code in ${f.products}
      and pp.pricelist_id in (select r.pricelist_id from ${f.reaching} r
        join pricelists p on p.id = r.pricelist_id
        where p.status = 'ACTIVE' and p.currency = ${f.currency})`;
  // Link lists trimmed to what this request can match: never empty when the record has links
  // (the filters above guarantee a match), so "empty = all" keeps its meaning.
  const tc = "trade_conditions.id";
  // Driven from the candidates the scope can admit (GLOBAL and CHANNEL ones, those linked to the
  // customer or to a group in G), not from every ACTIVE condition: the filters below then run
  // for a few hundred records at most. The scope test stays, so the rows are the same.
  const conditions = sql`select trade_conditions.*,
      ${linkedCodes("trade_condition_products", "trade_condition_id", tc, "product_id", "products", sql`t.code in ${f.products}`)} as product_codes,
      ${linkedCodes("trade_condition_channels", "trade_condition_id", tc, "channel_id", "channels", sql`t.code = ${q.channelCode}`)} as channel_codes,
      ${linkedCodes("trade_condition_customers", "trade_condition_id", tc, "customer_id", "customers", sql`t.code = ${q.customerCode}`)} as customer_codes,
      ${linkedCodes("trade_condition_customer_groups", "trade_condition_id", tc, "customer_group_id", "customer_groups", sql`t.id in ${f.groups}`)} as customer_group_codes,
      (select json_group_array(json_object('minQuantity', s.min_quantity, 'value', s.value))
        from trade_condition_scales s where s.trade_condition_id = ${sql.raw(tc)}) as scales
    from (select t.id from trade_conditions t where t.scope in ('GLOBAL', 'CHANNEL') and ${f.live("t")}
        union select l.trade_condition_id from trade_condition_customers l
          join customers cu on cu.id = l.customer_id where cu.code = ${q.customerCode}
        union select l.trade_condition_id from trade_condition_customer_groups l
          where l.customer_group_id in ${f.groups}) candidate
      cross join trade_conditions on trade_conditions.id = candidate.id
    where ${f.live("trade_conditions")}
      and ${f.inChannel("trade_condition_channels", "trade_condition_id", tc)}
      and ${f.forProducts("trade_condition_products", "trade_condition_id", tc)}
      and (scope in ('GLOBAL', 'CHANNEL')
        or (scope = 'CUSTOMER_GROUP' and exists (select 1 from trade_condition_customer_groups l
              where l.trade_condition_id = ${sql.raw(tc)} and l.customer_group_id in ${f.groups}))
        or (scope = 'CUSTOMER' and exists (select 1 from trade_condition_customers l
              join customers cu on cu.id = l.customer_id
              where l.trade_condition_id = ${sql.raw(tc)} and cu.code = ${q.customerCode})))`;
  const pr = "promotions.id";
  const promotions = sql`select promotions.*,
      ${linkedCodes("promotion_products", "promotion_id", pr, "product_id", "products", sql`t.code in ${f.products}`)} as product_codes,
      ${linkedCodes("promotion_channels", "promotion_id", pr, "channel_id", "channels", sql`t.code = ${q.channelCode}`)} as channel_codes,
      ${linkedCodes("promotion_customer_groups", "promotion_id", pr, "customer_group_id", "customer_groups", sql`t.id in ${f.groups}`)} as customer_group_codes
    from promotions
    where ${f.live("promotions")}
      and ${f.inChannel("promotion_channels", "promotion_id", pr)}
      and ${f.forProducts("promotion_products", "promotion_id", pr)}
      and (not exists (select 1 from promotion_customer_groups l where l.promotion_id = ${sql.raw(pr)})
        or exists (select 1 from promotion_customer_groups l
          where l.promotion_id = ${sql.raw(pr)} and l.customer_group_id in ${f.groups}))`;
  const known = sql`select code from products where code in ${f.products}`;
  const version = sql`select version from pricing_version where id = 1`;
  return [context, pricelists, prices, conditions, promotions, known, version];
}

type Row = Record<string, unknown>;
const num = (v: unknown) => v as number;
const nullableNum = (v: unknown) => (v === null ? null : (v as number));
const bool = (v: unknown) => v === 1 || v === true;

const validity = (row: Row) => ({
  validFrom: nullableNum(row.valid_from),
  validTo: nullableNum(row.valid_to),
});

export async function loadPriceContext(db: Db, q: PriceQuery): Promise<PriceContext> {
  const [context, pricelistRows, priceRows, conditionRows, promotionRows, knownRows, versionRows] =
    await rawBatch<[Row[], Row[], Row[], Row[], Row[], Row[], Row[]]>(db, statements(q));
  const head = context[0];
  const prices = new Map<number, { productCode: string; minQuantity: number; amount: number }[]>();
  for (const row of priceRows) {
    const id = num(row.pricelist_id);
    const rows = prices.get(id) ?? [];
    rows.push({
      productCode: row.product_code as string,
      minQuantity: num(row.min_quantity),
      amount: num(row.amount),
    });
    prices.set(id, rows);
  }
  return {
    channel: head && { code: head.code as string, isActive: bool(head.is_active) },
    customer:
      head?.customer_code != null
        ? { code: head.customer_code as string, inChannel: bool(head.customer_in_channel) }
        : undefined,
    groupCodes: listOf(head?.group_codes as string | null).sort(),
    currency: (head?.currency as string | null) ?? null,
    knownProducts: knownRows.map((row) => row.code as string),
    version: num(versionRows[0]?.version ?? 0),
    pricelists: pricelistRows.map((row) => ({
      id: num(row.id),
      name: row.name as string,
      status: row.status as PricelistCandidate["status"],
      currency: row.currency as string,
      priority: num(row.priority),
      ...validity(row),
      allowsTradeDiscounts: bool(row.allows_trade_discounts),
      taxInclusive: bool(row.tax_inclusive),
      levels: listOf(row.levels as string) as PricelistLevel[],
      prices: prices.get(num(row.id)) ?? [],
    })),
    tradeConditions: conditionRows.map((row) => ({
      id: num(row.id),
      name: row.name as string,
      scope: row.scope as TradeConditionCandidate["scope"],
      status: row.status as TradeConditionCandidate["status"],
      type: row.type as TradeConditionCandidate["type"],
      discountType: row.discount_type as TradeConditionCandidate["discountType"],
      value: num(row.value),
      currency: (row.currency as string | null) ?? null,
      ...validity(row),
      priority: num(row.priority),
      stackable: bool(row.stackable),
      productCodes: listOf(row.product_codes as string),
      channelCodes: listOf(row.channel_codes as string),
      scales: JSON.parse(row.scales as string) as TradeConditionCandidate["scales"],
      customerCodes: listOf(row.customer_codes as string),
      customerGroupCodes: listOf(row.customer_group_codes as string),
    })),
    promotions: promotionRows.map((row) => ({
      id: num(row.id),
      name: row.name as string,
      status: row.status as PromotionCandidate["status"],
      discountType: row.discount_type as PromotionCandidate["discountType"],
      value: num(row.value),
      currency: (row.currency as string | null) ?? null,
      ...validity(row),
      priority: num(row.priority),
      stacking: row.stacking as PromotionCandidate["stacking"],
      productCodes: listOf(row.product_codes as string),
      channelCodes: listOf(row.channel_codes as string),
      customerGroupCodes: listOf(row.customer_group_codes as string),
    })),
  };
}
