import {
  applyConditions,
  explainConditions,
  markSupersededByPromotion,
  prepareConditions,
  type Audience,
  type ConditionIndex,
  type ConditionResult,
} from "./conditions";
import { add, AmountOutOfRange, times } from "./money";
import {
  explainPricelists,
  lookupBase,
  preparePricelists,
  type BaseLookup,
  type LevelCandidate,
  type PricelistLevels,
} from "./pricelists";
import {
  applyPromotions,
  explainPromotions,
  preparePromotions,
  type PromotionIndex,
  type PromotionResult,
} from "./promotions";
import type {
  Adjustment,
  LineExplain,
  LinePrice,
  PriceAnswer,
  PriceLineRequest,
  PriceRequest,
} from "./types";
import { EdgeTracker } from "./validity";
import type { LineStatus } from "./vocabulary";

/** Everything derived once per request, so each line only does lookups. */
interface Context {
  currency: string;
  explain: boolean;
  known: ReadonlySet<string>;
  levels: PricelistLevels;
  conditions: ConditionIndex;
  promotions: PromotionIndex;
  edges: EdgeTracker;
}

/**
 * Resolves the prices of every line of a request (docs/pricing-rules.md §3–§5). Pure: the same
 * request gives the same answer, byte for byte once serialised; one line never fails another.
 */
export function resolvePrices(request: PriceRequest): PriceAnswer {
  const customerCode = request.customer?.code ?? null;
  const audience: Audience = {
    at: request.at,
    currency: request.currency,
    channelCode: request.channel.code,
    customerCode,
    // Groups only exist through a customer: an anonymous request has none.
    groupCodes: new Set(customerCode === null ? [] : request.groupCodes),
  };
  const context: Context = {
    currency: request.currency,
    explain: request.explain === true,
    known: new Set(request.knownProducts),
    levels: preparePricelists(request.pricelists, request.currency, request.at),
    conditions: prepareConditions(request.tradeConditions, audience),
    promotions: preparePromotions(request.promotions, audience),
    edges: new EdgeTracker(request.at),
  };

  const lines = request.lines.map((line) => priceLine(context, line));
  const edge = context.edges.earliest;
  return {
    channelCode: request.channel.code,
    customerCode,
    currency: request.currency,
    at: new Date(request.at).toISOString(),
    ...totalsOf(lines),
    validUntil: edge === null ? null : new Date(edge).toISOString(),
    lines,
  };
}

/**
 * docs/pricing-rules.md §8: the cart's total only when every line is priced, so a total with a
 * line missing never looks complete. Line amounts are never negative, so the running sum only
 * grows: it passes 2^53 − 1 in every order of the lines or in none.
 */
function totalsOf(
  lines: readonly LinePrice[],
): Pick<PriceAnswer, "totalAmount" | "pricedTotalAmount" | "complete"> {
  const complete = lines.every((l) => l.status === "OK");
  const priced = pricedSum(lines);
  return { totalAmount: complete ? priced : null, pricedTotalAmount: priced, complete };
}

/** Σ lineAmount of the OK lines (0 when none is); null when it would pass 2^53 − 1. */
function pricedSum(lines: readonly LinePrice[]): number | null {
  try {
    return lines.reduce((sum, l) => (l.status === "OK" ? add(sum, l.lineAmount ?? 0) : sum), 0);
  } catch (error) {
    if (error instanceof AmountOutOfRange) return null;
    throw error;
  }
}

/** Steps 2 and 3 on a line's base price: everything a priced line adds to it. */
interface Adjusted {
  final: number;
  lineAmount: number;
  regular: number;
  adjustments: Adjustment[];
  conditionNotes: ConditionResult["notes"];
  promotionNotes: PromotionResult["notes"];
}

/** How a line ended: priced, or why it was not. */
type LineResult = Adjusted | Exclude<LineStatus, "OK">;

function priceLine(context: Context, line: PriceLineRequest): LinePrice {
  if (!context.known.has(line.productCode)) return lineOf(context, line, "UNKNOWN_PRODUCT");
  const lookup = lookupBase(context.levels, line.productCode, line.quantity, context.edges);
  const result = lookup.base ? adjust(context, line, lookup.base) : "NO_PRICE";
  return lineOf(context, line, result, lookup);
}

function adjust(context: Context, line: PriceLineRequest, base: LevelCandidate): LineResult {
  const { productCode, quantity } = line;
  try {
    const step2 = applyConditions(
      context.conditions,
      productCode,
      quantity,
      base.tier.amount,
      base.prepared.pricelist.allowsTradeDiscounts,
      context.edges,
      context.explain,
    );
    const step3 = applyPromotions(
      context.promotions,
      productCode,
      base.tier.amount,
      step2.regular,
      step2.surcharges.reduce((sum, a) => add(sum, a.amount), 0),
      context.edges,
      context.explain,
    );
    const { final, adjustments } = withPromotion(step2, step3.winner);
    return {
      final,
      lineAmount: times(final, quantity),
      regular: step2.regular,
      adjustments,
      conditionNotes: step2.notes,
      promotionNotes: step3.notes,
    };
  } catch (error) {
    if (!(error instanceof AmountOutOfRange)) throw error;
    // Amounts this large cannot be written exactly in JSON; only this line says so.
    return "OUT_OF_RANGE";
  }
}

/** The final unit amount and its steps, once step 3 picked its promotion (if any). */
function withPromotion(step2: ConditionResult, winner: PromotionResult["winner"]) {
  if (!winner) return { final: step2.regular, adjustments: step2.adjustments };
  if (winner.promotion.stacking === "ON_TOP") {
    return { final: winner.price, adjustments: [...step2.adjustments, winner.adjustment] };
  }
  // BEST_OF: the promotion price replaces the trade conditions: base − saving, then the charges.
  markSupersededByPromotion(step2.notes);
  return { final: winner.price, adjustments: [winner.adjustment, ...step2.surcharges] };
}

/** The line with every field present, so unpriced lines serialise like priced ones. */
function lineOf(
  context: Context,
  line: PriceLineRequest,
  result: LineResult,
  lookup?: BaseLookup,
): LinePrice {
  const priced = typeof result === "string" ? undefined : result;
  const base = lookup?.base;
  return {
    productCode: line.productCode,
    quantity: line.quantity,
    status: typeof result === "string" ? result : "OK",
    finalUnitAmount: priced?.final ?? null,
    lineAmount: priced?.lineAmount ?? null,
    regularUnitAmount: priced?.regular ?? null,
    listUnitAmount: priced && lookup?.list ? lookup.list.tier.amount : null,
    currency: context.currency,
    taxInclusive: base ? base.prepared.pricelist.taxInclusive : null,
    source: base
      ? {
          level: base.level,
          pricelistId: base.prepared.pricelist.id,
          tierMinQuantity: base.tier.minQuantity,
          baseUnitAmount: base.tier.amount,
        }
      : null,
    adjustments: priced?.adjustments ?? [],
    tiers: base ? tiersOf(base.prepared.tiers.get(line.productCode)) : [],
    explain: context.explain ? explainLine(context, line, result, lookup) : null,
  };
}

const tiersOf = (rows: readonly { minQuantity: number; amount: number }[] | undefined) =>
  (rows ?? []).map((r) => ({ minQuantity: r.minQuantity, amount: r.amount }));

/** Every candidate of the line and why it won or lost, as far as pricing the line got. */
function explainLine(
  context: Context,
  line: PriceLineRequest,
  result: LineResult,
  lookup: BaseLookup | undefined,
): LineExplain {
  const { productCode, quantity } = line;
  // An unknown product has no candidates; an out-of-range line stopped before its steps ended.
  if (!lookup) return { pricelists: [], tradeConditions: [], promotions: [] };
  const pricelists = explainPricelists(context.levels, productCode, quantity, lookup);
  if (result === "OUT_OF_RANGE") return { pricelists, tradeConditions: [], promotions: [] };
  const priced = typeof result === "string" ? undefined : result;
  return {
    pricelists,
    tradeConditions: explainConditions(
      context.conditions,
      productCode,
      quantity,
      priced?.conditionNotes ?? null,
    ),
    promotions: explainPromotions(context.promotions, productCode, priced?.promotionNotes ?? null),
  };
}
