import { exponentOf } from "../currencies";
import { deriveAmount } from "../derivation";
import { parseRate } from "../exchange";
import type { Instant } from "../types";
import { enumerate, finding, GroupTree, inForce, ref } from "./common";
import type { Finding, LintFacts, LintRecord } from "./types";

/**
 * The findings about one record at a time: its status against its window, whether anything can
 * reach it, what it names (docs/pricing-lint.md §2, §9–§11, §13, §16).
 */

const ended = (validTo: Instant) => new Date(validTo).toISOString();

/** §11: ACTIVE, but the window ended at or before now, so it prices nothing any more. */
export function expiredButActive(facts: LintFacts): Finding[] {
  const { now } = facts;
  const expired = (r: { status: string; validTo: Instant | null }) =>
    r.status === "ACTIVE" && r.validTo !== null && r.validTo <= now;
  const found = (noun: string, record: LintRecord, validTo: Instant) =>
    finding(
      "EXPIRED_BUT_ACTIVE",
      `${noun} is ACTIVE but its window ended at ${ended(validTo)}: it no longer takes part in ` +
        "any price; make it INACTIVE or ARCHIVED, or extend validTo",
      [record],
    );
  return [
    ...facts.pricelists
      .filter(expired)
      .map((p) => found(`pricelist ${p.id}`, ref.pricelist(p.id), p.validTo!)),
    ...facts.tradeConditions
      .filter(expired)
      .map((c) => found(`trade condition ${c.id}`, ref.tradeCondition(c.id), c.validTo!)),
    ...facts.promotions
      .filter(expired)
      .map((p) => found(`promotion ${p.id}`, ref.promotion(p.id), p.validTo!)),
  ];
}

/**
 * §9: an ACTIVE GENERAL SALES pricelist that no channel, customer group or customer has and no
 * pricelist derives from: no request reaches it (an INDIVIDUAL one always has its customer).
 */
export function unreachablePricelists(facts: LintFacts): Finding[] {
  return facts.pricelists
    .filter(
      (p) =>
        inForce(p, facts.now) &&
        p.kind === "SALES" &&
        p.scope === "GENERAL" &&
        !p.assigned &&
        !p.isBase,
    )
    .map((p) =>
      finding(
        "UNREACHABLE_PRICELIST",
        `pricelist ${p.id} is ACTIVE but assigned to no channel, customer group or customer, and ` +
          "no pricelist derives from it: no price request can reach it",
        [ref.pricelist(p.id)],
      ),
    );
}

/** §2: an active channel with no primary pricelist. */
export function channelsWithoutPrimary(facts: LintFacts): Finding[] {
  return facts.channels
    .filter((ch) => ch.isActive && !ch.hasPrimary)
    .map((ch) =>
      finding(
        "CHANNEL_WITHOUT_PRIMARY",
        `channel ${ch.code} is active but has no primary pricelist: a price request without a ` +
          "currency is refused (CURRENCY_REQUIRED), and list prices come only from its other " +
          "pricelists",
        [ref.channel(ch.code)],
      ),
    );
}

/** §10: a trade condition or promotion in force names a product group that holds no product. */
export function emptyGroupsTargeted(facts: LintFacts): Finding[] {
  const tree = new GroupTree(facts.productGroups);
  const check = (noun: string, record: LintRecord, groupCodes: readonly string[]) => {
    const empty = [...groupCodes].sort().filter((code) => !tree.holdsProducts(code));
    if (empty.length === 0) return [];
    const groups = empty.length === 1 ? "product group" : "product groups";
    const hold = empty.length === 1 ? "holds" : "hold";
    return [
      finding(
        "EMPTY_GROUP_TARGETED",
        `${noun} names ${groups} ${enumerate(empty)}, which ${hold} no product (neither ` +
          `directly nor through a group below): it reaches nothing through ${empty.length === 1 ? "it" : "them"}`,
        [record, ...empty.map(ref.productGroup)],
      ),
    ];
  };
  return [
    ...facts.tradeConditions
      .filter((c) => inForce(c, facts.now))
      .flatMap((c) =>
        check(`trade condition ${c.id}`, ref.tradeCondition(c.id), c.productGroupCodes),
      ),
    ...facts.promotions
      .filter((p) => inForce(p, facts.now))
      .flatMap((p) => check(`promotion ${p.id}`, ref.promotion(p.id), p.productGroupCodes)),
  ];
}

/**
 * §13: an ACTIVE derived pricelist in force with a step of its chain between two currencies for
 * which no exchange rate holds at the moment it prices from (now, or its later validFrom): it has
 * no price for the products it would derive through that step (docs/pricing-rules.md §19).
 */
export function missingExchangeRates(facts: LintFacts): Finding[] {
  return facts.missingRates.map((m) => {
    const when = m.at > facts.now ? `from its start at ${ended(m.at)}` : "now";
    const direct = m.derivedId === m.pricelistId;
    const step = direct
      ? `derives from pricelist ${m.baseId} in ${m.from}`
      : `derives, through pricelist ${m.derivedId} (${m.to}), from pricelist ${m.baseId} in ${m.from}`;
    return finding(
      "MISSING_EXCHANGE_RATE",
      `pricelist ${m.pricelistId} ${step}, but no exchange rate ${m.from} → ${m.to} holds ${when}: ` +
        "it has no price for the products it takes from that base (lines fall to the next " +
        `pricelist, or NO_PRICE); add a rate ${m.from} → ${m.to} (PUT /v1/api/exchange-rates)`,
      [
        ref.pricelist(m.pricelistId),
        ...(direct ? [] : [ref.pricelist(m.derivedId)]),
        ref.pricelist(m.baseId),
      ],
    );
  });
}

/**
 * §16: a rate of a currency step of an ACTIVE derived list in force (the rate in force, or one
 * that starts later) that turns the base's smallest positive amount into 0 through that step:
 * those products have no price there (explain `ROUNDS_TO_ZERO`, docs/pricing-rules.md §19).
 * Derivation is monotonic, so if the smallest amount survives, every larger one does.
 */
export function ratesRoundingToZero(facts: LintFacts): Finding[] {
  return facts.rateSteps.flatMap((s) => {
    const rate = parseRate(s.rate);
    const [fromExponent, toExponent] = [exponentOf(s.from), exponentOf(s.to)];
    if (!rate.ok || fromExponent === undefined || toExponent === undefined) return [];
    const used = { from: s.from, to: s.to, rate: rate.text, validFrom: ended(s.rateFrom) };
    const conversion = { used, value: rate.value, fromExponent, toExponent };
    const derivation = {
      basePricelistId: s.baseId,
      adjustmentBp: s.adjustmentBp,
      rounding: s.rounding,
    };
    if (deriveAmount(s.smallestAmount, derivation, conversion) !== 0) return [];
    const when = s.rateFrom > facts.now ? `from ${ended(s.rateFrom)}` : "in force";
    const direct = s.derivedId === s.pricelistId;
    const through = direct ? "" : `, through pricelist ${s.derivedId} (${s.to}),`;
    return [
      finding(
        "RATE_ROUNDS_TO_ZERO",
        `exchange rate ${s.from} → ${s.to} "${rate.text}" (${when}) turns pricelist ` +
          `${s.baseId}'s price ${s.smallestAmount} of product ${s.productCode} into 0 in ` +
          `pricelist ${s.pricelistId}${through}: its lines for the products so derived answer ` +
          `NO_PRICE (explain ROUNDS_TO_ZERO); check the rate (PUT /v1/api/exchange-rates)`,
        [
          ref.pricelist(s.pricelistId),
          ...(direct ? [] : [ref.pricelist(s.derivedId)]),
          ref.pricelist(s.baseId),
          ref.product(s.productCode),
        ],
      ),
    ];
  });
}
