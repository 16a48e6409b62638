import { ascending } from "./rank";
import { scale } from "./money";

/**
 * Price units (docs/pricing-rules.md §20): an amount is the price of `priceUnit` pieces (1–10,000,
 * default 1). A line is computed in the price unit of its base row, U; a value per u pieces
 * enters it as value × U / u, rounded half up (a floor: up, so the guard never drops below the
 * floor's own price per piece). The only division by the quantity's unit is the line amount
 * (line.ts).
 */

/** A price unit as the engine reads one: absent, or anything below 1 (data the API refuses), is 1. */
export const unitOf = (priceUnit: number | undefined): number =>
  priceUnit !== undefined && priceUnit >= 1 ? priceUnit : 1;

/** `value` per `from` pieces as an amount per `to` pieces: half up, or up for a floor. */
export function inUnit(value: number, from: number, to: number, up = false): number {
  if (from === to) return value;
  return scale(value, to, from, up ? "UP" : "HALF_UP");
}

const MAX = Number.MAX_SAFE_INTEGER;

/**
 * Compares two amounts per piece, exactly: a.amount / a.priceUnit against b.amount / b.priceUnit,
 * by cross-multiplying (BigInt when a product would pass 2^53 − 1).
 */
export function perPiece(
  a: { amount: number; priceUnit: number },
  b: { amount: number; priceUnit: number },
): number {
  // A derived amount past 2^53 − 1 (infinite, derivation.ts) ranks behind every real one.
  if (a.priceUnit === b.priceUnit || !Number.isFinite(a.amount + b.amount)) {
    return ascending(a.amount, b.amount);
  }
  const [x, y] = [a.amount * b.priceUnit, b.amount * a.priceUnit];
  if (x <= MAX && y <= MAX) return ascending(x, y);
  const [bx, by] = [BigInt(a.amount) * BigInt(b.priceUnit), BigInt(b.amount) * BigInt(a.priceUnit)];
  return bx < by ? -1 : bx > by ? 1 : 0;
}
