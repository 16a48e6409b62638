import type { ProductFacts, QuantityRule, SuggestedQuantities } from "./types";

/** HTTP's largest line quantity (docs/pricing-rules.md §8): no line asks for more. */
export const MAX_LINE_QUANTITY = 1_000_000;

/**
 * Quantity rules (docs/pricing-rules.md §13): a quantity q is allowed when q ≥ minimum,
 * (q − minimum) mod increment = 0 and q ≤ maximum. Values below 1 are read as 1, so a rule is
 * never empty by accident; a maximum below the minimum allows nothing.
 */
export const quantityRuleOf = (product: ProductFacts): QuantityRule => ({
  minimum: Math.max(1, product.minOrderQuantity),
  increment: Math.max(1, product.orderIncrement),
  maximum: product.maxOrderQuantity,
});

/** The largest allowed quantity, Infinity without a maximum, below `minimum` when none is. */
function lastAllowed({ minimum, increment, maximum }: QuantityRule): number {
  if (maximum === null) return Number.POSITIVE_INFINITY;
  if (maximum < minimum) return minimum - 1;
  return maximum - ((maximum - minimum) % increment);
}

export function isAllowed(rule: QuantityRule, quantity: number): boolean {
  return (
    quantity >= rule.minimum &&
    (quantity - rule.minimum) % rule.increment === 0 &&
    (rule.maximum === null || quantity <= rule.maximum)
  );
}

/**
 * The nearest allowed quantities below and above a refused one, null where there is none. The
 * grid is minimum, minimum + increment, …, cut at the maximum.
 */
export function suggestionsFor(rule: QuantityRule, quantity: number): SuggestedQuantities {
  const last = lastAllowed(rule);
  if (last < rule.minimum) return { below: null, above: null };
  if (quantity < rule.minimum) return { below: null, above: rule.minimum };
  const onGridBelow = quantity - ((quantity - rule.minimum) % rule.increment);
  const above = onGridBelow + rule.increment;
  return {
    // A refused quantity on the grid is above the maximum: the last allowed one is below it.
    below: Math.min(onGridBelow, last),
    above: above <= last ? above : null,
  };
}
