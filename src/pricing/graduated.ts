import { add, AmountOutOfRange, scale } from "./money";
import type { Band } from "./types";

/**
 * Graduated tiers (docs/pricing-rules.md §29). The tiers m₁ < m₂ < … of a product in a GRADUATED
 * list cut the pieces into bands: band i holds pieces mᵢ … mᵢ₊₁ − 1 (the last has no end), the
 * first always from piece 1. A line of q pieces is priced as one lot: each band q reaches adds
 * round_half_up(count × amountᵢ / priceUnitᵢ) + flatAmountᵢ, count = the pieces of q in it. The
 * lot's price unit is q, so every step after the base price reads it as any unit amount.
 */

/** A row of a GRADUATED list as the lot reads it (PricedTier's fields). */
export interface BandRow {
  minQuantity: number;
  amount: number;
  priceUnit: number;
  flatAmount?: number;
  roundsToZero?: true;
}

/** A line's lot: its amount (Infinity past 2^53 − 1), its bands, and whether a band has no price. */
export interface Lot {
  amount: number;
  bands: Band[];
  roundsToZero: boolean;
}

/**
 * The lot of `quantity` pieces over `rows` (minQuantity ascending), or undefined below the first
 * row's minimum (no price there, as with volume tiers).
 */
export function lotOf(rows: readonly BandRow[], quantity: number): Lot | undefined {
  const first = rows[0];
  if (!first || quantity < first.minQuantity) return undefined;
  const bands: Band[] = [];
  let amount = 0;
  let roundsToZero = false;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const from = i === 0 ? 1 : row.minQuantity;
    if (from > quantity) break;
    const next = rows[i + 1];
    const to = next ? next.minQuantity - 1 : null;
    const count = Math.min(quantity, to ?? quantity) - from + 1;
    // Two rows of one minimum (D1's key forbids it): the first holds no piece.
    if (count <= 0) continue;
    const flatAmount = row.flatAmount ?? 0;
    const band = bandAmount(row, count, flatAmount);
    roundsToZero ||= row.roundsToZero === true;
    amount = Number.isFinite(band) && Number.isFinite(amount) ? sum(amount, band) : Infinity;
    bands.push({
      fromQuantity: from,
      toQuantity: to,
      quantity: count,
      unitAmount: row.amount,
      priceUnit: row.priceUnit,
      flatAmount,
      amount: band,
    });
  }
  return { amount, bands, roundsToZero };
}

/** round_half_up(count × amount / priceUnit) + flatAmount; Infinity past 2^53 − 1. */
function bandAmount(row: BandRow, count: number, flatAmount: number): number {
  if (!Number.isFinite(row.amount)) return Infinity;
  try {
    return add(scale(row.amount, count, row.priceUnit, "HALF_UP"), flatAmount);
  } catch (error) {
    if (!(error instanceof AmountOutOfRange)) throw error;
    return Infinity;
  }
}

function sum(a: number, b: number): number {
  try {
    return add(a, b);
  } catch (error) {
    if (!(error instanceof AmountOutOfRange)) throw error;
    return Infinity;
  }
}
