import { and, eq, not, sql, type SQL } from "drizzle-orm";
import type { ConditionType } from "../pricing";
import { pricelists, tradeConditions } from "./schema";

/*
 * What a key may see (docs/api/access.md §18), as one value: its `Visibility`. `authenticate`
 * (src/http/auth.ts) builds it once per request from the key's role (`c.var.scope`), and every
 * read a key can make of pricelists or trade conditions takes it as a required parameter: the
 * repositories (Drizzle predicates), the price reader (SQL fragments and the cache-key part,
 * src/db/pricing/), the change feed (the hidden records' ids, src/feed/read.ts) and the engine
 * (the condition types to leave out, src/pricing/conditions-index.ts). A read that does not take
 * it does not compile, test/scripts/visibility-scope.test.mjs fails for a file that reads those
 * tables without it and is not on its list of the reads no such key reaches, and
 * test/platform/visibility-scope.test.ts holds the SQL and the in-memory tests to each other.
 *
 * The hiding rule is written here and only here. A key that does not see costs (read and sales
 * keys) never reads COST pricelists with their rows and assignments, the FLOOR pricelists derived
 * from them (a floor "cost + 10 %" is the cost in other words), nor ACCRUAL trade conditions: they
 * are absent from every list and its count, 404 by id, left out of the feed, and the engine prices
 * without them. "As if they did not exist" has one wording.
 */

/**
 * The pricelists only a key that sees costs sees, over the table `pricelists` (unaliased): COST
 * lists, and FLOOR lists derived from one (a FLOOR may derive from a COST list only,
 * docs/pricing-rules.md §24). `isCostList` is the same test in memory.
 */
const COST_LIST = sql`(${pricelists.kind} = 'COST' or (${pricelists.kind} = 'FLOOR' and ${pricelists.basePricelistId} is not null))`;

const isCostList = (list: { kind: string; basePricelistId: number | null }) =>
  list.kind === "COST" || (list.kind === "FLOOR" && list.basePricelistId !== null);

/** The trade condition types only a key that sees costs sees. */
const COST_CONDITION_TYPES: readonly ConditionType[] = ["ACCRUAL"];

const COST_CONDITION = sql`${tradeConditions.type} in (${sql.raw(
  COST_CONDITION_TYPES.map((type) => `'${type}'`).join(", "),
)})`;

/** What one key may see of pricelists and trade conditions, and of costs in price answers. */
export interface Visibility {
  /**
   * The scope's stable name: its part of every cache key and ETag that depends on what the key
   * sees (the cached price contexts, the reader's compiled variants, price answers' tags).
   */
  readonly key: "ALL" | "NO_COSTS";
  /**
   * Whether price answers carry cost, margin, accruals and pocket price (docs/pricing-rules.md
   * §26), and the reader reads the channel's COST lists at all.
   */
  readonly costs: boolean;
  /** Drizzle: the pricelists the key sees (undefined: all), for a `where` over `pricelists`. */
  readonly pricelists: SQL | undefined;
  /** Drizzle: the trade conditions the key sees (undefined: all), over `trade_conditions`. */
  readonly tradeConditions: SQL | undefined;
  /** Drizzle: the pricelist `id`, if the key sees it (an id statement for `readPageOf`). */
  pricelistId(id: number): SQL;
  /** Raw SQL: `(select id from pricelists …)` of the lists the key does not see; null: none. */
  readonly hiddenPricelistIds: SQL | null;
  /** Raw SQL: `(select id from trade_conditions …)` of the conditions it does not see; null: none. */
  readonly hiddenConditionIds: SQL | null;
  /** The condition types the engine leaves out for this key (explain included). */
  readonly hiddenConditionTypes: readonly ConditionType[];
  /** In memory: whether the key sees this pricelist (`pricelists` on a loaded row). */
  seesPricelist(list: { kind: string; basePricelistId: number | null }): boolean;
  /** In memory: whether the key sees a trade condition of this type. */
  seesCondition(type: string): boolean;
  /** Its `key`: a query or cart that holds the scope stays loggable as JSON. */
  toJSON(): string;
}

/** Admin keys, and the service's own work (webhook deliveries, quote judging): everything. */
export const SEES_ALL: Visibility = Object.freeze<Visibility>({
  key: "ALL",
  costs: true,
  pricelists: undefined,
  tradeConditions: undefined,
  pricelistId: (id: number) => eq(pricelists.id, id),
  hiddenPricelistIds: null,
  hiddenConditionIds: null,
  hiddenConditionTypes: [],
  seesPricelist: () => true,
  seesCondition: () => true,
  toJSON: () => "ALL",
});

/** Read and sales keys: no cost, margin or accrual, no COST list nor floor derived from one. */
export const SEES_NO_COSTS: Visibility = Object.freeze<Visibility>({
  key: "NO_COSTS",
  costs: false,
  pricelists: not(COST_LIST),
  tradeConditions: not(COST_CONDITION),
  pricelistId: (id: number) => and(eq(pricelists.id, id), not(COST_LIST))!,
  hiddenPricelistIds: sql`(select ${pricelists.id} from ${pricelists} where ${COST_LIST})`,
  hiddenConditionIds: sql`(select ${tradeConditions.id} from ${tradeConditions} where ${COST_CONDITION})`,
  hiddenConditionTypes: COST_CONDITION_TYPES,
  seesPricelist: (list) => !isCostList(list),
  seesCondition: (type) => !(COST_CONDITION_TYPES as readonly string[]).includes(type),
  toJSON: () => "NO_COSTS",
});

/** The scope of a key that sees costs (admin keys) or not (every other role). */
export const visibilityOf = (seesCosts: boolean): Visibility =>
  seesCosts ? SEES_ALL : SEES_NO_COSTS;

/** Every scope there is: the reader compiles its statements once for each (src/db/pricing/). */
export const VISIBILITIES: readonly Visibility[] = [SEES_ALL, SEES_NO_COSTS];
