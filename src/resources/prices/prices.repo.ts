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
import type { Db } from "../../db/client";
import {
  CONDITION_SCOPES,
  CONDITION_TYPES,
  DISCOUNT_TYPES,
  PRICELIST_LEVELS,
  PROMOTION_STACKINGS,
  ROUNDING_MODES,
  SCALE_BASES,
  STATUSES,
  THRESHOLD_BASES,
  type Derivation,
  type FloorPricelist,
  type PriceBase,
  type ProductFacts,
  type RoundingMode,
  type PricelistCandidate,
  type PriceRow,
  type PromotionCandidate,
  type TradeConditionCandidate,
} from "../../pricing";
import {
  asIntRecord,
  asMember,
  bindStatements,
  codes,
  decodedBatch,
  flag,
  int,
  jsonArray,
  member,
  nullableInt,
  nullableMember,
  nullableText,
  select,
  statement,
  text,
  type RowOf,
} from "../../db/rows";

/**
 * Everything a price request needs, read in ONE D1 round trip (one batch of seven statements,
 * the last one the pricing data version, so it describes exactly the data the answer used).
 * Every statement finds the channel, the customer and the effective groups G by code itself, so
 * none waits for another's answer. Only records that can matter are read: pricelists that reach
 * the request at some level, price rows of the requested products in ACTIVE pricelists of the
 * effective currency (with `explain`, of every status), and conditions and promotions that reach
 * this channel, customer and these products. Without `explain` those must also be ACTIVE and not
 * expired (not-yet-valid ones still count for `validUntil`); with it, every status and window is
 * read so the engine can say why a record lost.
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
  products: Map<string, ProductFacts>;
  pricelists: PricelistCandidate[];
  priceBases: PriceBase[];
  floors: FloorPricelist[];
  tradeConditions: TradeConditionCandidate[];
  promotions: PromotionCandidate[];
  /** The pricing data version (table pricing_version, bumped by triggers on every price write). */
  version: number;
}

/**
 * The request's values in the statements: placeholders, bound when the batch is sent. The SQL
 * depends on `explain` only, so each statement is built and compiled once per value of it (when
 * the module loads), not on every request: building the batch's SQL took about as long as a
 * 1-line request's D1 work.
 */
const q = {
  channelCode: sql.placeholder("channelCode"),
  customerCode: sql.placeholder("customerCode"),
  currency: sql.placeholder("currency"),
  at: sql.placeholder("at"),
  /** A JSON array of the requested product codes. */
  productCodes: sql.placeholder("productCodes"),
};
type Params = typeof q;

const valuesOf = (query: PriceQuery): Record<keyof Params, unknown> => ({
  channelCode: query.channelCode,
  customerCode: query.customerCode,
  currency: query.currency,
  at: query.at,
  productCodes: JSON.stringify(query.productCodes),
});

type Fragments = ReturnType<typeof fragments>;

/**
 * Requested products are read by code from the index holding what the loader needs of them
 * (migration 0016): no table row is read. Named, because without statistics SQLite would
 * prefer the unique index on code, which does not hold the columns.
 */
const byLookupIndex = sql.raw("indexed by products_lookup_idx");

/**
 * Every pricelist reaching the request, once per level (pricing-rules step 1): through the
 * customer (and G, `groups`), through the channel, and both.
 */
function reachingLists(groups: SQL) {
  const customerReaching = sql`select p.id as pricelist_id, 'INDIVIDUAL' as level from pricelists p
      join customers cu on cu.id = p.customer_id where cu.code = ${q.customerCode}
    union all select cp.pricelist_id, 'CUSTOMER' from customer_pricelists cp
      join customers cu on cu.id = cp.customer_id where cu.code = ${q.customerCode}
    union all select gp.pricelist_id, 'CUSTOMER_GROUP' from customer_group_pricelists gp
      where gp.customer_group_id in ${groups}`;
  const channelReaching = sql`select cp.pricelist_id as pricelist_id,
      case when cp.is_primary = 1 then 'CHANNEL_PRIMARY' else 'CHANNEL' end as level
      from channel_pricelists cp join channels ch on ch.id = cp.channel_id
      where ch.code = ${q.channelCode}`;
  const reaching = sql`(${customerReaching}
    union all ${channelReaching})`;
  return { customerReaching, channelReaching, reaching };
}

/** The statements' shared building blocks, as SQL fragments of one query. */
function fragments(explain: boolean) {
  const products = sql`(select value from json_each(${q.productCodes}))`;
  // G: the customer's groups that are assigned to this channel.
  const groups = sql`(select m.customer_group_id from customer_group_members m
    join customers cu on cu.id = m.customer_id
    join channel_customer_groups cg on cg.customer_group_id = m.customer_group_id
    join channels ch on ch.id = cg.channel_id
    where cu.code = ${q.customerCode} and ch.code = ${q.channelCode})`;
  const primaryCurrency = sql`(select p.currency from channel_pricelists cp
    join channels ch on ch.id = cp.channel_id join pricelists p on p.id = cp.pricelist_id
    where ch.code = ${q.channelCode} and cp.is_primary = 1)`;
  const currency = sql`coalesce(${q.currency}, ${primaryCurrency})`;
  const { customerReaching, channelReaching, reaching } = reachingLists(groups);
  // Without explain, records that cannot price now or later are not read at all. `active` is the
  // part of that test that does not depend on the moment (what the channel context keeps).
  const active = (table: string) =>
    explain ? sql`1 = 1` : sql`${sql.raw(table)}.status = 'ACTIVE'`;
  const live = (table: string) =>
    explain
      ? sql`1 = 1`
      : sql`${active(table)} and (${sql.raw(table)}.valid_to is null or ${sql.raw(table)}.valid_to > ${q.at})`;
  const inChannel = (link: string, owner: string, id: string) =>
    sql`(not exists (select 1 from ${sql.raw(link)} l where l.${sql.raw(owner)} = ${sql.raw(id)})
      or exists (select 1 from ${sql.raw(link)} l join channels ch on ch.id = l.channel_id
        where l.${sql.raw(owner)} = ${sql.raw(id)} and ch.code = ${q.channelCode}))`;
  // The requested products (id and group) and their groups with every ancestor (the forest is
  // at most 8 deep), as common table expressions a statement declares once (`requested`) and
  // reads wherever it needs them: SQLite materializes each once per statement. Written inline
  // instead, each use walked the products again (500 row reads per use at 500 lines).
  const requested = sql`with recursive
    requested_products(id, code, group_id, min_order_quantity, order_increment, max_order_quantity)
      as materialized (select pr.id, pr.code, pr.product_group_id, pr.min_order_quantity,
        pr.order_increment, pr.max_order_quantity
      from products pr ${byLookupIndex} where pr.code in ${products}),
    requested_groups(id) as (
      select group_id from requested_products where group_id is not null
      union select g.parent_id from product_groups g join requested_groups r on g.id = r.id
        where g.parent_id is not null)`;
  const productIds = sql`(select id from requested_products)`;
  const groupIds = sql`(select id from requested_groups)`;
  // A record reaches the products when it names none (and no group), or names one of them, or
  // a group one of them is in (docs/pricing-rules.md §12). Its few group links are checked one
  // by one (`+`): a list of every link of every requested group cost more to build.
  const forProducts = (owner: string, id: string, productLink: string, groupLink: string) => {
    const [o, i] = [sql.raw(owner), sql.raw(id)];
    return sql`((not exists (select 1 from ${sql.raw(productLink)} l where l.${o} = ${i})
        and not exists (select 1 from ${sql.raw(groupLink)} l where l.${o} = ${i}))
      or ${i} in (select l.${o} from ${sql.raw(productLink)} l where l.product_id in ${productIds})
      or exists (select 1 from ${sql.raw(groupLink)} l
        where l.${o} = ${i} and +l.product_group_id in ${groupIds}))`;
  };
  // The channel's FLOOR pricelists, whatever their state: the engine says why one does not apply.
  const floors = sql`(select cp.pricelist_id from channel_pricelists cp
    join channels ch on ch.id = cp.channel_id join pricelists p on p.id = cp.pricelist_id
    where ch.code = ${q.channelCode} and p.kind = 'FLOOR')`;
  return {
    products,
    requested,
    productIds,
    groups,
    primaryCurrency,
    currency,
    reaching,
    customerReaching,
    channelReaching,
    active,
    live,
    inChannel,
    groupIds,
    forProducts,
    floors,
    pricing: pricingLists(reaching, currency),
    explain,
  };
}

/**
 * The pricelists of the request as common table expressions: `reaching`, every list reaching it
 * once per level; `pricing`, those that can price (SALES, ACTIVE, in the currency: the engine
 * stops at that check for the others, so their rows and bases would never be looked at); and
 * `chain`, every list one of those derives from, up to 3 steps, whatever its state
 * (docs/pricing-rules.md §3.7).
 */
const pricingLists = (reaching: SQL, currency: SQL) => sql`with recursive
    reaching(pricelist_id, level) as ${reaching},
    pricing(id) as (select r.pricelist_id from reaching r join pricelists p on p.id = r.pricelist_id
      where p.status = 'ACTIVE' and p.currency = ${currency} and p.kind = 'SALES'),
    ${chainFrom("pricing")}`;

/** `chain(id, steps)`: every list one of the lists `starts(id)` derives from, up to 3 steps. */
const chainFrom = (starts: "pricing" | "sales") => {
  const from = sql.raw(starts);
  return sql`chain(id, steps) as (
      select p.base_pricelist_id, 1 from ${from} join pricelists p on p.id = ${from}.id
        where p.base_pricelist_id is not null
      union select b.base_pricelist_id, chain.steps + 1 from chain join pricelists b on b.id = chain.id
        where b.base_pricelist_id is not null and chain.steps < 3)`;
};

/**
 * The lists reaching at some levels (`reaching`: the channel's two, or the customer's three), for
 * the cached contexts (prices.context.ts): `reaching`, and `chain` from every SALES list among
 * them whatever its status and currency, so that the chain of the lists that can price in any
 * currency is among it.
 */
const levelLists = (reaching: SQL) => sql`with recursive
    reaching(pricelist_id, level) as (${reaching}),
    sales(id) as (select r.pricelist_id from reaching r join pricelists p on p.id = r.pricelist_id
      where p.kind = 'SALES'),
    ${chainFrom("sales")}`;

// The aliases the statements give these tables in their FROM clauses.
const ch = alias(channels, "ch");
const p = alias(pricelists, "p");
const pp = alias(pricelistPrices, "pp");
const pr = alias(products, "pr");

/** The customer, whether it buys in the channel (`channelId`), and G (its groups there). */
const customerFields = (q: Params, f: Fragments, channelId: SQL) => ({
  customerCode: nullableText(sql`(select code from customers where code = ${q.customerCode})`),
  customerInChannel: flag(sql`exists (select 1 from channel_customers cc
      join customers cu on cu.id = cc.customer_id
      where cc.channel_id = ${channelId} and cu.code = ${q.customerCode})`),
  groupCodes: codes(
    sql`(select json_group_array(g.code) from customer_groups g where g.id in ${f.groups})`,
  ),
});

function contextStatement(q: Params, f: Fragments) {
  const columns = select({
    channelCode: text(ch.code),
    channelIsActive: flag(ch.isActive),
    ...customerFields(q, f, sql`ch.id`),
    currency: nullableText(f.currency),
  });
  return statement(columns, sql`from channels ch where ch.code = ${q.channelCode}`);
}

/** The channel, and the currency of its primary list (that of a request that names none). */
const channelStatement = (q: Params, f: Fragments) =>
  statement(
    select({
      channelCode: text(ch.code),
      channelIsActive: flag(ch.isActive),
      primaryCurrency: nullableText(f.primaryCurrency),
    }),
    sql`from channels ch where ch.code = ${q.channelCode}`,
  );

/** The request's customer, in one row (also when no such customer or channel exists). */
const customerStatement = (q: Params, f: Fragments) =>
  statement(
    select(customerFields(q, f, sql`(select id from channels where code = ${q.channelCode})`)),
    sql``,
  );

/** A pricelist's derivation, as its columns (all null without one). */
const derivationColumns = {
  basePricelistId: nullableInt(p.basePricelistId),
  adjustmentBp: nullableInt(p.adjustmentBp),
  roundingMode: nullableMember(ROUNDING_MODES, p.roundingMode),
  roundingStep: nullableInt(p.roundingStep),
  roundingEnding: nullableInt(p.roundingEnding),
};

/** What a list is to the request: a candidate (reaching, SALES), a base of one, a floor. */
const LIST_ROLES = ["CANDIDATE", "BASE", "FLOOR"] as const;
type ListRole = (typeof LIST_ROLES)[number];

const listColumns = (role: ListRole, levels: SQL) =>
  select({
    role: member(LIST_ROLES, sql.raw(`'${role}'`)),
    id: int(p.id),
    name: text(p.name),
    status: member(STATUSES, p.status),
    currency: text(p.currency),
    priority: int(p.priority),
    validFrom: nullableInt(p.validFrom),
    validTo: nullableInt(p.validTo),
    allowsTradeDiscounts: flag(p.allowsTradeDiscounts),
    taxInclusive: flag(p.taxInclusive),
    levels: jsonArray(asMember(PRICELIST_LEVELS), levels),
    ...derivationColumns,
  });

/**
 * Every pricelist the request needs, in one statement: the candidates with their levels, then
 * the lists they derive from (sources of amounts, whatever their status or window), then the
 * channel's floors; each part by id. `ctes` declare `reaching` and `chain`; `floors` null: none.
 */
const listsStatement = (ctes: SQL, floors: SQL | null) => {
  const none = sql`'[]'`;
  return statement(
    listColumns("CANDIDATE", sql`json_group_array(distinct r.level)`),
    sql`from reaching r join pricelists p on p.id = r.pricelist_id
      where p.kind = 'SALES' group by p.id
    union all select ${listColumns("BASE", none).list} from pricelists p
      where p.id in (select id from chain)
    ${floors ? sql`union all select ${listColumns("FLOOR", none).list} from pricelists p where p.id in ${floors}` : sql``}`,
    ctes,
  );
};

const pricelistsStatement = (f: Fragments) => listsStatement(f.pricing, f.floors);

const priceColumns = select({
  pricelistId: int(pp.pricelistId),
  productCode: text(pr.code),
  minQuantity: int(pp.minQuantity),
  amount: int(pp.amount),
});

// With explain, also the rows of reaching lists of every status: explain shows what a DRAFT or
// INACTIVE list would have priced (docs/pricing-rules.md §9); the engine never prices them.
const shownTiers = (f: Fragments) => sql`union select r.pricelist_id from reaching r
    join pricelists p on p.id = r.pricelist_id
    where p.currency = ${f.currency} and p.kind = 'SALES'`;

const pricesStatement = (f: Fragments) =>
  statement(
    priceColumns,
    sql`from pricelist_prices pp join products pr on pr.id = pp.product_id
    where pr.code in ${f.products}
      and pp.pricelist_id in (select id from pricing union select id from chain
        ${f.explain ? shownTiers(f) : sql``}
        union select * from ${f.floors})`,
    f.pricing,
  );

/**
 * The codes linked to the outer record through a link table, trimmed to what this request can
 * match: never empty when the record has links (the statements' filters guarantee a match), so
 * "empty = all" keeps its meaning.
 */
const linked =
  (owner: string, ownerFk: string) =>
  (link: string, targetFk: string, target: string, only: SQL | undefined) =>
    codes(linkedCodes(link, ownerFk, owner, targetFk, target, only));

/**
 * Whether link lists are trimmed to what this request can match (the one-batch loader); to the
 * customer only (the customer context, which serves every product: its customer and group links
 * trimmed to the customer and G as the key names them); or hold every link (the channel context,
 * which serves every customer and product). prices.context.ts trims the rest in memory the same
 * way. Channel links are trimmed to the channel either way.
 */
type Trim = "REQUEST" | "CUSTOMER" | "NONE";

/**
 * The link lists conditions and promotions share (tables `<owner>_products`, …), each trimmed to
 * what this request can match unless `trim` is NONE.
 */
function sharedLinks(q: Params, f: Fragments, owner: "trade_condition" | "promotion", trim: Trim) {
  const via = linked(`${owner}s.id`, `${owner}_id`);
  const link = (target: string, fk: string, only: SQL, trims = trim === "REQUEST") =>
    via(`${owner}_${target}`, fk, target, trims ? only : undefined);
  // `+t.id`: the record's few links are read and each checked against the requested set. A bare
  // `t.id in (…)` lets SQLite probe the link index once per requested product or group for every
  // record instead (500 probes per record at 500 lines).
  return {
    productCodes: link("products", "product_id", sql`+t.id in ${f.productIds}`),
    channelCodes: via(
      `${owner}_channels`,
      "channel_id",
      "channels",
      sql`t.code = ${q.channelCode}`,
    ),
    customerGroupCodes: link(
      "customer_groups",
      "customer_group_id",
      sql`t.id in ${f.groups}`,
      trim !== "NONE",
    ),
    productGroupCodes: link("product_groups", "product_group_id", sql`+t.id in ${f.groupIds}`),
  };
}

function conditionColumns(q: Params, f: Fragments, trim: Trim) {
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
    ...sharedLinks(q, f, "trade_condition", trim),
    customerCodes: via(
      "trade_condition_customers",
      "customer_id",
      "customers",
      trim === "NONE" ? undefined : sql`t.code = ${q.customerCode}`,
    ),
    scaleBasis: member(SCALE_BASES, t.scaleBasis),
    scales: jsonArray(
      asIntRecord("minimum", "value"),
      sql`(select json_group_array(json_object('minimum', s.min_quantity, 'value', s.value))
        from trade_condition_scales s where s.trade_condition_id = trade_conditions.id)`,
    ),
  });
}

// Driven from the candidates the scope can admit (GLOBAL and CHANNEL ones, those linked to the
// customer or to a group in G), not from every ACTIVE condition: the filters below then run
// for a few hundred records at most. The scope test stays, so the rows are the same.
// `scopes` CUSTOMER: the customer context's conditions (prices.context.ts), those aimed at the
// customer or G, for every product and moment: ACTIVE ones (with explain, all) of any window,
// with every product link, by id; the channel context holds the GLOBAL and CHANNEL ones.
function conditionsStatement(q: Params, f: Fragments, scopes: "ALL" | "CUSTOMER" = "ALL") {
  const tc = sql.raw("trade_conditions.id");
  const all = scopes === "ALL";
  const reach = sql`and ${f.forProducts("trade_condition_id", "trade_conditions.id", "trade_condition_products", "trade_condition_product_groups")}`;
  return statement(
    conditionColumns(q, f, all ? "REQUEST" : "CUSTOMER"),
    sql`from (${all ? sql`select t.id from trade_conditions t where t.scope in ('GLOBAL', 'CHANNEL') and ${f.live("t")} union ` : sql``}select l.trade_condition_id as id from trade_condition_customers l
          join customers cu on cu.id = l.customer_id where cu.code = ${q.customerCode}
        union select l.trade_condition_id from trade_condition_customer_groups l
          where l.customer_group_id in ${f.groups}) candidate
      cross join trade_conditions on trade_conditions.id = candidate.id
    where ${all ? f.live("trade_conditions") : f.active("trade_conditions")}
      and ${f.inChannel("trade_condition_channels", "trade_condition_id", "trade_conditions.id")}
      ${all ? reach : sql``}
      and (${all ? sql`trade_conditions.scope in ('GLOBAL', 'CHANNEL') or ` : sql``}(trade_conditions.scope = 'CUSTOMER_GROUP' and exists (select 1 from trade_condition_customer_groups l
              where l.trade_condition_id = ${tc} and l.customer_group_id in ${f.groups}))
        or (trade_conditions.scope = 'CUSTOMER' and exists (select 1 from trade_condition_customers l
              join customers cu on cu.id = l.customer_id
              where l.trade_condition_id = ${tc} and cu.code = ${q.customerCode})))
    ${all ? sql`` : sql`order by trade_conditions.id`}`,
    all ? f.requested : undefined,
  );
}

/**
 * The channel's GLOBAL and CHANNEL conditions, for every customer, product and moment: ACTIVE
 * ones (with explain, all) of any window that reach the channel, with every link. The request's
 * window, product and group tests are made in memory (prices.context.ts), as
 * conditionsStatement makes them in SQL.
 */
const channelConditionsStatement = (q: Params, f: Fragments) =>
  statement(
    conditionColumns(q, f, "NONE"),
    sql`from trade_conditions
    where trade_conditions.scope in ('GLOBAL', 'CHANNEL') and ${f.active("trade_conditions")}
      and ${f.inChannel("trade_condition_channels", "trade_condition_id", "trade_conditions.id")}
    order by trade_conditions.id`,
  );

function promotionColumns(q: Params, f: Fragments, trim: Trim) {
  const t = promotions;
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
    ...sharedLinks(q, f, "promotion", trim),
    thresholdBasis: nullableMember(THRESHOLD_BASES, t.thresholdBasis),
    thresholdMinimum: nullableInt(t.thresholdMinimum),
  });
}

function promotionsStatement(q: Params, f: Fragments) {
  const pr = sql.raw("promotions.id");
  return statement(
    promotionColumns(q, f, "REQUEST"),
    sql`from promotions
    where ${f.live("promotions")}
      and ${f.inChannel("promotion_channels", "promotion_id", "promotions.id")}
      and ${f.forProducts("promotion_id", "promotions.id", "promotion_products", "promotion_product_groups")}
      and (not exists (select 1 from promotion_customer_groups l where l.promotion_id = ${pr})
        or exists (select 1 from promotion_customer_groups l
          where l.promotion_id = ${pr} and l.customer_group_id in ${f.groups}))`,
    f.requested,
  );
}

/** The channel's promotions for every customer, product and moment (see the conditions above). */
const channelPromotionsStatement = (q: Params, f: Fragments) =>
  statement(
    promotionColumns(q, f, "NONE"),
    sql`from promotions
    where ${f.active("promotions")}
      and ${f.inChannel("promotion_channels", "promotion_id", "promotions.id")}
    order by promotions.id`,
  );

/** A row of the products statement: a requested product, or a group on a product's path. */
const FACT_KINDS = ["PRODUCT", "GROUP"] as const;

const factColumns = (kind: (typeof FACT_KINDS)[number], row: Record<string, SQL>) =>
  select({
    kind: member(FACT_KINDS, sql.raw(`'${kind}'`)),
    code: text(row.code!),
    /** The product's group; the group itself. */
    groupId: nullableInt(row.groupId!),
    /** The group's parent (null for a product). */
    parentId: nullableInt(row.parentId!),
    minOrderQuantity: int(row.minOrderQuantity!),
    orderIncrement: int(row.orderIncrement!),
    maxOrderQuantity: nullableInt(row.maxOrderQuantity!),
  });

/**
 * The requested products (quantity rule, group) and then their groups with every ancestor, each
 * once: one read of the products serves both, and the loader walks each product's path in
 * memory (productFacts) instead of SQLite walking it once per product.
 */
const productsStatement = (f: Fragments) =>
  statement(
    factColumns("PRODUCT", {
      code: sql`rp.code`,
      groupId: sql`rp.group_id`,
      parentId: sql`null`,
      minOrderQuantity: sql`rp.min_order_quantity`,
      orderIncrement: sql`rp.order_increment`,
      maxOrderQuantity: sql`rp.max_order_quantity`,
    }),
    sql`from requested_products rp
    union all select ${
      factColumns("GROUP", {
        code: sql`g.code`,
        groupId: sql`g.id`,
        parentId: sql`g.parent_id`,
        minOrderQuantity: sql`1`,
        orderIncrement: sql`1`,
        maxOrderQuantity: sql`null`,
      }).list
    } from product_groups g where g.id in ${f.groupIds}`,
    f.requested,
  );

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

/** The loader's batch for one value of explain, each statement with its decoder. */
function compiledStatements(explain: boolean) {
  const f = fragments(explain);
  return [
    contextStatement(q, f),
    pricelistsStatement(f),
    pricesStatement(f),
    conditionsStatement(q, f),
    promotionsStatement(q, f),
    productsStatement(f),
    versionStatement,
  ] as const;
}

const COMPILED = { plain: compiledStatements(false), explain: compiledStatements(true) };

/** The loader's batch bound to the request; the version last (see PriceQuery). */
export const priceStatements = (query: PriceQuery) =>
  bindStatements(COMPILED[query.explain ? "explain" : "plain"], valuesOf(query));

interface DerivationColumns {
  basePricelistId: number | null;
  adjustmentBp: number | null;
  roundingMode: RoundingMode | null;
  roundingStep: number | null;
  roundingEnding: number | null;
}

/** The derivation of a pricelist row, without its columns. */
function derivationOf<T extends DerivationColumns>(row: T) {
  const { basePricelistId, adjustmentBp, roundingMode, roundingStep, roundingEnding, ...rest } =
    row;
  const derivation: Derivation | null =
    basePricelistId === null
      ? null
      : {
          basePricelistId,
          adjustmentBp: adjustmentBp ?? 0,
          rounding:
            roundingMode === null
              ? null
              : { mode: roundingMode, step: roundingStep ?? 1, ending: roundingEnding ?? 0 },
        };
  return { ...rest, derivation };
}

/** A group path never holds more than this many groups (a product's own and 8 ancestors). */
const MAX_GROUP_PATH = 9;

/** Each requested product's facts: its group path (own group first) and its quantity rule. */
function productFacts(rows: readonly RowOf<ReturnType<typeof productsStatement>>[]) {
  const groups = new Map<number, { code: string; parentId: number | null }>();
  for (const row of rows) if (row.kind === "GROUP") groups.set(row.groupId!, row);
  const facts = new Map<string, ProductFacts>();
  for (const row of rows) {
    if (row.kind !== "PRODUCT") continue;
    const groupPath: string[] = [];
    let group = row.groupId === null ? undefined : groups.get(row.groupId);
    while (group && groupPath.length < MAX_GROUP_PATH) {
      groupPath.push(group.code);
      group = group.parentId === null ? undefined : groups.get(group.parentId);
    }
    const { minOrderQuantity, orderIncrement, maxOrderQuantity } = row;
    facts.set(row.code, { minOrderQuantity, orderIncrement, maxOrderQuantity, groupPath });
  }
  return facts;
}

export type ListRow = RowOf<ReturnType<typeof pricelistsStatement>>;

/** The pricelists statement's rows as the engine takes them: candidates, bases and floors. */
export function listsOf(rows: readonly ListRow[], prices: ReadonlyMap<number, PriceRow[]>) {
  const pricesOf = (id: number) => prices.get(id) ?? [];
  const pricelists: PricelistCandidate[] = [];
  const priceBases: PriceBase[] = [];
  const floors: FloorPricelist[] = [];
  for (const { role, ...row } of rows) {
    const { id, name, status, currency, priority, validFrom, validTo } = row;
    if (role === "CANDIDATE") {
      pricelists.push({ ...derivationOf(row), prices: pricesOf(id) });
    } else if (role === "BASE") {
      const { derivation } = derivationOf(row);
      priceBases.push({ id, currency, derivation, prices: pricesOf(id) });
    } else {
      floors.push({
        id,
        name,
        status,
        currency,
        priority,
        validFrom,
        validTo,
        prices: pricesOf(id),
      });
    }
  }
  return { pricelists, priceBases, floors };
}

export async function loadPriceContext(db: Db, query: PriceQuery): Promise<PriceContext> {
  const [context, listRows, priceRows, conditions, promotionRows, productRows, version] =
    await decodedBatch(db, priceStatements(query));
  const head = context[0];
  return {
    channel: head && { code: head.channelCode, isActive: head.channelIsActive },
    customer:
      head?.customerCode != null
        ? { code: head.customerCode, inChannel: head.customerInChannel }
        : undefined,
    groupCodes: (head?.groupCodes ?? []).sort(),
    currency: head?.currency ?? null,
    products: productFacts(productRows),
    version: version[0]?.version ?? 0,
    ...listsOf(listRows, pricesByPricelist(priceRows)),
    tradeConditions: conditions,
    promotions: promotionRows.map(promotionOf),
  };
}

/** A promotions statement's row as the engine takes it. */
const promotionOf = ({
  thresholdBasis,
  thresholdMinimum,
  ...row
}: RowOf<ReturnType<typeof promotionsStatement>>): PromotionCandidate => ({
  ...row,
  threshold:
    thresholdBasis === null ? null : { basis: thresholdBasis, minimum: thresholdMinimum ?? 1 },
});

// ---------------------------------------------------------------------------------------------
// The same data in two parts, for the channel context cache (prices.context.ts): what every
// lookup in a channel shares, and what each lookup reads itself.
// ---------------------------------------------------------------------------------------------

/** The statements of the two parts for one value of explain. */
function compiledParts(explain: boolean) {
  const f = fragments(explain);
  return {
    /** The channel, its lists (candidates at the channel levels, their chains, floors), its
     * GLOBAL and CHANNEL conditions and its promotions, with every link: no customer, product
     * or moment in them. */
    channel: [
      channelStatement(q, f),
      listsStatement(levelLists(f.channelReaching), f.floors),
      channelConditionsStatement(q, f),
      channelPromotionsStatement(q, f),
    ] as const,
    /** The version, the requested products with their groups, and their price rows. */
    request: [versionStatement, productsStatement(f), pricesStatement(f)] as const,
    /** With a customer: the customer and G, the lists reaching it with their chains, and the
     * conditions aimed at it or at G, with every product link: no product or moment in them. */
    customer: [
      customerStatement(q, f),
      listsStatement(levelLists(f.customerReaching), null),
      conditionsStatement(q, f, "CUSTOMER"),
    ] as const,
  };
}

const PARTS = { plain: compiledParts(false), explain: compiledParts(true) };

const partsOf = (query: PriceQuery) => PARTS[query.explain ? "explain" : "plain"];

/** The request's own statements, and the customer's when `withCustomer` (never anonymous). */
function requestBatch(query: PriceQuery, withCustomer: boolean) {
  const values = valuesOf(query);
  const parts = partsOf(query);
  const customer =
    query.customerCode === null || !withCustomer
      ? undefined
      : bindStatements(parts.customer, values);
  return [
    ...bindStatements(parts.request, values),
    customer?.[0] ?? null,
    customer?.[1] ?? null,
    customer?.[2] ?? null,
  ] as const;
}

type RequestRows = Awaited<ReturnType<typeof decodedBatch<ReturnType<typeof requestBatch>>>>;

/** What one lookup reads itself, decoded; all of it from the data of `version`. */
export interface RequestPart {
  version: number;
  products: Map<string, ProductFacts>;
  /** The codes of the requested products' groups and their ancestors. */
  groupCodes: Set<string>;
  prices: Map<number, PriceRow[]>;
}

/** What every lookup of a customer in a channel shares, decoded (no product or moment in it). */
export interface CustomerPart {
  customer: RowOf<ReturnType<typeof customerStatement>> | undefined;
  /** The lists reaching the customer (levels INDIVIDUAL to CUSTOMER_GROUP) and their chains. */
  lists: ListRow[];
  /** CUSTOMER and CUSTOMER_GROUP conditions aimed at the customer or G. */
  conditions: TradeConditionCandidate[];
}

/** A lookup's own part, and the customer's part when it was read with it. */
export interface RequestParts {
  request: RequestPart;
  customer: CustomerPart | undefined;
}

function requestPartsOf([version, facts, prices, ...customer]: RequestRows): RequestParts {
  const groupCodes = new Set<string>();
  for (const row of facts) if (row.kind === "GROUP") groupCodes.add(row.code);
  const [head, lists, conditions] = customer;
  return {
    request: {
      version: version[0]?.version ?? 0,
      products: productFacts(facts),
      groupCodes,
      prices: pricesByPricelist(prices),
    },
    // Null statements decode to no rows: the customer's part was read when its head row was.
    customer: head.length === 0 ? undefined : { customer: head[0], lists, conditions },
  };
}

/** What every lookup in a channel shares, decoded (no customer, product or moment in it). */
export interface ChannelPart {
  channel: RowOf<ReturnType<typeof channelStatement>> | undefined;
  lists: ListRow[];
  conditions: TradeConditionCandidate[];
  promotions: PromotionCandidate[];
}

/**
 * The request's own part, with the customer's when `withCustomer`: ONE round trip (the channel
 * part, and else the customer's, are the caller's, of some version).
 */
export async function loadRequestPart(
  db: Db,
  query: PriceQuery,
  withCustomer: boolean,
): Promise<RequestParts> {
  return requestPartsOf(await decodedBatch(db, requestBatch(query, withCustomer)));
}

/** Every part in ONE round trip, so all describe the data of the version the request part names. */
export async function loadChannelAndRequest(db: Db, query: PriceQuery) {
  const channel = bindStatements(partsOf(query).channel, valuesOf(query));
  const [head, lists, conditions, promotions, ...request] = await decodedBatch(db, [
    ...channel,
    ...requestBatch(query, true),
  ]);
  const part: ChannelPart = {
    channel: head[0],
    lists,
    conditions,
    promotions: promotions.map(promotionOf),
  };
  return { channel: part, ...requestPartsOf(request) };
}

// The building blocks the publish simulation's channel-wide batch reuses
// (src/resources/simulations/simulations.repo.ts), so both read the same columns the same way.
export {
  q as priceParams,
  fragments as priceFragments,
  type Params as PriceParams,
  type Fragments as PriceFragments,
  conditionColumns,
  promotionColumns,
  listColumns,
  priceColumns,
  productsStatement,
  productFacts,
  pricesByPricelist,
};
