import {
  applyAccruals,
  applyConditions,
  explainConditions,
  markSupersededByPromotion,
  regularAt,
  type ConditionResult,
  type ConditionStep,
} from "./conditions";
import { reachedConditions } from "./conditions-index";
import { Cuts } from "./breaks";
import { isPriceable, type PricedTier } from "./derivation";
import {
  explainFloors,
  floorAt,
  floored,
  floorFor,
  floorsFor,
  raiseToFloor,
  type FloorNote,
  type LineFloor,
  type PreparedFloor,
  type ProductFloor,
} from "./floors";
import { costFor, explainCosts, type LineCost } from "./costs";
import { honour, type Honouring, type QuoteStep } from "./honour";
import { marginOf, UNPRICED, type MarginFields } from "./margin";
import { AmountOutOfRange, scale } from "./money";
import {
  explainPricelists,
  lookupIn,
  type BaseLookup,
  type PricelistLevels,
  type ProductLists,
} from "./pricelists";
import {
  applyPromotions,
  explainPromotions,
  promotedAt,
  type PromotionLine,
  type PromotionResult,
  type PromotionStep,
} from "./promotions";
import { isAllowed, MAX_LINE_QUANTITY, quantityRuleOf, suggestionsFor } from "./quantity";
import type {
  Adjustment,
  LadderEntry,
  LineExplain,
  LinePrice,
  ListTier,
  PriceBreak,
  PriceLineRequest,
  PriceSource,
  ProductFacts,
  QuantityRule,
  Tier,
} from "./types";
import { inUnit } from "./units";
import type { EdgeTracker } from "./validity";
import type { LineStatus } from "./vocabulary";

/**
 * One line through the order of docs/pricing-rules.md §15: `startLine` (base price, quantity
 * rule, the floor it will have), `regularOf` (trade conditions, floor on the regular amount),
 * `finishLine` (promotion, floor on the final amount, the line amount, price-break advice,
 * with `margin` the accruals, cost and margin of §23–§26, the answer's line). Between them the
 * request sums what order-level scales and thresholds need. Every unit amount of a line is per
 * its base row's price unit (§20).
 */

/** What step 1 needs, prepared once per request. */
export interface LineSetup {
  products: ReadonlyMap<string, ProductFacts>;
  levels: PricelistLevels;
  /** The lists that may price each product (`listsByProduct` of `levels`). */
  lists: ReadonlyMap<string, ProductLists>;
  floors: readonly PreparedFloor[];
  /** The channel's COST lists; undefined without `margin` (read keys): no line has a cost. */
  costs: readonly PreparedFloor[] | undefined;
  edges: EdgeTracker;
}

/**
 * A line after steps 1 and 2, and what the request sums from it: its facts are those order-level
 * sums read (and `regularValue` is filled in once step 4 ran).
 */
export interface Started extends PromotionLine {
  line: PriceLineRequest;
  rule: QuantityRule | null;
  /** The lists that may price its product (`listsByProduct`), kept to price it again. */
  lists: ProductLists | undefined;
  lookup: BaseLookup | undefined;
  /** Why the line is not priced; null when it is eligible (known, base price, quantity allowed). */
  stop: Exclude<LineStatus, "OK"> | null;
  floor: LineFloor | undefined;
  /** Eligible lines: the base unit amount (a safe integer); else 0. */
  baseAmount: number;
  /** Eligible lines, after step 4: regularUnitAmount × quantity, at most 2^53 − 1. */
  regularValue: number;
  /** The FLOOR lists that may floor its product (`floorsFor`), once it was priced again. */
  floors?: readonly ProductFloor[];
}

/**
 * Steps 1 and 2: the base price, then the quantity rule; the floor the line will have.
 */
export function startLine(setup: LineSetup, line: PriceLineRequest): Started {
  const product = setup.products.get(line.productCode);
  const s: Started = {
    productCode: line.productCode,
    quantity: line.quantity,
    groupPath: product?.groupPath ?? [],
    codes: product,
    priceUnit: 1,
    line,
    rule: product ? quantityRuleOf(product) : null,
    lists: undefined,
    lookup: undefined,
    stop: "UNKNOWN_PRODUCT",
    floor: undefined,
    baseAmount: 0,
    regularValue: 0,
  };
  if (!s.rule) return s;
  s.lists = setup.lists.get(line.productCode) ?? [];
  s.lookup = lookupIn(s.lists, line.quantity, setup.edges);
  s.stop = stopAt(s.lookup, s.rule, line.quantity);
  if (!s.stop) {
    const { tier } = s.lookup.base!;
    s.baseAmount = tier.amount;
    s.priceUnit = tier.priceUnit;
    const at = { base: s.baseAmount, priceUnit: s.priceUnit };
    s.floor = floorFor(setup.floors, line.productCode, line.quantity, at, setup.edges);
  }
  return s;
}

/**
 * Why a line at `quantity` with this base lookup is not priced (steps 1 and 2), or null. A
 * derived amount past 2^53 − 1 cannot be answered exactly: only this line says so.
 */
function stopAt(
  { base, list }: BaseLookup,
  rule: QuantityRule,
  quantity: number,
): Exclude<LineStatus, "OK"> | null {
  if (!base) return "NO_PRICE";
  if (!isPriceable(base.tier) || (list && !isPriceable(list.tier))) return "OUT_OF_RANGE";
  if (!isAllowed(rule, quantity)) return "QUANTITY_NOT_ALLOWED";
  return null;
}

/** Steps 3 and 4 of an eligible line: trade conditions, then the floor on the regular amount. */
export interface Regular {
  step2: ConditionResult;
  /** After the floor. */
  regular: number;
  floorAdjustment: Adjustment | undefined;
}

/** A step's catch: an amount past 2^53 − 1 is the line's OUT_OF_RANGE, anything else throws. */
function outOfRange(error: unknown): "OUT_OF_RANGE" {
  if (!(error instanceof AmountOutOfRange)) throw error;
  return "OUT_OF_RANGE";
}

export function regularOf(step: ConditionStep, s: Started): Regular | "OUT_OF_RANGE" {
  try {
    const base = s.lookup!.base!;
    const allows = base.prepared.pricelist.allowsTradeDiscounts;
    const step2 = applyConditions(step, s, s.baseAmount, allows);
    const floorAdjustment = raiseToFloor(s.floor, step2.regular);
    const regular = floorAdjustment ? step2.regular + floorAdjustment.amount : step2.regular;
    return { step2, regular, floorAdjustment };
  } catch (error) {
    return outOfRange(error);
  }
}

/** Steps 5 to 7 of a line with a regular amount: everything a priced line adds to its base. */
interface Adjusted {
  final: number;
  lineAmount: number;
  regular: number;
  /** The list price per the line's price unit; null without one. */
  list: number | null;
  adjustments: Adjustment[];
  conditionNotes: ConditionResult["notes"];
  promotionNotes: PromotionResult["notes"];
  floorNote: FloorNote;
  /** What steps 2 and 3 may cut at another quantity of the line (breaks.ts). */
  conditionCuts: readonly Cuts[];
  promotionCuts: Cuts;
}

function adjust(step: PromotionStep, s: Started, r: Regular): Adjusted | "OUT_OF_RANGE" {
  try {
    const prices = {
      base: s.baseAmount,
      regular: r.regular,
      surchargeTotal: r.step2.surchargeTotal,
      priceUnit: s.priceUnit,
      rounding: step.rounding,
    };
    const step3 = applyPromotions(step, s, prices);
    const { winner } = step3;
    const promoted = winner ? winner.price : r.regular;
    const adjustments = withPromotion(r, winner);
    const floorFinal = raiseToFloor(s.floor, promoted);
    if (floorFinal) adjustments.push(floorFinal);
    const final = floorFinal ? promoted + floorFinal.amount : promoted;
    const list = s.lookup!.list?.tier;
    return {
      final,
      // The one division by the price unit, in the channel's rounding (§20, §21).
      lineAmount: scale(final, s.line.quantity, s.priceUnit, step.rounding),
      regular: r.regular,
      list: list ? inUnit(list.amount, list.priceUnit, s.priceUnit) : null,
      adjustments,
      conditionNotes: r.step2.notes,
      promotionNotes: step3.notes,
      floorNote: {
        unguarded: null,
        floor: s.floor,
        regular: r.floorAdjustment?.amount ?? 0,
        final: floorFinal?.amount ?? 0,
      },
      conditionCuts: r.step2.cuts,
      promotionCuts: step3.cuts,
    };
  } catch (error) {
    return outOfRange(error);
  }
}

/**
 * The line's steps up to step 5 (promotion, if any), in applied order. Step 2's array is the
 * line's own and read here alone: the floor's and the promotion's steps go on its end.
 */
function withPromotion(r: Regular, winner: PromotionResult["winner"]): Adjustment[] {
  const { adjustments } = r.step2;
  if (winner?.promotion.stacking === "BEST_OF") {
    // The promotion price replaces the trade conditions (and their floor): base − saving, then
    // the charges.
    markSupersededByPromotion(r.step2.notes);
    const steps = [winner.adjustment];
    for (const a of adjustments) if (a.kind === "SURCHARGE") steps.push(a);
    return steps;
  }
  if (r.floorAdjustment) adjustments.push(r.floorAdjustment);
  if (winner) adjustments.push(winner.adjustment);
  return adjustments;
}

/** What a line needs from the request once every sum is known. */
export interface Finish {
  currency: string;
  explain: boolean;
  /** Cost, margin, accruals and pocket price on every line (admin keys, §26). */
  margin: boolean;
  /** Each OK line's tier ladder (§30). */
  ladder: boolean;
  levels: PricelistLevels;
  conditions: ConditionStep;
  promotions: PromotionStep;
  floors: readonly PreparedFloor[];
  /** Step 1's setup, to price a line again at another quantity (price-break advice). */
  setup: LineSetup;
  /** Steps 3 and 5 without explain, for that second pricing. */
  noExplain: { conditions: ConditionStep; promotions: PromotionStep };
  /** Step 7: the quotes the request honours (honour.ts). */
  quotes: QuoteStep;
}

/**
 * Step 7 (docs/pricing-rules.md §28) for the product at `quantity` on its usual final amount
 * (null: not priced as usual): what the quotes decided, and the final amount they leave, the
 * quoted one when a quote won (APPLIED), else the usual one. The line and its ladder both take it.
 */
function quoteStep<U extends number | null>(
  f: Finish,
  productCode: string,
  quantity: number,
  priceUnit: number,
  usual: U,
) {
  const honouring = f.quotes.any
    ? honour(f.quotes, productCode, quantity, priceUnit, usual)
    : undefined;
  const winner = honouring?.winner;
  return { honouring, final: winner?.won === "QUOTE" ? winner.unitAmount : usual };
}

/** The line's source: its base row's, and for a line a quote priced, the quote's. */
function sourceOf(s: Started, honoured: Honouring | undefined): PriceSource | null {
  const base = s.stop === null ? s.lookup?.base : undefined;
  if (!base) return null;
  const winner = honoured?.winner;
  const won = winner?.won === "QUOTE";
  const source: PriceSource = {
    level: base.level,
    pricelistId: base.prepared.pricelist.id,
    tierMinQuantity: base.tier.minQuantity,
    baseUnitAmount: won ? winner.unitAmount : base.tier.amount,
    derivedFrom: won ? null : base.tier.derivedFrom,
    tierMode: base.prepared.pricelist.tierMode ?? "VOLUME",
    // A quoted amount is not the sum of the list's bands (§28, §29).
    bands: won ? null : (base.tier.bands ?? null),
  };
  if (!winner) return source;
  return { ...source, kind: "QUOTE", quoteId: winner.quote.id, revision: winner.quote.revision };
}

/** Steps 5 to 7 of a line with a regular amount, and what step 7 decided. */
function honoured(f: Finish, s: Started, r: Regular | "OUT_OF_RANGE" | undefined) {
  const adjusted = r === undefined || r === "OUT_OF_RANGE" ? r : adjust(f.promotions, s, r);
  const usual = typeof adjusted === "object" ? adjusted : undefined;
  const usualFinal = usual?.final ?? null;
  const { honouring, final } = quoteStep(f, s.productCode, s.quantity, s.priceUnit, usualFinal);
  // APPLIED: the quoted amount with no adjustment; USUAL_PRICE_WON: the usual line as it was.
  if (!usual || honouring?.winner?.won !== "QUOTE") return { adjusted, honouring };
  return { adjusted: quoted(f, s, usual, final!), honouring };
}

/** APPLIED: the usual line at the quoted final amount, with no adjustment. */
function quoted(f: Finish, s: Started, usual: Adjusted, final: number): Adjusted | "OUT_OF_RANGE" {
  try {
    const lineAmount = scale(final, s.quantity, s.priceUnit, f.conditions.rounding);
    return { ...usual, final, lineAmount, adjustments: [] };
  } catch (error) {
    return outOfRange(error);
  }
}

/**
 * Whether the line at `quantity`, on base `tier`, surely costs more than `lineAmount`: even at
 * the lowest final amount its candidates could leave (breaks.ts), or at its floor there if that
 * is higher (the line's final amount is never below it without a quote, §14), its line amount,
 * rounded down, is above. Cheap, so the advice prices the line again only where it may be given.
 */
function surelyDearer(f: Finish, s: Started, priced: Adjusted, tier: Tier, quantity: number) {
  try {
    const cuts = [...priced.conditionCuts, priced.promotionCuts];
    const lowest = Cuts.lowestFinal(cuts, tier.amount, tier.priceUnit);
    s.floors ??= floorsFor(f.floors, s.productCode);
    const floor = floorAt(s.floors, quantity, { base: tier.amount, priceUnit: tier.priceUnit });
    const bound = floor && floor.effective > lowest ? floor.effective : lowest;
    return scale(bound, quantity, tier.priceUnit, "DOWN") > priced.lineAmount;
  } catch (error) {
    if (!(error instanceof AmountOutOfRange)) throw error;
    return false;
  }
}

/**
 * docs/pricing-rules.md §22: the smallest allowed quantity above the line's that reaches a higher
 * tier of its base list, when the line costs no more there, priced as a line of that quantity
 * with the order's sums unchanged; else null. Quietly: it adds nothing to explain, and looks at
 * no record the line did not (the same lists, floors, conditions and promotions reach it).
 */
function priceBreakOf(
  f: Finish,
  s: Started,
  priced: Adjusted,
  ladder: readonly LadderEntry[] | null,
): PriceBreak | null {
  const { base } = s.lookup!;
  // §29: a GRADUATED line never costs less for more pieces by a tier of its own list.
  if (base!.prepared.pricelist.tierMode === "GRADUATED") return null;
  const next = base!.prepared.tiers.get(s.productCode)?.find((t) => t.minQuantity > s.quantity);
  if (!next) return null;
  // With the ladder the advice's quantity is already priced: its entry for that tier (§30).
  if (ladder) {
    const entry = ladder.find((e) => e.minQuantity === next.minQuantity);
    return entry && entry.lineAmount <= priced.lineAmount
      ? { quantity: entry.quantity, lineAmount: entry.lineAmount }
      : null;
  }
  const quantity = ladderQuantity(s.rule!, next.minQuantity);
  if (quantity === null) return null;
  const lookup = lookupIn(s.lists!, quantity, f.setup.edges);
  const found = lookup.base;
  if (!found || !isPriceable(found.tier)) return null;
  // The bound knows no quote: a quote of the product may price q′ below it (step 7).
  if (!f.quotes.byProduct.has(s.productCode) && surelyDearer(f, s, priced, found.tier, quantity)) {
    return null;
  }
  const at = priceAt(f, s, quantity, lookup);
  if (at === null || at.lineAmount > priced.lineAmount) return null;
  return { quantity, lineAmount: at.lineAmount };
}

/** The smallest quantity ≥ `minimum` the rule allows, up to HTTP's largest; else null. */
function ladderQuantity(rule: QuantityRule, minimum: number): number | null {
  const quantity = isAllowed(rule, minimum) ? minimum : suggestionsFor(rule, minimum).above;
  return quantity === null || quantity > MAX_LINE_QUANTITY ? null : quantity;
}

/** A line's product priced again at another quantity (price-break advice, the ladder). */
interface PricedAt {
  final: number;
  lineAmount: number;
  priceUnit: number;
}

/**
 * The product of line `s` at `quantity` alone, with the order's sums unchanged, without explain
 * (price-break advice, the ladder); null when it is not OK there. Steps 1 to 7 as `startLine`,
 * `regularOf`, `adjust` and `honoured` take them, among what the line found for its product
 * whatever the quantity (its lists, the conditions and promotions naming its codes, its floors,
 * the quotes of its product: the same records, whose validity edges the line noted), and only the
 * amounts: none of the line's notes, adjustments or cuts.
 */
function priceAt(f: Finish, s: Started, quantity: number, lookup?: BaseLookup): PricedAt | null {
  const found = lookup ?? lookupIn(s.lists!, quantity, f.setup.edges);
  if (stopAt(found, s.rule!, quantity)) return null;
  const { list } = found;
  const base = found.base!;
  const { amount, priceUnit } = base.tier;
  s.floors ??= floorsFor(f.floors, s.productCode);
  const floor = floorAt(s.floors, quantity, { base: amount, priceUnit });
  const { rounding } = f.conditions;
  const allows = base.prepared.pricelist.allowsTradeDiscounts;
  try {
    const line = { quantity, priceUnit };
    const step = f.noExplain.conditions;
    const reached = reachedConditions(step.index, s);
    const step2 = regularAt(step, reached, line, amount, allows);
    const regular = floored(floor, step2.regular);
    const { surchargeTotal } = step2;
    const prices = { base: amount, regular, surchargeTotal, priceUnit, rounding };
    const usual = floored(floor, promotedAt(f.noExplain.promotions, s, prices));
    // Step 7 as the line takes it: an agreement prices every quantity (§28.2, §30).
    const { final } = quoteStep(f, s.productCode, quantity, priceUnit, usual);
    // The list amount the line would show: past 2^53 − 1 the line is not OK (`adjust`).
    if (list) inUnit(list.tier.amount, list.tier.priceUnit, priceUnit);
    return { final, lineAmount: scale(final, quantity, priceUnit, rounding), priceUnit };
  } catch (error) {
    if (!(error instanceof AmountOutOfRange)) throw error;
    return null;
  }
}

/**
 * docs/pricing-rules.md §30: for each tier m of the line's base list for its product, the smallest
 * allowed quantity from m, priced for this buyer as the line alone would be there with the order's
 * sums unchanged; a tier without such a quantity, or where the line would not be OK, is left out.
 * The line's own quantity is the line itself.
 */
function ladderOf(f: Finish, s: Started, priced: Adjusted): LadderEntry[] {
  const tiers = s.lookup!.base!.prepared.tiers.get(s.productCode) ?? [];
  const entries: LadderEntry[] = [];
  for (const tier of tiers) {
    const quantity = ladderQuantity(s.rule!, tier.minQuantity);
    if (quantity === null) continue;
    const at =
      quantity === s.quantity
        ? { final: priced.final, lineAmount: priced.lineAmount, priceUnit: s.priceUnit }
        : priceAt(f, s, quantity);
    if (at === null) continue;
    entries.push({
      minQuantity: tier.minQuantity,
      quantity,
      finalUnitAmount: at.final,
      priceUnit: at.priceUnit,
      lineAmount: at.lineAmount,
    });
  }
  return entries;
}

/** Step 8 of a priced line (docs/pricing-rules.md §25, §26): accruals, cost, margin. */
function marginStep(f: Finish, s: Started, priced: Adjusted) {
  const accruals = applyAccruals(f.conditions, s, priced.final, priced.conditionNotes);
  const { productCode, quantity } = s.line;
  const cost = costFor(f.setup.costs ?? [], productCode, quantity, s.priceUnit, f.setup.edges);
  return { fields: marginOf(priced.final, cost, accruals), cost };
}

/** Steps 5 to 8 and the answer's line, every field present. */
export function finishLine(
  f: Finish,
  s: Started,
  r: Regular | "OUT_OF_RANGE" | undefined,
): LinePrice {
  const { adjusted, honouring } = honoured(f, s, r);
  const priced = typeof adjusted === "object" ? adjusted : undefined;
  const status: LineStatus = s.stop ?? (priced ? "OK" : "OUT_OF_RANGE");
  const margin = f.margin && priced ? marginStep(f, s, priced) : undefined;
  // Lines refused before step 3 show no base; an overflow after it keeps its source, as before.
  const base = s.stop === null ? s.lookup?.base : undefined;
  const ladder = f.ladder && priced ? ladderOf(f, s, priced) : null;
  const line: LinePrice = {
    productCode: s.line.productCode,
    quantity: s.line.quantity,
    status,
    finalUnitAmount: priced?.final ?? null,
    lineAmount: priced?.lineAmount ?? null,
    regularUnitAmount: priced?.regular ?? null,
    listUnitAmount: priced?.list ?? null,
    currency: f.currency,
    priceUnit: base ? base.tier.priceUnit : null,
    taxInclusive: base ? base.prepared.pricelist.taxInclusive : null,
    source: sourceOf(s, honouring),
    adjustments: priced?.adjustments ?? [],
    tiers: base ? tiersOf(base.prepared.tiers.get(s.line.productCode)) : [],
    quantityRule: s.rule,
    suggestedQuantities:
      status === "QUANTITY_NOT_ALLOWED" ? suggestionsFor(s.rule!, s.line.quantity) : null,
    // A quote's price holds at its quantity whatever the tiers: no advice on a line it priced.
    priceBreak: priced && !honouring?.winner ? priceBreakOf(f, s, priced, ladder) : null,
    ...(f.ladder ? { ladder } : {}),
    explain: f.explain ? explainLine(f, s, status, priced, margin?.cost, honouring) : null,
  };
  // Without `margin` the line has none of its fields: a read key's answer cannot show them. A
  // read key's line is the one literal above, as before costs existed (no spread on its path).
  return f.margin ? withMargin(line, margin?.fields ?? UNPRICED) : line;
}

/** The line with its margin fields after `priceBreak`, before `explain` (the answer's order). */
function withMargin({ explain, ...line }: LinePrice, fields: MarginFields): LinePrice {
  return { ...line, ...fields, explain };
}

/** The base list's tiers; a derived one past 2^53 − 1 is left out (§8: amounts are exact). */
function tiersOf(rows: readonly PricedTier[] | undefined): ListTier[] {
  const tiers: ListTier[] = [];
  // One loop, no filter then map: every line of the answer lists its tiers.
  for (let k = 0; rows && k < rows.length; k++) {
    const r = rows[k]!;
    if (!isPriceable(r)) continue;
    tiers.push({
      minQuantity: r.minQuantity,
      amount: r.amount,
      priceUnit: r.priceUnit,
      flatAmount: r.flatAmount ?? 0,
    });
  }
  return tiers;
}

const NOTHING: LineExplain = { pricelists: [], tradeConditions: [], promotions: [], floors: [] };

/** Every candidate of the line and why it won or lost, as far as pricing the line got. */
function explainLine(
  f: Finish,
  s: Started,
  status: LineStatus,
  priced: Adjusted | undefined,
  cost: LineCost | undefined,
  honouring: Honouring | undefined,
): LineExplain {
  const explained = explainSteps(f, s, status, priced, cost);
  return honouring ? { ...explained, quotes: honouring.notes } : explained;
}

function explainSteps(
  f: Finish,
  s: Started,
  status: LineStatus,
  priced: Adjusted | undefined,
  cost: LineCost | undefined,
): LineExplain {
  const { productCode, quantity } = s.line;
  // Only with `margin` (admin keys) does explain list the COST lists (§23).
  const costs = (unpriced: "NO_BASE_PRICE" | "NOT_ELIGIBLE" | null) =>
    f.margin
      ? { costs: explainCosts(f.setup.costs ?? [], productCode, quantity, unpriced, cost) }
      : {};
  // An unknown product has no candidates; an out-of-range line stopped before its steps ended.
  if (!s.lookup) return { ...NOTHING, ...(f.margin ? { costs: [] } : {}) };
  const pricelists = explainPricelists(f.levels, productCode, quantity, s.lookup);
  if (status === "OUT_OF_RANGE")
    return { ...NOTHING, pricelists, ...(f.margin ? { costs: [] } : {}) };
  const unpriced = status === "QUANTITY_NOT_ALLOWED" ? "NOT_ELIGIBLE" : "NO_BASE_PRICE";
  const floorNote = priced?.floorNote ?? {
    unguarded: unpriced,
    floor: undefined,
    regular: null,
    final: null,
  };
  return {
    pricelists,
    tradeConditions: explainConditions(f.conditions, s, priced?.conditionNotes ?? null, unpriced),
    promotions: explainPromotions(f.promotions, s, priced?.promotionNotes ?? null, unpriced),
    floors: explainFloors(f.floors, productCode, quantity, floorNote),
    ...costs(priced ? null : unpriced),
  };
}
