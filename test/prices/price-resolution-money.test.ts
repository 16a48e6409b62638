import { beforeAll, describe, expect, it } from "vitest";
import { api, created, expectProblem, issuePaths, uid } from "../shared/helpers";

/**
 * The money rules through the real Worker, built as a user would: worked examples B (a list
 * derived across currencies at the rate in force, docs/pricing-rules.md §19), C (price units and
 * the channel's rounding mode, §20, §21) and D (price-break advice, §22) of pricing rules v3,
 * exactly, priced through POST /v1/api/prices/resolve and GET /v1/api/prices; and the bad input of
 * the new fields.
 */

async function ok(method: string, path: string, body?: unknown) {
  const res = await api(method, path, { body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${JSON.stringify(res.body)}`);
  return res.body;
}

const product = async (overrides: Record<string, unknown> = {}) =>
  (await created("/v1/api/product", { code: uid("P"), name: "Product", ...overrides }))
    .code as string;

async function pricelist(body: Record<string, unknown>, rows: unknown[] = []) {
  const pl = await created("/v1/api/pricelist", {
    name: uid("List"),
    currency: "EUR",
    status: "ACTIVE",
    ...body,
  });
  if (rows.length) await ok("PUT", `/v1/api/pricelist/${pl.id}/prices`, { prices: rows });
  return pl.id as number;
}

/** A channel with `primary` as its primary pricelist and `others` assigned. */
async function channel(primary: number, others: number[] = [], body = {}) {
  const code = (await created("/v1/api/channel", { code: uid("CH"), name: "Channel", ...body }))
    .code as string;
  await ok("PUT", `/v1/api/channel/${code}/pricelist/primary`, { pricelistId: primary });
  for (const id of others)
    await ok("POST", `/v1/api/channel/${code}/pricelist`, { pricelistId: id });
  return code;
}

const resolve = async (body: Record<string, unknown>) => {
  const res = await api("POST", "/v1/api/prices/resolve", { body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

const lineOf = async (channelCode: string, productCode: string, quantity = 1, extra = {}) =>
  (await resolve({ channelCode, lines: [{ productCode, quantity }], ...extra })).lines[0];

// ---------------------------------------------------------------------------------------------
// B. Currencies
// ---------------------------------------------------------------------------------------------

describe("worked example B: lists derived across currencies (docs/pricing-rules.md §19)", () => {
  const b = { p1: "", eur: "", tuned: "", plU: 0 };

  beforeAll(async () => {
    b.p1 = await product();
    b.plU = await pricelist({ currency: "USD" }, [{ productCode: b.p1, amount: 1000 }]);
    const derived = (currency: string, derivation = {}) =>
      pricelist({
        currency,
        derivation: { basePricelistId: b.plU, adjustmentBp: 0, ...derivation },
      });
    const plE = await derived("EUR");
    b.eur = await channel(plE, [await derived("JPY"), await derived("KWD")]);
    const tuned = await derived("EUR", {
      adjustmentBp: -1000,
      rounding: { mode: "NEAREST", step: 10, ending: 9 },
    });
    b.tuned = await channel(tuned);
    await ok("PUT", "/v1/api/exchange-rates", {
      rates: [
        { from: "USD", to: "EUR", rate: "0.92", validFrom: "2027-01-01T00:00:00Z" },
        { from: "USD", to: "EUR", rate: "0.90", validFrom: "2027-02-01T00:00:00Z" },
        { from: "USD", to: "JPY", rate: "150.25", validFrom: "2027-01-01T00:00:00Z" },
        { from: "USD", to: "KWD", rate: "0.3075", validFrom: "2027-01-01T00:00:00Z" },
      ],
    });
  });

  it("PL-E at 2027-01-15: 920, converted at 0.92, valid until the next rate", async () => {
    const answer = await resolve({
      channelCode: b.eur,
      at: "2027-01-15T00:00:00Z",
      lines: [{ productCode: b.p1, quantity: 1 }],
    });
    expect(answer).toMatchObject({ currency: "EUR", validUntil: "2027-02-01T00:00:00.000Z" });
    expect(answer.lines[0]).toMatchObject({
      status: "OK",
      finalUnitAmount: 920,
      lineAmount: 920,
      priceUnit: 1,
    });
    expect(answer.lines[0].source.derivedFrom).toEqual({
      pricelistId: b.plU,
      unitAmount: 1000,
      exchangeRate: {
        from: "USD",
        to: "EUR",
        rate: "0.92",
        validFrom: "2027-01-01T00:00:00.000Z",
      },
    });
  });

  it("PL-E at 2027-02-15: 900; −1000 bp NEAREST …9: 828 → 829", async () => {
    const at = { at: "2027-02-15T00:00:00Z" };
    expect((await lineOf(b.eur, b.p1, 1, at)).finalUnitAmount).toBe(900);
    const tuned = await lineOf(b.tuned, b.p1, 1, { at: "2027-01-15T00:00:00Z" });
    expect(tuned.finalUnitAmount).toBe(829);
  });

  it("PL-J (JPY): 1502.5 → 1503; PL-K (KWD): 3075", async () => {
    const at = "2027-01-15T00:00:00Z";
    expect((await lineOf(b.eur, b.p1, 1, { at, currency: "JPY" })).finalUnitAmount).toBe(1503);
    expect((await lineOf(b.eur, b.p1, 1, { at, currency: "KWD" })).finalUnitAmount).toBe(3075);
  });

  it("at 2026-12-31 no rate holds: NO_PRICE, explain NO_EXCHANGE_RATE, valid until the first rate", async () => {
    const answer = await resolve({
      channelCode: b.eur,
      at: "2026-12-31T00:00:00Z",
      explain: true,
      lines: [{ productCode: b.p1, quantity: 1 }],
    });
    expect(answer).toMatchObject({ complete: false, validUntil: "2027-01-01T00:00:00.000Z" });
    expect(answer.lines[0]).toMatchObject({ status: "NO_PRICE", source: null, priceUnit: null });
    expect(answer.lines[0].explain.pricelists[0]).toMatchObject({
      level: "CHANNEL_PRIMARY",
      outcome: "NO_EXCHANGE_RATE",
      amount: null,
    });
  });

  it("the GET lookup caches no further than the next rate", async () => {
    const res = await api(
      "GET",
      `/v1/api/prices?channel=${b.eur}&product=${b.p1}&at=2027-01-31T23:59:00Z`,
    );
    expect(res.status).toBe(200);
    expect(res.body.validUntil).toBe("2027-02-01T00:00:00.000Z");
    expect(res.body.lines[0].finalUnitAmount).toBe(920);
    // One minute to the next rate: the answer is not cached past it.
    expect(res.headers.get("cache-control")).toMatch(/max-age=(\d|[1-5]\d|60)\b/);
  });

  it("a rate written later moves the pricing data version: the warm lookup sees it", async () => {
    const at = { at: "2027-03-01T00:00:00Z" };
    expect((await lineOf(b.eur, b.p1, 1, at)).finalUnitAmount).toBe(900);
    await ok("PUT", "/v1/api/exchange-rates", {
      rates: [{ from: "USD", to: "EUR", rate: "0.95", validFrom: "2027-02-01T00:00:00Z" }],
    });
    expect((await lineOf(b.eur, b.p1, 1, at)).finalUnitAmount).toBe(950);
    await ok("PUT", "/v1/api/exchange-rates", {
      rates: [{ from: "USD", to: "EUR", rate: "0.90", validFrom: "2027-02-01T00:00:00Z" }],
    });
    expect((await lineOf(b.eur, b.p1, 1, at)).finalUnitAmount).toBe(900);
  });

  it("a derived list's own rows need no rate", async () => {
    const own = await product();
    const list = await pricelist(
      { currency: "CHF", derivation: { basePricelistId: b.plU, adjustmentBp: 0 } },
      [{ productCode: own, amount: 777 }],
    );
    const code = await channel(list);
    const line = await lineOf(code, own, 1, { at: "2026-06-01T00:00:00Z" });
    expect(line).toMatchObject({ finalUnitAmount: 777, source: { derivedFrom: null } });
  });
});

// ---------------------------------------------------------------------------------------------
// C. Price units and rounding modes
// ---------------------------------------------------------------------------------------------

describe("worked example C: price units and rounding modes (docs/pricing-rules.md §20, §21)", () => {
  const c = { ps: "", half: "", base200: "", list: 0, code: "" };

  beforeAll(async () => {
    c.ps = await product();
    c.half = await product();
    c.base200 = await product();
    c.list = await pricelist({}, [
      { productCode: c.ps, amount: 1250, priceUnit: 1000 },
      { productCode: c.half, amount: 125, priceUnit: 100 },
      { productCode: c.base200, amount: 200 },
    ]);
    c.code = await channel(c.list);
  });

  const setMode = (roundingMode: string) =>
    ok("PATCH", `/v1/api/channel/${c.code}`, { roundingMode });

  it("P-S 1250 per 1000, 2500 pieces: 3125; the line and the list say the unit", async () => {
    const line = await lineOf(c.code, c.ps, 2500);
    expect(line).toMatchObject({
      status: "OK",
      finalUnitAmount: 1250,
      lineAmount: 3125,
      priceUnit: 1000,
      tiers: [{ minQuantity: 1, amount: 1250, priceUnit: 1000, flatAmount: 0 }],
    });
    const rows = await ok("GET", `/v1/api/pricelist/${c.list}/prices?filter.productCode=${c.ps}`);
    expect(rows.data).toEqual([
      {
        productCode: c.ps,
        minQuantity: 1,
        amount: 1250,
        priceUnit: 1000,
        flatAmount: 0,
        validFrom: null,
        validTo: null,
      },
    ]);
  });

  it("the channel says its rounding mode, HALF_UP unless set", async () => {
    const channelBody = await ok("GET", `/v1/api/channel/${c.code}`);
    expect(channelBody.roundingMode).toBe("HALF_UP");
  });

  it("with 10 % off, final 1125 per 1000: 2812.5 → 2813 (HALF_UP, UP), 2812 (HALF_EVEN, DOWN); 125 per 100 × 2: 3 or 2; 20.5 off 200: −21 or −20", async () => {
    await created("/v1/api/trade-conditions", {
      name: "10 % in C",
      scope: "CHANNEL",
      channelCodes: [c.code],
      status: "ACTIVE",
      type: "DISCOUNT",
      discountType: "PERCENTAGE",
      value: 1000,
      productCodes: [c.ps],
    });
    await created("/v1/api/trade-conditions", {
      name: "10.25 % in C",
      scope: "CHANNEL",
      channelCodes: [c.code],
      status: "ACTIVE",
      type: "DISCOUNT",
      discountType: "PERCENTAGE",
      value: 1025,
      productCodes: [c.base200],
    });
    const expected: [string, number, number, number][] = [
      ["HALF_UP", 2813, 3, -21],
      ["UP", 2813, 3, -21],
      ["HALF_EVEN", 2812, 2, -20],
      ["DOWN", 2812, 2, -20],
    ];
    for (const [mode, screws, half, off] of expected) {
      await setMode(mode);
      const answer = await resolve({
        channelCode: c.code,
        lines: [
          { productCode: c.ps, quantity: 2500 },
          { productCode: c.half, quantity: 2 },
          { productCode: c.base200, quantity: 1 },
        ],
      });
      const [s, h, d] = answer.lines;
      expect([mode, s.finalUnitAmount, s.lineAmount], mode).toEqual([mode, 1125, screws]);
      expect([mode, h.lineAmount]).toEqual([mode, half]);
      expect([mode, d.adjustments[0].amount, d.finalUnitAmount]).toEqual([mode, off, 200 + off]);
    }
    await setMode("HALF_UP");
  });
});

describe("floors per their own price unit (docs/pricing-rules.md §20)", () => {
  it("a floor per 1000 guards a line per piece and a floor per piece a line per 1000, rounded up", async () => {
    const [piece, screw] = [await product(), await product()];
    const list = await pricelist({}, [
      { productCode: piece, amount: 120 },
      { productCode: screw, amount: 1250, priceUnit: 1000 },
    ]);
    const floor = await pricelist({ kind: "FLOOR" }, [
      // 100.50 per 1000 pieces' worth: 100.5 a piece, up to 101.
      { productCode: piece, amount: 100_500, priceUnit: 1000 },
      // 1 a piece: 1000 per 1000.
      { productCode: screw, amount: 1 },
    ]);
    const code = await channel(list, [floor]);
    await created("/v1/api/trade-conditions", {
      name: "Half off in the floor test",
      scope: "CHANNEL",
      channelCodes: [code],
      status: "ACTIVE",
      type: "DISCOUNT",
      discountType: "PERCENTAGE",
      value: 5000,
      productCodes: [piece, screw],
    });
    const answer = await resolve({
      channelCode: code,
      explain: true,
      lines: [
        { productCode: piece, quantity: 3 },
        { productCode: screw, quantity: 2500 },
      ],
    });
    const [a, b] = answer.lines;
    expect(a).toMatchObject({ priceUnit: 1, finalUnitAmount: 101, lineAmount: 303 });
    expect(a.adjustments.map((x: any) => [x.kind, x.amount])).toEqual([
      ["DISCOUNT", -60],
      ["FLOOR", 41],
    ]);
    expect(a.explain.floors[0]).toMatchObject({ amount: 100_500, priceUnit: 1000 });
    expect(b).toMatchObject({ priceUnit: 1000, finalUnitAmount: 1000, lineAmount: 2500 });
    expect(b.adjustments.map((x: any) => [x.kind, x.amount])).toEqual([
      ["DISCOUNT", -625],
      ["FLOOR", 375],
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// D. Price-break advice
// ---------------------------------------------------------------------------------------------

describe("worked example D: price-break advice (docs/pricing-rules.md §22)", () => {
  const d = { p: "", boxed: "", code: "" };

  beforeAll(async () => {
    d.p = await product();
    d.boxed = await product({ minOrderQuantity: 20, orderIncrement: 20 });
    const tiers = (productCode: string) => [
      { productCode, minQuantity: 1, amount: 100 },
      { productCode, minQuantity: 50, amount: 80 },
    ];
    d.code = await channel(await pricelist({}, [...tiers(d.p), ...tiers(d.boxed)]));
  });

  it.each([
    [45, 4500, { quantity: 50, lineAmount: 4000 }],
    [40, 4000, { quantity: 50, lineAmount: 4000 }],
    [39, 3900, null],
    [50, 4000, null],
  ])("quantity %i costs %i: priceBreak %j", async (quantity, lineAmount, priceBreak) => {
    expect(await lineOf(d.code, d.p, quantity)).toMatchObject({ lineAmount, priceBreak });
  });

  it("orderIncrement 20 (min 20): from 40 the next allowed quantity is 60, 4800 > 4000: null", async () => {
    expect(await lineOf(d.code, d.boxed, 40)).toMatchObject({ lineAmount: 4000, priceBreak: null });
  });

  it("the product page (GET) says it too", async () => {
    const res = await api("GET", `/v1/api/prices?channel=${d.code}&product=${d.p}&quantity=45`);
    expect(res.body.lines[0].priceBreak).toEqual({ quantity: 50, lineAmount: 4000 });
  });
});

// ---------------------------------------------------------------------------------------------
// Bad input
// ---------------------------------------------------------------------------------------------

describe("bad input of the money fields: 400 naming the field, nothing written", () => {
  it("price units out of range, fractions or strings on price rows", async () => {
    const p = await product();
    const list = await pricelist({});
    for (const priceUnit of [0, 10_001, 1.5, "10", null]) {
      const res = await api("PUT", `/v1/api/pricelist/${list}/prices`, {
        body: { prices: [{ productCode: p, amount: 100, priceUnit }] },
      });
      expectProblem(res, 400, "VALIDATION_FAILED");
      expect(issuePaths(res), String(priceUnit)).toEqual(["body.prices.0.priceUnit"]);
    }
    const rows = await ok("GET", `/v1/api/pricelist/${list}/prices`);
    expect(rows.data).toEqual([]);
    const ok10k = await api("PUT", `/v1/api/pricelist/${list}/prices`, {
      body: { prices: [{ productCode: p, amount: 100, priceUnit: 10_000 }] },
    });
    expect(ok10k.status).toBe(200);
  });

  it("an unknown rounding mode on a channel", async () => {
    const res = await api("POST", "/v1/api/channel", {
      body: { code: uid("CH"), name: "x", roundingMode: "HALF_DOWN" },
    });
    expectProblem(res, 400, "VALIDATION_FAILED");
    expect(issuePaths(res)).toEqual(["body.roundingMode"]);
    const code = (await created("/v1/api/channel", { code: uid("CH"), name: "x" })).code;
    const patch = await api("PATCH", `/v1/api/channel/${code}`, { body: { roundingMode: "up" } });
    expect(issuePaths(patch)).toEqual(["body.roundingMode"]);
    const set = await api("PATCH", `/v1/api/channel/${code}`, { body: { roundingMode: "UP" } });
    expect(set.body.roundingMode).toBe("UP");
  });

  it("price units of trade conditions and promotions: range, and only 1 for a percentage", async () => {
    const base = {
      name: "x",
      scope: "GLOBAL",
      type: "DISCOUNT",
      discountType: "ABSOLUTE",
      currency: "EUR",
      value: 5,
    };
    const zero = await api("POST", "/v1/api/trade-conditions", { body: { ...base, priceUnit: 0 } });
    expect(issuePaths(zero)).toEqual(["body.priceUnit"]);
    const percent = await api("POST", "/v1/api/trade-conditions", {
      body: { ...base, discountType: "PERCENTAGE", currency: null, value: 500, priceUnit: 100 },
    });
    expect(expectProblem(percent, 400, "VALIDATION_FAILED").errors).toEqual([
      {
        path: "body.priceUnit",
        message: "must be absent or 1 for PERCENTAGE values (a percentage is of any quantity)",
      },
    ]);
    const perThousand = await created("/v1/api/trade-conditions", { ...base, priceUnit: 1000 });
    expect(perThousand).toMatchObject({ priceUnit: 1000, value: 5 });
    const promo = await api("POST", "/v1/api/promotion", {
      body: { name: "x", discountType: "ABSOLUTE", currency: "EUR", value: 5, priceUnit: 20_000 },
    });
    expect(issuePaths(promo)).toEqual(["body.priceUnit"]);
    const promotion = await created("/v1/api/promotion", {
      name: "x",
      discountType: "ABSOLUTE",
      currency: "EUR",
      value: 5,
      priceUnit: 100,
    });
    expect(promotion.priceUnit).toBe(100);
  });

  it("an ABSOLUTE condition per 1000 pieces on a line per piece enters as value / 1000, half up", async () => {
    const p = await product();
    const code = await channel(await pricelist({}, [{ productCode: p, amount: 100 }]));
    await created("/v1/api/trade-conditions", {
      name: "5.00 off per 1000",
      scope: "CHANNEL",
      channelCodes: [code],
      status: "ACTIVE",
      type: "DISCOUNT",
      discountType: "ABSOLUTE",
      currency: "EUR",
      value: 500,
      priceUnit: 1000,
      productCodes: [p],
    });
    // 500 per 1000 = 0.5 per piece → 1 (half up) off a line per piece.
    const line = await lineOf(code, p, 10, { explain: true });
    expect(line).toMatchObject({ finalUnitAmount: 99, lineAmount: 990 });
    expect(line.explain.tradeConditions[0]).toMatchObject({
      priceUnit: 1000,
      value: 500,
      amount: -1,
    });
  });
});

describe("bad input through HTTP: a 400 problem+json whose detail is a sentence about the field", () => {
  const RATE_NOT_A_STRING =
    'must be a decimal string such as "0.92", not a JSON number: send the rate as a string, so no digit is lost to floating point';
  const rate = (value: unknown) => ({
    rates: [{ from: "NZD", to: "ZAR", rate: value, validFrom: "2027-01-01T00:00:00Z" }],
  });

  it.each([
    ["a JSON number", 0.92, RATE_NOT_A_STRING],
    ["a JSON integer", 2, RATE_NOT_A_STRING],
    ["zero", "0", "must be greater than 0"],
    ["zero with decimals", "0.000", "must be greater than 0"],
    ["negative", "-0.92", "must be greater than 0"],
    ["too precise", "1.0000000000001", "has 14 significant digits; at most 12 are allowed"],
  ])("a rate %s", async (_, value, message) => {
    const res = await api("PUT", "/v1/api/exchange-rates", { body: rate(value) });
    expect(expectProblem(res, 400, "VALIDATION_FAILED").detail).toBe(
      `body.rates.0.rate: ${message}`,
    );
    const stored = await ok("GET", "/v1/api/exchange-rates?filter.from=NZD&filter.to=ZAR");
    expect(stored.data).toEqual([]);
  });

  it.each(["HALF_DOWN", "half_up", "", 1, null])("a rounding mode %j", async (roundingMode) => {
    const code = uid("CH");
    const res = await api("POST", "/v1/api/channel", {
      body: { code, name: "x", roundingMode },
    });
    expect(expectProblem(res, 400, "VALIDATION_FAILED").detail).toBe(
      "body.roundingMode: must be one of HALF_UP, HALF_EVEN, DOWN, UP",
    );
    expect((await api("GET", `/v1/api/channel/${code}`)).status).toBe(404);
    const existing = (await created("/v1/api/channel", { code: uid("CH"), name: "x" })).code;
    const patch = await api("PATCH", `/v1/api/channel/${existing}`, { body: { roundingMode } });
    expect(expectProblem(patch, 400, "VALIDATION_FAILED").detail).toBe(
      "body.roundingMode: must be one of HALF_UP, HALF_EVEN, DOWN, UP",
    );
    expect((await ok("GET", `/v1/api/channel/${existing}`)).roundingMode).toBe("HALF_UP");
  });

  const UNITS: [unknown, string][] = [
    [0, "must be at least 1"],
    [-5, "must be at least 1"],
    [10_001, "must be at most 10000"],
    [2.5, "must be an integer, not a fraction"],
    ["1000", "must be a number, not a string"],
  ];

  it.each(UNITS)(
    "a price unit %j on a price row, a FLOOR row, a condition, a promotion, a simulated tier",
    async (priceUnit, message) => {
      const p = await product();
      const sales = await pricelist({});
      const floor = await pricelist({ kind: "FLOOR" });
      for (const list of [sales, floor]) {
        const res = await api("PUT", `/v1/api/pricelist/${list}/prices`, {
          body: { prices: [{ productCode: p, amount: 1250, priceUnit }] },
        });
        expect(expectProblem(res, 400, "VALIDATION_FAILED").detail).toBe(
          `body.prices.0.priceUnit: ${message}`,
        );
        expect((await ok("GET", `/v1/api/pricelist/${list}/prices`)).data).toEqual([]);
      }
      const condition = await api("POST", "/v1/api/trade-conditions", {
        body: {
          name: "x",
          scope: "GLOBAL",
          type: "DISCOUNT",
          discountType: "ABSOLUTE",
          currency: "EUR",
          value: 5,
          priceUnit,
        },
      });
      expect(expectProblem(condition, 400, "VALIDATION_FAILED").detail).toBe(
        `body.priceUnit: ${message}`,
      );
      const promotion = await api("POST", "/v1/api/promotion", {
        body: { name: "x", discountType: "ABSOLUTE", currency: "EUR", value: 5, priceUnit },
      });
      expect(expectProblem(promotion, 400, "VALIDATION_FAILED").detail).toBe(
        `body.priceUnit: ${message}`,
      );
      const simulation = await api("POST", "/v1/api/simulations/prices", {
        body: {
          channelCode: await channel(sales),
          customers: { anonymous: true },
          products: { codes: [p] },
          changes: { prices: [{ pricelistId: sales, productCode: p, amount: 1, priceUnit }] },
        },
      });
      expect(expectProblem(simulation, 400, "VALIDATION_FAILED").detail).toBe(
        `body.changes.prices.0.priceUnit: ${message}`,
      );
    },
  );
});
