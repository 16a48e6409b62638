import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SEES_NO_COSTS } from "../../src/db/visibility";
import {
  ADJUSTMENT_KINDS,
  CHANNEL_ROUNDING_MODES,
  CONDITION_OUTCOMES,
  FLOOR_OUTCOMES,
  LINE_STATUSES,
  PRICELIST_LEVELS,
  PRICELIST_OUTCOMES,
  prepareOneLineOrders,
  priceOneLineOrders,
  PROMOTION_OUTCOMES,
  RANK_KEYS,
  resolvePrices,
  ROUNDING_MODES,
  SCALE_BASES,
  type ChannelRoundingMode,
  type Derivation,
  type ExchangeRate,
  type FloorPricelist,
  type LinePrice,
  type PriceAnswer,
  type PriceBase,
  type PriceRequest,
  type PricelistCandidate,
  type ProductFacts,
  type PromotionCandidate,
  type Status,
  type TradeConditionCandidate,
} from "../../src/pricing";

/**
 * Invariants of the price engine over random requests (fast-check, fixed seed so a failure
 * reproduces). Small code pools make records collide on products, groups and ranks often.
 */

const RUNS = { seed: 42, numRuns: 200 };
const AT = Date.parse("2025-06-15T10:00:00Z");
const DAY = 86_400_000;
const PRODUCTS = ["P1", "P2", "P3", "P4"]; // P4 does not exist
const KNOWN = ["P1", "P2", "P3"];
/** A group tree: GA > GAA, and GB; products sit anywhere in it or in no group. */
const GROUPS = ["GA", "GAA", "GB"];
const PATHS: readonly (readonly string[])[] = [[], ["GA"], ["GAA", "GA"], ["GB"]];
/** Candidate pricelists have ids 1–6, bases 100–102, floors 200–201. */
const LIST_IDS = [1, 2, 3, 4, 5, 6, 100, 101, 102];

const status = fc.oneof(
  { arbitrary: fc.constant<Status>("ACTIVE"), weight: 5 },
  { arbitrary: fc.constantFrom<Status>("DRAFT", "INACTIVE", "ARCHIVED"), weight: 1 },
);
/** Edges around `at`, including exactly `at`, so half-open windows are exercised. */
const edge = fc.constantFrom(null, AT - 2 * DAY, AT, AT + 1, AT + 3 * DAY);
const window = fc.record({ validFrom: edge, validTo: edge });
const priority = fc.integer({ min: 0, max: 2 });
const codes = (pool: string[]) => fc.subarray(pool);

const rounding = fc.integer({ min: 1, max: 100 }).chain((step) =>
  fc.record({
    mode: fc.constantFrom(...ROUNDING_MODES),
    step: fc.constant(step),
    ending: fc.integer({ min: 0, max: step - 1 }),
  }),
);
const derivation: fc.Arbitrary<Derivation | null> = fc.oneof(
  { arbitrary: fc.constant(null), weight: 2 },
  {
    arbitrary: fc.record({
      basePricelistId: fc.constantFrom(...LIST_IDS),
      adjustmentBp: fc.oneof(fc.constant(0), fc.integer({ min: -9999, max: 10_000 })),
      rounding: fc.option(rounding),
    }),
    weight: 1,
  },
);
const rows = fc.uniqueArray(
  fc.record({
    productCode: fc.constantFrom(...KNOWN),
    minQuantity: fc.constantFrom(1, 5, 10),
    amount: fc.integer({ min: 0, max: 5000 }),
    validFrom: fc.constant(null),
    validTo: fc.constant(null),
  }),
  { selector: (r) => `${r.productCode}/${r.minQuantity}`, maxLength: 8 },
);

const pricelist = fc.record({
  derivation,
  status,
  window,
  currency: fc.constantFrom("EUR", "EUR", "USD"),
  priority,
  allowsTradeDiscounts: fc.boolean(),
  taxInclusive: fc.boolean(),
  levels: fc.subarray([...PRICELIST_LEVELS], { minLength: 1 }),
  prices: rows,
});

/** Bases of derivation chains (ids 100–102), which may derive from each other or from a candidate. */
const priceBase = fc.record({
  currency: fc.constantFrom("EUR", "EUR", "EUR", "USD"),
  derivation,
  prices: rows,
});

const floorList = fc.record({
  status,
  window,
  currency: fc.constantFrom("EUR", "EUR", "USD"),
  priority,
  prices: rows,
});

/** A quantity rule, most often none (1, 1, no maximum). */
const quantityRule = fc.oneof(
  { arbitrary: fc.constant({ min: 1, increment: 1, max: null }), weight: 3 },
  {
    arbitrary: fc.record({
      min: fc.constantFrom(1, 2, 5),
      increment: fc.constantFrom(1, 2, 5),
      max: fc.constantFrom(null, 8, 20),
    }),
    weight: 1,
  },
);
const product = fc.record({ path: fc.constantFrom(...PATHS), rule: quantityRule });

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
  productGroupCodes: codes(GROUPS),
  channelCodes: codes(["WEB", "SHOP"]),
  scaled: fc.boolean(),
  scaleBasis: fc.constantFrom(...SCALE_BASES),
  scaleQuantities: fc.uniqueArray(fc.integer({ min: 1, max: 15 }), { maxLength: 3 }),
  valueCurrency: fc.constantFrom("EUR", "EUR", "USD"),
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
  productGroupCodes: codes(GROUPS),
  channelCodes: codes(["WEB", "SHOP"]),
  customerGroupCodes: codes(["G1", "G2"]),
  threshold: fc.option(
    fc.oneof(
      fc.record({
        basis: fc.constant("QUANTITY" as const),
        minimum: fc.integer({ min: 1, max: 40 }),
      }),
      fc.record({
        basis: fc.constant("VALUE" as const),
        minimum: fc.integer({ min: 1, max: 60_000 }),
      }),
    ),
  ),
  valueCurrency: fc.constantFrom("EUR", "EUR", "USD"),
});

type PricelistShape = typeof pricelist extends fc.Arbitrary<infer T> ? T : never;
type ConditionShape = typeof condition extends fc.Arbitrary<infer T> ? T : never;
type PromotionShape = typeof promotion extends fc.Arbitrary<infer T> ? T : never;
type ProductShape = typeof product extends fc.Arbitrary<infer T> ? T : never;
type BaseShape = typeof priceBase extends fc.Arbitrary<infer T> ? T : never;
type FloorShape = typeof floorList extends fc.Arbitrary<infer T> ? T : never;

const toProducts = (shapes: readonly ProductShape[]): Map<string, ProductFacts> =>
  new Map(
    KNOWN.map((code, i) => {
      const { path, rule } = shapes[i] ?? { path: [], rule: { min: 1, increment: 1, max: null } };
      const facts = {
        groupPath: path,
        minOrderQuantity: rule.min,
        orderIncrement: rule.increment,
        maxOrderQuantity: rule.max,
      };
      return [code, facts];
    }),
  );

const toBase = (b: BaseShape, id: number): PriceBase => ({ id, ...b });

const toFloor = (f: FloorShape, id: number): FloorPricelist => ({
  id,
  name: `FL-${id}`,
  status: f.status,
  validFrom: f.window.validFrom,
  validTo: f.window.validTo,
  currency: f.currency,
  priority: f.priority,
  prices: f.prices,
});

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
  derivation: p.derivation,
});

function toCondition(c: ConditionShape, id: number): TradeConditionCandidate {
  // A NET_PRICE is an absolute unit price, as the API enforces.
  const d =
    c.type === "NET_PRICE" && c.discount.discountType === "PERCENTAGE"
      ? { discountType: "ABSOLUTE" as const, value: c.discount.value % 3000, currency: "EUR" }
      : c.discount;
  const scaled = c.scaled && c.scaleQuantities.length > 0;
  // Order values are minor units: scale minimums of a few thousand reach over a few lines.
  const scaleBasis = scaled ? c.scaleBasis : "LINE_QUANTITY";
  const unit = scaleBasis === "ORDER_VALUE" ? 4000 : 1;
  return {
    id,
    name: `TC-${id}`,
    scope: c.scope,
    status: c.status,
    type: c.type,
    discountType: d.discountType,
    value: d.value,
    // An ORDER_VALUE condition has a currency whatever its discount type.
    currency: scaleBasis === "ORDER_VALUE" && d.currency === null ? c.valueCurrency : d.currency,
    validFrom: c.window.validFrom,
    validTo: c.window.validTo,
    priority: c.priority,
    stackable: c.stackable,
    productCodes: c.productCodes,
    productGroupCodes: c.productGroupCodes,
    // CHANNEL scope always names its channels.
    channelCodes: c.scope === "CHANNEL" && c.channelCodes.length === 0 ? ["WEB"] : c.channelCodes,
    scaleBasis,
    scales: scaled
      ? c.scaleQuantities.map((minimum, i) => ({
          minimum: minimum * unit,
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
  // A VALUE threshold has a currency whatever the discount type.
  currency:
    p.threshold?.basis === "VALUE" && p.discount.currency === null
      ? p.valueCurrency
      : p.discount.currency,
  validFrom: p.window.validFrom,
  validTo: p.window.validTo,
  priority: p.priority,
  stacking: p.stacking,
  productCodes: p.productCodes,
  productGroupCodes: p.productGroupCodes,
  channelCodes: p.channelCodes,
  customerGroupCodes: p.customerGroupCodes,
  threshold: p.threshold,
});

const requestArb: fc.Arbitrary<PriceRequest> = fc
  .record({
    customer: fc.constantFrom(null, "C1", "C1", "C2"),
    groupCodes: codes(["G1", "G2"]),
    products: fc.tuple(product, product, product),
    pricelists: fc.array(pricelist, { maxLength: 6 }),
    bases: fc.array(priceBase, { maxLength: 3 }),
    floors: fc.array(floorList, { maxLength: 2 }),
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
    products: toProducts(r.products),
    explain: false,
    pricelists: r.pricelists.map((p, i) => toPricelist(p, i + 1)),
    priceBases: r.bases.map((b, i) => toBase(b, 100 + i)),
    floors: r.floors.map((f, i) => toFloor(f, 200 + i)),
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

/**
 * The request priced as given and with its lines in `order` (`change` may reorder more of it);
 * each line must come out the same wherever it stands. Both answers, for what a test adds.
 */
function pricedInOrder(request: PriceRequest, order: number[], change: Partial<PriceRequest> = {}) {
  const original = resolvePrices({ ...request, explain: true });
  const shuffled = resolvePrices({
    ...request,
    explain: true,
    lines: order.map((i) => request.lines[i]!),
    ...change,
  });
  order.forEach((from, to) => expect(shuffled.lines[to]).toEqual(original.lines[from]));
  return { original, shuffled };
}

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

  it("one-line orders priced in batches of any size are resolvePrices' lines with separateOrders", () => {
    fc.assert(
      fc.property(requestArb, fc.integer({ min: 1, max: 4 }), (request, size) => {
        const { lines, ...setup } = request;
        const expected = resolvePrices({ ...request, separateOrders: true }).lines;
        const prepared = prepareOneLineOrders(setup);
        const batched = [];
        for (let i = 0; i < lines.length; i += size) {
          batched.push(...priceOneLineOrders(prepared, lines.slice(i, i + size)));
        }
        expect(JSON.stringify(batched)).toBe(JSON.stringify(expected));
      }),
      RUNS,
    );
  });

  it("the order of the lines changes no line, no total and no validUntil", () => {
    fc.assert(
      fc.property(withPermutation(requestArb), ([request, order]) => {
        const { original, shuffled } = pricedInOrder(request, order);
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
      products: toProducts([]),
      explain: false,
      priceBases: [],
      floors: [],
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
            derivation: null,
            // A null amount leaves the product unpriced (NO_PRICE).
            prices: KNOWN.flatMap((productCode, i) =>
              amounts[i] === null
                ? []
                : [
                    {
                      productCode,
                      minQuantity: 1,
                      amount: amounts[i]!,
                      validFrom: null,
                      validTo: null,
                    },
                  ],
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
          for (const e of why.floors) expect(FLOOR_OUTCOMES).toContain(e.outcome);
          const all = [...why.pricelists, ...why.tradeConditions, ...why.promotions, ...why.floors];
          for (const e of all) {
            expect(e.decidedBy === null || RANK_KEYS.includes(e.decidedBy)).toBe(true);
            expect(e.decidedBy !== null).toBe(e.outcome === "LOWER_RANK");
          }
          if (line.status === "UNKNOWN_PRODUCT" || line.status === "OUT_OF_RANGE") continue;
          expect(why.tradeConditions.map((e) => e.id).sort((a, b) => a - b)).toEqual(
            request.tradeConditions.map((c) => c.id),
          );
          expect(why.promotions).toHaveLength(request.promotions.length);
          expect(why.floors).toHaveLength(request.floors.length);
          // A refused quantity still had its base price looked up (step 1 comes first).
          expect(why.pricelists.filter((e) => e.outcome === "USED")).toHaveLength(
            line.source || line.status === "QUANTITY_NOT_ALLOWED" ? 1 : 0,
          );
          expect(why.floors.filter((e) => e.outcome === "USED").length).toBeLessThanOrEqual(
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
            if (a.kind === "SURCHARGE" || a.kind === "FLOOR") {
              expect(a.amount).toBeGreaterThanOrEqual(0);
            }
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
    fc.record({ kind: fc.constant("floor" as const), record: floorList, dormant }),
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
              : extra.kind === "promotion"
                ? {
                    ...request,
                    promotions: [...request.promotions, toPromotion(record as PromotionShape, id)],
                  }
                : { ...request, floors: [...request.floors, toFloor(record as FloorShape, id)] };

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

  /** The line's floor as docs/pricing-rules.md §14 defines it, computed from the request alone. */
  function floorOf(request: PriceRequest, line: LinePrice): number | null {
    const lists = request.floors
      .filter((f) => f.status === "ACTIVE" && f.currency === request.currency)
      .filter((f) => (f.validFrom ?? -Infinity) <= AT && AT < (f.validTo ?? Infinity))
      .sort((a, b) => b.priority - a.priority || a.id - b.id);
    for (const list of lists) {
      const tiers = list.prices
        .filter((r) => r.productCode === line.productCode && r.minQuantity <= line.quantity)
        .sort((a, b) => a.minQuantity - b.minQuantity || b.amount - a.amount);
      if (tiers.length > 0) return tiers[tiers.length - 1]!.amount;
    }
    return null;
  }

  it("no price goes below the effective floor min(floor, base), and FLOOR only lifts to it", () => {
    fc.assert(
      fc.property(requestArb, (request) => {
        for (const line of resolvePrices(request).lines) {
          if (line.status !== "OK") continue;
          const floor = floorOf(request, line);
          const floors = line.adjustments.filter((a) => a.kind === "FLOOR");
          if (floor === null) {
            expect(floors).toEqual([]);
            continue;
          }
          const effective = Math.min(floor, line.source!.baseUnitAmount);
          expect(line.finalUnitAmount!).toBeGreaterThanOrEqual(effective);
          expect(line.regularUnitAmount!).toBeGreaterThanOrEqual(effective);
          expect(floors.length).toBeLessThanOrEqual(2);
          // A floor adjustment lands exactly on the effective floor: it never lifts past it.
          let running = line.source!.baseUnitAmount;
          for (const a of line.adjustments) {
            running += a.amount;
            if (a.kind === "FLOOR") expect(running).toBe(effective);
          }
        }
      }),
      RUNS,
    );
  });

  /** The request without derivations: every candidate prices from its own rows. */
  const underived = (request: PriceRequest): PriceRequest => ({
    ...request,
    pricelists: request.pricelists.map((p) => ({ ...p, derivation: null })),
    priceBases: [],
  });
  const withoutDerivedFrom = (answer: PriceAnswer) =>
    answer.lines.map((l) => ({
      ...l,
      source: l.source && { ...l.source, derivedFrom: null },
      explain: l.explain && {
        ...l.explain,
        pricelists: l.explain.pricelists.map((e) => ({ ...e, derivedFrom: null })),
      },
    }));

  it("a derived list with adjustment 0 and no rounding prices exactly like its base", () => {
    fc.assert(
      fc.property(requestArb, fc.boolean(), (generated, explain) => {
        const request = { ...underived(generated), explain };
        // Every candidate becomes a list derived from a copy of itself (id + 500), rows moved there.
        const derived: PriceRequest = {
          ...request,
          pricelists: request.pricelists.map((p) => ({
            ...p,
            prices: [],
            derivation: { basePricelistId: p.id + 500, adjustmentBp: 0, rounding: null },
          })),
          priceBases: request.pricelists.map((p) => ({
            id: p.id + 500,
            currency: p.currency,
            derivation: null,
            prices: p.prices,
          })),
        };
        const plain = resolvePrices(request);
        const answer = resolvePrices(derived);
        expect(totalsOf(answer)).toEqual(totalsOf(plain));
        expect(withoutDerivedFrom(answer)).toEqual(withoutDerivedFrom(plain));
        for (const line of answer.lines) {
          if (!line.source) continue;
          expect(line.source.derivedFrom).toEqual({
            pricelistId: line.source.pricelistId + 500,
            unitAmount: line.source.baseUnitAmount,
            exchangeRate: null,
          });
        }
      }),
      RUNS,
    );
  });

  it("a refused quantity suggests the nearest allowed ones; an allowed one is never refused", () => {
    fc.assert(
      fc.property(requestArb, (request) => {
        for (const line of resolvePrices(request).lines) {
          const facts = request.products.get(line.productCode);
          if (!facts) {
            expect(line.quantityRule).toBeNull();
            continue;
          }
          const rule = line.quantityRule!;
          expect(rule).toEqual({
            minimum: facts.minOrderQuantity,
            increment: facts.orderIncrement,
            maximum: facts.maxOrderQuantity,
          });
          const allowed = (q: number) =>
            q >= rule.minimum &&
            (q - rule.minimum) % rule.increment === 0 &&
            (rule.maximum === null || q <= rule.maximum);
          const q = line.quantity;
          if (line.status !== "QUANTITY_NOT_ALLOWED") {
            expect(line.suggestedQuantities).toBeNull();
            if (line.status === "OK") expect(allowed(q)).toBe(true);
            continue;
          }
          expect(allowed(q)).toBe(false);
          const { below, above } = line.suggestedQuantities!;
          // Nothing allowed between them, both allowed, and each null only when there is none.
          for (let k = (below ?? 0) + 1; k < (above ?? q + 100); k++)
            expect(allowed(k)).toBe(false);
          if (below !== null) expect(below < q && allowed(below)).toBe(true);
          if (above !== null) expect(above > q && allowed(above)).toBe(true);
          expect(line.finalUnitAmount).toBeNull();
        }
      }),
      RUNS,
    );
  });

  it("the generated requests exercise every rule the properties are about", () => {
    const seen = new Set<string>();
    // More samples than the properties run, so rare combinations show up too.
    for (const request of fc.sample(requestArb, { seed: RUNS.seed, numRuns: 1000 })) {
      for (const line of resolvePrices({ ...request, explain: true }).lines) {
        seen.add(line.status);
        for (const a of line.adjustments) seen.add(`adjustment ${a.kind}`);
        if (line.source?.derivedFrom) seen.add("derived base");
        for (const e of line.explain!.tradeConditions) {
          if (e.outcome !== "APPLIED") continue;
          seen.add(`applied ${e.scaleBasis}`);
          if (e.distance !== null) seen.add("applied through a group");
        }
        for (const e of line.explain!.promotions) {
          if (e.threshold) seen.add(`threshold ${e.threshold.basis} ${e.outcome}`);
        }
      }
    }
    expect([...seen].sort()).toEqual(
      expect.arrayContaining([
        "NO_PRICE",
        "OK",
        "QUANTITY_NOT_ALLOWED",
        "UNKNOWN_PRODUCT",
        "adjustment FLOOR",
        "adjustment PROMOTION",
        "applied LINE_QUANTITY",
        "applied ORDER_QUANTITY",
        "applied ORDER_VALUE",
        "applied through a group",
        "derived base",
        "threshold QUANTITY APPLIED",
        "threshold QUANTITY THRESHOLD_NOT_REACHED",
        "threshold VALUE APPLIED",
        "threshold VALUE THRESHOLD_NOT_REACHED",
      ]),
    );
  });

  it("with separateOrders every line prices exactly as it would alone", () => {
    fc.assert(
      fc.property(requestArb, fc.boolean(), (request, explain) => {
        const answer = resolvePrices({ ...request, explain, separateOrders: true });
        request.lines.forEach((line, i) => {
          const alone = resolvePrices({ ...request, explain, lines: [line] });
          expect(answer.lines[i]).toEqual(alone.lines[0]);
        });
      }),
      RUNS,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Money: price units, exchange rates, rounding modes (docs/pricing-rules.md §19–§21)
// ---------------------------------------------------------------------------------------------

/** A price unit, most often 1 (docs/pricing-rules.md §20). */
const priceUnit = fc.oneof(
  { arbitrary: fc.constant(1), weight: 3 },
  { arbitrary: fc.constantFrom(10, 100, 1000, 10_000), weight: 2 },
);

/**
 * A rate's decimal text from its digits and decimals, built here and not by the service's parser:
 * up to 12 significant digits, "0.000123" to "999999999999".
 */
const rateParts = fc.record({
  digits: fc.oneof(fc.integer({ min: 1, max: 999 }), fc.integer({ min: 1, max: 999_999_999_999 })),
  decimals: fc.integer({ min: 0, max: 12 }),
});
function rateText({ digits, decimals }: { digits: number; decimals: number }): string {
  const padded = String(digits).padStart(decimals + 1, "0");
  return decimals === 0 ? padded : `${padded.slice(0, -decimals)}.${padded.slice(-decimals)}`;
}
/** The normal form the answer says: no leading zeros but one, no trailing zeros of the fraction. */
const normalRate = (text: string) =>
  text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text;

/** Rates of both directions between the request's two currencies, some in force at AT, some not. */
const rates = fc.array(
  fc.record({
    pair: fc.constantFrom<[string, string]>(["USD", "EUR"], ["EUR", "USD"]),
    rate: rateParts.map(rateText),
    validFrom: fc.constantFrom(AT - 2 * DAY, AT - DAY, AT, AT + 1, AT + 3 * DAY),
  }),
  { maxLength: 4 },
);

/**
 * The engine's requests with price units on every kind of row and on absolute conditions and
 * promotions, exchange rates and the channel's rounding mode.
 */
const moneyRequestArb: fc.Arbitrary<PriceRequest> = fc
  .record({
    request: requestArb,
    units: fc.array(priceUnit, { minLength: 16, maxLength: 16 }),
    rates,
    roundingMode: fc.constantFrom(...CHANNEL_ROUNDING_MODES),
  })
  .map(({ request, units, rates, roundingMode }) => {
    let k = 0;
    const unit = () => units[k++ % units.length]!;
    const perUnit = <T extends { prices: readonly object[] }>(list: T): T => ({
      ...list,
      prices: list.prices.map((row) => ({ ...row, priceUnit: unit() })),
    });
    // Rates of one pair and validFrom once each, as the API keys them.
    const seen = new Set<string>();
    const exchangeRates: ExchangeRate[] = rates.flatMap(({ pair: [from, to], rate, validFrom }) => {
      const key = `${from}>${to}@${validFrom}`;
      if (seen.has(key)) return [];
      seen.add(key);
      return [{ from, to, rate, validFrom }];
    });
    return {
      ...request,
      roundingMode,
      exchangeRates,
      pricelists: request.pricelists.map(perUnit),
      priceBases: request.priceBases.map(perUnit),
      floors: request.floors.map(perUnit),
      tradeConditions: request.tradeConditions.map((c) =>
        c.discountType === "ABSOLUTE" ? { ...c, priceUnit: unit() } : c,
      ),
      promotions: request.promotions.map((p) =>
        p.discountType === "ABSOLUTE" ? { ...p, priceUnit: unit() } : p,
      ),
    };
  });

/** n / d (n ≥ 0, d > 0) rounded in `mode`, with BigInt: the reference of docs/pricing-rules.md §21. */
function roundRef(n: bigint, d: bigint, mode: ChannelRoundingMode): bigint {
  const [q, r] = [n / d, n % d];
  if (r === 0n) return q;
  if (mode === "DOWN") return q;
  if (mode === "UP") return q + 1n;
  if (2n * r !== d) return 2n * r > d ? q + 1n : q;
  return mode === "HALF_UP" || q % 2n === 1n ? q + 1n : q;
}

/** ISO 4217 exponents, written down here rather than read from the service's table. */
const EXPONENTS: Record<string, number> = {
  USD: 2,
  EUR: 2,
  CHF: 2,
  JPY: 0,
  ISK: 0,
  KWD: 3,
  BHD: 3,
};

describe("price engine properties: price units, exchange rates, rounding modes", () => {
  it("the generated requests price lines per other units and across currencies", () => {
    const seen = new Set<string>();
    for (const request of fc.sample(moneyRequestArb, { seed: RUNS.seed, numRuns: 1000 })) {
      for (const line of resolvePrices({ ...request, explain: true }).lines) {
        if (line.status === "OK" && line.priceUnit! > 1) seen.add("priced per more pieces");
        if (line.source?.derivedFrom?.exchangeRate) seen.add("converted");
        if (line.explain!.pricelists.some((e) => e.outcome === "NO_EXCHANGE_RATE"))
          seen.add("no rate");
        if (
          line.lineAmount !== null &&
          (line.finalUnitAmount! * line.quantity) % line.priceUnit! !== 0
        )
          seen.add("line amount rounded");
      }
    }
    expect([...seen].sort()).toEqual([
      "converted",
      "line amount rounded",
      "no rate",
      "priced per more pieces",
    ]);
  });

  it("the order of the lines changes no line, no total and no validUntil", () => {
    fc.assert(
      fc.property(withPermutation(moneyRequestArb), ([request, order]) => {
        const { original, shuffled } = pricedInOrder(request, order, {
          exchangeRates: [...(request.exchangeRates ?? [])].reverse(),
        });
        expect(totalsOf(shuffled)).toEqual(totalsOf(original));
        expect(shuffled.validUntil).toBe(original.validUntil);
      }),
      RUNS,
    );
  });

  it("baseUnitAmount + Σ adjustments = finalUnitAmount, all per the base row's unit; lineAmount = round(final × quantity / unit) in the channel's mode", () => {
    fc.assert(
      fc.property(moneyRequestArb, (request) => {
        const answer = resolvePrices(request);
        let total = 0n;
        for (const line of answer.lines) {
          if (line.status !== "OK") {
            expect([line.finalUnitAmount, line.lineAmount, line.priceUnit]).toEqual([
              null,
              null,
              null,
            ]);
            continue;
          }
          const sum = line.adjustments.reduce((s, a) => s + a.amount, 0);
          expect(line.source!.baseUnitAmount + sum).toBe(line.finalUnitAmount);
          // The line's unit is its tier's: the largest minQuantity at or below the quantity.
          const tier = line.tiers.filter((t) => t.minQuantity <= line.quantity).at(-1)!;
          expect([tier.amount, tier.priceUnit]).toEqual([
            line.source!.baseUnitAmount,
            line.priceUnit,
          ]);
          const expected = roundRef(
            BigInt(line.finalUnitAmount!) * BigInt(line.quantity),
            BigInt(line.priceUnit!),
            request.roundingMode ?? "HALF_UP",
          );
          expect(BigInt(line.lineAmount!)).toBe(expected);
          total += expected;
        }
        expect(answer.pricedTotalAmount).toBe(Number(total));
        expectHonestTotals(answer);
      }),
      RUNS,
    );
  });

  it("a conversion is exact: the engine's derived amount is the BigInt reference, rounded once", () => {
    const currency = fc.constantFrom(...Object.keys(EXPONENTS));
    const pair = fc.tuple(currency, currency).filter(([from, to]) => from !== to);
    fc.assert(
      fc.property(
        pair,
        rateParts,
        fc.oneof(
          fc.integer({ min: 0, max: 100_000 }),
          fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        ),
        fc.oneof(fc.constant(0), fc.integer({ min: -9999, max: 100_000 })),
        ([from, to], parts, amount, adjustmentBp) => {
          const rate = rateText(parts);
          const request: PriceRequest = {
            at: AT,
            currency: to,
            channel: { code: "WEB" },
            customer: null,
            groupCodes: [],
            products: toProducts([]),
            explain: true,
            exchangeRates: [{ from, to, rate, validFrom: AT - DAY }],
            pricelists: [
              {
                ...toPricelist(
                  {
                    status: "ACTIVE",
                    window: { validFrom: null, validTo: null },
                    currency: "EUR",
                    priority: 0,
                    allowsTradeDiscounts: true,
                    taxInclusive: false,
                    levels: ["CHANNEL_PRIMARY"],
                    derivation: { basePricelistId: 100, adjustmentBp, rounding: null },
                    prices: [],
                  },
                  1,
                ),
                currency: to,
              },
            ],
            priceBases: [
              {
                id: 100,
                currency: from,
                derivation: null,
                prices: [
                  { productCode: "P1", minQuantity: 1, amount, validFrom: null, validTo: null },
                ],
              },
            ],
            floors: [],
            tradeConditions: [],
            promotions: [],
            lines: [{ productCode: "P1", quantity: 1 }],
          };
          // amount × digits / 10^decimals × 10^(eC − eB) × (10000 + bp) / 10000, half up.
          const shift = EXPONENTS[to]! - EXPONENTS[from]!;
          const numerator =
            BigInt(amount) *
            BigInt(parts.digits) *
            BigInt(10_000 + adjustmentBp) *
            10n ** BigInt(Math.max(shift, 0));
          const denominator =
            10n ** BigInt(parts.decimals) * 10_000n * 10n ** BigInt(Math.max(-shift, 0));
          const expected = roundRef(numerator, denominator, "HALF_UP");
          const [line] = resolvePrices(request).lines;
          if (expected > BigInt(Number.MAX_SAFE_INTEGER)) {
            expect(line!.status).toBe("OUT_OF_RANGE");
            return;
          }
          if (expected === 0n && amount > 0) {
            // Rounded to 0 from a positive base: no price (docs/pricing-rules.md §19).
            expect(line!.status).toBe("NO_PRICE");
            expect(line!.explain!.pricelists[0]!.outcome).toBe("ROUNDS_TO_ZERO");
            return;
          }
          expect(line).toMatchObject({ status: "OK", finalUnitAmount: Number(expected) });
          expect(line!.source!.derivedFrom).toEqual({
            pricelistId: 100,
            unitAmount: amount,
            exchangeRate: {
              from,
              to,
              rate: normalRate(rate),
              validFrom: new Date(AT - DAY).toISOString(),
            },
          });
        },
      ),
      { ...RUNS, numRuns: 1000 },
    );
  });
});

describe("price-break advice (docs/pricing-rules.md §22)", () => {
  /** Requests whose lines are independent: no order-level scale, no threshold. */
  const independentArb = moneyRequestArb.map((request) => ({
    ...request,
    tradeConditions: request.tradeConditions.map((c) =>
      c.scaleBasis === "LINE_QUANTITY" ? c : { ...c, scaleBasis: "LINE_QUANTITY" as const },
    ),
    promotions: request.promotions.map((p) => ({ ...p, threshold: null })),
  }));

  it("is the line priced again at the next allowed quantity of the next tier, when that costs no more", () => {
    let advised = 0;
    fc.assert(
      fc.property(independentArb, (request) => {
        const answer = resolvePrices(request);
        for (const line of answer.lines) {
          if (line.status !== "OK") {
            expect(line.priceBreak).toBeNull();
            continue;
          }
          const next = line.tiers.find((t) => t.minQuantity > line.quantity);
          const rule = line.quantityRule!;
          let quantity: number | null = null;
          if (next) {
            const allowed = (q: number) =>
              q >= rule.minimum &&
              (q - rule.minimum) % rule.increment === 0 &&
              (rule.maximum === null || q <= rule.maximum);
            for (let q = next.minQuantity; q <= next.minQuantity + rule.increment; q++) {
              if (allowed(q)) {
                quantity = q;
                break;
              }
            }
          }
          if (quantity === null) {
            expect(line.priceBreak).toBeNull();
            continue;
          }
          const [alone] = resolvePrices({
            ...request,
            lines: [{ productCode: line.productCode, quantity }],
          }).lines;
          const cheaper =
            alone!.status === "OK" && alone!.lineAmount! <= line.lineAmount!
              ? { quantity, lineAmount: alone!.lineAmount }
              : null;
          expect(line.priceBreak).toEqual(cheaper);
          if (cheaper) advised++;
        }
      }),
      RUNS,
    );
    // Some advice was given, so the property compared more than nulls.
    expect(advised).toBeGreaterThan(0);
  });
});

// ---------------------------------------------------------------------------------------------
// Cost, margin and pocket price (docs/pricing-rules.md §23–§26): admin answers (`margin`)
// ---------------------------------------------------------------------------------------------

/** COST lists (ids 300–301), accruals (ids 500–503) and floors derived from a COST list. */
const marginArb: fc.Arbitrary<PriceRequest> = fc
  .record({
    request: requestArb,
    costs: fc.array(floorList, { minLength: 1, maxLength: 2 }),
    accruals: fc.array(condition, { maxLength: 4 }),
    derivedFloors: fc.array(
      fc.record({
        floor: floorList,
        base: fc.constantFrom(300, 301),
        adjustmentBp: fc.integer({ min: -5000, max: 5000 }),
      }),
      { maxLength: 1 },
    ),
  })
  .map(({ request, costs, accruals, derivedFloors }) => {
    const costLists = costs.map((c, i) => toFloor(c, 300 + i));
    return {
      ...request,
      margin: true,
      costs: costLists,
      // A floor derived from a COST list finds it among the bases, as the reader passes it.
      priceBases: [
        ...request.priceBases,
        ...costLists.map(({ id, currency, prices }) => ({
          id,
          currency,
          prices,
          derivation: null,
        })),
      ],
      floors: [
        ...request.floors,
        ...derivedFloors.map(({ floor, base, adjustmentBp }, i) => ({
          ...toFloor(floor, 210 + i),
          derivation: { basePricelistId: base, adjustmentBp, rounding: null },
        })),
      ],
      tradeConditions: [
        ...request.tradeConditions,
        ...accruals.map((c, i) => ({ ...toCondition(c, 500 + i), type: "ACCRUAL" as const })),
      ],
    };
  });

const MARGIN_FIELDS = [
  "costUnitAmount",
  "marginAmount",
  "marginBp",
  "accruals",
  "pocketUnitAmount",
  "pocketMarginBp",
] as const;

/**
 * An admin answer as a read key gets it: without margin fields, COST lists and accruals, and
 * without naming a floor derived from cost (`hidden`, docs/pricing-rules.md §24).
 */
function asReadAnswer(answer: PriceAnswer, hidden: ReadonlySet<number>): PriceAnswer {
  const { costAmount: _c, marginAmount: _m, ...rest } = answer;
  return {
    ...rest,
    lines: rest.lines.map((line) => {
      const copy = { ...line };
      for (const field of MARGIN_FIELDS) delete copy[field];
      copy.adjustments = line.adjustments.map((a) =>
        a.kind === "FLOOR" && a.id !== null && hidden.has(a.id) ? { ...a, id: null } : a,
      );
      if (copy.explain) {
        const { costs: _costs, ...explain } = copy.explain;
        const tradeConditions = explain.tradeConditions.filter((c) => c.type !== "ACCRUAL");
        const floors = explain.floors.filter((f) => !hidden.has(f.pricelistId));
        copy.explain = { ...explain, tradeConditions, floors };
      }
      return copy;
    }),
  };
}

describe("margin properties (admin answers)", () => {
  it("margin changes no price: without it the answer is the admin's minus its margin fields", () => {
    fc.assert(
      fc.property(marginArb, fc.boolean(), (request, explain) => {
        const admin = resolvePrices({ ...request, explain });
        const read = resolvePrices({
          ...request,
          explain,
          margin: SEES_NO_COSTS.costs,
          hiddenConditionTypes: SEES_NO_COSTS.hiddenConditionTypes,
        });
        const hidden = new Set(request.floors.filter((f) => f.derivation).map((f) => f.id));
        const stripped = asReadAnswer(admin, hidden);
        // validUntil may be earlier for an admin: COST lists and accruals have edges too.
        expect({ ...stripped, validUntil: null }).toEqual({ ...read, validUntil: null });
        if (admin.validUntil !== read.validUntil) {
          expect(read.validUntil === null || admin.validUntil! < read.validUntil).toBe(true);
        }
        expect(JSON.stringify(read)).not.toMatch(
          /costUnitAmount|marginAmount|marginBp|accruals|pocketUnitAmount|pocketMarginBp|costAmount/,
        );
      }),
      RUNS,
    );
  });

  it("the order of the lines changes no line, no margin and no total", () => {
    fc.assert(
      fc.property(withPermutation(marginArb), ([request, order]) => {
        const { original, shuffled } = pricedInOrder(request, order);
        expect([shuffled.costAmount, shuffled.marginAmount]).toEqual([
          original.costAmount,
          original.marginAmount,
        ]);
      }),
      RUNS,
    );
  });

  it("the fields add up: margin = final − cost, pocket = final − Σ accruals ≥ 0, order sums", () => {
    const bp = (n: number, d: number) => {
      const magnitude = (BigInt(Math.abs(n)) * 20000n + BigInt(d)) / (2n * BigInt(d));
      return n < 0 ? -Number(magnitude) : Number(magnitude);
    };
    fc.assert(
      fc.property(marginArb, (request) => {
        const answer = resolvePrices(request);
        let cost: number | null = 0;
        for (const line of answer.lines) {
          if (line.status !== "OK") {
            expect(line.accruals).toEqual([]);
            expect(line.costUnitAmount).toBeNull();
            continue;
          }
          const final = line.finalUnitAmount!;
          const accrued = line.accruals!.reduce((s, a) => s + a.amount, 0);
          for (const a of line.accruals!) expect(a.amount).toBeGreaterThanOrEqual(0);
          expect(line.pocketUnitAmount).toBe(final - accrued);
          expect(line.pocketUnitAmount!).toBeGreaterThanOrEqual(0);
          const c = line.costUnitAmount!;
          if (c === null) {
            expect([line.marginAmount, line.marginBp, line.pocketMarginBp]).toEqual([
              null,
              null,
              null,
            ]);
            cost = null;
            continue;
          }
          expect(line.marginAmount).toBe(final - c);
          expect(line.marginBp).toBe(final === 0 ? null : bp(final - c, final));
          const pocket = line.pocketUnitAmount!;
          expect(line.pocketMarginBp).toBe(pocket === 0 ? null : bp(pocket - c, pocket));
          if (cost !== null) cost += c * line.quantity;
        }
        expect(answer.costAmount).toBe(cost);
        expect(answer.marginAmount).toBe(cost === null ? null : answer.pricedTotalAmount! - cost);
      }),
      RUNS,
    );
  });

  it("explain lists every accrual and COST list once, in the documented vocabulary", () => {
    fc.assert(
      fc.property(marginArb, (request) => {
        for (const line of resolvePrices({ ...request, explain: true }).lines) {
          if (line.status === "UNKNOWN_PRODUCT" || line.status === "OUT_OF_RANGE") continue;
          const why = line.explain!;
          expect(why.tradeConditions.map((e) => e.id).sort((a, b) => a - b)).toEqual(
            request.tradeConditions.map((c) => c.id),
          );
          expect(why.costs!.map((e) => e.pricelistId).sort()).toEqual(
            request.costs!.map((c) => c.id),
          );
          for (const e of why.costs!) expect(FLOOR_OUTCOMES).toContain(e.outcome);
          const applied = why.tradeConditions
            .filter((e) => e.type === "ACCRUAL" && e.outcome === "APPLIED")
            .map((e) => [e.id, e.amount]);
          expect(applied.sort()).toEqual(line.accruals!.map((a) => [a.id, a.amount]).sort());
          const used = why.costs!.filter((e) => e.outcome === "USED");
          expect(used.map((e) => e.costUnitAmount)).toEqual(
            line.costUnitAmount === null ? [] : [line.costUnitAmount],
          );
        }
      }),
      RUNS,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Graduated tiers and the buyer's tier ladder (docs/pricing-rules.md §29, §30)
// ---------------------------------------------------------------------------------------------

/** Flat amounts and price units on the generated rows, and a tier mode per candidate list. */
const graduatedArb: fc.Arbitrary<PriceRequest> = fc
  .tuple(
    requestArb,
    fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
    fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 8, maxLength: 8 }),
    fc.array(fc.constantFrom(1, 1, 3, 10), { minLength: 8, maxLength: 8 }),
  )
  .map(([request, graduated, flats, units]) => ({
    ...request,
    pricelists: request.pricelists.map((p, i) =>
      graduated[i]
        ? {
            ...p,
            tierMode: "GRADUATED" as const,
            prices: p.prices.map((row, j) => ({
              ...row,
              flatAmount: flats[j] ?? 0,
              priceUnit: units[j] ?? 1,
            })),
          }
        : p,
    ),
  }));

/** The request with the lines' order-level sums out of play: line-quantity scales, no thresholds. */
const withoutOrderSums = (request: PriceRequest): PriceRequest => ({
  ...request,
  tradeConditions: request.tradeConditions.map((c) =>
    c.scaleBasis === "LINE_QUANTITY" ? c : { ...c, scaleBasis: "LINE_QUANTITY" as const },
  ),
  promotions: request.promotions.map((p) => ({ ...p, threshold: null })),
});

/** Half the requests with an AGREEMENT in force for the first line's product (§28.2). */
const agreedArb: fc.Arbitrary<PriceRequest> = fc
  .tuple(
    graduatedArb,
    fc.option(
      fc.record({
        lock: fc.constantFrom("FIXED" as const, "BETTER_OF" as const),
        quotedUnitAmount: fc.integer({ min: 1, max: 5000 }),
        priceUnit: fc.constantFrom(1, 3, 10),
      }),
      { nil: undefined },
    ),
  )
  .map(([request, terms]) => {
    const productCode = request.lines[0]?.productCode;
    if (!terms || productCode === undefined) return request;
    const { lock, quotedUnitAmount, priceUnit } = terms;
    const agreement = { id: 1, revision: 1, mode: "AGREEMENT" as const, lock };
    const window = { acceptedAt: AT - 1, validTo: AT + 1 };
    const line = { productCode, quantity: 1, quotedUnitAmount, priceUnit };
    return { ...request, quotes: [{ ...agreement, ...window, lines: [line] }] };
  });

describe("graduated tiers and the ladder (docs/pricing-rules.md §29, §30)", () => {
  it("a graduated line's bands add up to its base amount, its price unit is its quantity", () => {
    let graduatedLines = 0;
    fc.assert(
      fc.property(graduatedArb, (request) => {
        for (const line of resolvePrices(request).lines) {
          if (line.source?.tierMode !== "GRADUATED") {
            expect(line.source === null || line.source.bands === null).toBe(true);
            continue;
          }
          const bands = line.source.bands!;
          graduatedLines++;
          expect(bands.reduce((sum, b) => sum + b.amount, 0)).toBe(line.source.baseUnitAmount);
          expect(bands.reduce((sum, b) => sum + b.quantity, 0)).toBe(line.quantity);
          expect(bands[0]!.fromQuantity).toBe(1);
          for (const b of bands) {
            const rounded = Math.floor(
              (2 * b.quantity * b.unitAmount + b.priceUnit) / (2 * b.priceUnit),
            );
            expect(b.amount).toBe(rounded + b.flatAmount);
          }
          expect(line.priceUnit).toBe(line.quantity);
          if (line.status === "OK") {
            expect(line.lineAmount).toBe(line.finalUnitAmount);
            expect(line.priceBreak).toBeNull();
          }
        }
      }),
      RUNS,
    );
    expect(graduatedLines).toBeGreaterThan(50);
  });

  it("with positive amounts a graduated line never costs less for more pieces", () => {
    const tiers = fc.uniqueArray(
      fc.record({
        minQuantity: fc.integer({ min: 1, max: 60 }),
        amount: fc.integer({ min: 1, max: 5000 }),
        priceUnit: fc.constantFrom(1, 2, 7, 100),
        flatAmount: fc.integer({ min: 0, max: 1000 }),
      }),
      { selector: (r) => r.minQuantity, minLength: 1, maxLength: 5 },
    );
    fc.assert(
      fc.property(tiers, fc.integer({ min: 0, max: 5000 }), (rows, floorAmount) => {
        const list: PricelistCandidate = {
          id: 1,
          name: "PL-G",
          status: "ACTIVE",
          validFrom: null,
          validTo: null,
          currency: "EUR",
          priority: 0,
          allowsTradeDiscounts: true,
          taxInclusive: false,
          tierMode: "GRADUATED",
          levels: ["CHANNEL_PRIMARY"],
          prices: rows.map((r) => ({ ...r, productCode: "P1", validFrom: null, validTo: null })),
          derivation: null,
        };
        const floor: FloorPricelist = {
          id: 200,
          name: "FL",
          status: "ACTIVE",
          validFrom: null,
          validTo: null,
          currency: "EUR",
          priority: 0,
          prices: [
            {
              productCode: "P1",
              minQuantity: 1,
              amount: floorAmount,
              validFrom: null,
              validTo: null,
            },
          ],
        };
        const answer = resolvePrices({
          at: AT,
          currency: "EUR",
          channel: { code: "WEB" },
          groupCodes: [],
          products: toProducts([]),
          pricelists: [list],
          priceBases: [],
          floors: [floor],
          tradeConditions: [],
          promotions: [],
          lines: Array.from({ length: 80 }, (_, i) => ({ productCode: "P1", quantity: i + 1 })),
        });
        let last = 0;
        for (const line of answer.lines) {
          if (line.status !== "OK") continue;
          expect(line.lineAmount!).toBeGreaterThanOrEqual(last);
          last = line.lineAmount!;
        }
      }),
      RUNS,
    );
  });

  it("each ladder entry is the line resolved alone at that quantity, quotes included", () => {
    let entries = 0;
    fc.assert(
      fc.property(agreedArb, (generated) => {
        const request = withoutOrderSums(generated);
        for (const line of request.lines) {
          const one = { ...request, ladder: true, lines: [line] };
          const [priced] = resolvePrices(one).lines;
          if (priced!.status !== "OK") {
            expect(priced!.ladder).toBeNull();
            continue;
          }
          for (const entry of priced!.ladder!) {
            entries++;
            const [alone] = resolvePrices({
              ...request,
              lines: [{ productCode: line.productCode, quantity: entry.quantity }],
            }).lines;
            expect(entry).toEqual({
              minQuantity: entry.minQuantity,
              quantity: entry.quantity,
              finalUnitAmount: alone!.finalUnitAmount,
              priceUnit: alone!.priceUnit,
              lineAmount: alone!.lineAmount,
            });
          }
        }
      }),
      RUNS,
    );
    expect(entries).toBeGreaterThan(100);
  });

  it("VOLUME answers are unchanged: tierMode VOLUME is its absence, ladder adds only itself", () => {
    fc.assert(
      fc.property(requestArb, fc.boolean(), (request, explain) => {
        const plain = resolvePrices({ ...request, explain });
        const volume = resolvePrices({
          ...request,
          explain,
          ladder: false,
          pricelists: request.pricelists.map((p) => ({ ...p, tierMode: "VOLUME" as const })),
        });
        expect(json(volume)).toBe(json(plain));
        for (const line of plain.lines) {
          expect(line.source === null || line.source.tierMode === "VOLUME").toBe(true);
          expect(line.source?.bands ?? null).toBeNull();
        }
        const laddered = resolvePrices({ ...request, explain, ladder: true });
        const stripped = laddered.lines.map(({ ladder: _ladder, ...line }) => line);
        expect(stripped).toEqual(plain.lines);
      }),
      RUNS,
    );
  });
});
