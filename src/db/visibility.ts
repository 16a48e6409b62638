import { and, eq, ne, type SQL } from "drizzle-orm";
import { pricelists, tradeConditions } from "./schema";

/*
 * What a key that does not see costs (a read key) never reads (docs/api.md §18): COST pricelists
 * with their rows and assignments, and ACCRUAL trade conditions. Every read a read key can make
 * of pricelists or trade conditions takes its condition from here, so "as if they did not exist"
 * has one wording: absent from every list and its count, 404 by id. `costs` is the request's
 * `seesCosts` (src/lib/http/auth.ts).
 */

/** The pricelists a key sees: all of them, or all but the COST ones. */
export const seenPricelists = (costs: boolean): SQL | undefined =>
  costs ? undefined : ne(pricelists.kind, "COST");

/** The trade conditions a key sees: all of them, or all but the ACCRUAL ones. */
export const seenConditions = (costs: boolean): SQL | undefined =>
  costs ? undefined : ne(tradeConditions.type, "ACCRUAL");

/** The pricelist `id`, if the key sees it (an id statement for `readPageOf` and the like). */
export const seenPricelistId = (id: number, costs: boolean): SQL | undefined =>
  and(eq(pricelists.id, id), seenPricelists(costs));

/** Whether a pricelist of `kind` is seen. */
export const seesPricelist = (kind: string, costs: boolean) => costs || kind !== "COST";

/** Whether a trade condition of `type` is seen. */
export const seesCondition = (type: string, costs: boolean) => costs || type !== "ACCRUAL";
