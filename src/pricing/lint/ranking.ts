import {
  DIMENSIONS,
  listed,
  listedSets,
  NAMED_DIMENSIONS,
  namesNoProduct,
  TARGET_FIELDS,
  type ProductCodes,
  type TargetField,
} from "../targeting";
import type { Instant } from "../types";
import type { ConditionScope } from "../vocabulary";
import { covers, enumerate, finding, GroupTree, inForce, overlap, ref } from "./common";
import { pushTo } from "../maps";
import type { Finding, LintCondition, LintFacts } from "./types";

/**
 * The findings about how trade conditions rank against each other (docs/pricing-lint.md §4,
 * §5), in the engine's terms (docs/pricing-rules.md §4.1–§4.3): candidates by status, window,
 * currency, channel, audience and product reach; one winner per type from the most specific rung;
 * inside a rung distance, priority, amount, id. Stackables do not compete and are left out.
 */

interface Prepared {
  c: LintCondition;
  /** What it lists in each targeting dimension (src/pricing/targeting.ts), as sets. */
  listed: { readonly [F in TargetField]: ReadonlySet<string> };
  channels: ReadonlySet<string>;
  /** The customers (CUSTOMER scope) or groups (CUSTOMER_GROUP) it targets; empty otherwise. */
  targets: ReadonlySet<string>;
  allProducts: boolean;
  /** NET_PRICE values are unit prices, so always absolute. */
  absolute: boolean;
  /** Its value, or each of its scale rows' values. */
  values: readonly number[];
  /** Everything the ranking compares but the id and the window (TIE_BY_ID). */
  tieKey: string;
}

const sorted = (values: Iterable<string>) => [...values].sort();

function subset<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): boolean {
  for (const item of a) if (!b.has(item)) return false;
  return true;
}

function targetsOf(c: LintCondition): readonly string[] {
  if (c.scope === "CUSTOMER") return c.customerCodes;
  return c.scope === "CUSTOMER_GROUP" ? c.customerGroupCodes : [];
}

/** Absolute values, and any value compared with the order's value, exist in one currency. */
const needsCurrency = (c: LintCondition, absolute: boolean) =>
  absolute || c.scaleBasis === "ORDER_VALUE";

function tieKeyOf(c: LintCondition, absolute: boolean): string {
  const scales = [...c.scales].sort((a, b) => a.minimum - b.minimum);
  return JSON.stringify([
    c.type,
    c.scope,
    sorted(targetsOf(c)),
    sorted(c.channelCodes),
    ...TARGET_FIELDS.map((field) => sorted(listed(c, field))),
    c.priority,
    absolute,
    // With scales, the rows' values replace `value` (docs/pricing-rules.md §4.4).
    scales.length ? [c.scaleBasis, scales.map((s) => [s.minimum, s.value])] : c.value,
    needsCurrency(c, absolute) ? c.currency : null,
  ]);
}

function prepare(c: LintCondition): Prepared {
  const absolute = c.type === "NET_PRICE" || c.discountType === "ABSOLUTE";
  return {
    c,
    listed: listedSets(c),
    channels: new Set(c.channelCodes),
    targets: new Set(targetsOf(c)),
    allProducts: namesNoProduct(c),
    absolute,
    values: c.scales.length ? c.scales.map((s) => s.value) : [c.value],
    tieKey: tieKeyOf(c, absolute),
  };
}

/** What outranking needs to know besides the two conditions. */
interface Context {
  now: Instant;
  /** Each code a condition lists, by dimension: its codes in every dimension (`impliedBy`). */
  implied: (field: TargetField, code: string) => Implied;
}

/** The codes a listed code stands for in each dimension: a product's group path, a group's own. */
type Implied = { readonly [F in TargetField]?: readonly string[] };

/** Y passes every request-level check whenever X does (docs/pricing-rules.md §4.1). */
function reachesAudience(y: Prepared, x: Prepared, now: Instant): boolean {
  if (!covers(y.c, x.c, now)) return false;
  if (y.channels.size > 0 && (x.channels.size === 0 || !subset(x.channels, y.channels))) {
    return false;
  }
  if (needsCurrency(y.c, y.absolute)) {
    if (!needsCurrency(x.c, x.absolute) || x.c.currency !== y.c.currency) return false;
  }
  if (y.c.scope === "CUSTOMER" || y.c.scope === "CUSTOMER_GROUP") {
    // Every customer X targets, Y targets too (RIVAL_SCOPES pairs it with its own scope only).
    return x.targets.size > 0 && subset(x.targets, y.targets);
  }
  return true; // GLOBAL and CHANNEL reach every customer
}

/** Y reaches every product X reaches, on whatever rung (docs/pricing-rules.md §12). */
function reachesProducts(y: Prepared, x: Prepared, ctx: Context): boolean {
  if (y.allProducts) return true;
  if (x.allProducts) return false;
  // Each code X lists is met by Y in some dimension: one of the codes it stands for is listed.
  const meets = (implied: Implied) =>
    TARGET_FIELDS.some((field) => implied[field]?.some((code) => y.listed[field].has(code)));
  return TARGET_FIELDS.every((field) =>
    [...x.listed[field]].every((code) => meets(ctx.implied(field, code))),
  );
}

/**
 * Same scope: Y is on the same or a more specific rung for every product X reaches, at the same
 * or a smaller group distance: it lists every product X lists and every group X lists.
 */
function sameOrBetterRung(y: Prepared, x: Prepared): boolean {
  if (x.allProducts) return y.allProducts;
  return !y.allProducts && TARGET_FIELDS.every((field) => subset(x.listed[field], y.listed[field]));
}

/**
 * Y ranks before X whatever the line, with distance tied (docs/pricing-rules.md §4.3): a higher
 * priority; or the same priority, a lower id and an effect never worse (a larger or equal
 * discount, a smaller or equal charge or net price, of the same kind), so AMOUNT never favours X
 * and ID decides for Y when AMOUNT ties (rounding, or both take the price to 0).
 */
function ranksBefore(y: Prepared, x: Prepared): boolean {
  if (y.c.priority !== x.c.priority) return y.c.priority > x.c.priority;
  if (y.c.id > x.c.id || y.absolute !== x.absolute) return false;
  return y.c.type === "DISCOUNT"
    ? x.values.every((v) => y.c.value >= v)
    : x.values.every((v) => y.c.value <= v);
}

/** §4: Y is a candidate on every line X is a candidate on, and beats X there. */
function outranksAlways(y: Prepared, x: Prepared, ctx: Context): boolean {
  if (!reachesAudience(y, x, ctx.now)) return false;
  if (y.c.scope !== x.c.scope) return reachesProducts(y, x, ctx);
  return sameOrBetterRung(y, x) && ranksBefore(y, x);
}

/** The scopes whose conditions may outrank one of `scope`: its own, and CHANNEL over GLOBAL. */
const RIVAL_SCOPES: Record<ConditionScope, readonly ConditionScope[]> = {
  CUSTOMER: ["CUSTOMER"],
  CUSTOMER_GROUP: ["CUSTOMER_GROUP"],
  CHANNEL: ["CHANNEL"],
  GLOBAL: ["GLOBAL", "CHANNEL"],
};

function reason(y: Prepared, x: Prepared): string {
  if (y.c.scope !== x.c.scope) return `a ${y.c.scope} condition is on a more specific rung`;
  if (y.c.priority !== x.c.priority) return `priority ${y.c.priority} against ${x.c.priority}`;
  return "the same priority, a value at least as good and a lower id";
}

function neverWinsFinding(x: Prepared, rivals: Prepared[]): Finding {
  const ids = rivals.map((r) => r.c.id);
  const them =
    ids.length === 1
      ? `trade condition ${ids[0]} is a candidate too and ranks`
      : `trade conditions ${enumerate(ids)} are candidates too and rank`;
  return finding(
    "NEVER_WINS",
    `trade condition ${x.c.id} (${x.c.type}, ${x.c.scope}) never wins: wherever and whenever ` +
      `it is a candidate from now on, ${them} before it (${reason(rivals[0]!, x)})`,
    [ref.tradeCondition(x.c.id), ...ids.map(ref.tradeCondition)],
  );
}

/**
 * Non-stackable conditions in force (accruals aside), indexed by `type:scope` and, for the scopes with targets,
 * `type:scope:target` (a rival targets every customer or group X targets, its first one too).
 */
function competing(facts: LintFacts) {
  // Accruals never compete: every one that reaches a line applies (docs/pricing-rules.md §25).
  const all = facts.tradeConditions
    .filter((c) => c.type !== "ACCRUAL" && !c.stackable && inForce(c, facts.now))
    .map(prepare);
  const index = new Map<string, Prepared[]>();
  for (const p of all) {
    const bucket = `${p.c.type}:${p.c.scope}`;
    pushTo(index, bucket, p);
    for (const target of p.targets) pushTo(index, `${bucket}:${target}`, p);
  }
  const rivalsOf = (x: Prepared) => {
    const first = sorted(x.targets)[0];
    return RIVAL_SCOPES[x.c.scope].flatMap((scope) => {
      const narrowed = scope === x.c.scope && first !== undefined ? `:${first}` : "";
      return index.get(`${x.c.type}:${scope}${narrowed}`) ?? [];
    });
  };
  return { all, rivalsOf };
}

/** A product's codes when its code in every dimension it names one record of is `code`. */
const everyCode = (code: string) =>
  Object.fromEntries(NAMED_DIMENSIONS.map((d) => [d.named, code])) as ProductCodes;

/**
 * What a code a condition lists stands for in each dimension: a product, its codes in every
 * dimension (from the facts' products); any other code, its path in its own dimension (a
 * group's ancestors) and nothing elsewhere.
 */
function impliedBy(facts: LintFacts, tree: GroupTree): Context["implied"] {
  const products = new Map(facts.products.map((p) => [p.code, tree.targeted(p)] as const));
  return (field, code) => {
    const product = field === "productCodes" ? products.get(code) : undefined;
    // Another code as a product whose code in every dimension is it (a group's path: its own).
    const own = { productCode: code, groupPath: tree.path(code), codes: everyCode(code) };
    return Object.fromEntries(
      DIMENSIONS.filter((d) => product || d.field === field).map((d) => [
        d.field,
        product ? d.path(product) : d.path(own),
      ]),
    );
  };
}

/**
 * §4. A rival with scales may not be a candidate where X is (no row at the basis), so only
 * rivals without scales count. A rival that ties X on everything but the id is TIE_BY_ID's.
 */
export function neverWins(facts: LintFacts): Finding[] {
  const tree = new GroupTree(facts.productGroups);
  const ctx: Context = { now: facts.now, implied: impliedBy(facts, tree) };
  const { all, rivalsOf } = competing(facts);
  const findings: Finding[] = [];
  for (const x of all) {
    const rivals = rivalsOf(x)
      .filter(
        (y) =>
          y !== x && y.c.scales.length === 0 && y.tieKey !== x.tieKey && outranksAlways(y, x, ctx),
      )
      .sort((a, b) => a.c.id - b.c.id);
    if (rivals.length) findings.push(neverWinsFinding(x, rivals));
  }
  return findings;
}

/**
 * §5: two non-stackable conditions in force with the same type, scope, targets, channels,
 * products, groups, priority and value (so the same rung, distance and amount on every line),
 * valid at a common instant from now on: only their ids rank them.
 */
export function tieById(facts: LintFacts): Finding[] {
  const byKey = new Map<string, Prepared[]>();
  for (const p of competing(facts).all) {
    // A CUSTOMER or CUSTOMER_GROUP condition without targets is never a candidate.
    if (p.targets.size === 0 && (p.c.scope === "CUSTOMER" || p.c.scope === "CUSTOMER_GROUP")) {
      continue;
    }
    pushTo(byKey, p.tieKey, p);
  }
  const findings: Finding[] = [];
  for (const group of byKey.values()) {
    group.sort((a, b) => a.c.id - b.c.id);
    group.forEach((a, i) => {
      for (const b of group.slice(i + 1)) {
        if (!overlap(a.c, b.c, facts.now)) continue;
        findings.push(
          finding(
            "TIE_BY_ID",
            `trade conditions ${a.c.id} and ${b.c.id} are the same ${a.c.type} for the same ` +
              "targets (same rung, priority and value): only their ids rank them, so " +
              `${a.c.id} applies wherever both are valid and ${b.c.id} never does there`,
            [ref.tradeCondition(a.c.id), ref.tradeCondition(b.c.id)],
          ),
        );
      }
    });
  }
  return findings;
}
