import { lineValue, sumReached, type EligibleLine } from "./basis";
import {
  EVERY,
  listedKind,
  reachOf,
  ReachIndex,
  targetsOf,
  type ProductTargets,
  type Reach,
  type ReachKind,
} from "./groups";
import { Cuts } from "./breaks";
import { add, clamp, negate, percentOf } from "./money";
import { ascending, compareBy, decidedBy, descending, type Ranking } from "./rank";
import { inUnit, unitOf } from "./units";
import type {
  Accrual,
  Adjustment,
  ConditionExplain,
  Instant,
  Scale,
  TradeConditionCandidate,
} from "./types";
import { isInWindow, type EdgeTracker } from "./validity";
import type {
  ChannelRoundingMode,
  ConditionOutcome,
  ConditionScope,
  ConditionType,
  RankKey,
} from "./vocabulary";

/**
 * Step 2 runs the types in this order: a net price replaces the amount, charges come last.
 * Accruals come after the final amount (docs/pricing-rules.md §25) and change no amount of it.
 */
const STEP_OF: Record<ConditionType, number> = {
  NET_PRICE: 0,
  DISCOUNT: 1,
  SURCHARGE: 2,
  ACCRUAL: 3,
};
const APPLIED_ORDER = ["NET_PRICE", "DISCOUNT", "SURCHARGE"] as const satisfies ConditionType[];
const EVERY_TYPE = Object.keys(STEP_OF) as ConditionType[];

const FIRST_RUNG: Record<ConditionScope, number> = {
  CUSTOMER: 1,
  CUSTOMER_GROUP: 4,
  CHANNEL: 7,
  GLOBAL: 10,
};
const REACH_STEP: Record<ReachKind, number> = { PRODUCT: 0, GROUP: 1, ALL: 2 };

/**
 * Step 2's ladder (docs/pricing-rules.md §4.2): customer, group, channel, global; inside each,
 * product listed, then group reached, then all products. 1 customer/product … 12 global/all.
 */
export const rungOf = (scope: ConditionScope, reach: ReachKind): number =>
  FIRST_RUNG[scope] + REACH_STEP[reach];

/** The request the conditions are checked against (line-independent). */
export interface Audience {
  at: Instant;
  currency: string;
  channelCode: string;
  customerCode: string | null;
  /** G; empty when anonymous. */
  groupCodes: ReadonlySet<string>;
}

/** What the conditions need to know of a line. */
export interface LineFacts extends EligibleLine {
  productCode: string;
  quantity: number;
  groupPath: readonly string[];
  /** The pieces its unit amounts are for: its base row's (docs/pricing-rules.md §20); else 1. */
  priceUnit: number;
}

type StaticGate = "NOT_ACTIVE" | "OTHER_CURRENCY" | "OTHER_CHANNEL" | "NOT_TARGETED";

export interface PreparedCondition {
  condition: TradeConditionCandidate;
  /** The rung of what it lists: explain's rung for a product it does not reach. */
  listedRung: number;
  /** NET_PRICE values are unit prices, so always absolute. */
  absolute: boolean;
  /** The pieces an absolute value is for (docs/pricing-rules.md §20). */
  priceUnit: number;
  gate: StaticGate | null;
  inWindow: boolean;
  targets: ProductTargets;
  /** minimum ascending. */
  scales: readonly Scale[];
  /** Its scales compare with the line's own quantity: its value depends on the quantity. */
  lineScaled: boolean;
  /** Its most favourable scale value (the lowest net price, the largest discount); null without scales. */
  bestScaleValue: number | null;
}

export interface ConditionIndex {
  /** Every condition, in listed explain order: type, listed rung, priority desc, id asc. */
  all: PreparedCondition[];
  /** Only those that pass the request-level checks, by type and reach: what a line scans. */
  byType: Record<ConditionType, ReachIndex<PreparedCondition>>;
  /** Those of `byType` whose scales compare with an order-level sum. */
  orderBased: PreparedCondition[];
  /** By type, those of `byType` that reach every product, apart (see `evaluate`). */
  everyProduct: Record<ConditionType, EveryProduct>;
  /**
   * What the non-stackable net prices and discounts reaching every product may cut, at any
   * scale row: where a scale reads a line's quantity, the early stop of `evaluate` may meet
   * others of them at another quantity (breaks.ts).
   */
  everyProductCuts: Cuts;
}

/**
 * The conditions of a type that reach every product: the stackable ones, and the others in rung,
 * priority desc, id order (`listedOrder`: an ALL reach's rung is its listed rung), so that a scan
 * for the winner can stop at the first one that cannot win. `noted`: their validity edges were
 * noted for this request (they reach every line alike).
 */
interface EveryProduct {
  nonStackable: PreparedCondition[];
  stackable: PreparedCondition[];
  noted: boolean;
}

function staticGate(c: TradeConditionCandidate, absolute: boolean, a: Audience): StaticGate | null {
  if (c.status !== "ACTIVE") return "NOT_ACTIVE";
  // Absolute amounts are never converted; percentages fit any currency, order values do not.
  if ((absolute || c.scaleBasis === "ORDER_VALUE") && c.currency !== a.currency) {
    return "OTHER_CURRENCY";
  }
  if (c.channelCodes.length > 0 && !c.channelCodes.includes(a.channelCode)) return "OTHER_CHANNEL";
  if (c.scope === "CUSTOMER") {
    if (a.customerCode === null || !c.customerCodes.includes(a.customerCode)) return "NOT_TARGETED";
  } else if (c.scope === "CUSTOMER_GROUP") {
    if (!c.customerGroupCodes.some((g) => a.groupCodes.has(g))) return "NOT_TARGETED";
  }
  return null;
}

function prepareCondition(condition: TradeConditionCandidate, audience: Audience) {
  const absolute = condition.type === "NET_PRICE" || condition.discountType === "ABSOLUTE";
  const targets = targetsOf(condition.productCodes, condition.productGroupCodes);
  return {
    condition,
    listedRung: rungOf(condition.scope, listedKind(targets)),
    absolute,
    priceUnit: unitOf(condition.priceUnit),
    gate: staticGate(condition, absolute, audience),
    inWindow: isInWindow(condition, audience.at),
    targets,
    scales: [...condition.scales].sort((a, b) => ascending(a.minimum, b.minimum)),
    lineScaled: condition.scales.length > 0 && condition.scaleBasis === "LINE_QUANTITY",
    bestScaleValue: bestScaleValue(condition),
  };
}

function bestScaleValue({ type, scales }: TradeConditionCandidate): number | null {
  if (scales.length === 0) return null;
  const values = scales.map((row) => row.value);
  return type === "NET_PRICE" ? Math.min(...values) : Math.max(...values);
}

/**
 * What a candidate may cut from a line at any quantity of it (breaks.ts): `met`, the value it
 * had at the line's quantity, null when it had no scale row there; "ANY" for a candidate not
 * looked at on the line. A scale that reads the line's quantity counts with its most favourable
 * row, as does any scale of a candidate not looked at; an order-level basis stays, so a candidate
 * without a row there never applies.
 */
function collectCut(cuts: Cuts, prepared: PreparedCondition, met: number | null | "ANY") {
  const { type, stackable, value } = prepared.condition;
  if (type === "SURCHARGE" || !prepared.inWindow) return;
  if (prepared.lineScaled) cuts.lineScaled = true;
  let v: number;
  if (prepared.bestScaleValue !== null && (prepared.lineScaled || met === "ANY")) {
    v = prepared.bestScaleValue;
  } else if (met === null) return;
  else v = met === "ANY" ? value : met;
  if (type === "NET_PRICE") cuts.netPrice(v, prepared.priceUnit);
  else cuts.cut(!stackable, prepared.absolute, v, prepared.priceUnit);
}

const explainOrder = (
  a: { type: ConditionType; rung: number; priority: number; id: number },
  b: typeof a,
) =>
  ascending(STEP_OF[a.type], STEP_OF[b.type]) ||
  ascending(a.rung, b.rung) ||
  descending(a.priority, b.priority) ||
  ascending(a.id, b.id);

const listedOrder = (a: PreparedCondition, b: PreparedCondition) =>
  ascending(STEP_OF[a.condition.type], STEP_OF[b.condition.type]) ||
  ascending(a.listedRung, b.listedRung) ||
  descending(a.condition.priority, b.condition.priority) ||
  ascending(a.condition.id, b.condition.id);

/**
 * Once per request: request-level checks and the index by type and reach. Without `margin`
 * (read keys), ACCRUAL conditions are left out altogether, explain included.
 */
export function prepareConditions(
  conditions: readonly TradeConditionCandidate[],
  audience: Audience,
  margin = false,
): ConditionIndex {
  const byType = {} as Record<ConditionType, ReachIndex<PreparedCondition>>;
  for (const type of EVERY_TYPE) byType[type] = new ReachIndex();

  const taken = margin ? conditions : conditions.filter((c) => c.type !== "ACCRUAL");
  const all = taken.map((c) => prepareCondition(c, audience));
  all.sort(listedOrder);
  const orderBased: PreparedCondition[] = [];
  for (const prepared of all) {
    if (prepared.gate) continue;
    byType[prepared.condition.type].add(prepared);
    if (prepared.scales.length > 0 && prepared.condition.scaleBasis !== "LINE_QUANTITY") {
      orderBased.push(prepared);
    }
  }
  const everyProduct = {} as Record<ConditionType, EveryProduct>;
  const cuts = new Cuts();
  for (const type of APPLIED_ORDER) {
    const every = byType[type].everyProduct;
    everyProduct[type] = {
      nonStackable: every.filter((p) => !p.condition.stackable),
      stackable: every.filter((p) => p.condition.stackable),
      noted: false,
    };
    for (const prepared of everyProduct[type].nonStackable) collectCut(cuts, prepared, "ANY");
  }
  return { all, byType, orderBased, everyProduct, everyProductCuts: cuts };
}

/**
 * docs/pricing-rules.md §4.4: each order-based condition's basis, summed over the eligible lines
 * it reaches (whether it wins on them or not), from their quantities or base amounts (each as
 * its line amount would be, §20).
 */
export function orderBasesOf(
  index: ConditionIndex,
  lines: readonly (LineFacts & { baseAmount: number })[],
  rounding: ChannelRoundingMode,
): Map<PreparedCondition, number> {
  const bases = new Map<PreparedCondition, number>();
  for (const prepared of index.orderBased) {
    if (!prepared.inWindow) continue;
    const byValue = prepared.condition.scaleBasis === "ORDER_VALUE";
    const sum = sumReached(prepared.targets, lines, (l) =>
      byValue ? lineValue(l.baseAmount, l.quantity, l.priceUnit, rounding) : l.quantity,
    );
    bases.set(prepared, sum);
  }
  return bases;
}

/** What a condition's scale rows compare with on this line; null without scales. */
function basisOf(
  prepared: PreparedCondition,
  line: LineFacts,
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
  line: LineFacts,
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

/** One candidate reaching the line: in window and with a value at its basis, or why not. */
function evaluateOne(
  step: ConditionStep,
  prepared: PreparedCondition,
  reach: Reach,
  line: LineFacts,
  running: number,
): Evaluated | Note {
  const rung = rungOf(prepared.condition.scope, reach.kind);
  const skipped = { decidedBy: null, rung, distance: reach.distance, amount: null };
  if (!prepared.inWindow) {
    return { outcome: "OUT_OF_WINDOW", basis: null, value: prepared.condition.value, ...skipped };
  }
  const basis = basisOf(prepared, line, step.orderBases);
  const value = valueAt(prepared, basis);
  if (value === undefined) return { outcome: "NO_SCALE", basis, value: null, ...skipped };
  const amount = effectOf(step, prepared, value, running, line);
  return { prepared, rung, distance: reach.distance, basis, value, amount };
}

/** The line's candidates of one type that are in window and have a value at their basis. */
function evaluate(
  step: ConditionStep,
  type: ConditionType,
  line: LineFacts,
  running: number,
  notes: Map<PreparedCondition, Note> | null,
  cuts: Cuts,
): Evaluated[] {
  const evaluated: Evaluated[] = [];
  if (notes) {
    // Explain: every candidate, with why it lost.
    step.index.byType[type].forEach(line.productCode, line.groupPath, (prepared, reach) => {
      step.edges.note(prepared.condition);
      const result = evaluateOne(step, prepared, reach, line, running);
      if ("prepared" in result) evaluated.push(result);
      else notes.set(prepared, result);
      collectCut(cuts, prepared, "prepared" in result ? result.value : null);
    });
    return evaluated;
  }
  let best: Evaluated | undefined;
  const consider = (prepared: PreparedCondition, reach: Reach) => {
    const result = evaluateOne(step, prepared, reach, line, running);
    collectCut(cuts, prepared, "prepared" in result ? result.value : null);
    if (!("prepared" in result)) return;
    evaluated.push(result);
    if (!prepared.condition.stackable && beats(result, best)) best = result;
  };
  step.index.byType[type].forEachTargeted(line.productCode, line.groupPath, (prepared, reach) => {
    step.edges.note(prepared.condition);
    consider(prepared, reach);
  });
  const every = step.index.everyProduct[type];
  if (!every.noted) {
    for (const prepared of [...every.stackable, ...every.nonStackable]) {
      step.edges.note(prepared.condition);
    }
    every.noted = true;
  }
  for (const prepared of every.stackable) consider(prepared, EVERY);
  for (const prepared of every.nonStackable) {
    // In rung, priority order: once one cannot beat the best so far, none after it can.
    if (best && cannotBeat(prepared, best)) break;
    consider(prepared, EVERY);
  }
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
  const stackables: Evaluated[] = [];
  for (const e of evaluated) {
    if (e.prepared.condition.stackable) stackables.push(e);
    else if (beats(e, winner)) winner = e;
  }
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
  step.index.byType.ACCRUAL.forEach(line.productCode, line.groupPath, (prepared, reach) => {
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
  const reach = reachOf(prepared.targets, line.productCode, line.groupPath);
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
