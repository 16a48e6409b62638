import { EVERY, reachOf, type Reach } from "./targeting";
import {
  APPLIED_ORDER,
  collectCut,
  explainOrder,
  forEachOfType,
  reachedConditions,
  rungOf,
  type ConditionIndex,
  type LineFacts,
  type PreparedCondition,
} from "./conditions-index";
import { Cuts } from "./breaks";
import { add, clamp, negate, percentOf } from "./money";
import { ascending, compareBy, decidedBy, descending, type Ranking } from "./rank";
import { inUnit, unitOf } from "./units";
import type { Accrual, Adjustment, ConditionExplain } from "./types";
import { type EdgeTracker } from "./validity";
import type { ChannelRoundingMode, ConditionOutcome, RankKey } from "./vocabulary";

/** What a condition's scale rows compare with on this line; null without scales. */
function basisOf(
  prepared: PreparedCondition,
  line: Pick<LineFacts, "quantity">,
  orderBases: ReadonlyMap<PreparedCondition, number>,
): number | null {
  if (prepared.scales.length === 0) return null;
  if (prepared.condition.scaleBasis === "LINE_QUANTITY") return line.quantity;
  return orderBases.get(prepared) ?? 0;
}

/** The scale row with the largest minimum ≤ basis; no scales → the plain value. */
function valueAt(prepared: PreparedCondition, basis: number | null): number | undefined {
  if (basis === null) return prepared.condition.value;
  let value: number | undefined;
  for (const scale of prepared.scales) {
    if (scale.minimum > basis) break;
    value = scale.value;
  }
  return value;
}

/**
 * The signed change a condition makes to the running unit amount, per the line's price unit: an
 * absolute value (a net price) per the condition's own unit enters it half up (§20), a
 * percentage rounds in the channel's mode (§21). A discount never takes the amount below 0; a
 * surcharge never lowers it; a net price is never negative.
 */
function effectOf(
  step: ConditionStep,
  prepared: PreparedCondition,
  value: number,
  running: number,
  line: Pick<LineFacts, "priceUnit">,
): number {
  const { type } = prepared.condition;
  // An accrual is rounded half up whatever the channel (docs/pricing-rules.md §25).
  const raw = prepared.absolute
    ? inUnit(value, prepared.priceUnit, line.priceUnit)
    : percentOf(running, value, type === "ACCRUAL" ? "HALF_UP" : step.rounding);
  if (type === "ACCRUAL") return Math.max(0, raw);
  if (type === "NET_PRICE") return Math.max(0, raw) - running;
  return type === "DISCOUNT" ? negate(clamp(raw, 0, running)) : Math.max(0, raw);
}

interface Evaluated {
  prepared: PreparedCondition;
  /** For this line. */
  rung: number;
  distance: number | null;
  basis: number | null;
  value: number;
  /** Effect on the amount at the start of the type's step: what ranks candidates. */
  amount: number;
}

/**
 * Inside a rung: the closer group (group rungs; elsewhere every distance is null), then
 * priority desc, then the one that leaves the lower unit amount (larger saving, smaller charge,
 * lower net price), then id.
 */
const rungRanking: Ranking<Evaluated> = [
  ["DISTANCE", (a, b) => ascending(a.distance ?? 0, b.distance ?? 0)],
  ["PRIORITY", (a, b) => descending(a.prepared.condition.priority, b.prepared.condition.priority)],
  ["AMOUNT", (a, b) => ascending(a.amount, b.amount)],
  ["ID", (a, b) => ascending(a.prepared.condition.id, b.prepared.condition.id)],
];

/** Stackables apply in rung, priority, id order. */
const stackOrder = (a: Evaluated, b: Evaluated) =>
  ascending(a.rung, b.rung) ||
  descending(a.prepared.condition.priority, b.prepared.condition.priority) ||
  ascending(a.prepared.condition.id, b.prepared.condition.id);

export interface Note {
  outcome: ConditionOutcome;
  decidedBy: RankKey | null;
  rung: number;
  distance: number | null;
  basis: number | null;
  value: number | null;
  amount: number | null;
}

export interface ConditionResult {
  regular: number;
  /** In applied order. */
  adjustments: Adjustment[];
  /** The SURCHARGE adjustments alone (a BEST_OF promotion keeps them). */
  surcharges: Adjustment[];
  /** Per evaluated condition, for explain; null when not explaining. */
  notes: Map<PreparedCondition, Note> | null;
  /**
   * What may cut the line's price at another quantity of it (breaks.ts): what step 2 met, and,
   * when a scale read the line's quantity, what reaches every product.
   */
  cuts: readonly Cuts[];
}

/** Step 2's request-level state: the index, the order-level bases, the edges, explain. */
export interface ConditionStep {
  index: ConditionIndex;
  orderBases: ReadonlyMap<PreparedCondition, number>;
  edges: EdgeTracker;
  explain: boolean;
  /** The channel's rounding of percentages (docs/pricing-rules.md §21). */
  rounding: ChannelRoundingMode;
}

const noteOf = (e: Evaluated, outcome: ConditionOutcome, amount: number | null): Note => ({
  outcome,
  decidedBy: null,
  rung: e.rung,
  distance: e.distance,
  basis: e.basis,
  value: e.value,
  amount,
});

/** A candidate that was not evaluated on the line: why, and what it had. */
const skippedNote = (
  outcome: ConditionOutcome,
  rung: number,
  reach: Reach,
  basis: number | null,
  value: number | null,
): Note => ({
  outcome,
  decidedBy: null,
  rung,
  distance: reach.distance,
  basis,
  value,
  amount: null,
});

/** One candidate reaching the line: in window and with a value at its basis, or why not. */
function evaluateOne(
  step: ConditionStep,
  prepared: PreparedCondition,
  reach: Reach,
  line: LineFacts,
  running: number,
): Evaluated | Note {
  const rung = rungOf(prepared.condition.scope, reach.kind);
  if (!prepared.inWindow) {
    return skippedNote("OUT_OF_WINDOW", rung, reach, null, prepared.condition.value);
  }
  const basis = basisOf(prepared, line, step.orderBases);
  const value = valueAt(prepared, basis);
  if (value === undefined) return skippedNote("NO_SCALE", rung, reach, basis, null);
  const amount = effectOf(step, prepared, value, running, line);
  return { prepared, rung, distance: reach.distance, basis, value, amount };
}

/** The line's candidates of one type that are in window and have a value at their basis. */
function evaluate(
  step: ConditionStep,
  type: (typeof APPLIED_ORDER)[number],
  line: LineFacts,
  running: number,
  notes: Map<PreparedCondition, Note> | null,
  cuts: Cuts,
): Evaluated[] {
  const evaluated: Evaluated[] = [];
  if (notes) {
    // Explain: every candidate, with why it lost.
    forEachOfType(step.index, type, line, (prepared, reach) => {
      step.edges.note(prepared.condition);
      const result = evaluateOne(step, prepared, reach, line, running);
      if ("prepared" in result) evaluated.push(result);
      else notes.set(prepared, result);
      collectCut(cuts, prepared, "prepared" in result ? result.value : null);
    });
    return evaluated;
  }
  let best: Evaluated | undefined;
  // The line's walk of the index, every type at once: this type's, in the order its index has.
  const { items, reaches } = reachedConditions(step.index, line);
  for (let k = 0; k < items.length; k++) {
    const prepared = items[k]!;
    if (prepared.condition.type !== type) continue;
    step.edges.note(prepared.condition);
    best = consider(step, prepared, reaches[k]!, line, running, cuts, evaluated, best);
  }
  const every = step.index.everyProduct[type];
  if (!every.noted) {
    for (const prepared of every.stackable) step.edges.note(prepared.condition);
    for (const prepared of every.nonStackable) step.edges.note(prepared.condition);
    every.noted = true;
  }
  for (const prepared of every.stackable) {
    best = consider(step, prepared, EVERY, line, running, cuts, evaluated, best);
  }
  for (const prepared of every.nonStackable) {
    // In rung, priority order: once one cannot beat the best so far, none after it can.
    if (best && cannotBeat(prepared, best)) break;
    best = consider(step, prepared, EVERY, line, running, cuts, evaluated, best);
  }
  return evaluated;
}

/** `evaluate` without explain, one candidate: evaluated, its cut collected; the best so far. */
function consider(
  step: ConditionStep,
  prepared: PreparedCondition,
  reach: Reach,
  line: LineFacts,
  running: number,
  cuts: Cuts,
  evaluated: Evaluated[],
  best: Evaluated | undefined,
): Evaluated | undefined {
  const result = evaluateOne(step, prepared, reach, line, running);
  collectCut(cuts, prepared, "prepared" in result ? result.value : null);
  if (!("prepared" in result)) return best;
  evaluated.push(result);
  return !prepared.condition.stackable && beats(result, best) ? result : best;
}

/**
 * Whether a condition reaching every product (its rung is its listed one, its distance null)
 * loses to `best` whatever its amount: a worse rung, or the same rung and a lower priority.
 */
const cannotBeat = (prepared: PreparedCondition, best: Evaluated) =>
  prepared.listedRung > best.rung ||
  (prepared.listedRung === best.rung &&
    prepared.condition.priority < best.prepared.condition.priority);

/** The winner: from the first rung that has a non-stackable candidate, then `rungRanking`. */
function beats(e: Evaluated, winner: Evaluated | undefined): boolean {
  if (!winner) return true;
  if (e.rung !== winner.rung) return e.rung < winner.rung;
  return compareBy(rungRanking, e, winner) < 0;
}

/** The type's winner (see `beats`) and what applies, in applied order: winner, then stackables. */
function pickApplied(evaluated: readonly Evaluated[]) {
  // Stackables do not compete for the winner; they all apply after it.
  let winner: Evaluated | undefined;
  let stackables: Evaluated[] | undefined;
  for (const e of evaluated) {
    if (e.prepared.condition.stackable) (stackables ??= []).push(e);
    else if (beats(e, winner)) winner = e;
  }
  if (!stackables) return { winner, applied: winner ? [winner] : [] };
  if (stackables.length > 1) stackables.sort(stackOrder);
  return { winner, applied: winner ? [winner, ...stackables] : stackables };
}

const adjustmentOf = (
  type: (typeof APPLIED_ORDER)[number],
  e: Evaluated,
  amount: number,
): Adjustment => ({
  kind: type,
  id: e.prepared.condition.id,
  scope: e.prepared.condition.scope,
  rung: e.rung,
  valueBp: e.prepared.absolute ? null : e.value,
  amount,
});

/** Why each non-stackable candidate other than the winner did not apply. */
function noteLosers(
  evaluated: readonly Evaluated[],
  winner: Evaluated,
  notes: Map<PreparedCondition, Note>,
) {
  for (const e of evaluated) {
    if (e === winner || e.prepared.condition.stackable) continue;
    if (e.rung > winner.rung) {
      notes.set(e.prepared, noteOf(e, "LOWER_RUNG", null));
    } else {
      const note = noteOf(e, "LOWER_RANK", e.amount);
      note.decidedBy = decidedBy(rungRanking, e, winner);
      notes.set(e.prepared, note);
    }
  }
}

/** Step 2 for one priced line. */
export function applyConditions(
  step: ConditionStep,
  line: LineFacts,
  base: number,
  allowsTradeDiscounts: boolean,
): ConditionResult {
  const notes = step.explain ? new Map<PreparedCondition, Note>() : null;
  const collector = new Cuts();
  const adjustments: Adjustment[] = [];
  const surcharges: Adjustment[] = [];
  let running = base;
  let netPriceApplied = false;

  for (const type of APPLIED_ORDER) {
    const evaluated = evaluate(step, type, line, running, notes, collector);
    if (evaluated.length === 0) continue;

    if (type === "DISCOUNT" && (netPriceApplied || !allowsTradeDiscounts)) {
      const outcome = netPriceApplied ? "SWITCHED_OFF_BY_NET_PRICE" : "NOT_DISCOUNTABLE";
      for (const e of evaluated) notes?.set(e.prepared, noteOf(e, outcome, e.amount));
      continue;
    }

    const { winner, applied } = pickApplied(evaluated);
    for (const e of applied) {
      const amount = effectOf(step, e.prepared, e.value, running, line);
      running = add(running, amount);
      const adjustment = adjustmentOf(type, e, amount);
      adjustments.push(adjustment);
      if (type === "SURCHARGE") surcharges.push(adjustment);
      notes?.set(e.prepared, noteOf(e, "APPLIED", amount));
    }
    if (type === "NET_PRICE" && applied.length > 0) netPriceApplied = true;
    if (notes && winner) noteLosers(evaluated, winner, notes);
  }
  // A scale reading the line's quantity may change which of these the early stop meets.
  const cuts = collector.lineScaled ? [collector, step.index.everyProductCuts] : [collector];
  return { regular: running, adjustments, surcharges, notes, cuts };
}

/** A condition reaching a product (at any quantity of it): its rung and distance there. */
interface Reaching {
  prepared: PreparedCondition;
  rung: number;
  distance: number | null;
}

/** Of one applied type, the conditions reaching a line's product (see `conditionsFor`). */
interface TypeReaching {
  /** The non-stackable ones naming one of its codes, in the order `evaluate` visits them. */
  named: Reaching[];
  /** Every stackable one (named or reaching every product), in the order they apply. */
  stackable: Reaching[];
}

/**
 * What step 2 looks at on a line's product whatever its quantity, by type in APPLIED_ORDER:
 * found once per line to price it again at other quantities (the ladder, the price-break
 * advice), where only the amounts and the line-quantity scales differ. The non-stackable ones
 * reaching every product are the index's (`everyProduct`).
 */
export type LineConditions = readonly TypeReaching[];

export function conditionsFor(step: ConditionStep, line: LineFacts): LineConditions {
  const { items, reaches } = reachedConditions(step.index, line);
  return APPLIED_ORDER.map((type): TypeReaching => {
    const named: Reaching[] = [];
    const stackable: Reaching[] = [];
    for (let k = 0; k < items.length; k++) {
      const prepared = items[k]!;
      if (prepared.condition.type !== type) continue;
      const reach = reaches[k]!;
      const reaching = {
        prepared,
        rung: rungOf(prepared.condition.scope, reach.kind),
        distance: reach.distance,
      };
      (prepared.condition.stackable ? stackable : named).push(reaching);
    }
    for (const prepared of step.index.everyProduct[type].stackable) {
      stackable.push({ prepared, rung: prepared.listedRung, distance: null });
    }
    // As `pickApplied` orders the evaluated ones (a stable sort of the same visiting order).
    stackable.sort(
      (a, b) =>
        ascending(a.rung, b.rung) ||
        descending(a.prepared.condition.priority, b.prepared.condition.priority) ||
        ascending(a.prepared.condition.id, b.prepared.condition.id),
    );
    return { named, stackable };
  });
}

/** `evaluateOne` into `into` (no new object); false when the candidate has no value here. */
function evaluateInto(
  step: ConditionStep,
  prepared: PreparedCondition,
  rung: number,
  distance: number | null,
  line: Pick<LineFacts, "quantity" | "priceUnit">,
  running: number,
  into: Evaluated,
): boolean {
  if (!prepared.inWindow) return false;
  const basis = basisOf(prepared, line, step.orderBases);
  const value = valueAt(prepared, basis);
  if (value === undefined) return false;
  into.prepared = prepared;
  into.rung = rung;
  into.distance = distance;
  into.basis = basis;
  into.value = value;
  into.amount = effectOf(step, prepared, value, running, line);
  return true;
}

const scratch = (): Evaluated => ({
  prepared: undefined as unknown as PreparedCondition,
  rung: 0,
  distance: null,
  basis: null,
  value: 0,
  amount: 0,
});

/**
 * Step 2 of a line's product at another quantity (`line`: that quantity and its base row's price
 * unit), among the conditions `conditionsFor` kept: `applyConditions`'s regular amount and the
 * sum of its surcharges, without notes, adjustments, cuts or edges (the line at its own quantity
 * noted the same conditions). The same candidates are evaluated, so an amount past 2^53 − 1
 * throws where `applyConditions` would.
 */
export function regularAt(
  step: ConditionStep,
  reaching: LineConditions,
  line: Pick<LineFacts, "quantity" | "priceUnit">,
  base: number,
  allowsTradeDiscounts: boolean,
): { regular: number; surchargeTotal: number } {
  const slots: Slots = [scratch(), scratch()];
  let running = base;
  let surchargeTotal = 0;
  let netPriceApplied = false;
  for (let t = 0; t < APPLIED_ORDER.length; t++) {
    const type = APPLIED_ORDER[t]!;
    const { named, stackable } = reaching[t]!;
    const winner = winnerAt(step, type, named, line, running, slots);
    // Every stackable one is evaluated as `evaluate` does, at the amount the type starts from.
    const spare = winner === slots[0] ? slots[1] : slots[0];
    let stacked = 0;
    for (const r of stackable) {
      if (evaluateInto(step, r.prepared, r.rung, r.distance, line, running, spare)) stacked++;
    }
    if (!winner && stacked === 0) continue;
    if (type === "DISCOUNT" && (netPriceApplied || !allowsTradeDiscounts)) continue;
    // What applies, in applied order: the winner, then the stackable ones.
    let amount = winner ? winner.amount : 0;
    for (let k = winner ? -1 : 0; k < stackable.length; k++) {
      if (k >= 0) {
        const { prepared } = stackable[k]!;
        const value = prepared.inWindow
          ? valueAt(prepared, basisOf(prepared, line, step.orderBases))
          : undefined;
        if (value === undefined) continue;
        amount = effectOf(step, prepared, value, running, line);
      }
      running = add(running, amount);
      if (type === "SURCHARGE") surchargeTotal = add(surchargeTotal, amount);
    }
    if (type === "NET_PRICE") netPriceApplied = true;
  }
  return { regular: running, surchargeTotal };
}

/** The best candidate and the one being evaluated, reused (`regularAt` allocates none). */
type Slots = [Evaluated, Evaluated];

/**
 * `evaluate` and `pickApplied`'s winner among the non-stackable candidates of `type`: those
 * `named`, then those reaching every product, with the same early stop; undefined when none has
 * a value.
 */
function winnerAt(
  step: ConditionStep,
  type: (typeof APPLIED_ORDER)[number],
  named: readonly Reaching[],
  line: Pick<LineFacts, "quantity" | "priceUnit">,
  running: number,
  slots: Slots,
): Evaluated | undefined {
  let best: Evaluated | undefined;
  for (const r of named) {
    const into = best === slots[0] ? slots[1] : slots[0];
    if (evaluateInto(step, r.prepared, r.rung, r.distance, line, running, into)) {
      if (beats(into, best)) best = into;
    }
  }
  for (const prepared of step.index.everyProduct[type].nonStackable) {
    if (best && cannotBeat(prepared, best)) break;
    const into = best === slots[0] ? slots[1] : slots[0];
    if (evaluateInto(step, prepared, prepared.listedRung, null, line, running, into)) {
      if (beats(into, best)) best = into;
    }
  }
  return best;
}

/**
 * docs/pricing-rules.md §25: every ACCRUAL reaching the line applies, on the final amount, in
 * rung, priority desc, id order, each at most what is left of the pocket price, so the pocket
 * price never falls below 0. Changes no amount the customer pays.
 */
export function applyAccruals(
  step: ConditionStep,
  line: LineFacts,
  final: number,
  notes: Map<PreparedCondition, Note> | null,
): Accrual[] {
  // Every one applies, so none is passed over early (unlike `evaluate`), and none is a cut the
  // customer sees (breaks.ts does not collect it).
  const evaluated: Evaluated[] = [];
  forEachOfType(step.index, "ACCRUAL", line, (prepared, reach) => {
    step.edges.note(prepared.condition);
    const result = evaluateOne(step, prepared, reach, line, final);
    if ("prepared" in result) evaluated.push(result);
    else notes?.set(prepared, result);
  });
  if (evaluated.length > 1) evaluated.sort(stackOrder);
  let pocket = final;
  return evaluated.map((e) => {
    const amount = Math.min(e.amount, pocket);
    pocket -= amount;
    notes?.set(e.prepared, noteOf(e, "APPLIED", amount));
    return { id: e.prepared.condition.id, amount };
  });
}

/** After a BEST_OF promotion won: what built the regular price no longer reaches the final one. */
export function markSupersededByPromotion(notes: Map<PreparedCondition, Note> | null): void {
  if (!notes) return;
  for (const [prepared, n] of notes) {
    const { type } = prepared.condition;
    if (n.outcome === "APPLIED" && type !== "SURCHARGE" && type !== "ACCRUAL") {
      n.outcome = "SUPERSEDED_BY_PROMOTION";
    }
  }
}

/**
 * The first failing check of a condition `applyConditions` did not note for the line. Stopped
 * before its value was looked up, it shows its configured `value` (docs/pricing-rules.md §9).
 */
function unevaluated(
  step: ConditionStep,
  prepared: PreparedCondition,
  line: LineFacts,
  unpriced: "NO_BASE_PRICE" | "NOT_ELIGIBLE",
): Note {
  const reach = reachOf(prepared.targets, line);
  const rung = reach ? rungOf(prepared.condition.scope, reach.kind) : prepared.listedRung;
  const note: Note = {
    outcome: unpriced,
    decidedBy: null,
    rung,
    distance: reach?.distance ?? null,
    basis: null,
    value: prepared.condition.value,
    amount: null,
  };
  if (prepared.gate) note.outcome = prepared.gate;
  else if (!reach) note.outcome = "OTHER_PRODUCT";
  else if (!prepared.inWindow) note.outcome = "OUT_OF_WINDOW";
  else {
    note.basis = basisOf(prepared, line, step.orderBases);
    note.value = valueAt(prepared, note.basis) ?? null;
    if (note.value === null) note.outcome = "NO_SCALE";
  }
  return note;
}

/**
 * Every condition for one line, with its note from `applyConditions` or its first failing check;
 * `unpriced` is what a condition that passed every check is told when the line was not priced.
 */
export function explainConditions(
  step: ConditionStep,
  line: LineFacts,
  notes: Map<PreparedCondition, Note> | null,
  unpriced: "NO_BASE_PRICE" | "NOT_ELIGIBLE",
): ConditionExplain[] {
  const entries = step.index.all.map((prepared): ConditionExplain => {
    const { condition } = prepared;
    const n = notes?.get(prepared) ?? unevaluated(step, prepared, line, unpriced);
    return {
      id: condition.id,
      name: condition.name,
      type: condition.type,
      scope: condition.scope,
      rung: n.rung,
      distance: n.distance,
      stackable: condition.stackable,
      priority: condition.priority,
      outcome: n.outcome,
      decidedBy: n.decidedBy,
      discountType: condition.discountType,
      priceUnit: unitOf(condition.priceUnit),
      scaleBasis: condition.scaleBasis,
      basisValue: n.basis,
      value: n.value,
      amount: n.amount,
    };
  });
  // A condition listing products and groups sits on another rung where a group reaches the line.
  return entries.sort(explainOrder);
}
