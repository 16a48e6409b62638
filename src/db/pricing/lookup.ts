import { sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import {
  CHANNEL_ROUNDING_MODES,
  type ChannelRoundingMode,
  type CostPricelist,
  type ExchangeRate,
  type FloorPricelist,
  type PriceBase,
  type PricelistCandidate,
  type PriceRow,
  type ProductFacts,
  type PromotionCandidate,
  type QuoteTerms,
  type TradeConditionCandidate,
} from "../../pricing";
import type { Db } from "../client";
import { channels, pricingVersion } from "../schema";
import {
  bindStatements,
  codes,
  decodedBatch,
  flag,
  int,
  member,
  nullableText,
  select,
  statement,
  text,
  type RowOf,
} from "../rows";
import {
  conditionColumns,
  factColumns,
  listColumns,
  listsOf,
  priceColumns,
  pricesByPricelist,
  productFacts,
  promotionColumns,
  promotionOf,
  ratesAt,
  type ListRow,
  type Trim,
} from "./columns";
import { agreementsColumn, agreementsOf } from "./quote-terms";
import { params as q, valuesOf, type Params, type PriceQuery } from "./query";
import { byNamed, fragments, levelLists, type Fragments } from "./reach";
import { VISIBILITIES, type Visibility } from "../visibility";

/*
 * A price lookup's reads (docs/architecture.md "A price request's path"). Everything a lookup
 * needs, in ONE D1 round trip: either one batch of seven statements (`loadPriceContext`, the last
 * one the pricing data version, so it describes exactly the data the answer used), or, with the
 * cached contexts (contexts.ts), the request's own part with the parts the cache lacks. Every
 * statement finds the channel, the customer and G by code itself, so none waits for another's
 * answer. Only records that can matter are read (reach.ts).
 */

export type { PriceQuery };

export interface PriceContext {
  channel: { code: string; isActive: boolean; roundingMode: ChannelRoundingMode } | undefined;
  customer: { code: string; inChannel: boolean } | undefined;
  groupCodes: string[];
  /** The request's currency, else the channel primary pricelist's; null when neither exists. */
  currency: string | null;
  products: Map<string, ProductFacts>;
  pricelists: PricelistCandidate[];
  priceBases: PriceBase[];
  floors: FloorPricelist[];
  /** The channel's COST lists; [] unless the query's scope sees costs. */
  costs: CostPricelist[];
  tradeConditions: TradeConditionCandidate[];
  promotions: PromotionCandidate[];
  /** Per pair a derived list converts with, the rate in force at `at` and the next (§19). */
  exchangeRates: ExchangeRate[];
  /** The customer's ACCEPTED AGREEMENT quotes in the channel, every window (§28.2); [] anonymous. */
  agreements: QuoteTerms[];
  /** The pricing data version (table pricing_version, bumped by triggers on every price write). */
  version: number;
  /** The version of what a read key sees (bumped by every write but cost-only ones, migration 0027). */
  seenVersion: number;
}

const ch = alias(channels, "ch");

/** The customer, whether it buys in the channel (`channelId`), and G (its groups there). */
const customerFields = (q: Params, f: Fragments, channelId: SQL) => ({
  customerCode: nullableText(sql`(select code from customers where code = ${q.customerCode})`),
  customerInChannel: flag(sql`exists (select 1 from channel_customers cc
      join customers cu on cu.id = cc.customer_id
      where cc.channel_id = ${channelId} and cu.code = ${q.customerCode})`),
  groupCodes: codes(
    sql`(select json_group_array(g.code) from customer_groups g where g.id in ${f.groups})`,
  ),
  // Its accepted agreements in the channel (docs/pricing-rules.md §28.2): no statement more.
  agreements: agreementsColumn(q, channelId),
});

function contextStatement(f: Fragments) {
  const columns = select({
    channelCode: text(ch.code),
    channelIsActive: flag(ch.isActive),
    roundingMode: member(CHANNEL_ROUNDING_MODES, ch.roundingMode),
    ...customerFields(q, f, sql`ch.id`),
    currency: nullableText(f.currency),
  });
  return statement(columns, sql`from channels ch where ch.code = ${q.channelCode}`);
}

/** The channel, and the currency of its primary list (that of a request that names none). */
const channelStatement = (f: Fragments) =>
  statement(
    select({
      channelCode: text(ch.code),
      channelIsActive: flag(ch.isActive),
      roundingMode: member(CHANNEL_ROUNDING_MODES, ch.roundingMode),
      primaryCurrency: nullableText(f.primaryCurrency),
    }),
    sql`from channels ch where ch.code = ${q.channelCode}`,
  );

/** The request's customer, in one row (also when no such customer or channel exists). */
const customerStatement = (f: Fragments) =>
  statement(
    select(customerFields(q, f, sql`(select id from channels where code = ${q.channelCode})`)),
    sql``,
  );

/**
 * Every pricelist the request needs, in one statement: the candidates with their levels, then
 * the lists they (and the floors) derive from (sources of amounts, whatever their status or
 * window), then the channel's floors and, for admin keys, its COST lists; each part by id, with
 * the exchange rates of its derivation (with `at`, those in force then and next; without, all:
 * the cached contexts'). `ctes` declare `reaching` and `chain`; `channel` null: the customer's
 * part, no channel lists.
 */
const listsStatement = (
  ctes: SQL,
  channel: Pick<Fragments, "floors" | "costs"> | null,
  at: SQL | null = null,
) => {
  const none = sql`'[]'`;
  const part = (role: "FLOOR" | "COST", ids: SQL | null) =>
    ids
      ? sql`union all select ${listColumns(role, none, at).list} from pricelists p where p.id in ${ids}`
      : sql``;
  return statement(
    listColumns("CANDIDATE", sql`json_group_array(distinct r.level)`, at),
    sql`from reaching r join pricelists p on p.id = r.pricelist_id
      where p.kind = 'SALES' group by p.id
    union all select ${listColumns("BASE", none, at).list} from pricelists p
      where p.id in (select id from chain)
    ${part("FLOOR", channel?.floors ?? null)} ${part("COST", channel?.costs ?? null)}`,
    ctes,
  );
};

// With explain, also the rows of reaching lists of every status: explain shows what a DRAFT or
// INACTIVE list would have priced (docs/pricing-rules.md §9); the engine never prices them.
const shownTiers = (f: Fragments) => sql`union select r.pricelist_id from reaching r
    join pricelists p on p.id = r.pricelist_id
    where p.currency = ${f.currency} and p.kind = 'SALES'`;

/**
 * The price rows of the requested products in the lists that can price (`pricing`), their chains
 * (`chain`), the floors and (admin keys) the COST lists; `ctes` declare `pricing` and `chain` (the
 * lookup's, or the publish simulation's, audiences.ts).
 */
export const pricesStatement = (f: Fragments, ctes: SQL = f.pricing) =>
  statement(
    priceColumns,
    sql`from pricelist_prices pp join products pr on pr.id = pp.product_id
    where pr.code in ${f.products}
      and pp.pricelist_id in (select id from pricing union select id from chain
        ${f.explain ? shownTiers(f) : sql``}
        union select * from ${f.floors} ${f.costs ? sql`union select * from ${f.costs}` : sql``})`,
    ctes,
  );

/**
 * Whom the conditions and promotions are read for, besides G (`Fragments.groups`): a lookup's
 * customer (`lookupBuyers`), or the publish simulation's selected customers (audiences.ts).
 * `customers` is a list of customer ids, `live` the test of what can price at `at` or later
 * (facts.ts), `ctes` the common table expressions the statement declares.
 */
export interface Buyers {
  customers: SQL;
  live: (table: string) => SQL;
  ctes: SQL;
}

const lookupBuyers = (f: Fragments): Buyers => ({
  customers: sql`(select cu.id from customers cu where cu.code = ${q.customerCode})`,
  live: f.live,
  ctes: f.requested,
});

/**
 * Conditions, driven from the candidates the scope can admit (GLOBAL and CHANNEL ones, those
 * linked to the customer or to a group in G), not from every ACTIVE condition: the filters then
 * run for a few hundred records at most. `scopes` CUSTOMER: the customer context's conditions,
 * those aimed at the customer or G, for every product and moment: ACTIVE ones (with explain, all)
 * of any window, with every product link, by id; the channel context holds the GLOBAL and
 * CHANNEL ones (`channelConditionsStatement`).
 */
export function conditionsStatement(
  f: Fragments,
  scopes: "ALL" | "CUSTOMER" = "ALL",
  b: Buyers = lookupBuyers(f),
) {
  const tc = sql.raw("trade_conditions.id");
  const all = scopes === "ALL";
  const reach = sql`and ${f.forProducts("trade_condition", "trade_conditions.id")}`;
  const trim: Trim = all ? "REQUEST" : "CUSTOMER";
  return statement(
    conditionColumns(q, f, trim),
    sql`from (${all ? sql`select t.id from trade_conditions t where t.scope in ('GLOBAL', 'CHANNEL') and ${b.live("t")} union ` : sql``}select l.trade_condition_id as id from trade_condition_customers l
          where l.customer_id in ${b.customers}
        union select l.trade_condition_id from trade_condition_customer_groups l
          where l.customer_group_id in ${f.groups}) candidate
      cross join trade_conditions on trade_conditions.id = candidate.id
    where ${all ? b.live("trade_conditions") : f.active("trade_conditions")}
      and ${f.seenConditions}
      and ${f.inChannel("trade_condition_channels", "trade_condition_id", "trade_conditions.id")}
      ${all ? reach : sql``}
      and (${all ? sql`trade_conditions.scope in ('GLOBAL', 'CHANNEL') or ` : sql``}(trade_conditions.scope = 'CUSTOMER_GROUP' and exists (select 1 from trade_condition_customer_groups l
              where l.trade_condition_id = ${tc} and l.customer_group_id in ${f.groups}))
        or (trade_conditions.scope = 'CUSTOMER' and exists (select 1 from trade_condition_customers l
              where l.trade_condition_id = ${tc} and l.customer_id in ${b.customers})))
    ${all ? sql`` : sql`order by trade_conditions.id`}`,
    all ? b.ctes : undefined,
  );
}

/**
 * The channel's GLOBAL and CHANNEL conditions, for every customer, product and moment: ACTIVE
 * ones (with explain, all) of any window that reach the channel, with every link. The request's
 * window, product and group tests are made in memory (contexts.ts), as conditionsStatement
 * makes them in SQL.
 */
const channelConditionsStatement = (f: Fragments) =>
  statement(
    conditionColumns(q, f, "CHANNEL"),
    sql`from trade_conditions
    where trade_conditions.scope in ('GLOBAL', 'CHANNEL') and ${f.active("trade_conditions")}
      and ${f.seenConditions}
      and ${f.inChannel("trade_condition_channels", "trade_condition_id", "trade_conditions.id")}
    order by trade_conditions.id`,
  );

/** The promotions that reach the request (G: `f.groups`), live for `b` (`Buyers`). */
export const promotionsStatement = (f: Fragments, b: Buyers = lookupBuyers(f)) =>
  statement(
    promotionColumns(q, f, "REQUEST"),
    sql`from promotions
    where ${b.live("promotions")}
      and ${f.inChannel("promotion_channels", "promotion_id", "promotions.id")}
      and ${f.forProducts("promotion", "promotions.id")}
      and ${f.forGroups("promotion_customer_groups", "promotion_id", "promotions.id", f.groups)}`,
    b.ctes,
  );

/** The channel's promotions for every customer, product and moment (see the conditions above). */
const channelPromotionsStatement = (f: Fragments) =>
  statement(
    promotionColumns(q, f, "CHANNEL"),
    sql`from promotions
    where ${f.active("promotions")}
      and ${f.inChannel("promotion_channels", "promotion_id", "promotions.id")}
    order by promotions.id`,
  );

/**
 * The requested products (quantity rule, group) and then their groups with every ancestor, each
 * once: one read of the products serves both, and `productFacts` walks each product's path in
 * memory instead of SQLite walking it once per product.
 */
export const productsStatement = (f: Fragments) =>
  statement(
    factColumns("PRODUCT", {
      code: sql`rp.code`,
      groupId: sql`rp.group_id`,
      parentId: sql`null`,
      minOrderQuantity: sql`rp.min_order_quantity`,
      orderIncrement: sql`rp.order_increment`,
      maxOrderQuantity: sql`rp.max_order_quantity`,
      ...byNamed((d) => d.codeOf("rp")),
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
        ...byNamed(() => sql`null`),
      }).list
    } from product_groups g where g.id in ${f.groupIds}`,
    f.requested,
  );

export const versionStatement = statement(
  select({ version: int(pricingVersion.version), seenVersion: int(pricingVersion.seenVersion) }),
  sql`from pricing_version where id = 1`,
);

/** Both versions from `versionStatement`'s rows (0 before the row exists). */
export const versionsOf = (rows: readonly { version: number; seenVersion: number }[]) => ({
  version: rows[0]?.version ?? 0,
  seenVersion: rows[0]?.seenVersion ?? 0,
});

/** The one-batch reader's statements for one value of explain and one scope. */
function compiledStatements(explain: boolean, scope: Visibility) {
  const f = fragments(explain, scope);
  return [
    contextStatement(f),
    listsStatement(f.pricing, f, sql`${q.at}`),
    pricesStatement(f),
    conditionsStatement(f),
    promotionsStatement(f),
    productsStatement(f),
    versionStatement,
  ] as const;
}

/**
 * Compiled once per value of explain and scope (`scope.key`), when the module loads: a read key's
 * lookups never use an admin's statements. The variant of a query.
 */
function variants<T>(compile: (explain: boolean, scope: Visibility) => T) {
  const keyOf = (explain: boolean, scope: Visibility) => `${scope.key}:${explain}`;
  const compiled = new Map<string, T>();
  for (const scope of VISIBILITIES) {
    for (const explain of [false, true])
      compiled.set(keyOf(explain, scope), compile(explain, scope));
  }
  return (query: PriceQuery) => compiled.get(keyOf(query.explain, query.scope))!;
}

const compiledOf = variants(compiledStatements);

/** The one-batch reader's statements bound to the request; the version last. */
export const priceStatements = (query: PriceQuery) =>
  bindStatements(compiledOf(query), valuesOf(query));

/** Everything a lookup needs in one batch, without the cached contexts. */
export async function loadPriceContext(db: Db, query: PriceQuery): Promise<PriceContext> {
  const [context, listRows, priceRows, conditions, promotionRows, productRows, version] =
    await decodedBatch(db, priceStatements(query));
  const head = context[0];
  return {
    channel: head && {
      code: head.channelCode,
      isActive: head.channelIsActive,
      roundingMode: head.roundingMode,
    },
    customer:
      head?.customerCode != null
        ? { code: head.customerCode, inChannel: head.customerInChannel }
        : undefined,
    groupCodes: (head?.groupCodes ?? []).sort(),
    agreements: agreementsOf(head?.agreements ?? []),
    currency: head?.currency ?? null,
    products: productFacts(productRows),
    ...versionsOf(version),
    ...listsOf(listRows, pricesByPricelist(priceRows)),
    exchangeRates: ratesAt(listRows, query.at),
    tradeConditions: conditions,
    promotions: promotionRows.map(promotionOf),
  };
}

// ---------------------------------------------------------------------------------------------
// The same data in parts, for the cached contexts (contexts.ts): what every lookup in a channel
// shares, what every lookup of a customer there shares, and what each lookup reads itself.
// ---------------------------------------------------------------------------------------------

function compiledParts(explain: boolean, scope: Visibility) {
  const f = fragments(explain, scope);
  return {
    /** The channel, its lists (candidates at the channel levels, floors, COST lists for admin
     * keys, the chains of candidates and floors), its GLOBAL and CHANNEL conditions and its
     * promotions, with every link: no customer, product or moment in them. */
    channel: [
      channelStatement(f),
      listsStatement(levelLists(f.channelReaching, f.floors), f),
      channelConditionsStatement(f),
      channelPromotionsStatement(f),
    ] as const,
    /** The version, the requested products with their groups, and their price rows. */
    request: [versionStatement, productsStatement(f), pricesStatement(f)] as const,
    /** With a customer: the customer and G, the lists reaching it with their chains, and the
     * conditions aimed at it or at G, with every product link: no product or moment in them. */
    customer: [
      customerStatement(f),
      listsStatement(levelLists(f.customerReaching), null),
      conditionsStatement(f, "CUSTOMER"),
    ] as const,
  };
}

const partsOf = variants(compiledParts);

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
  /** What a read key sees of that data (`PriceContext.seenVersion`). */
  seenVersion: number;
  products: Map<string, ProductFacts>;
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
  const [head, lists, conditions] = customer;
  return {
    request: {
      ...versionsOf(version),
      products: productFacts(facts),
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
