import { beforeAll, describe, expect, it } from "vitest";
import { api, created, roundTrips } from "../shared/helpers";

/**
 * The worked example of docs/pricing-rules.md §16 (B2B terms), built through the API as a user
 * would (product groups, a derived dealer list, a floor list, conditions on groups, an
 * order-quantity scale, a promotion with a value threshold, boxed products), then priced through
 * POST /v1/api/prices/resolve: every amount, rung and adjustment, and the W-1 × 650 variant.
 */

const window = { validFrom: "2025-01-01", validTo: "2026-01-01" };
const AT = "2025-09-01T12:00:00Z";
const ids: Record<string, number> = {};

async function ok(method: string, path: string, body: unknown) {
  const res = await api(method, path, { body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${JSON.stringify(res.body)}`);
  return res.body;
}

async function pricelist(name: string, body: Record<string, unknown>, rows: unknown[]) {
  const pl = await created("/v1/api/pricelist", {
    name,
    currency: "EUR",
    status: "ACTIVE",
    ...window,
    ...body,
  });
  if (rows.length) await ok("PUT", `/v1/api/pricelist/${pl.id}/prices`, { prices: rows });
  ids[name] = pl.id;
  return pl.id as number;
}

async function condition(name: string, body: Record<string, unknown>) {
  const tc = await created("/v1/api/trade-conditions", {
    name,
    status: "ACTIVE",
    type: "DISCOUNT",
    discountType: "PERCENTAGE",
    ...window,
    ...body,
  });
  ids[name] = tc.id;
  return tc.id as number;
}

beforeAll(async () => {
  await created("/v1/api/channel", { code: "B2B-AT", name: "B2B Austria" });
  await created("/v1/api/customer-group", { code: "DEALER", name: "Dealers" });
  await ok("POST", "/v1/api/channel/B2B-AT/customer-group", { customerGroupCodes: ["DEALER"] });
  await created("/v1/api/customer", {
    code: "K-7",
    name: "K 7",
    customerGroupCodes: ["DEALER"],
    channelCodes: ["B2B-AT"],
  });
  for (const [code, parentCode] of [
    ["FAST", null],
    ["SCREWS", "FAST"],
    ["WOOD", "SCREWS"],
    ["TOOLS", null],
  ]) {
    await created("/v1/api/product-group", { code, name: code, parentCode });
  }
  for (const [code, group, rule] of [
    ["W-1", "WOOD", { minOrderQuantity: 100, orderIncrement: 100 }],
    ["S-1", "SCREWS", {}],
    ["T-1", "TOOLS", {}],
    ["X-1", null, {}],
  ] as const) {
    await created("/v1/api/product", { code, name: code, productGroupCode: group, ...rule });
  }
  const pl10 = await pricelist("PL-10", {}, [
    { productCode: "W-1", amount: 1200 },
    { productCode: "S-1", amount: 400 },
    { productCode: "S-1", minQuantity: 500, amount: 360 },
    { productCode: "T-1", amount: 8000 },
    { productCode: "X-1", amount: 1500 },
  ]);
  await ok("PUT", "/v1/api/channel/B2B-AT/pricelist/primary", { pricelistId: pl10 });
  const derivation = {
    basePricelistId: pl10,
    adjustmentBp: -1000,
    rounding: { mode: "NEAREST", step: 10, ending: 9 },
  };
  const pl20 = await pricelist("PL-20", { derivation }, [{ productCode: "W-1", amount: 1100 }]);
  await ok("POST", "/v1/api/customer-group/DEALER/pricelist", { pricelistId: pl20 });
  const pl30 = await pricelist("PL-30", { kind: "FLOOR" }, [
    { productCode: "S-1", amount: 310 },
    { productCode: "T-1", amount: 5000 },
  ]);
  await ok("POST", "/v1/api/channel/B2B-AT/pricelist", { pricelistId: pl30 });

  const dealer = { scope: "CUSTOMER_GROUP" };
  const tc41 = await condition("TC-41", { ...dealer, value: 1000, productGroupCodes: ["FAST"] });
  const tc42 = await condition("TC-42", { ...dealer, value: 500, productGroupCodes: ["SCREWS"] });
  for (const id of [tc41, tc42]) {
    await ok("POST", `/v1/api/trade-conditions/${id}/customer-groups`, {
      customerGroupCodes: ["DEALER"],
    });
  }
  const tc43 = await condition("TC-43", { scope: "CUSTOMER", value: 2500, productCodes: ["T-1"] });
  await ok("POST", `/v1/api/trade-conditions/${tc43}/customers`, { customerCodes: ["K-7"] });
  await condition("TC-44", {
    scope: "GLOBAL",
    value: 200,
    stackable: true,
    productGroupCodes: ["FAST"],
    scaleBasis: "ORDER_QUANTITY",
    scales: [{ minimum: 1000, value: 200 }],
  });
  await condition("TC-45", {
    scope: "CHANNEL",
    type: "SURCHARGE",
    discountType: "ABSOLUTE",
    value: 50,
    currency: "EUR",
    channelCodes: ["B2B-AT"],
    productCodes: ["X-1"],
  });
  const pr51 = await created("/v1/api/promotion", {
    name: "PR-51",
    status: "ACTIVE",
    discountType: "PERCENTAGE",
    value: 1500,
    currency: "EUR",
    stacking: "ON_TOP",
    channelCodes: ["B2B-AT"],
    productGroupCodes: ["TOOLS"],
    threshold: { basis: "VALUE", minimum: 10000 },
    ...window,
  });
  ids["PR-51"] = pr51.id;
});

const resolve = (lines: { productCode: string; quantity: number }[]) =>
  api("POST", "/v1/api/prices/resolve", {
    body: { channelCode: "B2B-AT", customerCode: "K-7", at: AT, lines },
  });

const LINES = [
  { productCode: "W-1", quantity: 600 },
  { productCode: "S-1", quantity: 500 },
  { productCode: "T-1", quantity: 2 },
  { productCode: "X-1", quantity: 3 },
];

/** What the docs' table says, per line: final, line, list, and the adjustments in order. */
const expected = () => ({
  "W-1": {
    final: 1024,
    line: 614400,
    list: 1200,
    base: 1100,
    derivedFrom: null,
    adjustments: [
      ["DISCOUNT", ids["TC-42"], 5, -55],
      ["DISCOUNT", ids["TC-44"], 11, -21],
    ],
  },
  "S-1": {
    final: 310,
    line: 155000,
    list: 360,
    base: 329,
    derivedFrom: { pricelistId: ids["PL-10"], unitAmount: 360, exchangeRate: null },
    adjustments: [
      ["DISCOUNT", ids["TC-42"], 5, -16],
      ["DISCOUNT", ids["TC-44"], 11, -6],
      ["FLOOR", ids["PL-30"], null, 3],
    ],
  },
  "T-1": {
    final: 5000,
    line: 10000,
    list: 8000,
    base: 7199,
    derivedFrom: { pricelistId: ids["PL-10"], unitAmount: 8000, exchangeRate: null },
    adjustments: [
      ["DISCOUNT", ids["TC-43"], 1, -1800],
      ["PROMOTION", ids["PR-51"], null, -810],
      ["FLOOR", ids["PL-30"], null, 411],
    ],
  },
  "X-1": {
    final: 1399,
    line: 4197,
    list: 1500,
    base: 1349,
    derivedFrom: { pricelistId: ids["PL-10"], unitAmount: 1500, exchangeRate: null },
    adjustments: [["SURCHARGE", ids["TC-45"], 7, 50]],
  },
});

describe("the B2B worked example of docs/pricing-rules.md, through the API", () => {
  it("prices every line, rung and adjustment exactly", async () => {
    const res = await resolve(LINES);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      currency: "EUR",
      totalAmount: 783597,
      pricedTotalAmount: 783597,
      complete: true,
      validUntil: "2026-01-01T00:00:00.000Z",
    });
    const want = expected();
    for (const line of res.body.lines) {
      const w = want[line.productCode as keyof typeof want];
      expect(line.status).toBe("OK");
      expect([line.finalUnitAmount, line.lineAmount, line.listUnitAmount]).toEqual([
        w.final,
        w.line,
        w.list,
      ]);
      expect(line.source.baseUnitAmount).toBe(w.base);
      expect(line.source.pricelistId).toBe(ids["PL-20"]);
      expect(line.source.derivedFrom).toEqual(w.derivedFrom);
      expect(
        line.adjustments.map((a: any) => [a.kind, a.id, a.rung, a.amount]),
        line.productCode,
      ).toEqual(w.adjustments);
      const sum = line.adjustments.reduce((s: number, a: any) => s + a.amount, 0);
      expect(line.source.baseUnitAmount + sum).toBe(line.finalUnitAmount);
    }
    expect(res.body.lines[0].quantityRule).toEqual({ minimum: 100, increment: 100, maximum: null });
  });

  it("prices the same lines in any order alike", async () => {
    const forward = await resolve(LINES);
    const backward = await resolve([...LINES].reverse());
    const byCode = (body: any) =>
      Object.fromEntries(body.lines.map((l: any) => [l.productCode, l]));
    expect(byCode(backward.body)).toEqual(byCode(forward.body));
    expect(backward.body.totalAmount).toBe(forward.body.totalAmount);
  });

  it("W-1 × 650: not a whole box, so not eligible; the order scale is then not reached", async () => {
    const res = await resolve([{ productCode: "W-1", quantity: 650 }, ...LINES.slice(1)]);
    expect(res.status).toBe(200);
    const [w1, s1] = res.body.lines;
    expect(w1).toMatchObject({
      status: "QUANTITY_NOT_ALLOWED",
      finalUnitAmount: null,
      lineAmount: null,
      suggestedQuantities: { below: 600, above: 700 },
      quantityRule: { minimum: 100, increment: 100, maximum: null },
    });
    expect([s1.finalUnitAmount, s1.lineAmount]).toEqual([313, 156500]);
    expect(res.body).toMatchObject({
      totalAmount: null,
      pricedTotalAmount: 170697,
      complete: false,
    });
  });

  it("GET /v1/api/prices prices each product as a one-line order", async () => {
    const query = `channel=B2B-AT&customer=K-7&at=${AT}&quantity=500&product=S-1&product=W-1`;
    const res = await api("GET", `/v1/api/prices?${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [s1, w1] = res.body.lines;
    // 500 pieces alone stay under TC-44's 1000-piece order scale.
    expect([s1.finalUnitAmount, w1.finalUnitAmount]).toEqual([313, 1045]);
    for (const line of res.body.lines) {
      const alone = await resolve([{ productCode: line.productCode, quantity: 500 }]);
      expect(line).toEqual(alone.body.lines[0]);
    }
  });

  it("loads all of it in one D1 round trip", async () => {
    expect(roundTrips(await resolve(LINES))).toBe(1);
  });
});
