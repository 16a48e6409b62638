import { reachOf, type Reach, type Reached } from "./targeting";
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
  /** In applied order: the line's own array, which steps 4 to 6 extend (line.ts). */
  adjustments: Adjustment[];
  /** The sum of the SURCHARGE adjustments' amounts. */
  surchargeTotal: number;
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
  /** Step 2 without explain's scratch, made at its first line (`regularAt`). */
  scan?: Scan;
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

/**
 * Explain: the line's candidates of one type that are in window and have a value at their
 * basis, every other one noted with why it was not.
 */
function evaluate(
  step: ConditionStep,
  type: (typeof APPLIED_ORDER)[number],
  line: LineFacts,
  running: number,
  notes: Map<PreparedCondition, Note>,
  cuts: Cuts,
): Evaluated[] {
  const evaluated: Evaluated[] = [];
  forEachOfType(step.index, type, line, (prepared, reach) => {
    step.edges.note(prepared.condition);
    const result = evaluateOne(step, prepared, reach, line, running);
    if ("prepared" in result) evaluated.push(result);
    else notes.set(prepared, result);
    collectCut(cuts, prepared, "prepared" in result ? result.value : null);
  });
  return evaluated;
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
  const collector = new Cuts();
  const adjustments: Adjustment[] = [];
  const notes = step.explain ? new Map<PreparedCondition, Note>() : null;
  const kept = { adjustments, cuts: collector };
  const { regular, surchargeTotal } = notes
    ? explained(step, line, base, allowsTradeDiscounts, notes, kept)
    : regularAt(step, reachedConditions(step.index, line), line, base, allowsTradeDiscounts, kept);
  // A scale reading the line's quantity may change which of these the early stop meets.
  const cuts = collector.lineScaled ? [collector, step.index.everyProductCuts] : [collector];
  return { regular, adjustments, surchargeTotal, notes, cuts };
}

/** Step 2 with explain: every candidate evaluated and noted; the regular amount and charges. */
function explained(
  step: ConditionStep,
  line: LineFacts,
  base: number,
  allowsTradeDiscounts: boolean,
  notes: Map<PreparedCondition, Note>,
  { adjustments, cuts }: Kept,
): { regular: number; surchargeTotal: number } {
  let running = base;
  let surchargeTotal = 0;
  let netPriceApplied = false;
  for (const type of APPLIED_ORDER) {
    const evaluated = evaluate(step, type, line, running, notes, cuts);
    if (evaluated.length === 0) continue;

    if (type === "DISCOUNT" && (netPriceApplied || !allowsTradeDiscounts)) {
      const outcome = netPriceApplied ? "SWITCHED_OFF_BY_NET_PRICE" : "NOT_DISCOUNTABLE";
      for (const e of evaluated) notes.set(e.prepared, noteOf(e, outcome, e.amount));
      continue;
    }

    const { winner, applied } = pickApplied(evaluated);
    for (const e of applied) {
      const amount = effectOf(step, e.prepared, e.value, running, line);
      running = add(running, amount);
      if (type === "SURCHARGE") surchargeTotal = add(surchargeTotal, amount);
      adjustments.push(adjustmentOf(type, e, amount));
      notes.set(e.prepared, noteOf(e, "APPLIED", amount));
    }
    if (type === "NET_PRICE" && applied.length > 0) netPriceApplied = true;
    if (winner) noteLosers(evaluated, winner, notes);
  }
  return { regular: running, surchargeTotal };
}

/** What step 2 keeps of a line priced at its own quantity: its adjustments and cuts. */
interface Kept {
  adjustments: Adjustment[];
  cuts: Cuts;
}

/**
 * One type's candidates on a line without explain, in the order a per-type index visits them:
 * the winner so far (`beats`) and the stackable ones. One scan serves every line of an order
 * (`ConditionStep.scan`): two scratch candidates hold the best so far and the one being
 * evaluated, and a stackable one is copied into an object an earlier line left, so a warm line
 * allocates nothing here.
 */
class Scan {
  best: Evaluated | undefined;
  /** The stackable ones, in `stackOrder`: the first `stacked` of the array. */
  readonly stackables: Evaluated[] = [];
  stacked = 0;
  private step!: ConditionStep;
  private line!: Pick<LineFacts, "quantity" | "priceUnit">;
  private cuts: Cuts | undefined;
  private running = 0;
  private readonly slots: [Evaluated, Evaluated] = [scratch(), scratch()];
  /** The objects stackable candidates are copied into, kept from line to line. */
  private readonly spare: Evaluated[] = [];

  /** Starts a line; with `cuts` (a line at its own quantity) it collects what each may cut. */
  startLine(
    step: ConditionStep,
    line: Pick<LineFacts, "quantity" | "priceUnit">,
    cuts: Cuts | undefined,
  ): void {
    this.step = step;
    this.line = line;
    this.cuts = cuts;
  }

  /** Starts a type, at the amount it starts from. */
  start(running: number): void {
    this.best = undefined;
    this.stacked = 0;
    this.running = running;
  }

  /** Evaluates one candidate (and collects its cut, for a line at its own quantity). */
  visit(prepared: PreparedCondition, rung: number, distance: number | null): void {
    const into = this.best === this.slots[0] ? this.slots[1] : this.slots[0];
    const found = evaluateInto(this.step, prepared, rung, distance, this.line, this.running, into);
    if (this.cuts) collectCut(this.cuts, prepared, found ? into.value : null);
    if (!found) return;
    if (prepared.condition.stackable) this.stack(into);
    else if (beats(into, this.best)) this.best = into;
  }

  /**
   * Puts a copy of `e` among the stackable ones in `stackOrder` (a total order: it ends with the
   * id). A line has a few stackable candidates of a type: no `sort` and the work array it
   * allocates.
   */
  private stack(e: Evaluated): void {
    const copy = copyInto((this.spare[this.stacked] ??= scratch()), e);
    const sorted = this.stackables;
    let k = this.stacked++;
    for (; k > 0 && stackOrder(sorted[k - 1]!, copy) > 0; k--) sorted[k] = sorted[k - 1]!;
    sorted[k] = copy;
  }
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

/** A stackable candidate kept past its scratch slot: `e` copied into `to`. */
function copyInto(to: Evaluated, e: Evaluated): Evaluated {
  to.prepared = e.prepared;
  to.rung = e.rung;
  to.distance = e.distance;
  to.basis = e.basis;
  to.value = e.value;
  to.amount = e.amount;
  return to;
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
 * Step 2 without explain: of each type, the candidates in window with a value, the winner
 * (`beats`) and the stackable ones applied; the regular amount and the sum of the surcharges.
 * `reached`: the conditions naming one of the line's codes (`reachedConditions`). With `kept` (a
 * line at its own quantity) it notes their validity edges and keeps the adjustments and the
 * cuts; without (the same product at another quantity: the ladder, the price-break advice) only
 * the amounts, the line having noted the same conditions. Either way the same candidates are
 * evaluated, so an amount past 2^53 − 1 throws alike.
 */
export function regularAt(
  step: ConditionStep,
  reached: Reached<PreparedCondition>,
  line: Pick<LineFacts, "quantity" | "priceUnit">,
  base: number,
  allowsTradeDiscounts: boolean,
  kept?: Kept,
): { regular: number; surchargeTotal: number } {
  const scan = (step.scan ??= new Scan());
  scan.startLine(step, line, kept?.cuts);
  let running = base;
  let surchargeTotal = 0;
  let netPriceApplied = false;
  for (const type of APPLIED_ORDER) {
    scan.start(running);
    visitType(step, type, reached, scan, kept !== undefined);
    const { best: winner, stacked } = scan;
    if (!winner && stacked === 0) continue;
    if (type === "DISCOUNT" && (netPriceApplied || !allowsTradeDiscounts)) continue;
    // What applies, in applied order: the winner, then the stackable ones.
    for (let k = winner ? -1 : 0; k < stacked; k++) {
      const e = k < 0 ? winner! : scan.stackables[k]!;
      const amount = k < 0 ? e.amount : effectOf(step, e.prepared, e.value, running, line);
      running = add(running, amount);
      if (type === "SURCHARGE") surchargeTotal = add(surchargeTotal, amount);
      kept?.adjustments.push(adjustmentOf(type, e, amount));
    }
    if (type === "NET_PRICE") netPriceApplied = true;
  }
  return { regular: running, surchargeTotal };
}

/**
 * Visits the line's candidates of `type` as a per-type index would: those naming one of its
 * codes, then those reaching every product, the non-stackable ones in rung, priority order
 * until one cannot beat the best so far (then none after it can). `noting`: their validity
 * edges too.
 */
function visitType(
  step: ConditionStep,
  type: (typeof APPLIED_ORDER)[number],
  { items, reaches }: Reached<PreparedCondition>,
  scan: Scan,
  noting: boolean,
) {
  for (let k = 0; k < items.length; k++) {
    const prepared = items[k]!;
    if (prepared.condition.type !== type) continue;
    if (noting) step.edges.note(prepared.condition);
    scan.visit(prepared, rungOf(prepared.condition.scope, reaches[k]!.kind), reaches[k]!.distance);
  }
  const every = step.index.everyProduct[type];
  const { stackable, nonStackable } = every;
  if (!every.noted) {
    for (const prepared of stackable) step.edges.note(prepared.condition);
    for (const prepared of nonStackable) step.edges.note(prepared.condition);
    every.noted = true;
  }
  // Index loops: no iterator objects on a path every line takes.
  for (let k = 0; k < stackable.length; k++) {
    scan.visit(stackable[k]!, stackable[k]!.listedRung, null);
  }
  for (let k = 0; k < nonStackable.length; k++) {
    const prepared = nonStackable[k]!;
    if (scan.best && cannotBeat(prepared, scan.best)) break;
    scan.visit(prepared, prepared.listedRung, null);
  }
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
