import { saturatingTimes, sumReached, type EligibleLine } from "./basis";
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
import { add, clamp, negate, percentOf } from "./money";
import { ascending, compareBy, decidedBy, descending, type Ranking } from "./rank";
import type {
  Adjustment,
  ConditionExplain,
  Instant,
  Scale,
  TradeConditionCandidate,
} from "./types";
import { isInWindow, type EdgeTracker } from "./validity";
import type { ConditionOutcome, ConditionScope, ConditionType, RankKey } from "./vocabulary";

/** Step 2 runs the types in this order: a net price replaces the amount, charges come last. */
const STEP_OF: Record<ConditionType, number> = { NET_PRICE: 0, DISCOUNT: 1, SURCHARGE: 2 };
const APPLIED_ORDER = (Object.keys(STEP_OF) as ConditionType[]).sort(
  (a, b) => STEP_OF[a] - STEP_OF[b],
);

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
}

type StaticGate = "NOT_ACTIVE" | "OTHER_CURRENCY" | "OTHER_CHANNEL" | "NOT_TARGETED";

export interface PreparedCondition {
  condition: TradeConditionCandidate;
  /** The rung of what it lists: explain's rung for a product it does not reach. */
  listedRung: number;
  /** NET_PRICE values are unit prices, so always absolute. */
  absolute: boolean;
  gate: StaticGate | null;
  inWindow: boolean;
  targets: ProductTargets;
  /** minimum ascending. */
  scales: readonly Scale[];
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
    gate: staticGate(condition, absolute, audience),
    inWindow: isInWindow(condition, audience.at),
    targets,
    scales: [...condition.scales].sort((a, b) => ascending(a.minimum, b.minimum)),
  };
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

/** Once per request: request-level checks and the index by type and reach. */
export function prepareConditions(
  conditions: readonly TradeConditionCandidate[],
  audience: Audience,
): ConditionIndex {
  const byType = {} as Record<ConditionType, ReachIndex<PreparedCondition>>;
  for (const type of APPLIED_ORDER) byType[type] = new ReachIndex();

  const all = conditions.map((c) => prepareCondition(c, audience));
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
  for (const type of APPLIED_ORDER) {
    const every = byType[type].everyProduct;
    everyProduct[type] = {
      nonStackable: every.filter((p) => !p.condition.stackable),
      stackable: every.filter((p) => p.condition.stackable),
      noted: false,
    };
  }
  return { all, byType, orderBased, everyProduct };
}

/**
 * docs/pricing-rules.md §4.4: each order-based condition's basis, summed over the eligible lines
 * it reaches (whether it wins on them or not), from their quantities or base amounts.
 */
export function orderBasesOf(
  index: ConditionIndex,
  lines: readonly (LineFacts & { baseAmount: number })[],
): Map<PreparedCondition, number> {
  const bases = new Map<PreparedCondition, number>();
  for (const prepared of index.orderBased) {
    if (!prepared.inWindow) continue;
    const byValue = prepared.condition.scaleBasis === "ORDER_VALUE";
    const sum = sumReached(prepared.targets, lines, (l) =>
      byValue ? saturatingTimes(l.baseAmount, l.quantity) : l.quantity,
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
 * The signed change a condition makes to the running unit amount. A discount never takes the
 * amount below 0; a surcharge never lowers it; a net price is never negative.
 */
function effectOf(prepared: PreparedCondition, value: number, running: number): number {
  const { type } = prepared.condition;
  if (type === "NET_PRICE") return Math.max(0, value) - running;
  const raw = prepared.absolute ? value : percentOf(running, value);
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
}

/** Step 2's request-level state: the index, the order-level bases, the edges, explain. */
export interface ConditionStep {
  index: ConditionIndex;
  orderBases: ReadonlyMap<PreparedCondition, number>;
  edges: EdgeTracker;
  explain: boolean;
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
  const amount = effectOf(prepared, value, running);
  return { prepared, rung, distance: reach.distance, basis, value, amount };
}

/** The line's candidates of one type that are in window and have a value at their basis. */
function evaluate(
  step: ConditionStep,
  type: ConditionType,
  line: LineFacts,
  running: number,
  notes: Map<PreparedCondition, Note> | null,
): Evaluated[] {
  const evaluated: Evaluated[] = [];
  if (notes) {
    // Explain: every candidate, with why it lost.
    step.index.byType[type].forEach(line.productCode, line.groupPath, (prepared, reach) => {
      step.edges.note(prepared.condition);
      const result = evaluateOne(step, prepared, reach, line, running);
      if ("prepared" in result) evaluated.push(result);
      else notes.set(prepared, result);
    });
    return evaluated;
  }
  let best: Evaluated | undefined;
  const consider = (prepared: PreparedCondition, reach: Reach) => {
    const result = evaluateOne(step, prepared, reach, line, running);
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

const adjustmentOf = (type: ConditionType, e: Evaluated, amount: number): Adjustment => ({
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
  const adjustments: Adjustment[] = [];
  const surcharges: Adjustment[] = [];
  let running = base;
  let netPriceApplied = false;

  for (const type of APPLIED_ORDER) {
    const evaluated = evaluate(step, type, line, running, notes);
    if (evaluated.length === 0) continue;

    if (type === "DISCOUNT" && (netPriceApplied || !allowsTradeDiscounts)) {
      const outcome = netPriceApplied ? "SWITCHED_OFF_BY_NET_PRICE" : "NOT_DISCOUNTABLE";
      for (const e of evaluated) notes?.set(e.prepared, noteOf(e, outcome, e.amount));
      continue;
    }

    const { winner, applied } = pickApplied(evaluated);
    for (const e of applied) {
      const amount = effectOf(e.prepared, e.value, running);
      running = add(running, amount);
      const adjustment = adjustmentOf(type, e, amount);
      adjustments.push(adjustment);
      if (type === "SURCHARGE") surcharges.push(adjustment);
      notes?.set(e.prepared, noteOf(e, "APPLIED", amount));
    }
    if (type === "NET_PRICE" && applied.length > 0) netPriceApplied = true;
    if (notes && winner) noteLosers(evaluated, winner, notes);
  }
  return { regular: running, adjustments, surcharges, notes };
}

/** After a BEST_OF promotion won: what built the regular price no longer reaches the final one. */
export function markSupersededByPromotion(notes: Map<PreparedCondition, Note> | null): void {
  if (!notes) return;
  for (const [prepared, n] of notes) {
    if (n.outcome === "APPLIED" && prepared.condition.type !== "SURCHARGE") {
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
      scaleBasis: condition.scaleBasis,
      basisValue: n.basis,
      value: n.value,
      amount: n.amount,
    };
  });
  // A condition listing products and groups sits on another rung where a group reaches the line.
  return entries.sort(explainOrder);
}
