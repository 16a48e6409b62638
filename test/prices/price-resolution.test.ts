import { beforeAll, describe, expect, it } from "vitest";
import { api, created, expectProblem, issuePaths, KEYS } from "../shared/helpers";
import { ok, seedWorkedExample } from "../shared/worked-example";

/**
 * The worked example of docs/pricing-rules.md §10, built through the API as a user would, then priced
 * through both endpoints. Ids differ from the example's names (PL-900 …), so they are kept here.
 */
const ids: Record<string, number> = {};
/** Server-Timing of a lookup with the channel context cached, and of the first after a write. */
// GET /v1/api/prices also says whether the engine ran (a 304 skips it).
const WARM = /^db;desc="1 query";dur=[\d.]+, ctx;desc="hit"(?:, engine;desc="ran")?$/;
const AFTER_A_WRITE = /^db;desc="2 queries";dur=[\d.]+, ctx;desc="miss"(?:, engine;desc="ran")?$/;
const AT = "2025-06-15T10:00:00Z";

beforeAll(async () => {
  Object.assign(ids, await seedWorkedExample());
});

const cart = {
  channelCode: "WEB-DE",
  customerCode: "C-1001",
  at: AT,
  lines: [
    { productCode: "P-A", quantity: 3 },
    { productCode: "P-B", quantity: 60 },
    { productCode: "P-C", quantity: 10 },
  ],
};

const resolve = (body: unknown, key: string = KEYS.read) =>
  api("POST", "/v1/api/prices/resolve", { body, key });
const unit = (res: { body: any }) => res.body.lines.map((l: any) => l.finalUnitAmount);

describe("the worked example of docs/pricing-rules.md §10", () => {
  it("variant: with PL-900 in DRAFT, P-A falls through to PL-100 and TC-2 makes it 950", async () => {
    const res = await resolve(cart);
    expect(res.status).toBe(200);
    expect(res.body.lines[0]).toMatchObject({
      finalUnitAmount: 950,
      source: { level: "CHANNEL_PRIMARY", pricelistId: ids["PL-100"], baseUnitAmount: 1000 },
      adjustments: [
        {
          kind: "DISCOUNT",
          id: ids["TC-2"],
          scope: "CUSTOMER_GROUP",
          rung: 6,
          valueBp: 500,
          amount: -50,
        },
      ],
    });
  });

  it("explain shows what the candidates that did not apply are set to do (PL-900 DRAFT, TC-5 DRAFT, TC-6 not yet valid)", async () => {
    const res = await resolve({ ...cart, explain: true });
    const [a] = res.body.lines;
    expect(a.explain.pricelists[0]).toMatchObject({
      pricelistId: ids["PL-900"],
      outcome: "NOT_ACTIVE",
      tierMinQuantity: 1,
      amount: 850,
    });
    const tc = (id: number) => a.explain.tradeConditions.find((e: any) => e.id === id);
    expect(tc(ids["TC-5"]!)).toMatchObject({
      outcome: "NOT_ACTIVE",
      type: "DISCOUNT",
      discountType: "PERCENTAGE",
      value: 1000,
      amount: null,
    });
    expect(tc(ids["TC-6"]!)).toMatchObject({
      outcome: "OUT_OF_WINDOW",
      discountType: "PERCENTAGE",
      value: 600,
      amount: null,
    });
    // Explain changes nothing else.
    const plain = await resolve(cart);
    expect(res.body.lines.map((l: any) => ({ ...l, explain: null }))).toEqual(plain.body.lines);
  });

  it("prices the cart exactly: 850 / 391 / 170, total 27710, valid until 2025-07-01", async () => {
    await ok("PATCH", `/v1/api/pricelist/${ids["PL-900"]}`, { status: "ACTIVE" });
    // The first lookup after a write finds the cached channel context older than the data: a
    // second round trip reads it again. The next one is served from it, in one round trip, with
    // the same answer (docs/performance.md, "The caches").
    const res = await resolve(cart);
    expect(res.status).toBe(200);
    expect(res.headers.get("server-timing")).toMatch(AFTER_A_WRITE);
    const again = await resolve(cart);
    expect(again.headers.get("server-timing")).toMatch(WARM);
    expect(again.body).toEqual(res.body);
    const answer = res.body;
    expect(answer).toMatchObject({
      channelCode: "WEB-DE",
      customerCode: "C-1001",
      currency: "EUR",
      at: "2025-06-15T10:00:00.000Z",
      totalAmount: 27710,
      pricedTotalAmount: 27710,
      complete: true,
      validUntil: "2025-07-01T00:00:00.000Z",
    });
    expect(Object.keys(answer)).toEqual([
      "channelCode",
      "customerCode",
      "currency",
      "at",
      "totalAmount",
      "pricedTotalAmount",
      "complete",
      "validUntil",
      "lines",
    ]);
    const [a, b, c] = answer.lines;
    expect(a).toMatchObject({
      productCode: "P-A",
      quantity: 3,
      status: "OK",
      finalUnitAmount: 850,
      lineAmount: 2550,
      regularUnitAmount: 850,
      listUnitAmount: 1000,
      taxInclusive: false,
      source: {
        level: "INDIVIDUAL",
        pricelistId: ids["PL-900"],
        tierMinQuantity: 1,
        baseUnitAmount: 850,
      },
      adjustments: [],
      tiers: [{ minQuantity: 1, amount: 850 }],
      explain: null,
    });
    expect(b).toMatchObject({
      productCode: "P-B",
      finalUnitAmount: 391,
      lineAmount: 23460,
      regularUnitAmount: 391,
      listUnitAmount: 450,
      source: {
        level: "CUSTOMER_GROUP",
        pricelistId: ids["PL-200"],
        tierMinQuantity: 50,
        baseUnitAmount: 385,
      },
      adjustments: [
        {
          kind: "DISCOUNT",
          id: ids["TC-2"],
          scope: "CUSTOMER_GROUP",
          rung: 6,
          valueBp: 500,
          amount: -19,
        },
        {
          kind: "SURCHARGE",
          id: ids["TC-4"],
          scope: "CHANNEL",
          rung: 7,
          valueBp: null,
          amount: 25,
        },
      ],
      tiers: [
        { minQuantity: 1, amount: 420 },
        { minQuantity: 50, amount: 385 },
      ],
    });
    expect(c).toMatchObject({
      productCode: "P-C",
      finalUnitAmount: 170,
      lineAmount: 1700,
      regularUnitAmount: 184,
      listUnitAmount: 200,
      source: { level: "CHANNEL_PRIMARY", pricelistId: ids["PL-100"], baseUnitAmount: 200 },
      adjustments: [{ kind: "PROMOTION", id: ids["PR-7"], amount: -30 }],
    });
  });

  it("explains the losers: PL-210 ranked lower, TC-5 not active, TC-6 not yet valid, TC-3 superseded", async () => {
    const res = await resolve({ ...cart, explain: true });
    const [a, b, c] = res.body.lines;
    const pl = (line: any, id: number) =>
      line.explain.pricelists.find((p: any) => p.pricelistId === id);
    const tc = (line: any, id: number) =>
      line.explain.tradeConditions.find((t: any) => t.id === id);
    expect(pl(b, ids["PL-210"]!)).toMatchObject({ outcome: "LOWER_RANK", decidedBy: "PRIORITY" });
    expect(pl(c, ids["PL-101"]!)).toMatchObject({ outcome: "LOWER_LEVEL" });
    expect(tc(a, ids["TC-5"]!)).toMatchObject({ outcome: "NOT_ACTIVE" });
    expect(tc(a, ids["TC-6"]!)).toMatchObject({ outcome: "OUT_OF_WINDOW" });
    expect(tc(a, ids["TC-2"]!)).toMatchObject({ outcome: "NOT_DISCOUNTABLE" });
    expect(tc(c, ids["TC-3"]!)).toMatchObject({ outcome: "SUPERSEDED_BY_PROMOTION" });
    expect(c.explain.promotions[0]).toMatchObject({ id: ids["PR-7"], outcome: "APPLIED" });
    // Explain changes nothing else.
    expect(unit(res)).toEqual([850, 391, 170]);
  });

  it("variant: with PR-7 ON_TOP, P-C = 184 − 28 = 156", async () => {
    await ok("PATCH", `/v1/api/promotion/${ids["PR-7"]}`, { stacking: "ON_TOP" });
    const res = await resolve(cart);
    expect(res.body.lines[2]).toMatchObject({ finalUnitAmount: 156, regularUnitAmount: 184 });
    await ok("PATCH", `/v1/api/promotion/${ids["PR-7"]}`, { stacking: "BEST_OF" });
  });

  it("answers the same through GET /v1/api/prices, per product at one quantity", async () => {
    const res = await api(
      "GET",
      `/v1/api/prices?channel=WEB-DE&customer=C-1001&at=${AT}&quantity=60&product=P-B&product=P-A`,
      { key: KEYS.read },
    );
    expect(res.status).toBe(200);
    // The previous test's last write made the cached channel context stale.
    expect(res.headers.get("server-timing")).toMatch(AFTER_A_WRITE);
    expect(res.body.lines.map((l: any) => [l.productCode, l.quantity, l.finalUnitAmount])).toEqual([
      ["P-B", 60, 391],
      ["P-A", 60, 850],
    ]);
  });

  it("prices anonymously from the channel levels only, with GLOBAL and CHANNEL conditions", async () => {
    const res = await resolve({ ...cart, customerCode: undefined });
    // P-A: PL-100 1000 − TC-1 2 % = 980; P-B at 60: tier 10+ 450 − 2 % = 441 + 25 = 466; P-C: PL-100 200 − 2 % = 196, PR-7 170.
    expect(unit(res)).toEqual([980, 466, 170]);
    expect(res.body.customerCode).toBeNull();
  });

  it("takes customerCode: null as anonymous, as if it were omitted (GET: an empty customer=)", async () => {
    const omitted = await resolve({ ...cart, customerCode: undefined });
    const nulled = await resolve({ ...cart, customerCode: null, explain: true });
    expect(nulled.status, JSON.stringify(nulled.body)).toBe(200);
    expect(nulled.body.customerCode).toBeNull();
    expect(unit(nulled)).toEqual(unit(omitted));
    const get = (customer: string) =>
      api("GET", `/v1/api/prices?channel=WEB-DE${customer}&at=${AT}&quantity=60&product=P-B`, {
        key: KEYS.read,
      });
    const [none, empty] = [await get(""), await get("&customer=")];
    expect(empty.status, JSON.stringify(empty.body)).toBe(200);
    expect(empty.body).toEqual(none.body);
    expect(empty.headers.get("etag")).toBe(none.headers.get("etag"));
    expect(unit(empty)).toEqual([466]);
  });
});

describe("totals: totalAmount only when every line is OK (docs/pricing-rules.md §8)", () => {
  const MAX = Number.MAX_SAFE_INTEGER;
  const totals = (res: { status: number; body: any }) => {
    expect(res.status).toBe(200);
    const { totalAmount, pricedTotalAmount, complete } = res.body;
    return {
      statuses: res.body.lines.map((l: any) => l.status),
      totalAmount,
      pricedTotalAmount,
      complete,
    };
  };
  const lookup = (query: string) =>
    api("GET", `/v1/api/prices?channel=WEB-DE&customer=C-1001&at=${AT}&${query}`, {
      key: KEYS.read,
    });

  beforeAll(async () => {
    await ok("PATCH", `/v1/api/pricelist/${ids["PL-900"]}`, { status: "ACTIVE" });
    for (const code of ["P-UNPRICED", "P-HUGE", "P-HALF"])
      await created("/v1/api/product", { code, name: code });
    // PL-900 allows no trade discounts: P-HUGE and P-HALF cost exactly these amounts.
    await ok("PUT", `/v1/api/pricelist/${ids["PL-900"]}/prices`, {
      prices: [
        { productCode: "P-HUGE", amount: MAX },
        { productCode: "P-HALF", amount: 2 ** 52 },
      ],
    });
  });

  it("all lines OK: totalAmount = pricedTotalAmount = 27710, complete", async () => {
    expect(totals(await resolve(cart))).toEqual({
      statuses: ["OK", "OK", "OK"],
      totalAmount: 27710,
      pricedTotalAmount: 27710,
      complete: true,
    });
  });

  it.each([
    ["an unknown product", { productCode: "P-NOWHERE", quantity: 1 }, "UNKNOWN_PRODUCT"],
    ["a product without a price", { productCode: "P-UNPRICED", quantity: 4 }, "NO_PRICE"],
    ["a line past 2^53 − 1", { productCode: "P-HUGE", quantity: 2 }, "OUT_OF_RANGE"],
  ])(
    "a cart with %s: totalAmount null, the OK lines in pricedTotalAmount",
    async (_, extra, status) => {
      const lines = [cart.lines[0]!, extra, cart.lines[1]!, cart.lines[2]!];
      expect(totals(await resolve({ ...cart, lines }))).toEqual({
        statuses: ["OK", status, "OK", "OK"],
        totalAmount: null,
        pricedTotalAmount: 27710,
        complete: false,
      });
    },
  );

  it("the §10.3 variants: a fourth line P-X (unknown) → 27710 priced; USD → 0 priced", async () => {
    const unknown = { productCode: "P-X", quantity: 1 };
    expect(totals(await resolve({ ...cart, lines: [...cart.lines, unknown] }))).toEqual({
      statuses: ["OK", "OK", "OK", "UNKNOWN_PRODUCT"],
      totalAmount: null,
      pricedTotalAmount: 27710,
      complete: false,
    });
    expect(totals(await resolve({ ...cart, currency: "USD" }))).toEqual({
      statuses: ["NO_PRICE", "NO_PRICE", "NO_PRICE"],
      totalAmount: null,
      pricedTotalAmount: 0,
      complete: false,
    });
  });

  it("a cart without any OK line: pricedTotalAmount 0", async () => {
    const lines = [
      { productCode: "P-NOWHERE", quantity: 1 },
      { productCode: "P-UNPRICED", quantity: 1 },
    ];
    expect(totals(await resolve({ ...cart, lines }))).toEqual({
      statuses: ["UNKNOWN_PRODUCT", "NO_PRICE"],
      totalAmount: null,
      pricedTotalAmount: 0,
      complete: false,
    });
  });

  it("OK lines whose sum passes 2^53 − 1: complete, but neither total is answered", async () => {
    const lines = [
      { productCode: "P-HALF", quantity: 1 },
      { productCode: "P-HALF", quantity: 1 },
    ];
    const res = await resolve({ ...cart, lines });
    expect(res.body.lines.map((l: any) => l.lineAmount)).toEqual([2 ** 52, 2 ** 52]);
    expect(totals(res)).toEqual({
      statuses: ["OK", "OK"],
      totalAmount: null,
      pricedTotalAmount: null,
      complete: true,
    });
  });

  it("GET /v1/api/prices answers the same totals", async () => {
    expect(totals(await lookup("quantity=10&product=P-A&product=P-C"))).toEqual({
      statuses: ["OK", "OK"],
      totalAmount: 8500 + 1700,
      pricedTotalAmount: 8500 + 1700,
      complete: true,
    });
    for (const [product, status] of [
      ["P-NOWHERE", "UNKNOWN_PRODUCT"],
      ["P-UNPRICED", "NO_PRICE"],
      ["P-HUGE", "OUT_OF_RANGE"],
    ]) {
      expect(
        totals(await lookup(`quantity=10&product=P-A&product=${product}&product=P-C`)),
      ).toEqual({
        statuses: ["OK", status, "OK"],
        totalAmount: null,
        pricedTotalAmount: 8500 + 1700,
        complete: false,
      });
    }
  });
});

describe("price request rules", () => {
  it("makes one D1 round trip for 500 lines too, and reports unknown products per line", async () => {
    const lines = Array.from({ length: 500 }, (_, i) => ({
      productCode: i % 2 ? "P-B" : `NOPE-${i}`,
      quantity: 1 + (i % 70),
    }));
    const res = await resolve({ ...cart, lines });
    expect(res.status).toBe(200);
    expect(res.headers.get("server-timing")).toMatch(WARM);
    expect(res.body.lines).toHaveLength(500);
    expect(res.body.lines[0]).toMatchObject({
      productCode: "NOPE-0",
      status: "UNKNOWN_PRODUCT",
      finalUnitAmount: null,
    });
    expect(res.body.lines[1]).toMatchObject({ productCode: "P-B", status: "OK" });
  });

  it("refuses unknown or inactive channels and customers outside the channel", async () => {
    expectProblem(await resolve({ ...cart, channelCode: "NOPE" }), 404, "NOT_FOUND");
    expect(
      expectProblem(await resolve({ ...cart, customerCode: "NOPE" }), 404, "NOT_FOUND").detail,
    ).toBe("customer NOPE not found");
    expectProblem(
      await resolve({ ...cart, customerCode: "C-ELSEWHERE" }),
      409,
      "CUSTOMER_NOT_IN_CHANNEL",
    );
    await created("/v1/api/channel", { code: "SLEEPING", name: "Inactive", isActive: false });
    expectProblem(
      await resolve({ ...cart, channelCode: "SLEEPING", customerCode: undefined }),
      409,
      "CHANNEL_INACTIVE",
    );
  });

  it("needs a currency when the channel has no primary pricelist", async () => {
    await created("/v1/api/channel", { code: "BARE", name: "No primary" });
    const res = await resolve({ ...cart, channelCode: "BARE", customerCode: undefined });
    expect(expectProblem(res, 400, "CURRENCY_REQUIRED").errors).toEqual([
      { path: "body.currency", message: "is required for this channel" },
    ]);
    const named = await resolve({
      ...cart,
      channelCode: "BARE",
      customerCode: undefined,
      currency: "EUR",
    });
    expect(named.body.lines.map((l: any) => l.status)).toEqual([
      "NO_PRICE",
      "NO_PRICE",
      "NO_PRICE",
    ]);
  });

  it("prices only pricelists of the request's currency", async () => {
    const res = await resolve({ ...cart, currency: "CHF" });
    expect(res.body.currency).toBe("CHF");
    expect(res.body.lines.every((l: any) => l.status === "NO_PRICE")).toBe(true);
  });

  it("validates lines, quantities and instants", async () => {
    expect(issuePaths(await resolve({ ...cart, lines: [] }))).toEqual(["body.lines"]);
    const many = Array.from({ length: 501 }, () => ({ productCode: "P-A", quantity: 1 }));
    expect(issuePaths(await resolve({ ...cart, lines: many }))).toEqual(["body.lines"]);
    const bad = await resolve({
      ...cart,
      at: "noon",
      lines: [
        { productCode: "P-A", quantity: 0 },
        { productCode: "P-A", quantity: 1.5 },
        { productCode: "P-A", quantity: 1_000_001 },
      ],
    });
    expect(issuePaths(bad)).toEqual([
      "body.at",
      "body.lines.0.quantity",
      "body.lines.1.quantity",
      "body.lines.2.quantity",
    ]);
    // Lines that only look like one: each goes past the schema's fast path to zod's full parse
    // (prices.schemas.ts `parseLine`), which names it.
    const odd = await resolve({
      ...cart,
      lines: [
        { productCode: "P-A", quantity: 1, note: "x" },
        { productCode: "P A", quantity: 1 },
        { productCode: 7, quantity: 1 },
        { productCode: "P-A", quantity: "1" },
        { productCode: "P-A" },
        ["P-A", 1],
        null,
        { productCode: "P-A", quantity: 1 },
      ],
    });
    expect(issuePaths(odd)).toEqual([
      "body.lines.0.note",
      "body.lines.1.productCode",
      "body.lines.2.productCode",
      "body.lines.3.quantity",
      "body.lines.4.quantity",
      "body.lines.5",
      "body.lines.6",
    ]);
    const get = await api("GET", "/v1/api/prices?channel=WEB-DE&quantity=0&product=P-A");
    expect(issuePaths(get)).toEqual(["query.quantity"]);
    const tooMany = Array.from({ length: 101 }, (_, i) => `product=P-${i}`).join("&");
    expect(issuePaths(await api("GET", `/v1/api/prices?channel=WEB-DE&${tooMany}`))).toEqual([
      "query.product",
    ]);
    expect(issuePaths(await api("GET", "/v1/api/prices?channel=WEB-DE"))).toEqual([
      "query.product",
    ]);
  });

  it("GET takes comma-joined products like repeated ones; the limit and duplicates hold", async () => {
    const get = (products: string) =>
      api("GET", `/v1/api/prices?channel=WEB-DE&customer=C-1001&at=${AT}&quantity=10&${products}`, {
        key: KEYS.read,
      });
    const repeated = await get("product=P-C&product=P-A&product=P-B");
    for (const joined of ["product=P-C,P-A,P-B", "product=P-C,P-A&product=P-B"]) {
      const res = await get(joined);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual(repeated.body);
      expect(res.headers.get("etag")).toBe(repeated.headers.get("etag"));
    }
    expect(repeated.body.lines.map((l: any) => l.productCode)).toEqual(["P-C", "P-A", "P-B"]);
    // A product named twice is two lines, however it is named.
    const twice = await get("product=P-A,P-A&product=P-A");
    expect(twice.body.lines.map((l: any) => [l.productCode, l.finalUnitAmount])).toEqual([
      ["P-A", 850],
      ["P-A", 850],
      ["P-A", 850],
    ]);
    // 101 products are too many, whether repeated, joined or both.
    const codes = Array.from({ length: 101 }, (_, i) => `P-${i}`);
    for (const query of [
      `product=${codes.join(",")}`,
      `product=${codes.slice(0, 50).join(",")}&product=${codes.slice(50).join(",")}`,
    ]) {
      const problem = expectProblem(await get(query), 400, "VALIDATION_FAILED");
      expect(problem.errors).toEqual([{ path: "query.product", message: "at most 100 products" }]);
    }
    expect((await get(`product=${codes.slice(1).join(",")}`)).status).toBe(200);
    // An empty or malformed code in a list is named by its place in the list.
    const gap = expectProblem(await get("product=P-A,,P-B"), 400, "VALIDATION_FAILED");
    expect(gap.errors!.map((e) => e.path)).toEqual(["query.product.1"]);
    expect(gap.errors![0]!.message).toMatch(/^must be 1-64 characters/);
  });

  it("is a read: a read key may resolve, no key may not", async () => {
    expect((await resolve(cart, KEYS.read)).status).toBe(200);
    expectProblem(
      await api("POST", "/v1/api/prices/resolve", { body: cart, key: null }),
      401,
      "UNAUTHORIZED",
    );
  });
});
