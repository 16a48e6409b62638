import { isAllowed, MAX_LINE_QUANTITY, suggestionsFor } from "../quantity";
import { finding, ref } from "./common";
import { perPiece } from "../units";
import type { QuantityRule } from "../types";
import type { BelowCostRow, Finding, FloorOverList, LintFacts, TierCliff } from "./types";

/**
 * The findings about price rows (docs/pricing-lint.md §6–§8, §14, §15). The repository aggregates the
 * rows in SQL (a 100k catalogue has over a million of them); these rules judge what it found.
 */

/** An amount with its price unit when it is not 1: "1250 per 1000" (docs/pricing-rules.md §20). */
const per = (amount: number, unit: number) => (unit === 1 ? `${amount}` : `${amount} per ${unit}`);

/** §7: a list whose rows for a product start above the product's smallest allowed quantity. */
export function noFirstTier(facts: LintFacts): Finding[] {
  return facts.firstTierGaps.map((gap) => {
    const { pricelistId, productCode, firstTier, minOrderQuantity: from } = gap;
    const below = `quantities ${from}–${firstTier - 1}`;
    const effect =
      gap.kind === "FLOOR"
        ? `for ${below} it guards nothing (another FLOOR list of the channel, or none, applies)`
        : `for ${below} the line takes its price from another pricelist, or has none (NO_PRICE)`;
    return finding(
      "NO_FIRST_TIER",
      `${gap.kind === "FLOOR" ? "FLOOR " : ""}pricelist ${pricelistId} has rows for product ` +
        `${productCode} from quantity ${firstTier} on only, but the product may be ordered ` +
        `from ${from}: ${effect}`,
      [ref.pricelist(pricelistId), ref.product(productCode)],
    );
  });
}

/**
 * §17: a GRADUATED list whose first tier for a product starts above 1 (docs/pricing-rules.md
 * §29): below it the list has no price, and from it on the first band still counts from piece 1.
 */
export function graduatedFirstTiers(facts: LintFacts): Finding[] {
  return facts.graduatedFirstTiers.map(({ pricelistId, productCode, firstTier }) =>
    finding(
      "GRADUATED_FIRST_TIER",
      `GRADUATED pricelist ${pricelistId} has its first tier for product ${productCode} at ` +
        `quantity ${firstTier}: quantities 1–${firstTier - 1} have no price in it, and from ` +
        `${firstTier} on its first band still counts from piece 1 at that tier's amount; start ` +
        "the first tier at 1",
      [ref.pricelist(pricelistId), ref.product(productCode)],
    ),
  );
}

/** The first quantity a line may ask for in [from, to), or null when none. */
function firstOrderable(
  row: Pick<FloorOverList, "rule" | "quantity" | "nextQuantity">,
): number | null {
  const { rule, quantity, nextQuantity } = row;
  const first = isAllowed(rule, quantity) ? quantity : suggestionsFor(rule, quantity).above;
  if (first === null || first > MAX_LINE_QUANTITY) return null;
  return nextQuantity === null || first < nextQuantity ? first : null;
}

/**
 * §6: a FLOOR row above the channel primary list's row where both are the tier for an orderable
 * quantity. One finding per channel, FLOOR list and product: the smallest such quantity.
 */
export function floorsAboveList(facts: LintFacts): Finding[] {
  const first = new Map<string, { row: FloorOverList; quantity: number }>();
  for (const row of facts.floorsOverList) {
    const quantity = firstOrderable(row);
    if (quantity === null) continue;
    const key = `${row.channelCode}\u0000${row.floorPricelistId}\u0000${row.productCode}`;
    const seen = first.get(key);
    if (!seen || quantity < seen.quantity) first.set(key, { row, quantity });
  }
  return [...first.values()].map(({ row, quantity }) =>
    finding(
      "FLOOR_ABOVE_LIST",
      `FLOOR pricelist ${row.floorPricelistId} holds ${per(row.floorAmount, row.floorUnit)} for ` +
        `product ${row.productCode} from quantity ${quantity}, above the list price ` +
        `${per(row.listAmount, row.listUnit)} of channel ${row.channelCode}'s primary pricelist ` +
        `${row.primaryPricelistId}: where it ` +
        "is the line's floor, a price at or below it is its own effective floor, so no trade " +
        "condition or promotion lowers that price",
      [
        ref.pricelist(row.floorPricelistId),
        ref.product(row.productCode),
        ref.channel(row.channelCode),
        ref.pricelist(row.primaryPricelistId),
      ],
    ),
  );
}

/**
 * §8: a hole between two rows of an ACTIVE list's timeline (docs/pricing-rules.md §17): while it
 * lasts, the list has no price for the product from that quantity.
 */
export function priceGaps(facts: LintFacts): Finding[] {
  return facts.priceGaps.map((gap) =>
    finding(
      "PRICE_GAP",
      `pricelist ${gap.pricelistId} has no row for product ${gap.productCode} from quantity ` +
        `${gap.minQuantity} between ${new Date(gap.from).toISOString()} and ` +
        `${new Date(gap.to).toISOString()}: lines then take their price from another pricelist, ` +
        "or have none (NO_PRICE)",
      [ref.pricelist(gap.pricelistId), ref.product(gap.productCode)],
    ),
  );
}

/**
 * §15: a channel's ACTIVE SALES or FLOOR row below the channel's cost of the product, per piece,
 * exactly, where both are the tier for an orderable quantity (one finding per channel, list and
 * product: the smallest such quantity); and a FLOOR derived from a COST list with a negative
 * adjustment, below cost wherever it applies.
 */
export function belowCost(facts: LintFacts): Finding[] {
  const first = new Map<string, { row: BelowCostRow; quantity: number }>();
  for (const row of facts.belowCost) {
    // SQL compared the amounts per piece as numbers; the rule judges them exactly.
    const price = { amount: row.amount, priceUnit: row.priceUnit };
    if (perPiece(price, { amount: row.costAmount, priceUnit: row.costPriceUnit }) >= 0) continue;
    const quantity = firstOrderable(row);
    if (quantity === null) continue;
    const key = `${row.channelCode}\u0000${row.pricelistId}\u0000${row.productCode}`;
    const seen = first.get(key);
    if (!seen || quantity < seen.quantity) first.set(key, { row, quantity });
  }
  const rows = [...first.values()].map(({ row, quantity }) =>
    finding(
      "BELOW_COST",
      `${row.kind} pricelist ${row.pricelistId} holds ${per(row.amount, row.priceUnit)} for ` +
        `product ${row.productCode} from quantity ${quantity}, below its cost ` +
        `${per(row.costAmount, row.costPriceUnit)} in channel ${row.channelCode} (COST ` +
        `pricelist ${row.costPricelistId}): ` +
        (row.kind === "FLOOR"
          ? "the floor lets trade conditions and promotions sell it at a loss"
          : "every line it prices there sells at a loss"),
      [
        ref.pricelist(row.pricelistId),
        ref.product(row.productCode),
        ref.channel(row.channelCode),
        ref.pricelist(row.costPricelistId),
      ],
    ),
  );
  const floors = facts.floorsUnderCost.map((f) =>
    finding(
      "BELOW_COST",
      `FLOOR pricelist ${f.floorPricelistId} derives from COST pricelist ${f.costPricelistId} ` +
        `with adjustmentBp ${f.adjustmentBp}: its floor is below cost for every product it takes ` +
        "from there, so it lets trade conditions and promotions sell at a loss",
      [ref.pricelist(f.floorPricelistId), ref.pricelist(f.costPricelistId)],
    ),
  );
  return [...rows, ...floors];
}

/** The smallest quantity a line may ask for at or above `quantity`; null: none. */
function orderableFrom(rule: QuantityRule, quantity: number): number | null {
  const first = isAllowed(rule, quantity) ? quantity : suggestionsFor(rule, quantity).above;
  return first === null || first > MAX_LINE_QUANTITY ? null : first;
}

/** The largest quantity a line may ask for at or below `quantity`; null: none. */
const orderableUpTo = (rule: QuantityRule, quantity: number): number | null =>
  isAllowed(rule, quantity) ? quantity : suggestionsFor(rule, quantity).below;

/**
 * What a tier cliff costs the buyer, or null when no orderable quantity meets it: `buy`, the
 * smallest orderable quantity of the higher tier (m2, or the next one the quantity rule allows,
 * still below m3), and the orderable quantities `from`–`to` of the lower tier that cost more than
 * `buy`: from ⌊buy × a2 / a1⌋ + 1 (per piece: a2 / u2 against a1 / u1; not below m1) to m2 − 1.
 * Exact, with BigInt (docs/pricing-lint.md §14).
 */
export function cliffRange(c: TierCliff): { from: number; to: number; buy: number } | null {
  if (c.a1 <= 0) return null;
  const buy = orderableFrom(c.rule, c.m2);
  if (buy === null || (c.m3 !== null && buy >= c.m3)) return null;
  const cheaperFrom =
    (BigInt(buy) * BigInt(c.a2) * BigInt(c.u1)) / (BigInt(c.u2) * BigInt(c.a1)) + 1n;
  const lowest = cheaperFrom < BigInt(c.m1) ? c.m1 : Number(cheaperFrom);
  if (lowest > c.m2 - 1) return null;
  const from = orderableFrom(c.rule, lowest);
  const to = orderableUpTo(c.rule, c.m2 - 1);
  return from === null || to === null || from > to ? null : { from, to, buy };
}

/**
 * §14: adjacent tiers of a list's own rows in force where orderable quantities on the lower tier
 * cost more than the smallest orderable quantity of the higher one: a buyer there pays more for
 * less (docs/pricing-rules.md §22 advises them; this finds the tiers).
 */
export function tierCliffs(facts: LintFacts): Finding[] {
  return facts.tierCliffs.flatMap((cliff) => {
    const range = cliffRange(cliff);
    if (!range) return [];
    const { from, to, buy } = range;
    return [
      finding(
        "TIER_CLIFF",
        `pricelist ${cliff.pricelistId} prices product ${cliff.productCode} at ` +
          `${per(cliff.a1, cliff.u1)} from quantity ${cliff.m1} and ${per(cliff.a2, cliff.u2)} ` +
          `from ${cliff.m2}: buying ${from === to ? from : `${from}–${to}`} pieces costs more ` +
          `than buying ${buy}; lower the price from ${cliff.m1}, raise the one from ` +
          `${cliff.m2} or add a tier between them, so that fewer pieces never cost more`,
        [ref.pricelist(cliff.pricelistId), ref.product(cliff.productCode)],
      ),
    ];
  });
}
