import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ADJUSTMENT_KINDS,
  CONDITION_OUTCOMES,
  LINE_STATUSES,
  PRICELIST_LEVELS,
  PRICELIST_OUTCOMES,
  PROMOTION_OUTCOMES,
  RANK_KEYS,
  resolvePrices,
  type PriceAnswer,
  type PriceRequest,
  type PricelistCandidate,
  type PromotionCandidate,
  type Status,
  type TradeConditionCandidate,
} from "../src/pricing";

/**
 * Invariants of the price engine over random requests (fast-check, fixed seed so a failure
 * reproduces). Small code pools make records collide on products, groups and ranks often.
 */

const RUNS = { seed: 42, numRuns: 200 };
const AT = Date.parse("2025-06-15T10:00:00Z");
const DAY = 86_400_000;
const PRODUCTS = ["P1", "P2", "P3", "P4"]; // P4 does not exist
const KNOWN = ["P1", "P2", "P3"];

const status = fc.oneof(
  { arbitrary: fc.constant<Status>("ACTIVE"), weight: 5 },
  { arbitrary: fc.constantFrom<Status>("DRAFT", "INACTIVE", "ARCHIVED"), weight: 1 },
);
/** Edges around `at`, including exactly `at`, so half-open windows are exercised. */
const edge = fc.constantFrom(null, AT - 2 * DAY, AT, AT + 1, AT + 3 * DAY);
const window = fc.record({ validFrom: edge, validTo: edge });
const priority = fc.integer({ min: 0, max: 2 });
const codes = (pool: string[]) => fc.subarray(pool);

const pricelist = fc.record({
  status,
  window,
  currency: fc.constantFrom("EUR", "EUR", "USD"),
  priority,
  allowsTradeDiscounts: fc.boolean(),
  taxInclusive: fc.boolean(),
  levels: fc.subarray([...PRICELIST_LEVELS], { minLength: 1 }),
  prices: fc.uniqueArray(
    fc.record({
      productCode: fc.constantFrom(...KNOWN),
      minQuantity: fc.constantFrom(1, 5, 10),
      amount: fc.integer({ min: 0, max: 5000 }),
    }),
    { selector: (r) => `${r.productCode}/${r.minQuantity}`, maxLength: 8 },
  ),
});

const discount = fc.oneof(
  fc.record({
    discountType: fc.constant("PERCENTAGE" as const),
    value: fc.integer({ min: 1, max: 10_000 }),
    currency: fc.constant(null),
  }),
  fc.record({
    discountType: fc.constant("ABSOLUTE" as const),
    value: fc.integer({ min: 0, max: 3000 }),
    currency: fc.constantFrom("EUR", "EUR", "USD"),
  }),
);

const condition = fc.record({
  scope: fc.constantFrom("GLOBAL", "CHANNEL", "CUSTOMER_GROUP", "CUSTOMER" as const),
  status,
  window,
  type: fc.constantFrom("DISCOUNT", "DISCOUNT", "SURCHARGE", "NET_PRICE" as const),
  discount,
  priority,
  stackable: fc.boolean(),
  productCodes: codes(PRODUCTS),
  channelCodes: codes(["WEB", "SHOP"]),
  scaled: fc.boolean(),
  scaleQuantities: fc.uniqueArray(fc.integer({ min: 1, max: 15 }), { maxLength: 3 }),
  customerCodes: codes(["C1", "C2"]),
  customerGroupCodes: codes(["G1", "G2"]),
});

const promotion = fc.record({
  status,
  window,
  discount,
  priority,
  stacking: fc.constantFrom("BEST_OF", "ON_TOP" as const),
  productCodes: codes(PRODUCTS),
  channelCodes: codes(["WEB", "SHOP"]),
  customerGroupCodes: codes(["G1", "G2"]),
});

type PricelistShape = typeof pricelist extends fc.Arbitrary<infer T> ? T : never;
type ConditionShape = typeof condition extends fc.Arbitrary<infer T> ? T : never;
type PromotionShape = typeof promotion extends fc.Arbitrary<infer T> ? T : never;

const toPricelist = (p: PricelistShape, id: number): PricelistCandidate => ({
  id,
  name: `PL-${id}`,
  status: p.status,
  validFrom: p.window.validFrom,
  validTo: p.window.validTo,
  currency: p.currency,
  priority: p.priority,
  allowsTradeDiscounts: p.allowsTradeDiscounts,
  taxInclusive: p.taxInclusive,
  levels: p.levels,
  prices: p.prices,
});

function toCondition(c: ConditionShape, id: number): TradeConditionCandidate {
  // A NET_PRICE is an absolute unit price, as the API enforces.
  const d =
    c.type === "NET_PRICE" && c.discount.discountType === "PERCENTAGE"
      ? { discountType: "ABSOLUTE" as const, value: c.discount.value % 3000, currency: "EUR" }
      : c.discount;
  return {
    id,
    name: `TC-${id}`,
    scope: c.scope,
    status: c.status,
    type: c.type,
    discountType: d.discountType,
    value: d.value,
    currency: d.currency,
    validFrom: c.window.validFrom,
    validTo: c.window.validTo,
    priority: c.priority,
    stackable: c.stackable,
    productCodes: c.productCodes,
    // CHANNEL scope always names its channels.
    channelCodes: c.scope === "CHANNEL" && c.channelCodes.length === 0 ? ["WEB"] : c.channelCodes,
    scales: c.scaled
      ? c.scaleQuantities.map((minQuantity, i) => ({
          minQuantity,
          value:
            d.discountType === "PERCENTAGE" ? Math.min(10_000, d.value + 100 * i) : d.value + i,
        }))
      : [],
    customerCodes: c.customerCodes,
    customerGroupCodes: c.customerGroupCodes,
  };
}

const toPromotion = (p: PromotionShape, id: number): PromotionCandidate => ({
  id,
  name: `PR-${id}`,
  status: p.status,
  discountType: p.discount.discountType,
  value: p.discount.value,
  currency: p.discount.currency,
  validFrom: p.window.validFrom,
  validTo: p.window.validTo,
  priority: p.priority,
  stacking: p.stacking,
  productCodes: p.productCodes,
  channelCodes: p.channelCodes,
  customerGroupCodes: p.customerGroupCodes,
});

const requestArb: fc.Arbitrary<PriceRequest> = fc
  .record({
    customer: fc.constantFrom(null, "C1", "C1", "C2"),
    groupCodes: codes(["G1", "G2"]),
    pricelists: fc.array(pricelist, { maxLength: 6 }),
    conditions: fc.array(condition, { maxLength: 10 }),
    promotions: fc.array(promotion, { maxLength: 4 }),
    lines: fc.array(
      fc.record({
        productCode: fc.constantFrom(...PRODUCTS),
        quantity: fc.integer({ min: 1, max: 20 }),
      }),
      { minLength: 1, maxLength: 8 },
    ),
  })
  .map((r) => ({
    at: AT,
    currency: "EUR",
    channel: { code: "WEB" },
    customer: r.customer === null ? null : { code: r.customer },
    groupCodes: r.customer === null ? [] : r.groupCodes,
    knownProducts: KNOWN,
    explain: false,
    pricelists: r.pricelists.map((p, i) => toPricelist(p, i + 1)),
    tradeConditions: r.conditions.map((c, i) => toCondition(c, i + 1)),
    promotions: r.promotions.map((p, i) => toPromotion(p, i + 1)),
    lines: r.lines,
  }));

const json = (answer: PriceAnswer) => JSON.stringify(answer);

const totalsOf = (a: PriceAnswer) => ({
  totalAmount: a.totalAmount,
  pricedTotalAmount: a.pricedTotalAmount,
  complete: a.complete,
});

/**
 * docs/pricing-rules.md §8, judged with exact (BigInt) sums: `complete` = every line OK;
 * `pricedTotalAmount` = Σ OK lines, null only past 2^53 − 1; `totalAmount` = it when complete.
 */
function expectHonestTotals(answer: PriceAnswer) {
  const sum = answer.lines.reduce(
    (s, l) => (l.status === "OK" ? s + BigInt(l.lineAmount!) : s),
    0n,
  );
  const priced = sum > BigInt(Number.MAX_SAFE_INTEGER) ? null : Number(sum);
  const complete = answer.lines.every((l) => l.status === "OK");
  expect(totalsOf(answer)).toEqual({
    totalAmount: complete ? priced : null,
    pricedTotalAmount: priced,
    complete,
  });
}

/** Lines and their order, shuffled: a permutation of the request's line indexes. */
const withPermutation = (arb: fc.Arbitrary<PriceRequest>) =>
  arb.chain((request) =>
    fc.tuple(
      fc.constant(request),
      fc.shuffledSubarray(
        request.lines.map((_, i) => i),
        { minLength: request.lines.length },
      ),
    ),
  );

describe("price engine properties", () => {
  it("same input → the same JSON bytes (with and without explain)", () => {
    fc.assert(
      fc.property(requestArb, fc.boolean(), (request, explain) => {
        const a = resolvePrices({ ...request, explain });
        const b = resolvePrices(structuredClone({ ...request, explain }));
        expect(json(b)).toBe(json(a));
      }),
      RUNS,
    );
  });

  it("the order of the lines changes no line, no total and no validUntil", () => {
    fc.assert(
      fc.property(withPermutation(requestArb), ([request, order]) => {
        const original = resolvePrices({ ...request, explain: true });
        const shuffled = resolvePrices({
          ...request,
          explain: true,
          lines: order.map((i) => request.lines[i]!),
        });
        order.forEach((from, to) => expect(shuffled.lines[to]).toEqual(original.lines[from]));
        expect(totalsOf(shuffled)).toEqual(totalsOf(original));
        expect(shuffled.validUntil).toBe(original.validUntil);
      }),
      RUNS,
    );
  });

  /** Carts whose unit amounts reach 2^53 − 1, so lines go OUT_OF_RANGE and sums pass 2^53 − 1. */
  const hugeCartArb: fc.Arbitrary<PriceRequest> = fc
    .record({
      amounts: fc.tuple(
        ...KNOWN.map(() =>
          fc.option(
            fc.oneof(
              fc.integer({ min: 0, max: 5000 }),
              fc.integer({ min: 2 ** 50, max: Number.MAX_SAFE_INTEGER }),
            ),
          ),
        ),
      ),
      lines: fc.array(
        fc.record({
          productCode: fc.constantFrom(...PRODUCTS),
          quantity: fc.integer({ min: 1, max: 4 }),
        }),
        { minLength: 1, maxLength: 8 },
      ),
    })
    .map(({ amounts, lines }) => ({
      at: AT,
      currency: "EUR",
      channel: { code: "WEB" },
      customer: null,
      groupCodes: [],
      knownProducts: KNOWN,
      explain: false,
      pricelists: [
        toPricelist(
          {
            status: "ACTIVE",
            window: { validFrom: null, validTo: null },
            currency: "EUR",
            priority: 0,
            allowsTradeDiscounts: true,
            taxInclusive: false,
            levels: ["CHANNEL_PRIMARY"],
            // A null amount leaves the product unpriced (NO_PRICE).
            prices: KNOWN.flatMap((productCode, i) =>
              amounts[i] === null ? [] : [{ productCode, minQuantity: 1, amount: amounts[i]! }],
            ),
          },
          1,
        ),
      ],
      tradeConditions: [],
      promotions: [],
      lines,
    }));

  it("totals are honest and independent of line order, up to and past 2^53 − 1", () => {
    fc.assert(
      fc.property(withPermutation(hugeCartArb), ([request, order]) => {
        const original = resolvePrices(request);
        const shuffled = resolvePrices({ ...request, lines: order.map((i) => request.lines[i]!) });
        expectHonestTotals(original);
        expect(totalsOf(shuffled)).toEqual(totalsOf(original));
      }),
      { ...RUNS, numRuns: 500 },
    );
  });

  it("explain adds the explain field and changes nothing else", () => {
    fc.assert(
      fc.property(requestArb, (request) => {
        const plain = resolvePrices(request);
        const explained = resolvePrices({ ...request, explain: true });
        expect(explained.lines.every((l) => l.explain !== null)).toBe(true);
        expect({
          ...explained,
          lines: explained.lines.map((l) => ({ ...l, explain: null })),
        }).toEqual(plain);
      }),
      RUNS,
    );
  });

  it("explain speaks only the documented vocabulary and lists every candidate once", () => {
    fc.assert(
      fc.property(requestArb, (request) => {
        for (const line of resolvePrices({ ...request, explain: true }).lines) {
          expect(LINE_STATUSES).toContain(line.status);
          for (const a of line.adjustments) expect(ADJUSTMENT_KINDS).toContain(a.kind);
          const why = line.explain!;
          for (const e of why.pricelists) expect(PRICELIST_OUTCOMES).toContain(e.outcome);
          for (const e of why.tradeConditions) expect(CONDITION_OUTCOMES).toContain(e.outcome);
          for (const e of why.promotions) expect(PROMOTION_OUTCOMES).toContain(e.outcome);
          for (const e of [...why.pricelists, ...why.tradeConditions, ...why.promotions]) {
            expect(e.decidedBy === null || RANK_KEYS.includes(e.decidedBy)).toBe(true);
            expect(e.decidedBy !== null).toBe(e.outcome === "LOWER_RANK");
          }
          if (line.status === "UNKNOWN_PRODUCT" || line.status === "OUT_OF_RANGE") continue;
          expect(why.tradeConditions.map((e) => e.id).sort((a, b) => a - b)).toEqual(
            request.tradeConditions.map((c) => c.id),
          );
          expect(why.promotions).toHaveLength(request.promotions.length);
          expect(why.pricelists.filter((e) => e.outcome === "USED")).toHaveLength(
            line.source ? 1 : 0,
          );
        }
      }),
      RUNS,
    );
  });

  it("amounts add up: line = unit × quantity, base + adjustments = final, priced total = Σ OK lines", () => {
    fc.assert(
      fc.property(requestArb, (request) => {
        const answer = resolvePrices(request);
        let total = 0;
        for (const line of answer.lines) {
          if (line.status !== "OK") {
            expect(line.finalUnitAmount).toBeNull();
            expect(line.lineAmount).toBeNull();
            continue;
          }
          expect(line.lineAmount).toBe(line.finalUnitAmount! * line.quantity);
          const sum = line.adjustments.reduce((s, a) => s + a.amount, 0);
          expect(line.source!.baseUnitAmount + sum).toBe(line.finalUnitAmount);
          total += line.lineAmount!;
        }
        // Amounts here stay far below 2^53, so the totals are always answered as numbers.
        expect(answer.pricedTotalAmount).toBe(total);
        expectHonestTotals(answer);
        expect(answer.totalAmount === null).toBe(answer.lines.some((l) => l.status !== "OK"));
        expect(answer.lines.map((l) => l.productCode === "P4")).toEqual(
          answer.lines.map((l) => l.status === "UNKNOWN_PRODUCT"),
        );
      }),
      RUNS,
    );
  });

  it("no amount is ever negative; adjustment signs follow their kind", () => {
    fc.assert(
      fc.property(requestArb, (request) => {
        for (const line of resolvePrices(request).lines) {
          for (const amount of [
            line.finalUnitAmount,
            line.lineAmount,
            line.regularUnitAmount,
            line.listUnitAmount,
            line.source?.baseUnitAmount,
            ...line.tiers.map((tier) => tier.amount),
          ]) {
            if (amount !== null && amount !== undefined) expect(amount).toBeGreaterThanOrEqual(0);
          }
          for (const a of line.adjustments) {
            if (a.kind === "DISCOUNT" || a.kind === "PROMOTION")
              expect(a.amount).toBeLessThanOrEqual(0);
            if (a.kind === "SURCHARGE") expect(a.amount).toBeGreaterThanOrEqual(0);
          }
        }
      }),
      RUNS,
    );
  });

  it("a promotion never raises a price: final ≤ regular; and regular ≤ base unless step 2 charged", () => {
    fc.assert(
      fc.property(requestArb, (request) => {
        for (const line of resolvePrices({ ...request, explain: true }).lines) {
          if (line.status !== "OK") continue;
          expect(line.finalUnitAmount!).toBeLessThanOrEqual(line.regularUnitAmount!);
          // Only a SURCHARGE or a NET_PRICE above the running amount raises the regular price;
          // a BEST_OF promotion may have superseded the NET_PRICE, so ask explain, not adjustments.
          const charged = line.explain!.tradeConditions.some(
            (e) =>
              (e.outcome === "APPLIED" || e.outcome === "SUPERSEDED_BY_PROMOTION") && e.amount! > 0,
          );
          if (!charged) {
            expect(line.regularUnitAmount!).toBeLessThanOrEqual(line.source!.baseUnitAmount);
          }
          expect(line.adjustments.filter((a) => a.kind === "PROMOTION").length).toBeLessThanOrEqual(
            1,
          );
        }
      }),
      RUNS,
    );
  });

  /** One more record that can never price at AT: not ACTIVE, or a window that is over or not yet begun. */
  const dormant = fc.oneof(
    fc.record({
      status: fc.constantFrom<Status>("DRAFT", "INACTIVE", "ARCHIVED"),
      window,
    }),
    fc.record({
      status: fc.constant<Status>("ACTIVE"),
      window: fc.oneof(
        fc.record({
          validFrom: fc.constantFrom(null, AT - 2 * DAY),
          validTo: fc.constantFrom(AT - DAY, AT),
        }),
        fc.record({
          validFrom: fc.constantFrom(AT + 1, AT + DAY),
          validTo: fc.constantFrom(null, AT + 3 * DAY),
        }),
      ),
    }),
  );
  const extraRecord = fc.oneof(
    fc.record({ kind: fc.constant("pricelist" as const), record: pricelist, dormant }),
    fc.record({ kind: fc.constant("condition" as const), record: condition, dormant }),
    fc.record({ kind: fc.constant("promotion" as const), record: promotion, dormant }),
  );

  it("a record that is not ACTIVE or outside its window never changes a line or the total", () => {
    fc.assert(
      fc.property(requestArb, extraRecord, (request, extra) => {
        const id = 1000;
        const record = {
          ...extra.record,
          status: extra.dormant.status,
          window: extra.dormant.window,
        };
        const widened: PriceRequest =
          extra.kind === "pricelist"
            ? {
                ...request,
                pricelists: [...request.pricelists, toPricelist(record as PricelistShape, id)],
              }
            : extra.kind === "condition"
              ? {
                  ...request,
                  tradeConditions: [
                    ...request.tradeConditions,
                    toCondition(record as ConditionShape, id),
                  ],
                }
              : {
                  ...request,
                  promotions: [...request.promotions, toPromotion(record as PromotionShape, id)],
                };

        const before = resolvePrices(request);
        const after = resolvePrices(widened);
        expect(after.lines).toEqual(before.lines);
        expect(totalsOf(after)).toEqual(totalsOf(before));

        // Only a record that becomes valid later may bring validUntil forward, to its validFrom.
        const { validFrom } = extra.dormant.window;
        const notYetValid =
          extra.dormant.status === "ACTIVE" && validFrom !== null && validFrom > AT;
        if (!notYetValid) expect(after.validUntil).toBe(before.validUntil);
        else if (after.validUntil !== before.validUntil) {
          expect(Date.parse(after.validUntil!)).toBe(validFrom);
        }
      }),
      RUNS,
    );
  });
});
