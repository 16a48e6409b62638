import { and, eq, isNull, ne, or, type SQL } from "drizzle-orm";
import { pricelists, tradeConditions } from "./schema";

/*
 * What a key that does not see costs (a read key) never reads (docs/api/access.md §18): COST
 * pricelists with their rows and assignments, the FLOOR pricelists derived from them (a floor "cost
 * + 10 %" is the cost in other words), and ACCRUAL trade conditions. Every read a read key can make
 * of pricelists or trade conditions takes its condition from here, so "as if they did not exist"
 * has one wording: absent from every list and its count, 404 by id. `costs` is the request's
 * `seesCosts` (src/http/auth.ts).
 */

/**
 * The pricelists only a key that sees costs sees, as SQL over the table `p` (the change feed's
 * raw statements, src/feed/read.ts): COST lists, and FLOOR lists derived from one (a FLOOR may
 * derive from a COST list only, docs/pricing-rules.md §24).
 */
export const COST_LISTS_SQL = `kind = 'COST' or (kind = 'FLOOR' and base_pricelist_id is not null)`;

/** The pricelists a key sees: all of them, or all but the COST ones and the floors derived from them. */
export const seenPricelists = (costs: boolean): SQL | undefined =>
  costs
    ? undefined
    : and(
        ne(pricelists.kind, "COST"),
        or(ne(pricelists.kind, "FLOOR"), isNull(pricelists.basePricelistId)),
      );

/** The trade conditions a key sees: all of them, or all but the ACCRUAL ones. */
export const seenConditions = (costs: boolean): SQL | undefined =>
  costs ? undefined : ne(tradeConditions.type, "ACCRUAL");

/** The pricelist `id`, if the key sees it (an id statement for `readPageOf` and the like). */
export const seenPricelistId = (id: number, costs: boolean): SQL | undefined =>
  and(eq(pricelists.id, id), seenPricelists(costs));

/** Whether a pricelist is seen: `seenPricelists` in memory. */
export const seesPricelist = (
  list: { kind: string; basePricelistId: number | null },
  costs: boolean,
) => costs || (list.kind !== "COST" && (list.kind !== "FLOOR" || list.basePricelistId === null));

/** Whether a trade condition of `type` is seen. */
export const seesCondition = (type: string, costs: boolean) => costs || type !== "ACCRUAL";
