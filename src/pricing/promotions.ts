import { saturatingAdd } from "./basis";
import { Cuts } from "./breaks";
import type { Audience, LineFacts } from "./conditions-index";
import {
  isEvery,
  reachOf,
  ReachIndex,
  targetsOf,
  type ProductTargets,
  type Reached,
} from "./targeting";
import { add, clamp, negate, percentOf } from "./money";
import { ascending, compareBy, decidedBy, descending, pickBest, type Ranking } from "./rank";
import type { Adjustment, PromotionCandidate, PromotionExplain, ThresholdExplain } from "./types";
import { inUnit, unitOf } from "./units";
import { isInWindow, type EdgeTracker } from "./validity";
import type { ChannelRoundingMode, PromotionOutcome, RankKey } from "./vocabulary";

type StaticGate = "NOT_ACTIVE" | "OTHER_CURRENCY" | "OTHER_CHANNEL" | "NOT_TARGETED";

export interface PreparedPromotion {
  promotion: PromotionCandidate;
  gate: StaticGate | null;
  inWindow: boolean;
  targets: ProductTargets;
}

export interface PromotionIndex {
  /** Every promotion, priority desc, id asc (explain order). */
  all: PreparedPromotion[];
  /** Those that pass the request-level checks, by reach. */
  reach: ReachIndex<PreparedPromotion>;
  /** Those of `reach` with a threshold. */
  thresholded: PreparedPromotion[];
}

function staticGate(p: PromotionCandidate, a: Audience): StaticGate | null {
  if (p.status !== "ACTIVE") return "NOT_ACTIVE";
  const inCurrency = p.discountType === "PERCENTAGE" && p.threshold?.basis !== "VALUE";
  if (!inCurrency && p.currency !== a.currency) return "OTHER_CURRENCY";
  if (p.channelCodes.length > 0 && !p.channelCodes.includes(a.channelCode)) return "OTHER_CHANNEL";
  if (p.customerGroupCodes.length > 0 && !p.customerGroupCodes.some((g) => a.groupCodes.has(g))) {
    return "NOT_TARGETED";
  }
  return null;
}

export function preparePromotions(
  promotions: readonly PromotionCandidate[],
  audience: Audience,
): PromotionIndex {
  const all = promotions
    .map((promotion): PreparedPromotion => ({
      promotion,
      gate: staticGate(promotion, audience),
      inWindow: isInWindow(promotion, audience.at),
      targets: targetsOf(promotion),
    }))
    .sort(
      (a, b) =>
        descending(a.promotion.priority, b.promotion.priority) ||
        ascending(a.promotion.id, b.promotion.id),
    );
  const index: PromotionIndex = { all, reach: new ReachIndex(), thresholded: [] };
  for (const prepared of all) {
    if (prepared.gate) continue;
    index.reach.add(prepared);
    if (prepared.promotion.threshold) index.thresholded.push(prepared);
  }
  return index;
}

/**
 * docs/pricing-rules.md §5.4: each threshold's sum over the eligible lines the promotion reaches,
 * of quantities or of their regular values (`regularValue`: the regular unit amount as a line
 * amount, `lineValue`, §20). One walk over the lines: each adds to the thresholds it reaches,
 * those reaching every product and those naming one of its codes (`reachedBy`, kept on the line
 * for step 3), rather than every threshold testing every line. A sum of integers (saturating at
 * 2^53 − 1) does not depend on the order it is taken in.
 */
export function thresholdSumsOf(
  index: PromotionIndex,
  lines: readonly (PromotionLine & { regularValue: number })[],
): Map<PreparedPromotion, number> {
  const sums = new Map<PreparedPromotion, number>();
  if (index.thresholded.length === 0) return sums;
  for (const prepared of index.thresholded) sums.set(prepared, 0);
  const every = index.thresholded.filter((prepared) => isEvery(prepared.targets));
  const count = (prepared: PreparedPromotion, line: (typeof lines)[number]) => {
    const sum = sums.get(prepared);
    if (sum === undefined) return;
    const byValue = prepared.promotion.threshold!.basis === "VALUE";
    sums.set(prepared, saturatingAdd(sum, byValue ? line.regularValue : line.quantity));
  };
  // Index loops: workerd's profile showed the iterators of `for … of` here, a few per line.
  for (let l = 0; l < lines.length; l++) {
    const line = lines[l]!;
    for (let k = 0; k < every.length; k++) count(every[k]!, line);
    const { items } = (line.promotionsReached ??= index.reach.reachedBy(line));
    for (let k = 0; k < items.length; k++) count(items[k]!, line);
  }
  return sums;
}

/** A line as step 3 sees it: with the promotions that name one of its codes, once found. */
export interface PromotionLine extends LineFacts {
  /** `reach.reachedBy(line)`, walked once per line; a line priced again keeps its product's. */
  promotionsReached?: Reached<PreparedPromotion>;
}

/** Step 3's request-level state. */
export interface PromotionStep {
  index: PromotionIndex;
  sums: ReadonlyMap<PreparedPromotion, number>;
  edges: EdgeTracker;
  explain: boolean;
  /** The channel's rounding of percentages (docs/pricing-rules.md §21). */
  rounding: ChannelRoundingMode;
  /**
   * Those reaching every product that are in window and past their threshold: the same for every
   * line of the order, so found once, at its first line priced without explain (`everyProductLive`).
   */
  everyProductLive?: readonly PreparedPromotion[];
  /** Step 3 without explain's two scratch candidates, made at its first line (`quietBest`). */
  slots?: [Evaluated, Evaluated];
}

const belowThreshold = (step: PromotionStep, prepared: PreparedPromotion): boolean => {
  const { threshold } = prepared.promotion;
  return threshold !== null && (step.sums.get(prepared) ?? 0) < threshold.minimum;
};

interface Evaluated {
  prepared: PreparedPromotion;
  /** The promotion's own adjustment: −(its saving on the amount it applies to). */
  amount: number;
  /** The unit amount it would give. */
  price: number;
  /** regular − price, floored at 0: a promotion never raises a price. */
  saving: number;
}

/** The single best promotion: largest saving for the customer, then priority, then id. */
const promotionRanking: Ranking<Evaluated> = [
  ["AMOUNT", (a, b) => descending(a.saving, b.saving)],
  ["PRIORITY", (a, b) => descending(a.prepared.promotion.priority, b.prepared.promotion.priority)],
  ["ID", (a, b) => ascending(a.prepared.promotion.id, b.prepared.promotion.id)],
];

/** What a line's amounts are, per its price unit, and how the channel rounds percentages. */
export interface Prices {
  base: number;
  regular: number;
  surchargeTotal: number;
  priceUnit: number;
  rounding: ChannelRoundingMode;
}

/**
 * A promotion's saving on `amount`, between 0 and `amount` so nothing goes negative: an absolute
 * value per its own unit taken to the line's half up (§20), a percentage in the channel's mode.
 */
function savingOn(promotion: PromotionCandidate, amount: number, prices: Prices): number {
  const raw =
    promotion.discountType === "ABSOLUTE"
      ? inUnit(promotion.value, unitOf(promotion.priceUnit), prices.priceUnit)
      : percentOf(amount, promotion.value, prices.rounding);
  return clamp(raw, 0, amount);
}

/** `prepared` on `prices`, written into `into` (step 3 without explain reuses its objects). */
function evaluateInto(into: Evaluated, prepared: PreparedPromotion, prices: Prices): Evaluated {
  const { promotion } = prepared;
  const { base, regular, surchargeTotal } = prices;
  into.prepared = prepared;
  if (promotion.stacking === "ON_TOP") {
    const saving = savingOn(promotion, regular, prices);
    into.amount = negate(saving);
    into.price = regular - saving;
    into.saving = saving;
    return into;
  }
  // BEST_OF: the promotion replaces the trade conditions but not the charges.
  const onBase = savingOn(promotion, base, prices);
  const price = add(base - onBase, surchargeTotal);
  into.amount = negate(onBase);
  into.price = price;
  into.saving = Math.max(0, regular - price);
  return into;
}

const blank = (): Evaluated => ({
  prepared: undefined as unknown as PreparedPromotion,
  amount: 0,
  price: 0,
  saving: 0,
});

export interface PromotionNote {
  outcome: PromotionOutcome;
  decidedBy: RankKey | null;
  amount: number | null;
  saving: number | null;
}

export interface PromotionResult {
  /** The applied promotion, if one saves anything. */
  winner: { promotion: PromotionCandidate; price: number; adjustment: Adjustment } | undefined;
  notes: Map<PreparedPromotion, PromotionNote> | null;
  /**
   * What the promotions that may apply could cut at another quantity of the line: the same
   * ones (their thresholds compare with the order's sums, which the advice keeps; breaks.ts).
   */
  cuts: Cuts;
}

const skipped = (outcome: PromotionOutcome): PromotionNote => ({
  outcome,
  decidedBy: null,
  amount: null,
  saving: null,
});

/** Explain: the line's candidates that are in window and past their threshold, evaluated. */
function evaluateAll(
  step: PromotionStep,
  line: PromotionLine,
  prices: Prices,
  notes: Map<PreparedPromotion, PromotionNote>,
): Evaluated[] {
  const evaluated: Evaluated[] = [];
  step.index.reach.forEach(line, (prepared) => {
    step.edges.note(prepared.promotion);
    if (!prepared.inWindow) notes.set(prepared, skipped("OUT_OF_WINDOW"));
    else if (belowThreshold(step, prepared)) notes.set(prepared, skipped("THRESHOLD_NOT_REACHED"));
    else evaluated.push(evaluateInto(blank(), prepared, prices));
  });
  return evaluated;
}

/** Without explain, those reaching every product are checked once per order (edges noted once). */
const everyProductLive = (step: PromotionStep): readonly PreparedPromotion[] =>
  (step.everyProductLive ??= step.index.reach.everyProduct.filter((prepared) => {
    step.edges.note(prepared.promotion);
    return prepared.inWindow && !belowThreshold(step, prepared);
  }));

/**
 * Step 3 without explain: `pickBest` of the line's candidates in window and past their threshold
 * that save anything, evaluated one by one (no list of them) into the step's two scratch
 * candidates, the best so far and the one evaluated (no object per line): the winner returned is
 * one of them, read before the step runs again. With `cuts` (a line at its own quantity) it
 * notes the validity edges of those naming one of its codes and collects what each may cut;
 * without (its product at another quantity: the ladder, the price-break advice) only the winner,
 * the line having noted the same promotions. The same candidates are evaluated either way, so an
 * amount past 2^53 − 1 throws alike.
 */
function quietBest(
  step: PromotionStep,
  line: PromotionLine,
  prices: Prices,
  cuts?: Cuts,
): Evaluated | undefined {
  const every = everyProductLive(step);
  const named = (line.promotionsReached ??= step.index.reach.reachedBy(line)).items;
  const slots = (step.slots ??= [blank(), blank()]);
  let best: Evaluated | undefined;
  for (let k = 0; k < every.length + named.length; k++) {
    const prepared = k < every.length ? every[k]! : named[k - every.length]!;
    if (k >= every.length) {
      if (cuts) step.edges.note(prepared.promotion);
      if (!prepared.inWindow || belowThreshold(step, prepared)) continue;
    }
    const e = evaluateInto(best === slots[0] ? slots[1] : slots[0], prepared, prices);
    // One promotion applies at most: only the largest of each kind counts.
    const { discountType, value, priceUnit } = prepared.promotion;
    cuts?.cut(true, discountType === "ABSOLUTE", value, unitOf(priceUnit));
    if (e.saving > 0 && (!best || compareBy(promotionRanking, e, best) < 0)) best = e;
  }
  return best;
}

/**
 * Step 3 of a line's product at another quantity (`prices` there): the unit amount its winner
 * gives, else the regular one.
 */
export function promotedAt(step: PromotionStep, line: PromotionLine, prices: Prices): number {
  return quietBest(step, line, prices)?.price ?? prices.regular;
}

/** Step 3 for one priced line. */
export function applyPromotions(
  step: PromotionStep,
  line: PromotionLine,
  prices: Prices,
): PromotionResult {
  const cuts = new Cuts();
  if (!step.explain) {
    const best = quietBest(step, line, prices, cuts);
    return { winner: best && winnerOf(best), notes: null, cuts };
  }
  const notes = new Map<PreparedPromotion, PromotionNote>();
  const saving: Evaluated[] = [];
  for (const e of evaluateAll(step, line, prices, notes)) {
    const { discountType, value, priceUnit } = e.prepared.promotion;
    cuts.cut(true, discountType === "ABSOLUTE", value, unitOf(priceUnit));
    if (e.saving > 0) saving.push(e);
    else {
      const outcome =
        e.prepared.promotion.stacking === "ON_TOP" ? "NO_SAVING" : "SUPERSEDED_BY_REGULAR_PRICE";
      notes.set(e.prepared, { outcome, decidedBy: null, amount: e.amount, saving: 0 });
    }
  }

  const best = pickBest(promotionRanking, saving);
  for (const e of saving) {
    notes.set(e.prepared, {
      outcome: e === best ? "APPLIED" : "LOWER_RANK",
      decidedBy: e === best ? null : decidedBy(promotionRanking, e, best!),
      amount: e.amount,
      saving: e.saving,
    });
  }
  return { winner: best && winnerOf(best), notes, cuts };
}

function winnerOf({ prepared: { promotion }, price, amount }: Evaluated) {
  const adjustment: Adjustment = {
    kind: "PROMOTION",
    id: promotion.id,
    scope: null,
    rung: null,
    valueBp: promotion.discountType === "PERCENTAGE" ? promotion.value : null,
    amount,
  };
  return { promotion, price, adjustment };
}

/** The first failing check of a promotion `applyPromotions` did not note for the line. */
function unevaluated(
  step: PromotionStep,
  prepared: PreparedPromotion,
  line: LineFacts,
  unpriced: "NO_BASE_PRICE" | "NOT_ELIGIBLE",
): PromotionOutcome {
  if (prepared.gate) return prepared.gate;
  if (!reachOf(prepared.targets, line)) return "OTHER_PRODUCT";
  if (!prepared.inWindow) return "OUT_OF_WINDOW";
  if (belowThreshold(step, prepared)) return "THRESHOLD_NOT_REACHED";
  return unpriced;
}

function thresholdOf(step: PromotionStep, prepared: PreparedPromotion): ThresholdExplain | null {
  const { threshold } = prepared.promotion;
  const sum = step.sums.get(prepared);
  if (!threshold || sum === undefined) return null;
  return { basis: threshold.basis, minimum: threshold.minimum, sum };
}

/**
 * Every promotion for one line, with its note or its first failing check; `unpriced` is what a
 * promotion that passed every check is told when the line was not priced.
 */
export function explainPromotions(
  step: PromotionStep,
  line: LineFacts,
  notes: Map<PreparedPromotion, PromotionNote> | null,
  unpriced: "NO_BASE_PRICE" | "NOT_ELIGIBLE",
): PromotionExplain[] {
  return step.index.all.map((prepared) => {
    const { promotion } = prepared;
    const n = notes?.get(prepared) ?? skipped(unevaluated(step, prepared, line, unpriced));
    return {
      id: promotion.id,
      name: promotion.name,
      stacking: promotion.stacking,
      priority: promotion.priority,
      outcome: n.outcome,
      decidedBy: n.decidedBy,
      discountType: promotion.discountType,
      value: promotion.value,
      priceUnit: unitOf(promotion.priceUnit),
      amount: n.amount,
      saving: n.saving,
      threshold: thresholdOf(step, prepared),
    };
  });
}
