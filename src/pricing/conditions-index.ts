import { lineValue, saturatingAdd, type EligibleLine } from "./basis";
import {
  EVERY,
  isEvery,
  listedKind,
  REACH_STEP,
  ReachIndex,
  targetsOf,
  type ProductTargets,
  type Reach,
  type Reached,
  type ReachKind,
} from "./targeting";
import { Cuts } from "./breaks";
import { ascending, descending } from "./rank";
import { unitOf } from "./units";
import type { Instant, Scale, TradeConditionCandidate } from "./types";
import { isInWindow } from "./validity";
import type { ChannelRoundingMode, ConditionScope, ConditionType } from "./vocabulary";

/*
 * Trade conditions before any line (docs/pricing-rules.md §4): the request-level checks (status,
 * currency, channel, audience), the index by type and reach, and the order-level bases of the
 * scales. `conditions.ts` evaluates the prepared conditions on each line.
 */

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
export const APPLIED_ORDER = [
  "NET_PRICE",
  "DISCOUNT",
  "SURCHARGE",
] as const satisfies ConditionType[];
const EVERY_TYPE = Object.keys(STEP_OF) as ConditionType[];

const FIRST_RUNG: Record<ConditionScope, number> = {
  CUSTOMER: 1,
  CUSTOMER_GROUP: 4,
  CHANNEL: 7,
  GLOBAL: 10,
};

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
  /**
   * The conditions of the request's index that name one of its codes (`reachedConditions`),
   * found once per line; a line priced again at another quantity keeps its product's.
   */
  conditionsReached?: Reached<PreparedCondition>;
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
  /**
   * Only those that pass the request-level checks, by reach, every type in one index: a line
   * walks it once (`reachedConditions`) and each type reads its own of them (`forEachOfType`).
   */
  reach: ReachIndex<PreparedCondition>;
  /** Those of `reach` whose scales compare with an order-level sum. */
  orderBased: PreparedCondition[];
  /** By type, those of `reach` that reach every product, in its order. */
  anyProduct: Record<ConditionType, PreparedCondition[]>;
  /** By type, the same apart (see `evaluate`). */
  everyProduct: Record<(typeof APPLIED_ORDER)[number], EveryProduct>;
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
  const targets = targetsOf(condition);
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
export function collectCut(cuts: Cuts, prepared: PreparedCondition, met: number | null | "ANY") {
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

export const explainOrder = (
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
 * Once per request: request-level checks and the index by type and reach. Conditions of a
 * `hidden` type (the asking key's scope's, docs/api/access.md §18) are left out altogether,
 * explain included.
 */
export function prepareConditions(
  conditions: readonly TradeConditionCandidate[],
  audience: Audience,
  hidden: readonly ConditionType[],
): ConditionIndex {
  const anyProduct = {} as Record<ConditionType, PreparedCondition[]>;
  for (const type of EVERY_TYPE) anyProduct[type] = [];

  const taken = hidden.length ? conditions.filter((c) => !hidden.includes(c.type)) : conditions;
  const all = taken.map((c) => prepareCondition(c, audience));
  all.sort(listedOrder);
  const orderBased: PreparedCondition[] = [];
  const reach = new ReachIndex<PreparedCondition>();
  for (const prepared of all) {
    if (prepared.gate) continue;
    reach.add(prepared);
    if (isEvery(prepared.targets)) anyProduct[prepared.condition.type].push(prepared);
    if (prepared.scales.length > 0 && prepared.condition.scaleBasis !== "LINE_QUANTITY") {
      orderBased.push(prepared);
    }
  }
  const everyProduct = {} as ConditionIndex["everyProduct"];
  const cuts = new Cuts();
  for (const type of APPLIED_ORDER) {
    const every = anyProduct[type];
    everyProduct[type] = {
      nonStackable: every.filter((p) => !p.condition.stackable),
      stackable: every.filter((p) => p.condition.stackable),
      noted: false,
    };
    for (const prepared of everyProduct[type].nonStackable) collectCut(cuts, prepared, "ANY");
  }
  return { all, reach, orderBased, anyProduct, everyProduct, everyProductCuts: cuts };
}

/**
 * The conditions that name one of the line's codes, of every type, in the order each type's
 * index visits them (filtering by type keeps it): walked once per line and kept on it.
 */
export const reachedConditions = (
  index: ConditionIndex,
  line: LineFacts,
): Reached<PreparedCondition> => (line.conditionsReached ??= index.reach.reachedBy(line));

/**
 * Calls `visit` once for every condition of `type` reaching the line, as a per-type index
 * would: those reaching every product, then those that name one of its codes.
 */
export function forEachOfType(
  index: ConditionIndex,
  type: ConditionType,
  line: LineFacts,
  visit: (prepared: PreparedCondition, reach: Reach) => void,
): void {
  for (const prepared of index.anyProduct[type]) visit(prepared, EVERY);
  const { items, reaches } = reachedConditions(index, line);
  for (let k = 0; k < items.length; k++) {
    if (items[k]!.condition.type === type) visit(items[k]!, reaches[k]!);
  }
}

/**
 * docs/pricing-rules.md §4.4: each order-based condition's basis, summed over the eligible lines
 * it reaches (whether it wins on them or not), from their quantities or base amounts (each as
 * its line amount would be, §20). Each line adds to the conditions reaching every product and to
 * those it reached (`reachedConditions`, which step 2 then reuses); the sums saturate, so their
 * order does not matter.
 */
export function orderBasesOf(
  index: ConditionIndex,
  lines: readonly (LineFacts & { baseAmount: number })[],
  rounding: ChannelRoundingMode,
): Map<PreparedCondition, number> {
  const bases = new Map<PreparedCondition, number>();
  const everyProduct: PreparedCondition[] = [];
  for (const prepared of index.orderBased) {
    if (!prepared.inWindow) continue;
    bases.set(prepared, 0);
    if (isEvery(prepared.targets)) everyProduct.push(prepared);
  }
  if (bases.size === 0) return bases;
  // Index loops, no closure per line: workerd's profile showed their iterators and closures here.
  for (let l = 0; l < lines.length; l++) {
    const line = lines[l]!;
    const value = lineValue(line.baseAmount, line.quantity, line.priceUnit, rounding);
    for (let k = 0; k < everyProduct.length; k++) {
      const prepared = everyProduct[k]!;
      bases.set(prepared, saturatingAdd(bases.get(prepared)!, basisOf(prepared, line, value)));
    }
    const { items } = reachedConditions(index, line);
    for (let k = 0; k < items.length; k++) {
      const prepared = items[k]!;
      const sum = bases.get(prepared);
      if (sum !== undefined)
        bases.set(prepared, saturatingAdd(sum, basisOf(prepared, line, value)));
    }
  }
  return bases;
}

/** What a line adds to an order-level basis: its quantity, or `value` (its base line value). */
const basisOf = (prepared: PreparedCondition, line: LineFacts, value: number) =>
  prepared.condition.scaleBasis === "ORDER_VALUE" ? value : line.quantity;
