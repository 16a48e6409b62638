import { reachOf, targetsOf } from "../targeting";
import { percentOf } from "../money";
import { enumerate, finding, fromNow, GroupTree, inForce, percent, ref } from "./common";
import type { Finding, LintChannel, LintCondition, LintFacts } from "./types";

/**
 * STACKABLES_TO_ZERO (docs/pricing-lint.md §3): stackable percentage discounts that one line can
 * meet together and that add up to 100 % or more. A line is a product, a channel, an audience and
 * an instant; the rule tries the lines that can differ: every product a condition lists, one
 * product of each group and one of none; per active channel, anyone, a member of one of its
 * customer groups, and each customer a CUSTOMER-scope member names (with its groups).
 */

const FULL = 10_000;

/** Who asks: anyone, a member of one customer group, or one customer. */
type Who = { kind: "customerGroup" | "customer"; code: string } | null;

/** One line's example: where the set meets. */
interface Example {
  productCode: string;
  channelCode: string;
  who: Who;
}

/** Stackable PERCENTAGE DISCOUNTs in force, without scales (a scale's value depends on the order). */
const stackables = (facts: LintFacts) =>
  facts.tradeConditions.filter(
    (c) =>
      c.stackable &&
      c.type === "DISCOUNT" &&
      c.discountType === "PERCENTAGE" &&
      c.scales.length === 0 &&
      inForce(c, facts.now),
  );

const total = (members: readonly LintCondition[]) => members.reduce((n, c) => n + c.value, 0);

/** Sets of members (by id), each once, with the first example that met it. */
function distinct<E>(entries: readonly (readonly [LintCondition[], E])[]) {
  const byKey = new Map<string, { members: LintCondition[]; example: E }>();
  for (const [members, example] of entries) {
    const ordered = [...members].sort((a, b) => a.id - b.id);
    const key = ordered.map((c) => c.id).join(",");
    if (ordered.length && !byKey.has(key)) byKey.set(key, { members: ordered, example });
  }
  return [...byKey.values()];
}

/** The members reaching each product that may differ (docs/pricing-rules.md §12). */
function productSets(members: readonly LintCondition[], facts: LintFacts) {
  const tree = new GroupTree(facts.productGroups);
  const targets = members.map((c) => targetsOf(c));
  return distinct(
    facts.products.map((product) => {
      const targeted = tree.targeted(product);
      const reaching = members.filter((_, i) => reachOf(targets[i]!, targeted));
      return [reaching, product.code] as const;
    }),
  );
}

type Audience = Omit<Example, "productCode">;

/** The members reaching each audience of one active channel (docs/pricing-rules.md §4.1). */
function channelAudiences(
  members: readonly LintCondition[],
  facts: LintFacts,
  channel: LintChannel,
) {
  const here = members.filter(
    (c) => c.channelCodes.length === 0 || c.channelCodes.includes(channel.code),
  );
  const anyone = here.filter((c) => c.scope === "GLOBAL" || c.scope === "CHANNEL");
  const inGroups = (groups: readonly string[]) =>
    here.filter(
      (c) => c.scope === "CUSTOMER_GROUP" && c.customerGroupCodes.some((g) => groups.includes(g)),
    );
  const at = (who: Who): Audience => ({ channelCode: channel.code, who });
  const sets: (readonly [LintCondition[], Audience])[] = [[anyone, at(null)]];
  for (const group of channel.customerGroupCodes) {
    sets.push([[...anyone, ...inGroups([group])], at({ kind: "customerGroup", code: group })]);
  }
  for (const customer of facts.customers) {
    if (!customer.channelCodes.includes(channel.code)) continue;
    // G: the customer's groups that are assigned to the channel (docs/pricing-rules.md §2).
    const g = customer.customerGroupCodes.filter((x) => channel.customerGroupCodes.includes(x));
    const named = here.filter(
      (c) => c.scope === "CUSTOMER" && c.customerCodes.includes(customer.code),
    );
    sets.push([
      [...anyone, ...inGroups(g), ...named],
      at({ kind: "customer", code: customer.code }),
    ]);
  }
  return sets;
}

/**
 * The members with the largest sum that one request can meet together: valid at a common
 * instant from now on (the latest start of them), and, for those compared with the order's
 * value, in one currency.
 */
function bestTogether(members: readonly LintCondition[], now: number): LintCondition[] {
  const byValue = members.filter((c) => c.scaleBasis === "ORDER_VALUE");
  const currencies = [null, ...new Set(byValue.map((c) => c.currency))];
  let best: LintCondition[] = [];
  for (const currency of currencies) {
    const option = members.filter((c) => c.scaleBasis !== "ORDER_VALUE" || c.currency === currency);
    for (const c of option) {
      const at = fromNow(c, now).start;
      const valid = option.filter((o) => {
        const w = fromNow(o, now);
        return w.start <= at && (w.end === null || at < w.end);
      });
      if (total(valid) > total(best)) best = valid;
    }
  }
  return best;
}

/** What is left of a price after each member applied to what the others left, in bp. */
function leftOver(members: readonly LintCondition[]): number {
  let left = FULL;
  for (const c of members) left -= percentOf(left, c.value);
  return left;
}

function whoText(who: Who): string {
  if (who === null) return "anyone";
  return who.kind === "customer"
    ? `customer ${who.code}`
    : `a member of customer group ${who.code}`;
}

function toFinding({ members, example }: { members: LintCondition[]; example: Example }) {
  const ids = members.map((c) => c.id);
  const values = members.map((c) => percent(c.value));
  const sum = total(members);
  const where =
    `for example product ${example.productCode} in channel ${example.channelCode} for ` +
    whoText(example.who);
  const effect =
    members.length === 1
      ? `(${values[0]}) takes the whole price, ${where}`
      : `(${enumerate(values)}) add up to ${percent(sum)} on one line, ${where}: each takes ` +
        `its share of what the others left, so together they leave ${percent(leftOver(members))} ` +
        "of the price";
  return finding(
    "STACKABLES_TO_ZERO",
    `stackable ${members.length === 1 ? "discount" : "discounts"} ${enumerate(ids)} ${effect}`,
    [
      ...ids.map(ref.tradeCondition),
      ref.product(example.productCode),
      ref.channel(example.channelCode),
      ...(example.who ? [ref[example.who.kind](example.who.code)] : []),
    ],
  );
}

/** docs/pricing-lint.md §3; a set found inside a larger one found is left out. */
export function stackablesToZero(facts: LintFacts): Finding[] {
  const members = stackables(facts);
  if (total(members) < FULL) return [];
  const audiences = distinct(
    facts.channels
      .filter((ch) => ch.isActive)
      .flatMap((ch) => channelAudiences(members, facts, ch)),
  );
  const found = new Map<string, { members: LintCondition[]; example: Example }>();
  for (const product of productSets(members, facts)) {
    const reaching = new Set(product.members);
    for (const audience of audiences) {
      const both = audience.members.filter((c) => reaching.has(c));
      if (total(both) < FULL) continue;
      const best = bestTogether(both, facts.now);
      const key = best.map((c) => c.id).join(",");
      if (total(best) < FULL || found.has(key)) continue;
      found.set(key, {
        members: best,
        example: { ...audience.example, productCode: product.example },
      });
    }
  }
  const sets = [...found.values()];
  const inside = (s: LintCondition[], o: LintCondition[]) =>
    o.length > s.length && s.every((c) => o.includes(c));
  return sets.filter((s) => !sets.some((o) => inside(s.members, o.members))).map(toFinding);
}
