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
  CUSTOMER_GROUP: 3,
  CHANNEL: 5,
  GLOBAL: 7,
};

/**
 * Step 2's ladder: customer, group, channel, global; inside each, product-specific before
 * all-products. 1 customer/product … 8 global/all products.
 */
export const rungOf = (scope: ConditionScope, productSpecific: boolean): number =>
  FIRST_RUNG[scope] + (productSpecific ? 0 : 1);

/** The request the conditions are checked against (line-independent). */
export interface Audience {
  at: Instant;
  currency: string;
  channelCode: string;
  customerCode: string | null;
  /** G; empty when anonymous. */
  groupCodes: ReadonlySet<string>;
}

type StaticGate = "NOT_ACTIVE" | "OTHER_CURRENCY" | "OTHER_CHANNEL" | "NOT_TARGETED";

export interface PreparedCondition {
  condition: TradeConditionCandidate;
  rung: number;
  /** NET_PRICE values are unit prices, so always absolute. */
  absolute: boolean;
  gate: StaticGate | null;
  inWindow: boolean;
  /** null = all products. */
  products: ReadonlySet<string> | null;
  /** minQuantity ascending. */
  scales: readonly Scale[];
}

interface TypeIndex {
  anyProduct: PreparedCondition[];
  byProduct: Map<string, PreparedCondition[]>;
}

export interface ConditionIndex {
  /** Every condition, in explain order: type, rung, priority desc, id asc. */
  all: PreparedCondition[];
  /** Only those that pass the request-level checks, by type and product: what a line scans. */
  byType: Record<ConditionType, TypeIndex>;
}

function staticGate(c: TradeConditionCandidate, absolute: boolean, a: Audience): StaticGate | null {
  if (c.status !== "ACTIVE") return "NOT_ACTIVE";
  // Absolute amounts are never converted; percentages fit any currency.
  if (absolute && c.currency !== a.currency) return "OTHER_CURRENCY";
  if (c.channelCodes.length > 0 && !c.channelCodes.includes(a.channelCode)) return "OTHER_CHANNEL";
  if (c.scope === "CUSTOMER") {
    if (a.customerCode === null || !c.customerCodes.includes(a.customerCode)) return "NOT_TARGETED";
  } else if (c.scope === "CUSTOMER_GROUP") {
    if (!c.customerGroupCodes.some((g) => a.groupCodes.has(g))) return "NOT_TARGETED";
  }
  return null;
}

/** Once per request: request-level checks and the index by type and product. */
export function prepareConditions(
  conditions: readonly TradeConditionCandidate[],
  audience: Audience,
): ConditionIndex {
  const byType = {} as Record<ConditionType, TypeIndex>;
  for (const type of APPLIED_ORDER) byType[type] = { anyProduct: [], byProduct: new Map() };

  const all = conditions.map((condition): PreparedCondition => {
    const absolute = condition.type === "NET_PRICE" || condition.discountType === "ABSOLUTE";
    return {
      condition,
      rung: rungOf(condition.scope, condition.productCodes.length > 0),
      absolute,
      gate: staticGate(condition, absolute, audience),
      inWindow: isInWindow(condition, audience.at),
      products: condition.productCodes.length > 0 ? new Set(condition.productCodes) : null,
      scales: [...condition.scales].sort((a, b) => ascending(a.minQuantity, b.minQuantity)),
    };
  });
  all.sort(
    (a, b) =>
      ascending(STEP_OF[a.condition.type], STEP_OF[b.condition.type]) ||
      ascending(a.rung, b.rung) ||
      descending(a.condition.priority, b.condition.priority) ||
      ascending(a.condition.id, b.condition.id),
  );

  for (const prepared of all) {
    if (prepared.gate) continue;
    const index = byType[prepared.condition.type];
    if (!prepared.products) {
      index.anyProduct.push(prepared);
      continue;
    }
    for (const code of prepared.products) {
      const list = index.byProduct.get(code);
      if (list) list.push(prepared);
      else index.byProduct.set(code, [prepared]);
    }
  }
  return { all, byType };
}

/** The scale row with the largest minQuantity ≤ quantity; no scales → the plain value. */
function valueAt(prepared: PreparedCondition, quantity: number): number | undefined {
  if (prepared.scales.length === 0) return prepared.condition.value;
  let value: number | undefined;
  for (const scale of prepared.scales) {
    if (scale.minQuantity > quantity) break;
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
  value: number;
  /** Effect on the amount at the start of the type's step: what ranks candidates. */
  amount: number;
}

/**
 * Inside a rung: priority desc, then the one that leaves the lower unit amount (larger saving,
 * smaller charge, lower net price), then id.
 */
const rungRanking: Ranking<Evaluated> = [
  ["PRIORITY", (a, b) => descending(a.prepared.condition.priority, b.prepared.condition.priority)],
  ["AMOUNT", (a, b) => ascending(a.amount, b.amount)],
  ["ID", (a, b) => ascending(a.prepared.condition.id, b.prepared.condition.id)],
];

/** Stackables apply in rung, priority, id order. */
const stackOrder = (a: Evaluated, b: Evaluated) =>
  ascending(a.prepared.rung, b.prepared.rung) ||
  descending(a.prepared.condition.priority, b.prepared.condition.priority) ||
  ascending(a.prepared.condition.id, b.prepared.condition.id);

export interface Note {
  outcome: ConditionOutcome;
  decidedBy: RankKey | null;
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

/** The line's candidates of one type that are in window and have a value at this quantity. */
function evaluate(
  index: TypeIndex,
  productCode: string,
  quantity: number,
  running: number,
  edges: EdgeTracker,
  notes: Map<PreparedCondition, Note> | null,
): Evaluated[] {
  const evaluated: Evaluated[] = [];
  const scan = (candidates: readonly PreparedCondition[]) => {
    for (const prepared of candidates) {
      edges.note(prepared.condition);
      if (!prepared.inWindow) {
        notes?.set(prepared, {
          outcome: "OUT_OF_WINDOW",
          decidedBy: null,
          value: null,
          amount: null,
        });
        continue;
      }
      const value = valueAt(prepared, quantity);
      if (value === undefined) {
        notes?.set(prepared, { outcome: "NO_SCALE", decidedBy: null, value: null, amount: null });
        continue;
      }
      evaluated.push({ prepared, value, amount: effectOf(prepared, value, running) });
    }
  };
  scan(index.anyProduct);
  const specific = index.byProduct.get(productCode);
  if (specific) scan(specific);
  return evaluated;
}

/** The winner: from the first rung that has a non-stackable candidate, then `rungRanking`. */
function beats(e: Evaluated, winner: Evaluated | undefined): boolean {
  if (!winner) return true;
  if (e.prepared.rung !== winner.prepared.rung) return e.prepared.rung < winner.prepared.rung;
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
  rung: e.prepared.rung,
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
    notes.set(
      e.prepared,
      e.prepared.rung > winner.prepared.rung
        ? { outcome: "LOWER_RUNG", decidedBy: null, value: e.value, amount: null }
        : {
            outcome: "LOWER_RANK",
            decidedBy: decidedBy(rungRanking, e, winner),
            value: e.value,
            amount: e.amount,
          },
    );
  }
}

/** Step 2 for one priced line. */
export function applyConditions(
  index: ConditionIndex,
  productCode: string,
  quantity: number,
  base: number,
  allowsTradeDiscounts: boolean,
  edges: EdgeTracker,
  explain: boolean,
): ConditionResult {
  const notes = explain ? new Map<PreparedCondition, Note>() : null;
  const adjustments: Adjustment[] = [];
  const surcharges: Adjustment[] = [];
  let running = base;
  let netPriceApplied = false;

  for (const type of APPLIED_ORDER) {
    const evaluated = evaluate(index.byType[type], productCode, quantity, running, edges, notes);
    if (evaluated.length === 0) continue;

    if (type === "DISCOUNT" && (netPriceApplied || !allowsTradeDiscounts)) {
      const outcome = netPriceApplied ? "SWITCHED_OFF_BY_NET_PRICE" : "NOT_DISCOUNTABLE";
      for (const e of evaluated) {
        notes?.set(e.prepared, { outcome, decidedBy: null, value: e.value, amount: e.amount });
      }
      continue;
    }

    const { winner, applied } = pickApplied(evaluated);
    for (const e of applied) {
      const amount = effectOf(e.prepared, e.value, running);
      running = add(running, amount);
      const adjustment = adjustmentOf(type, e, amount);
      adjustments.push(adjustment);
      if (type === "SURCHARGE") surcharges.push(adjustment);
      notes?.set(e.prepared, { outcome: "APPLIED", decidedBy: null, value: e.value, amount });
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

/** Every condition for one line, with the first failing check or its note from `applyConditions`. */
export function explainConditions(
  index: ConditionIndex,
  productCode: string,
  quantity: number,
  notes: Map<PreparedCondition, Note> | null,
): ConditionExplain[] {
  return index.all.map((prepared) => {
    const { condition } = prepared;
    let n: Note | undefined = notes?.get(prepared);
    if (!n) {
      const outcome: ConditionOutcome =
        prepared.gate ??
        (prepared.products && !prepared.products.has(productCode)
          ? "OTHER_PRODUCT"
          : !prepared.inWindow
            ? "OUT_OF_WINDOW"
            : valueAt(prepared, quantity) === undefined
              ? "NO_SCALE"
              : "NO_BASE_PRICE");
      n = { outcome, decidedBy: null, value: null, amount: null };
    }
    return {
      id: condition.id,
      name: condition.name,
      type: condition.type,
      scope: condition.scope,
      rung: prepared.rung,
      stackable: condition.stackable,
      priority: condition.priority,
      outcome: n.outcome,
      decidedBy: n.decidedBy,
      discountType: condition.discountType,
      value: n.value,
      amount: n.amount,
    };
  });
}
