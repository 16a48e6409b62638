import { sql, type Placeholder, type SQL } from "drizzle-orm";
import {
  floorOrder,
  isInWindow,
  MAX_STEPS,
  windowsOverlap,
  type CostPricelist,
  type Instant,
  type Validity,
} from "../../pricing";

/*
 * The facts about pricing records that every reader repeats (docs/architecture.md §2.3), each
 * written once: its SQL fragment, and beside it the in-memory twin that answers the same for a
 * record in memory (the twin lives in src/pricing when the engine needs it, and is imported
 * here). The pricing reader (lookup.ts, reach.ts, audiences.ts), the linter, change requests'
 * reach and the simulation's selection read through these fragments;
 * test/pricing/pricing-facts.test.ts runs each fragment on D1 against its twin, edges included.
 *
 * A fragment names a record by its table or alias (`table`, a trusted identifier of the code,
 * never input) and takes the moment as SQL, a placeholder or a number (bound as a parameter).
 * Each is one parenthesized condition, safe beside `and`, `or` and `not`.
 */

/** An instant in a fragment: a column or expression, a placeholder bound later, or a value. */
export type At = SQL | Placeholder | number;

/** A record with a validity window, `[validFrom, validTo)`, null = open on that side. */
export type Window = Validity;

const column = (table: string, name: string) => sql.raw(`${table}.${name}`);

// ---------------------------------------------------------------------------------------------
// Windows: not ended, in force, overlapping
// ---------------------------------------------------------------------------------------------

/** Its window has not ended at `at`: it is in force at `at` or will be later. */
export const notEnded = (table: string, at: At): SQL =>
  sql`(${column(table, "valid_to")} is null or ${column(table, "valid_to")} > ${at})`;

/** In memory: `notEnded`. */
export const isNotEnded = (record: Pick<Window, "validTo">, at: Instant): boolean =>
  record.validTo === null || record.validTo > at;

/** In force at `at`: its window holds `at` (in memory: the engine's `isInWindow`). */
export const inForce = (table: string, at: At): SQL =>
  sql`((${column(table, "valid_from")} is null or ${column(table, "valid_from")} <= ${at}) and ${notEnded(table, at)})`;

export { isInWindow };

/**
 * The windows of `a` and `b` share an instant (half-open, null = open). In memory: the engine's
 * `windowsOverlap` (src/pricing/validity.ts), which also keeps price row timelines apart.
 */
export const overlapping = (a: string, b: string): SQL => {
  const [af, at, bf, bt] = [
    column(a, "valid_from"),
    column(a, "valid_to"),
    column(b, "valid_from"),
    column(b, "valid_to"),
  ];
  return sql`((${af} is null or ${bt} is null or ${af} < ${bt})
    and (${bf} is null or ${at} is null or ${bf} < ${at}))`;
};

export { windowsOverlap };

// ---------------------------------------------------------------------------------------------
// Live: a record that can price at `at` or later
// ---------------------------------------------------------------------------------------------

/**
 * Live at `at`: ACTIVE and its window not ended, so it can price at `at` or later (a record that
 * starts later is live: it gives the answer's next edge). `active` replaces the status test
 * where a reader admits more (a simulation's change set: the records it activates).
 */
export const live = (table: string, at: At, active: SQL = isActiveSql(table)): SQL =>
  sql`(${active} and ${notEnded(table, at)})`;

/** The status half of `live`. */
export const isActiveSql = (table: string): SQL => sql`${column(table, "status")} = 'ACTIVE'`;

/** In memory: `live`. */
export const isLive = (
  record: Pick<Window, "validTo"> & { status: string },
  at: Instant,
): boolean => record.status === "ACTIVE" && isNotEnded(record, at);

// ---------------------------------------------------------------------------------------------
// A channel's currency is its primary list's
// ---------------------------------------------------------------------------------------------

/**
 * The currency of the channel's primary pricelist (null: it has none); `channelId` an expression
 * of the channel's id.
 */
export const primaryCurrency = (channelId: SQL): SQL =>
  sql`(select p.currency from channel_pricelists cp join pricelists p on p.id = cp.pricelist_id
    where cp.channel_id = ${channelId} and cp.is_primary = 1)`;

/**
 * The currency a request prices in: the one it names, else the channel primary list's
 * (docs/pricing-rules.md §2); null when neither exists (400 CURRENCY_REQUIRED).
 */
export const channelCurrency = (
  requested: SQL | Placeholder | string | null,
  channelId: SQL,
): SQL => sql`coalesce(${requested}, ${primaryCurrency(channelId)})`;

/** In memory: `channelCurrency`, given what `primaryCurrency` read. */
export const currencyOf = (
  requested: string | null | undefined,
  primary: string | null | undefined,
): string | null => requested ?? primary ?? null;

// ---------------------------------------------------------------------------------------------
// Derivation depth: up to MAX_STEPS steps
// ---------------------------------------------------------------------------------------------

/** Derivations are followed at most this many steps (the engine's `MAX_STEPS`, 3). */
export const MAX_DERIVATION_STEPS = MAX_STEPS;

/**
 * A recursive walk of derivations whose step counter is `steps` (1 for the first step, 0 for the
 * start) may take one more step: `steps` < MAX_DERIVATION_STEPS. In memory: the engine's walk
 * (src/pricing/derivation.ts `chainOf`) and reach.ts `chainOf`, both bounded by MAX_STEPS.
 */
export const mayDeriveFurther = (steps: SQL): SQL =>
  sql`${steps} < ${sql.raw(String(MAX_DERIVATION_STEPS))}`;

// ---------------------------------------------------------------------------------------------
// A channel's cost
// ---------------------------------------------------------------------------------------------

/**
 * The id of the channel's COST list that gives a product's cost in `currency` from `at` on
 * (docs/pricing-rules.md §23, docs/pricing-lint.md §15): the first, by priority desc then id asc
 * (the engine's `floorOrder`), of the channel's COST lists that are live at `at`, in the currency,
 * with a row for the product not ended at `at`. `channelId`, `currency` and `productId` are
 * expressions; null when there is none. In memory: `channelCostListOf`.
 */
export const channelCostList = (p: {
  channelId: SQL;
  currency: SQL;
  productId: SQL;
  at: At;
}): SQL => sql`(select k.id from channel_pricelists kk
    join pricelists k on k.id = kk.pricelist_id
    where kk.channel_id = ${p.channelId} and k.kind = 'COST' and ${live("k", p.at)}
      and k.currency = ${p.currency}
      and exists (select 1 from pricelist_prices x where x.pricelist_id = k.id
        and x.product_id = ${p.productId} and ${notEnded("x", p.at)})
    order by k.priority desc, k.id limit 1)`;

/** In memory: `channelCostList` over the channel's COST lists with their rows. */
export function channelCostListOf(
  costs: readonly CostPricelist[],
  currency: string,
  productCode: string,
  at: Instant,
): number | null {
  const found = costs
    .filter(
      (list) =>
        isLive(list, at) &&
        list.currency === currency &&
        list.prices.some((row) => row.productCode === productCode && isNotEnded(row, at)),
    )
    .sort(floorOrder)[0];
  return found?.id ?? null;
}
