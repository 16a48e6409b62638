import { convert, roundHalfUp, type Conversion, type RatesAt } from "./exchange";
import type { EdgeTracker } from "./validity";
import { add, AmountOutOfRange, percentOf } from "./money";
import { ascending, descending } from "./rank";
import { isInWindow } from "./validity";
import type {
  Band,
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
  /** A GRADUATED list's charge for the row's band (§29); absent: 0. */
  flatAmount?: number;
  /** Step 1's lot of a GRADUATED line (graduated.ts): its bands; absent on rows. */
  bands?: Band[];
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

/**
 * A flat amount along a derivation step (docs/pricing-rules.md §29): adjusted and converted as
 * the amount is, half up, with no price ending (an ending is for unit prices); past 2^53 − 1 it
 * makes the row's amount unpriceable instead, so it is kept at the safe maximum here.
 */
function deriveFlat(flat: number, derivation: Derivation, conversion: Conversion | undefined) {
  try {
    return deriveAmount(flat, { ...derivation, rounding: null }, conversion);
  } catch (error) {
    if (!(error instanceof AmountOutOfRange)) throw error;
    return Number.MAX_SAFE_INTEGER;
  }
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
    if (row.flatAmount) tier.flatAmount = row.flatAmount;
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
    if (row.flatAmount) tier.flatAmount = deriveFlat(row.flatAmount, derivation, conversion);
    // A positive base that derives to 0 (adjustments are above −100 %, rates above 0): rounding
    // took the price away, and a line must not be priced at 0 for it. A later step keeps it
    // so, whatever its ending would lift 0 to.
    if (row.roundsToZero || (amount === 0 && row.amount > 0)) {
      tier.amount = 0;
      tier.roundsToZero = true;
    }
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
  /**
   * Each list's effective rows along the chain they were derived through (`effectiveRows`): a
   * list that is a candidate and the base of another is derived once (a chain of 3 steps and its
   * 2 sub-chains: 3 steps per product rather than 6).
   */
  derived: Map<PriceBase, { chain: readonly PriceBase[]; rows: EffectiveRows }>;
}

export const derivationsOf = (
  bases: readonly PriceBase[],
  pricelists: readonly PricelistCandidate[],
  at: Instant,
  rates: RatesAt,
): Derivations => ({
  sources: priceSources(bases, pricelists),
  rowsOf: cachedRows(at),
  rates,
  derived: new Map(),
});

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
 * rows. A list's own rows are indexed once (`rowsOf`), and so are the rows a chain derives for
 * each of its lists (`derived`): one list may be the base of several.
 */
export function effectiveRows(list: PriceBase, d: Derivations): EffectiveRows {
  if (!list.derivation) return { tiers: d.rowsOf(list), missingRate: NO_PRODUCTS };
  return rowsAlong(chainOf(list, d.sources), d);
}

/**
 * The effective rows of `chain[0]` along `chain` (its last list contributes its own rows only):
 * its own rows, then, for every other product, one step from the effective rows of `chain[1]`
 * along the rest of the chain. A product its base cannot have for want of a rate, or whose step
 * here needs a rate not in force, has none.
 */
function rowsAlong(chain: readonly PriceBase[], d: Derivations): EffectiveRows {
  const [list, base] = chain as [PriceBase, PriceBase | undefined];
  const own = d.rowsOf(list);
  if (!base) return { tiers: own, missingRate: NO_PRODUCTS };
  const held = d.derived.get(list);
  if (held?.chain.length === chain.length && held.chain.every((l, i) => l === chain[i])) {
    return held.rows;
  }
  const from = rowsAlong(chain.slice(1), d);
  const conversion =
    base.currency === list.currency ? null : d.rates.inForce(base.currency, list.currency);
  const tiers = new Map(own);
  const missingRate = new Set<string>();
  // A list nearer in the chain has own rows for a product: they override.
  for (const product of from.missingRate) if (!tiers.has(product)) missingRate.add(product);
  for (const [product, rows] of from.tiers) {
    if (tiers.has(product)) continue;
    if (conversion === undefined) missingRate.add(product);
    else {
      const step = deriveRows(rows, list.derivation!, base.id, conversion ?? undefined);
      tiers.set(product, step);
    }
  }
  const rows = { tiers, missingRate };
  d.derived.set(list, { chain, rows });
  return rows;
}
