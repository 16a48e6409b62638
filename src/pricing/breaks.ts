import { scale } from "./money";
import { perPiece } from "./units";

/**
 * A lower bound of a line's final unit amount at another quantity, so the price-break advice
 * (docs/pricing-rules.md §22) prices the line again only where the advice is possible.
 *
 * At the advice's quantity the order's sums stay as they are, so the trade conditions and
 * promotions a line can meet are those it met at its own quantity, with the same values, unless a
 * candidate's scale reads the line's quantity (then its most favourable scale row counts, and so
 * do the conditions reaching every product, which the engine's early stop may have passed over).
 * From the new base amount, the lowest final amount any of them can leave is: the lowest net
 * price if one is lower, then every percentage cut that can apply (the largest non-stackable
 * discount, each stackable one, the largest promotion), rounded up, then every absolute cut,
 * rounded up. Surcharges and floors only raise a price, and a discount switched off leaves it
 * higher: the line never ends below this bound, whichever candidates win.
 */

/** An amount per `unit` pieces. */
export interface PerUnit {
  value: number;
  unit: number;
}

const lowerPerPiece = (a: PerUnit, b: PerUnit) =>
  perPiece({ amount: a.value, priceUnit: a.unit }, { amount: b.value, priceUnit: b.unit }) < 0;

/** The cuts that may reach a line at any quantity (see the module's comment), as collected. */
export class Cuts {
  /** The lowest net price per piece, if a NET_PRICE condition may apply. */
  private net: PerUnit | null = null;
  /** The largest cut of those that apply only as the one winner of their kind. */
  private largestPercent = 0;
  private largestAbsolute: PerUnit | null = null;
  /** Cuts that apply beside the winner (stackable discounts). */
  private percents: number[] | null = null;
  private absolutes: PerUnit[] | null = null;
  /** A candidate met scales on the line's own quantity. */
  lineScaled = false;

  /** A NET_PRICE that may apply: its value per `unit` pieces. */
  netPrice(value: number, unit: number): void {
    const net = { value: Math.max(0, value), unit };
    if (!this.net || lowerPerPiece(net, this.net)) this.net = net;
  }

  /**
   * A discount or promotion that may apply. `alone`: it applies only as the one winner of its
   * kind (a non-stackable discount, a promotion), so only the largest such one counts.
   */
  cut(alone: boolean, absolute: boolean, value: number, unit: number): void {
    if (value <= 0) return;
    if (!absolute) {
      const bp = Math.min(10_000, value);
      if (!alone) (this.percents ??= []).push(bp);
      else if (bp > this.largestPercent) this.largestPercent = bp;
      return;
    }
    const cut = { value, unit };
    if (!alone) (this.absolutes ??= []).push(cut);
    else if (!this.largestAbsolute || lowerPerPiece(this.largestAbsolute, cut)) {
      this.largestAbsolute = cut;
    }
  }

  /**
   * The lowest final unit amount, per `unit` pieces, that a line with base amount `base` can
   * have under every one of `all` (see the module's comment), in integers.
   */
  static lowestFinal(all: readonly Cuts[], base: number, unit: number): number {
    let x = base;
    for (const c of all) {
      if (c.net) x = Math.min(x, scale(c.net.value, unit, c.net.unit, "DOWN"));
    }
    const percent = (bp: number) => (x -= scale(x, bp, 10_000, "UP"));
    const absolute = (a: PerUnit) => (x = Math.max(0, x - scale(a.value, unit, a.unit, "UP")));
    for (const c of all) {
      if (c.largestPercent > 0) percent(c.largestPercent);
      c.percents?.forEach(percent);
    }
    for (const c of all) {
      if (c.largestAbsolute) absolute(c.largestAbsolute);
      c.absolutes?.forEach(absolute);
    }
    return x;
  }
}
