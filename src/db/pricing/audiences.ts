import { sql, type Placeholder } from "drizzle-orm";
import {
  PRICELIST_LEVELS,
  type PricelistLevel,
  type ProductFacts,
  type TradeConditionCandidate,
} from "../../pricing";
import type { PricingRecords } from "../../pricing/simulation";
import type { Db } from "../client";
import {
  bindStatements,
  codes,
  decodedBatch,
  int,
  member,
  nullableText,
  select,
  statement,
  text,
} from "../rows";
import {
  listColumns,
  listsOf,
  pricesByPricelist,
  productFacts,
  promotionOf,
  ratesAt,
} from "./columns";
import { isActiveSql, live } from "./facts";
import {
  conditionsStatement,
  pricesStatement,
  productsStatement,
  promotionsStatement,
  type Buyers,
} from "./lookup";
import { params as q } from "./query";
import { chainFrom, fragments } from "./reach";
import { SEES_ALL } from "../visibility";

/*
 * The publish simulation's second read (docs/simulation.md §3): everything the engine needs to
 * price every selected customer (and the anonymous buyer) for every selected product in a
 * channel, as ONE batch of channel-wide statements: each customer's groups and reaching
 * pricelists, the pricelists with their rows (the channel's COST lists too: the simulation is for
 * admin keys and reports margins), the trade conditions (ACCRUALs too) and promotions that reach
 * any of them, and the product facts. The lookup's batch (lookup.ts) widened to a set of customers:
 * its price rows, conditions and promotions statements over these common table expressions and
 * buyers (`Buyers`), with the records the change set activates read whatever their status, so
 * "after" can price with them.
 */

export interface SimulationQuery {
  channelCode: string;
  /** Decided in round trip 1 (the request's, else the channel primary pricelist's). */
  currency: string;
  at: number;
  /** Existing customers of the channel (the anonymous buyer needs no row). */
  customerCodes: readonly string[];
  productCodes: readonly string[];
  /** Records the change set names: read whatever their status (pricelists: rows and bases too). */
  pricelistIds: readonly number[];
  tradeConditionIds: readonly number[];
  promotionIds: readonly number[];
}

const sim = {
  customerCodes: sql.placeholder("customerCodes"),
  pricelistIds: sql.placeholder("pricelistIds"),
  tradeConditionIds: sql.placeholder("tradeConditionIds"),
  promotionIds: sql.placeholder("promotionIds"),
};
const json = (values: readonly unknown[]) => JSON.stringify(values);
const inJson = (placeholder: Placeholder) => sql`(select value from json_each(${placeholder}))`;

/**
 * The loader's fragments (requested products and their groups, channel and product reach) with
 * the group set G widened to every selected customer's, and the common table expressions of the
 * channel-wide batch after the loader's own: the selected customers, each one's G, every
 * pricelist reaching one of them or the channel (per customer), the lists that can price
 * (`pricing`: SALES, in the currency, ACTIVE or named by the change set) and their bases.
 */
function simulationFragments() {
  // The simulation is for admin keys: it reads the channel's COST lists and the ACCRUALs (SEES_ALL).
  const base = fragments(false, SEES_ALL);
  const groups = sql`(select group_id from selected_groups)`;
  const customers = sql`(select id from selected_customers)`;
  const ctes = sql`${base.requested},
    selected_customers(id, code) as materialized (select cu.id, cu.code from customers cu
      where cu.code in ${inJson(sim.customerCodes)}),
    selected_groups(customer_id, group_id) as (select m.customer_id, m.customer_group_id
      from customer_group_members m join selected_customers s on s.id = m.customer_id
      join channel_customer_groups cg on cg.customer_group_id = m.customer_group_id
      join channels ch on ch.id = cg.channel_id where ch.code = ${q.channelCode}),
    reaching(customer_id, pricelist_id, level) as (
      select p.customer_id, p.id, 'INDIVIDUAL' from pricelists p where p.customer_id in ${customers}
      union all select cp.customer_id, cp.pricelist_id, 'CUSTOMER' from customer_pricelists cp
        where cp.customer_id in ${customers}
      union all select sg.customer_id, gp.pricelist_id, 'CUSTOMER_GROUP'
        from customer_group_pricelists gp join selected_groups sg on sg.group_id = gp.customer_group_id
      union all select null, cp.pricelist_id,
          case when cp.is_primary = 1 then 'CHANNEL_PRIMARY' else 'CHANNEL' end
        from channel_pricelists cp join channels ch on ch.id = cp.channel_id
        where ch.code = ${q.channelCode}),
    pricing(id) as (select distinct r.pricelist_id from reaching r
      join pricelists p on p.id = r.pricelist_id
      where (p.status = 'ACTIVE' or p.id in ${inJson(sim.pricelistIds)})
        and p.currency = ${q.currency} and p.kind = 'SALES'),
    derives(id) as (select id from pricing union select * from ${base.floors}),
    ${chainFrom("derives")}`;
  return { ...base, groups, customers, ctes };
}

type SimulationFragments = ReturnType<typeof simulationFragments>;

/**
 * Live (facts.ts) with the change set: ACTIVE or named by it, and not ended at `at`, what can
 * price now or after it.
 */
const liveWith = (ids: Placeholder) => (table: string) =>
  live(table, q.at, sql`(${isActiveSql(table)} or ${sql.raw(table)}.id in ${inJson(ids)})`);

/** The selected customers, for the lookup's statements (`Buyers`), with the change set's records. */
const buyers = (f: SimulationFragments, ids: Placeholder): Buyers => ({
  customers: f.customers,
  live: liveWith(ids),
  ctes: f.ctes,
});

const groupsStatement = (f: SimulationFragments) =>
  statement(
    select({
      customerCode: text(sql`s.code`),
      groupCodes: codes(sql`(select json_group_array(g.code) from customer_groups g
        where g.id in (select group_id from selected_groups sg where sg.customer_id = s.id))`),
    }),
    sql`from selected_customers s`,
    f.ctes,
  );

const reachStatement = (f: SimulationFragments) =>
  statement(
    select({
      customerCode: nullableText(sql`s.code`),
      pricelistId: int(sql`r.pricelist_id`),
      level: member(PRICELIST_LEVELS, sql`r.level`),
    }),
    sql`from reaching r join pricelists p on p.id = r.pricelist_id
      left join selected_customers s on s.id = r.customer_id where p.kind = 'SALES'`,
    f.ctes,
  );

/**
 * The candidates (each once, levels per customer come from reachStatement), bases, floors and
 * COST lists.
 */
function pricelistsStatement(f: SimulationFragments) {
  const none = sql`'[]'`;
  // With the rates in force at `at` and the next ones, as a lookup reads them (§19).
  const at = sql`${q.at}`;
  return statement(
    listColumns("CANDIDATE", none, at),
    sql`from pricelists p where p.kind = 'SALES' and p.id in (select pricelist_id from reaching)
    union all select ${listColumns("BASE", none, at).list} from pricelists p
      where p.id in (select id from chain)
    union all select ${listColumns("FLOOR", none, at).list} from pricelists p
      where p.id in ${f.floors}
    union all select ${listColumns("COST", none, at).list} from pricelists p
      where p.id in ${f.costs!}`,
    f.ctes,
  );
}

/**
 * The selected customers each CUSTOMER-scope condition names (conditionColumns trims its own
 * customer list to the price request's one customer, bound to none here).
 */
const conditionCustomersStatement = (f: SimulationFragments) =>
  statement(
    select({ id: int(sql`l.trade_condition_id`), customerCode: text(sql`s.code`) }),
    sql`from trade_condition_customers l join selected_customers s on s.id = l.customer_id`,
    f.ctes,
  );

/** The batch of round trip 2, compiled once (its values are placeholders, bound per request). */
const COMPILED = (() => {
  const f = simulationFragments();
  return [
    groupsStatement(f),
    reachStatement(f),
    pricelistsStatement(f),
    pricesStatement(f, f.ctes),
    conditionsStatement(f, "ALL", buyers(f, sim.tradeConditionIds)),
    conditionCustomersStatement(f),
    promotionsStatement(f, buyers(f, sim.promotionIds)),
    productsStatement(f),
  ] as const;
})();

/** A customer's part of the engine input: its groups G and the pricelists reaching it, by level. */
export interface Audience {
  groupCodes: string[];
  reach: { pricelistId: number; level: PricelistLevel }[];
}

export interface SimulationData {
  /** By customer code; the anonymous buyer (null) has no groups and only the channel's lists. */
  audiences: Map<string | null, Audience>;
  /** The pricelist candidates without levels (each audience says at which level it has which). */
  records: PricingRecords;
  products: Map<string, ProductFacts>;
}

/** The CUSTOMER-scope conditions with their selected customers as `customerCodes`. */
function withCustomers(
  conditions: TradeConditionCandidate[],
  links: readonly { id: number; customerCode: string }[],
): TradeConditionCandidate[] {
  const named = new Map<number, string[]>();
  for (const { id, customerCode } of links) named.set(id, [...(named.get(id) ?? []), customerCode]);
  return conditions.map((c) => ({ ...c, customerCodes: named.get(c.id) ?? [] }));
}

/** Round trip 2: every audience's reach and every record the engine may look at, as stored. */
export async function loadSimulationData(db: Db, query: SimulationQuery): Promise<SimulationData> {
  const rows = await decodedBatch(
    db,
    bindStatements(COMPILED, {
      channelCode: query.channelCode,
      customerCode: null,
      currency: query.currency,
      at: query.at,
      productCodes: json(query.productCodes),
      customerCodes: json(query.customerCodes),
      pricelistIds: json(query.pricelistIds),
      tradeConditionIds: json(query.tradeConditionIds),
      promotionIds: json(query.promotionIds),
    }),
  );
  const [groups, reach, lists, prices, conditions, conditionCustomers, promotions, products] = rows;
  const channelReach = reach
    .filter((r) => r.customerCode === null)
    .map(({ pricelistId, level }) => ({ pricelistId, level }));
  const audiences = new Map<string | null, Audience>([
    [null, { groupCodes: [], reach: channelReach }],
  ]);
  for (const { customerCode, groupCodes } of groups) {
    audiences.set(customerCode, { groupCodes: groupCodes.sort(), reach: [...channelReach] });
  }
  for (const { customerCode, pricelistId, level } of reach) {
    if (customerCode !== null) audiences.get(customerCode)?.reach.push({ pricelistId, level });
  }
  return {
    audiences,
    records: {
      ...listsOf(lists, pricesByPricelist(prices)),
      exchangeRates: ratesAt(lists, query.at),
      tradeConditions: withCustomers(conditions, conditionCustomers),
      promotions: promotions.map(promotionOf),
    },
    products: productFacts(products),
  };
}
