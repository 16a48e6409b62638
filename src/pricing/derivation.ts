import { convert, roundHalfUp, type Conversion, type RatesAt } from "./exchange";
import type { EdgeTracker } from "./validity";
import { add, AmountOutOfRange, percentOf } from "./money";
import { ascending, descending } from "./rank";
import { isInWindow } from "./validity";
import type {
  DerivedFrom,
  Derivation,
  Instant,
  PriceBase,
  PricelistCandidate,
  PriceRow,
  Rounding,
  Tier,
} from "./types";

/**
 * Derived pricelists and price endings (docs/pricing-rules.md §3.7): a list's rows for a product
 * are its own when it has any, else every tier of its base's rows, transformed; a base in another
 * currency is converted at the rate in force, in the same single rounding (§19). Chains are
 * followed at most MAX_STEPS steps, never around a cycle, never to a missing base: the write
 * rules refuse those, and the engine does not trust data to obey.
 */
export const MAX_STEPS = 3;

/** A tier as step 1 uses it: its amount, and where it came from when it was derived. */
export interface PricedTier extends Tier {
  derivedFrom: DerivedFrom | null;
  /**
   * Derived from a positive amount, it came out 0 (a tiny rate, an adjustment or an ending that
   * rounds it away): no price, never a free one (docs/pricing-rules.md §19).
   */
  roundsToZero?: true;
}

/**
 * An amount that would pass 2^53 − 1 once derived. It ranks behind every real amount, and a line
 * that would use it answers OUT_OF_RANGE (`isPriceable`); it never reaches an answer.
 */
const TOO_LARGE = Number.POSITIVE_INFINITY;

export const isPriceable = (tier: Tier): boolean => tier.amount !== TOO_LARGE;

/** The amount of the form k × step + ending (k ≥ 0) that `mode` picks for `a`. */
export function roundToEnding(a: number, { mode, step, ending }: Rounding): number {
  // Malformed endings (the API refuses them) leave the amount as it is.
  if (!(step >= 1) || !(ending >= 0)) return a;
  if (a < ending) return mode === "DOWN" ? a : ending; // DOWN finds none below: a stays
  const below = a - ((a - ending) % step);
  if (below === a || mode === "DOWN") return below;
  const above = add(below, step);
  if (mode === "UP") return above;
  return a - below < above - a ? below : above; // NEAREST: a tie goes up
}

const MAX = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * round_half_up(amount × (10000 + adjustmentBp) / 10000), then the price ending; with a
 * conversion, round_half_up(amount × rate × 10^(eC − eB) × (10000 + adjustmentBp) / 10000)
 * computed exactly and rounded once (docs/pricing-rules.md §19), then the price ending. Always
 * half up, whatever the channel: a list has one set of prices (§21).
 */
export function deriveAmount(
  amount: number,
  { adjustmentBp, rounding }: Derivation,
  conversion?: Conversion,
): number {
  let adjusted: number;
  if (conversion) {
    const { value, fromExponent, toExponent } = conversion;
    const exact = roundHalfUp(convert(amount, fromExponent, toExponent, value, adjustmentBp));
    if (exact > MAX || exact < -MAX) throw new AmountOutOfRange();
    adjusted = Math.max(0, Number(exact));
  } else adjusted = Math.max(0, percentOf(amount, 10_000 + adjustmentBp));
  return rounding ? roundToEnding(adjusted, rounding) : adjusted;
}

/** Where a chain finds its bases: `priceBases`, and the candidates for ids not in there. */
export function priceSources(
  bases: readonly PriceBase[],
  pricelists: readonly PricelistCandidate[],
): Map<number, PriceBase> {
  const sources = new Map<number, PriceBase>();
  for (const p of pricelists) sources.set(p.id, p);
  for (const b of bases) sources.set(b.id, b);
  return sources;
}

/** The list and the bases it can follow, in chain order (the list first). */
export function chainOf(list: PriceBase, sources: ReadonlyMap<number, PriceBase>): PriceBase[] {
  const chain = [list];
  let current = list;
  while (current.derivation && chain.length <= MAX_STEPS) {
    const base = sources.get(current.derivation.basePricelistId);
    // By id: the same list may come as a candidate and as a base.
    if (!base || chain.some((l) => l.id === base.id)) break;
    chain.push(base);
    current = base;
  }
  return chain;
}

const tierOrder = (a: Tier, b: Tier) =>
  ascending(a.minQuantity, b.minQuantity) || descending(a.amount, b.amount);

/** Rows most often arrive sorted: checking is cheaper than sorting. */
function inTierOrder(rows: readonly Tier[]): boolean {
  for (let i = 1; i < rows.length; i++) if (tierOrder(rows[i - 1]!, rows[i]!) > 0) return false;
  return true;
}

/**
 * The rows valid at `at` (docs/pricing-rules.md §17) per product, minQuantity ascending (the
 * cheaper first-listed of two equal tiers last).
 */
export function indexRows(prices: readonly PriceRow[], at: Instant): Map<string, PricedTier[]> {
  const tiers = new Map<string, PricedTier[]>();
  for (const row of prices) {
    if (!isInWindow(row, at)) continue;
    const rows = tiers.get(row.productCode);
    const tier: PricedTier = {
      minQuantity: row.minQuantity,
      amount: row.amount,
      priceUnit: row.priceUnit ?? 1,
      derivedFrom: null,
    };
    if (rows) rows.push(tier);
    else tiers.set(row.productCode, [tier]);
  }
  // D1's key makes minQuantity unique per product; should two rows share one anyway, the
  // cheaper sorts last and wins, so the answer does not depend on row order.
  for (const rows of tiers.values()) if (!inTierOrder(rows)) rows.sort(tierOrder);
  return tiers;
}

/**
 * One derivation step on a product's rows (those of the base, already effective); a derived row
 * keeps its base row's price unit (docs/pricing-rules.md §20).
 */
function deriveRows(
  rows: readonly PricedTier[],
  derivation: Derivation,
  baseId: number,
  conversion: Conversion | undefined,
) {
  return rows.map((row): PricedTier => {
    let amount = TOO_LARGE;
    if (isPriceable(row)) {
      try {
        amount = deriveAmount(row.amount, derivation, conversion);
      } catch (error) {
        if (!(error instanceof AmountOutOfRange)) throw error;
      }
    }
    const derivedFrom: DerivedFrom = {
      pricelistId: baseId,
      unitAmount: row.amount,
      exchangeRate: conversion?.used ?? null,
    };
    const tier: PricedTier = {
      minQuantity: row.minQuantity,
      amount,
      priceUnit: row.priceUnit,
      derivedFrom,
    };
    // A positive base that derives to 0 (adjustments are above −100 %, rates above 0): rounding
    // took the price away, and a line must not be priced at 0 for it.
    if (amount === 0 && (row.amount > 0 || row.roundsToZero)) tier.roundsToZero = true;
    return tier;
  });
}

/** A list's effective rows per product, and the products a missing rate left without rows. */
export interface EffectiveRows {
  tiers: ReadonlyMap<string, readonly PricedTier[]>;
  /** Products whose nearest rows are in another currency with no rate in force (§19). */
  missingRate: ReadonlySet<string>;
}

const NO_PRODUCTS: ReadonlySet<string> = new Set();

/**
 * The conversion of each step of `chain` (step i: chain[i] from its base chain[i + 1]): null in
 * one currency, "MISSING" without a rate in force.
 */
export function stepConversions(
  chain: readonly PriceBase[],
  rates: RatesAt,
): (Conversion | null | "MISSING")[] {
  return chain.slice(0, -1).map((list, i) => {
    const base = chain[i + 1]!;
    if (base.currency === list.currency) return null;
    return rates.inForce(base.currency, list.currency) ?? "MISSING";
  });
}

/** A list's own rows per product, indexed once per request (see `effectiveRows`). */
export type RowsOf = (list: PriceBase) => ReadonlyMap<string, readonly PricedTier[]>;

/** Each list's own rows valid at `at` indexed once, however many chains reach it. */
export function cachedRows(at: Instant): RowsOf {
  const cache = new Map<PriceBase, Map<string, PricedTier[]>>();
  return (list: PriceBase) => {
    let rows = cache.get(list);
    if (!rows) cache.set(list, (rows = indexRows(list.prices, at)));
    return rows;
  };
}

/**
 * What every derived list of a request (a SALES list, or a FLOOR derived from a COST list,
 * docs/pricing-rules.md §24) takes its amounts through: where chains find their bases, each
 * list's rows indexed once, and the rates in force.
 */
export interface Derivations {
  sources: ReadonlyMap<number, PriceBase>;
  rowsOf: RowsOf;
  rates: RatesAt;
}

export const derivationsOf = (
  bases: readonly PriceBase[],
  pricelists: readonly PricelistCandidate[],
  at: Instant,
  rates: RatesAt,
): Derivations => ({ sources: priceSources(bases, pricelists), rowsOf: cachedRows(at), rates });

/**
 * The edges a list that can price adds to `validUntil` beyond its own window: its rows and those
 * of the lists of its chain (a scheduled row, docs/pricing-rules.md §17), and the next rate of
 * every pair the chain converts with (§19).
 */
export function noteChainEdges(list: PriceBase, d: Derivations, edges: EdgeTracker | undefined) {
  if (!edges) return;
  const chain = chainOf(list, d.sources);
  for (const link of chain) for (const row of link.prices) edges.note(row);
  for (let i = 1; i < chain.length; i++) {
    const [from, to] = [chain[i]!.currency, chain[i - 1]!.currency];
    if (from !== to) edges.note({ validFrom: d.rates.nextChange(from, to), validTo: null });
  }
}

/**
 * A pricelist's effective rows per product: its own, else derived through its chain from the
 * first list of the chain that has own rows for the product, converted at each step between two
 * currencies at the rate in force (`rates`); a product that would need a missing rate has no
 * rows. `rowsOf` indexes a list's own rows (callers cache it: one list may be the base of
 * several).
 */
export function effectiveRows(
  list: PriceBase,
  sources: ReadonlyMap<number, PriceBase>,
  rowsOf: RowsOf,
  rates: RatesAt,
): EffectiveRows {
  const own = rowsOf(list);
  if (!list.derivation) return { tiers: own, missingRate: NO_PRODUCTS };
  const chain = chainOf(list, sources);
  const conversions = stepConversions(chain, rates);
  const tiers = new Map(own);
  const missingRate = new Set<string>();
  for (let k = 1; k < chain.length; k++) {
    // Steps 0 … k − 1 take a product from chain[k] to the list: one without a rate stops them.
    const blocked = conversions.slice(0, k).includes("MISSING");
    for (const [product, rows] of rowsOf(chain[k]!)) {
      // A list nearer in the chain has own rows for it: they override.
      if (tiers.has(product) || missingRate.has(product)) continue;
      if (blocked) {
        missingRate.add(product);
        continue;
      }
      let derived = rows;
      for (let i = k - 1; i >= 0; i--) {
        const conversion = conversions[i] as Conversion | null;
        derived = deriveRows(
          derived,
          chain[i]!.derivation!,
          chain[i + 1]!.id,
          conversion ?? undefined,
        );
      }
      tiers.set(product, derived);
    }
  }
  return { tiers, missingRate };
}
