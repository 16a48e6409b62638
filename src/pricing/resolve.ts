import { lineValue } from "./basis";
import type { ConditionStep } from "./conditions";
import {
  orderBasesOf,
  prepareConditions,
  type Audience,
  type ConditionIndex,
} from "./conditions-index";
import { prepareCosts } from "./costs";
import { derivationsOf } from "./derivation";
import { RatesAt } from "./exchange";
import { prepareFloors } from "./floors";
import { prepareQuotes, type QuoteStep } from "./honour";
import {
  finishLine,
  regularOf,
  startLine,
  type LineSetup,
  type Regular,
  type Started,
} from "./line";
import { orderMargin } from "./margin";
import { add, AmountOutOfRange } from "./money";
import { listsByProduct, preparePricelists } from "./pricelists";
import {
  preparePromotions,
  thresholdSumsOf,
  type PromotionIndex,
  type PromotionStep,
} from "./promotions";
import type { LinePrice, PriceAnswer, PriceLineRequest, PriceRequest } from "./types";
import { EdgeTracker } from "./validity";

/**
 * Resolves the prices of every line of a request (docs/pricing-rules.md §3–§5, §12–§22 and
 * §23–§26).
 * Pure: the same request gives the same answer, byte for byte once serialised; one line never
 * fails another; the lines' order changes nothing but the order of the answer's lines, since
 * what one line takes from the others (order-level scales, thresholds) is a sum.
 */
export function resolvePrices(request: PriceRequest): PriceAnswer {
  const shared = prepare(request);
  const started = request.lines.map((line) => startLine(shared.setup, line));
  // With separateOrders each line is an order of its own (GET /v1/api/prices): order-level sums
  // only add up within one.
  const orders = request.separateOrders === true ? started.map((s) => [s]) : [started];
  const lines = orders.flatMap((order) => priceOrder(shared, order));
  const edge = shared.setup.edges.earliest;
  const totals = totalsOf(lines);
  const rounding = request.roundingMode ?? "HALF_UP";
  return {
    channelCode: request.channel.code,
    customerCode: shared.customerCode,
    currency: request.currency,
    at: new Date(request.at).toISOString(),
    ...totals,
    // Admin keys only (docs/pricing-rules.md §26): a read key's answer has neither field.
    ...(request.margin === true ? orderMargin(lines, totals.pricedTotalAmount, rounding) : {}),
    validUntil: edge === null ? null : new Date(edge).toISOString(),
    lines,
  };
}

/** A request without its lines: whom, where, when, and the records that may price them. */
export type PricingSetup = Omit<PriceRequest, "lines" | "separateOrders">;

/** What every order of a request shares: the prepared pricelists, floors, conditions and promotions. */
interface Shared {
  request: PricingSetup;
  customerCode: string | null;
  setup: LineSetup;
  conditionIndex: ConditionIndex;
  promotionIndex: PromotionIndex;
  quotes: QuoteStep;
}

/** Everything of a request its lines do not change, prepared once for all its orders. */
function prepare(request: PricingSetup): Shared {
  const customerCode = request.customer?.code ?? null;
  const audience: Audience = {
    at: request.at,
    currency: request.currency,
    channelCode: request.channel.code,
    customerCode,
    // Groups only exist through a customer: an anonymous request has none.
    groupCodes: new Set(customerCode === null ? [] : request.groupCodes),
  };
  const { at, currency } = request;
  const edges = new EdgeTracker(at);
  const rates = new RatesAt(request.exchangeRates ?? [], at);
  const derivations = derivationsOf(request.priceBases, request.pricelists, at, rates);
  const margin = request.margin === true;
  const levels = preparePricelists(request.pricelists, derivations, currency, at, edges);
  return {
    request,
    customerCode,
    setup: {
      products: request.products,
      levels,
      lists: listsByProduct(levels),
      floors: prepareFloors(request.floors, currency, at, edges, derivations, margin),
      costs: margin ? prepareCosts(request.costs ?? [], currency, at, edges) : undefined,
      edges,
    },
    conditionIndex: prepareConditions(
      request.tradeConditions,
      audience,
      request.hiddenConditionTypes ?? [],
    ),
    promotionIndex: preparePromotions(request.promotions, audience),
    quotes: prepareQuotes(request.quotes, at, edges),
  };
}

/** A request prepared once to price many one-line orders in batches (`priceOneLineOrders`). */
export interface PreparedOrders {
  readonly shared: Shared;
}

/**
 * Prepares what every one-line order of `setup` shares (its pricelists, floors, conditions and
 * promotions), for a caller that prices many of them in batches and lets other work run between
 * two (the publish simulation, docs/simulation.md §8).
 */
export const prepareOneLineOrders = (setup: PricingSetup): PreparedOrders => ({
  shared: prepare(setup),
});

/**
 * Each line as an order of its own, as `resolvePrices` prices the lines of a request with
 * `separateOrders`: the same lines, whichever batches they come in.
 */
export function priceOneLineOrders(
  { shared }: PreparedOrders,
  lines: readonly PriceLineRequest[],
): LinePrice[] {
  return lines.flatMap((line) => priceOrder(shared, [startLine(shared.setup, line)]));
}

/** Steps 3 to 6 over the lines of one order, with the order-level sums between them. */
function priceOrder(
  { request, setup, conditionIndex, promotionIndex, quotes }: Shared,
  started: readonly Started[],
): LinePrice[] {
  const explain = request.explain === true;
  const rounding = request.roundingMode ?? "HALF_UP";
  const eligible = started.filter((s) => s.stop === null);
  const conditions: ConditionStep = {
    index: conditionIndex,
    orderBases: orderBasesOf(conditionIndex, eligible, rounding),
    edges: setup.edges,
    explain,
    rounding,
  };
  const regulars = new Map<Started, Regular | "OUT_OF_RANGE">();
  for (const s of eligible) {
    const r = regularOf(conditions, s);
    regulars.set(s, r);
    // A regular amount past 2^53 − 1 counts as that much.
    s.regularValue =
      r === "OUT_OF_RANGE"
        ? Number.MAX_SAFE_INTEGER
        : lineValue(r.regular, s.quantity, s.priceUnit, rounding);
  }
  const promotions: PromotionStep = {
    index: promotionIndex,
    sums: thresholdSumsOf(promotionIndex, eligible),
    edges: setup.edges,
    explain,
    rounding,
  };
  const finish = {
    currency: request.currency,
    explain,
    margin: request.margin === true,
    ladder: request.ladder === true,
    levels: setup.levels,
    floors: setup.floors,
    conditions,
    promotions,
    setup,
    quotes,
    noExplain: explain
      ? {
          conditions: { ...conditions, explain: false },
          promotions: { ...promotions, explain: false },
        }
      : { conditions, promotions },
  };
  return started.map((s) => finishLine(finish, s, regulars.get(s)));
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
