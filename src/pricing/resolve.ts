import {
  applyConditions,
  explainConditions,
  markSupersededByPromotion,
  prepareConditions,
  type Audience,
  type ConditionIndex,
} from "./conditions";
import { add, AmountOutOfRange, times } from "./money";
import {
  explainPricelists,
  lookupBase,
  preparePricelists,
  type BaseLookup,
  type PricelistLevels,
} from "./pricelists";
import {
  applyPromotions,
  explainPromotions,
  preparePromotions,
  type PromotionIndex,
} from "./promotions";
import type { LineExplain, LinePrice, PriceAnswer, PriceLineRequest, PriceRequest } from "./types";
import { EdgeTracker } from "./validity";

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
 * Resolves the prices of every line of a request (pricing-rules.md, steps 1–3). Pure: the same
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
    totalAmount: totalOf(lines),
    validUntil: edge === null ? null : new Date(edge).toISOString(),
    lines,
  };
}

function totalOf(lines: readonly LinePrice[]): number | null {
  try {
    return lines.reduce((sum, l) => (l.status === "OK" ? add(sum, l.lineAmount ?? 0) : sum), 0);
  } catch (error) {
    if (error instanceof AmountOutOfRange) return null;
    throw error;
  }
}

/** A line shape with every field present, so unpriced lines serialise like priced ones. */
function unpriced(
  context: Context,
  line: PriceLineRequest,
  status: LinePrice["status"],
  lookup: BaseLookup | undefined,
  explain: LineExplain | null,
): LinePrice {
  const base = lookup?.base;
  return {
    productCode: line.productCode,
    quantity: line.quantity,
    status,
    finalUnitAmount: null,
    lineAmount: null,
    regularUnitAmount: null,
    listUnitAmount: null,
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
    adjustments: [],
    tiers: base ? tiersOf(base.prepared.tiers.get(line.productCode)) : [],
    explain,
  };
}

const tiersOf = (rows: readonly { minQuantity: number; amount: number }[] | undefined) =>
  (rows ?? []).map((r) => ({ minQuantity: r.minQuantity, amount: r.amount }));

function priceLine(context: Context, line: PriceLineRequest): LinePrice {
  const { productCode, quantity } = line;
  const explain = context.explain;
  if (!context.known.has(productCode)) {
    const nothing = explain ? { pricelists: [], tradeConditions: [], promotions: [] } : null;
    return unpriced(context, line, "UNKNOWN_PRODUCT", undefined, nothing);
  }

  const lookup = lookupBase(context.levels, productCode, quantity, context.edges);
  const { base, list } = lookup;
  if (!base) {
    const why = explain
      ? {
          pricelists: explainPricelists(context.levels, productCode, quantity, lookup),
          tradeConditions: explainConditions(context.conditions, productCode, quantity, null),
          promotions: explainPromotions(context.promotions, productCode, null),
        }
      : null;
    return unpriced(context, line, "NO_PRICE", undefined, why);
  }

  try {
    const baseAmount = base.tier.amount;
    const step2 = applyConditions(
      context.conditions,
      productCode,
      quantity,
      baseAmount,
      base.prepared.pricelist.allowsTradeDiscounts,
      context.edges,
      explain,
    );
    const surchargeTotal = step2.surcharges.reduce((sum, a) => add(sum, a.amount), 0);
    const step3 = applyPromotions(
      context.promotions,
      productCode,
      baseAmount,
      step2.regular,
      surchargeTotal,
      context.edges,
      explain,
    );

    let final = step2.regular;
    let adjustments = step2.adjustments;
    const winner = step3.winner;
    if (winner) {
      final = winner.price;
      if (winner.promotion.stacking === "BEST_OF") {
        // The promotion price replaces the trade conditions: base − saving, then the charges.
        adjustments = [winner.adjustment, ...step2.surcharges];
        markSupersededByPromotion(step2.notes);
      } else {
        adjustments = [...step2.adjustments, winner.adjustment];
      }
    }

    return {
      productCode,
      quantity,
      status: "OK",
      finalUnitAmount: final,
      lineAmount: times(final, quantity),
      regularUnitAmount: step2.regular,
      listUnitAmount: list ? list.tier.amount : null,
      currency: context.currency,
      taxInclusive: base.prepared.pricelist.taxInclusive,
      source: {
        level: base.level,
        pricelistId: base.prepared.pricelist.id,
        tierMinQuantity: base.tier.minQuantity,
        baseUnitAmount: baseAmount,
      },
      adjustments,
      tiers: tiersOf(base.prepared.tiers.get(productCode)),
      explain: explain
        ? {
            pricelists: explainPricelists(context.levels, productCode, quantity, lookup),
            tradeConditions: explainConditions(
              context.conditions,
              productCode,
              quantity,
              step2.notes,
            ),
            promotions: explainPromotions(context.promotions, productCode, step3.notes),
          }
        : null,
    };
  } catch (error) {
    if (!(error instanceof AmountOutOfRange)) throw error;
    // Amounts this large cannot be written exactly in JSON; only this line says so.
    const why = explain
      ? {
          pricelists: explainPricelists(context.levels, productCode, quantity, lookup),
          tradeConditions: [],
          promotions: [],
        }
      : null;
    return unpriced(context, line, "OUT_OF_RANGE", lookup, why);
  }
}
