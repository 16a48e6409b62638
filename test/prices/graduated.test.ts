import { beforeAll, describe, expect, it } from "vitest";
import { WORKED_EXAMPLE_G as G } from "../../scripts/lib/worked-examples.mjs";
import { api, created, expectProblem, issuePaths, uid } from "../shared/helpers";

/**
 * Graduated tiers through the real Worker (docs/pricing-rules.md §29): worked example G exactly
 * (its data and figures in scripts/lib/worked-examples.mjs, which the engine tests and the demo
 * data read too),
 * priced through POST /v1/api/prices/resolve and GET /v1/api/prices; a pricelist's `tierMode`
 * and a row's `flatAmount` as the API writes and reads them; and their bad input.
 */

async function ok(method: string, path: string, body?: unknown) {
  const res = await api(method, path, { body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${JSON.stringify(res.body)}`);
  return res.body;
}

const product = async () =>
  (await created("/v1/api/product", { code: uid("P"), name: "Product" })).code as string;

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

async function channel(primary: number, others: number[] = []) {
  const code = (await created("/v1/api/channel", { code: uid("GRAD"), name: "Graduated" }))
    .code as string;
  await ok("PUT", `/v1/api/channel/${code}/pricelist/primary`, { pricelistId: primary });
  for (const id of others)
    await ok("POST", `/v1/api/channel/${code}/pricelist`, { pricelistId: id });
  return code;
}

const discount = (code: string, productCode: string, value: number) =>
  created("/v1/api/trade-conditions", {
    name: uid("Discount"),
    scope: "CHANNEL",
    channelCodes: [code],
    status: "ACTIVE",
    type: "DISCOUNT",
    discountType: "PERCENTAGE",
    value,
    productCodes: [productCode],
  });

async function lineOf(channelCode: string, productCode: string, quantity: number) {
  const res = await api("POST", "/v1/api/prices/resolve", {
    body: { channelCode, lines: [{ productCode, quantity }] },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.lines[0];
}

/** Example G's tiers for `productCode` (1+: 100, 10+: 90, 50+: 80), `flat` on the 50+ row. */
const rowsG = (productCode: string, flat = 0) =>
  G.tiers.map(({ minQuantity, amount, flatAmount }) => ({
    productCode,
    minQuantity,
    amount,
    flatAmount: minQuantity === G.flat.minQuantity ? flat : flatAmount,
  }));
/** Example G's lot of `quantity` pieces. */
const lotOf = (quantity: number) => G.lots.find((l) => l.quantity === quantity)!;

describe("worked example G (docs/pricing-rules.md §29)", () => {
  const g = { p: "", code: "", list: 0 };

  beforeAll(async () => {
    g.p = await product();
    g.list = await pricelist({ tierMode: "GRADUATED" }, rowsG(g.p));
    g.code = await channel(g.list);
  });

  it("60 pieces: bands 900 + 3600 + 880 = 5380, priceUnit 60, line 5380", async () => {
    const lot = lotOf(60);
    const l = await lineOf(g.code, g.p, lot.quantity);
    expect(l).toMatchObject({
      status: "OK",
      finalUnitAmount: lot.amount,
      lineAmount: lot.amount,
      priceUnit: lot.quantity,
      priceBreak: null,
    });
    expect(l.source).toEqual({
      level: "CHANNEL_PRIMARY",
      pricelistId: g.list,
      tierMinQuantity: lot.tierMinQuantity,
      baseUnitAmount: lot.amount,
      derivedFrom: null,
      tierMode: "GRADUATED",
      bands: G.bands60,
    });
    const get = await api("GET", `/v1/api/prices?channel=${g.code}&product=${g.p}&quantity=60`);
    expect(get.body.lines[0]).toEqual(l);
  });

  it("quantity 9 → 900, quantity 10 → 990", async () => {
    for (const quantity of [9, 10]) {
      expect((await lineOf(g.code, g.p, quantity)).lineAmount).toBe(lotOf(quantity).amount);
    }
  });

  it("with flatAmount 500 on the 50+ row → 5880; the row and the line's tiers show it", async () => {
    const { flatAmount } = G.flat;
    await ok("PUT", `/v1/api/pricelist/${g.list}/prices`, { prices: rowsG(g.p, flatAmount) });
    const l = await lineOf(g.code, g.p, 60);
    expect(l.finalUnitAmount).toBe(G.flat.at60);
    expect(l.tiers).toEqual(
      rowsG(g.p, flatAmount).map(({ productCode: _p, ...tier }) => ({ ...tier, priceUnit: 1 })),
    );
    expect((await lineOf(g.code, g.p, 49)).finalUnitAmount).toBe(G.flat.at49);
    const rows = await ok("GET", `/v1/api/pricelist/${g.list}/prices`);
    expect(rows.data.map((r: { flatAmount: number }) => r.flatAmount)).toEqual([0, 0, flatAmount]);
    // Back to VOLUME only once no row has a flat amount.
    const refused = await api("PATCH", `/v1/api/pricelist/${g.list}`, {
      body: { tierMode: "VOLUME" },
    });
    expectProblem(refused, 409, "FLAT_AMOUNTS_STORED");
    expect(refused.body.detail).toContain("1 price row with a flatAmount");
    await ok("PUT", `/v1/api/pricelist/${g.list}/prices`, { prices: rowsG(g.p) });
  });

  it("the same rows VOLUME → 60 × 80 = 4800", async () => {
    const p = await product();
    const l = await lineOf(await channel(await pricelist({}, rowsG(p))), p, G.volume.quantity);
    const { finalUnitAmount, lineAmount } = G.volume;
    expect(l).toMatchObject({ finalUnitAmount, lineAmount, priceUnit: 1 });
    expect(l.source).toMatchObject({ tierMode: "VOLUME", bands: null });
  });

  it("a 5 % discount on the graduated 60 → 5380 − 269 = 5111", async () => {
    const p = await product();
    const code = await channel(await pricelist({ tierMode: "GRADUATED" }, rowsG(p)));
    await discount(code, p, G.discount.valueBp);
    const l = await lineOf(code, p, 60);
    const { finalUnitAmount, amount } = G.discount;
    expect(l).toMatchObject({ finalUnitAmount, lineAmount: finalUnitAmount });
    expect(l.adjustments.map((a: { amount: number }) => a.amount)).toEqual([amount]);
  });

  it("a FLOOR 85 with 10 % instead: 5380 − 538 = 4842, lot floor 85 × 60 = 5100 → 5100 (FLOOR +258)", async () => {
    const p = await product();
    const { amount, discountBp, discount: cut, lift, finalUnitAmount } = G.floor;
    const floor = await pricelist({ kind: "FLOOR" }, [{ productCode: p, amount }]);
    const code = await channel(await pricelist({ tierMode: "GRADUATED" }, rowsG(p)), [floor]);
    await discount(code, p, discountBp);
    const l = await lineOf(code, p, 60);
    expect(l).toMatchObject({ finalUnitAmount, lineAmount: finalUnitAmount });
    expect(l.adjustments.map((a: { kind: string; amount: number }) => [a.kind, a.amount])).toEqual([
      ["DISCOUNT", cut],
      ["FLOOR", lift],
    ]);
  });
});

describe("tierMode and flatAmount as the API writes them", () => {
  it("a pricelist is VOLUME unless created GRADUATED; PATCH changes it", async () => {
    const list = await created("/v1/api/pricelist", { name: uid("L"), currency: "EUR" });
    expect(list.tierMode).toBe("VOLUME");
    const patched = await ok("PATCH", `/v1/api/pricelist/${list.id}`, { tierMode: "GRADUATED" });
    expect(patched.tierMode).toBe("GRADUATED");
    expect((await ok("GET", `/v1/api/pricelist/${list.id}`)).tierMode).toBe("GRADUATED");
  });

  it("an unknown tierMode → 400 naming body.tierMode", async () => {
    const res = await api("POST", "/v1/api/pricelist", {
      body: { name: uid("L"), currency: "EUR", tierMode: "STAIRS" },
    });
    expectProblem(res, 400, "VALIDATION_FAILED");
    expect(issuePaths(res)).toEqual(["body.tierMode"]);
  });

  it("GRADUATED is for SALES pricelists only → 400 naming body.tierMode", async () => {
    const res = await api("POST", "/v1/api/pricelist", {
      body: { name: uid("L"), currency: "EUR", kind: "FLOOR", tierMode: "GRADUATED" },
    });
    expectProblem(res, 400, "VALIDATION_FAILED");
    expect(issuePaths(res)).toEqual(["body.tierMode"]);
    expect(res.body.errors[0].message).toContain("SALES pricelists only");
  });

  it("flatAmount on a VOLUME list → 400 naming the row's field; nothing is written", async () => {
    const p = await product();
    const list = await pricelist({}, []);
    for (const prices of [
      [{ productCode: p, amount: 100, flatAmount: 5 }],
      [
        { productCode: p, amount: 100, flatAmount: 0, validFrom: "2030-01-01T00:00:00Z" },
        {
          productCode: p,
          minQuantity: 5,
          amount: 90,
          flatAmount: 7,
          validFrom: "2030-01-01T00:00:00Z",
        },
      ],
    ]) {
      const res = await api("PUT", `/v1/api/pricelist/${list}/prices`, { body: { prices } });
      expectProblem(res, 400, "VALIDATION_FAILED");
      expect(issuePaths(res)).toEqual([`body.prices.${prices.length - 1}.flatAmount`]);
      expect(res.body.errors[0].message).toContain("is VOLUME");
    }
    expect((await ok("GET", `/v1/api/pricelist/${list}/prices`)).data).toEqual([]);
  });

  it("flatAmount negative or not an integer → 400 naming it, never a 5xx", async () => {
    const p = await product();
    const list = await pricelist({ tierMode: "GRADUATED" });
    for (const flatAmount of [-1, 1.5, "5", null]) {
      const res = await api("PUT", `/v1/api/pricelist/${list}/prices`, {
        body: { prices: [{ productCode: p, amount: 100, flatAmount }] },
      });
      expectProblem(res, 400, "VALIDATION_FAILED");
      expect(issuePaths(res)).toEqual(["body.prices.0.flatAmount"]);
    }
  });

  it("a dated graduated row writes its flat amount on its timeline", async () => {
    const p = await product();
    const list = await pricelist({ tierMode: "GRADUATED" }, [{ productCode: p, amount: 100 }]);
    await ok("PUT", `/v1/api/pricelist/${list}/prices`, {
      prices: [{ productCode: p, amount: 100, flatAmount: 250, validFrom: "2030-01-01T00:00:00Z" }],
    });
    const rows = (await ok("GET", `/v1/api/pricelist/${list}/prices`)).data;
    expect(
      rows.map((r: { flatAmount: number; validFrom: string | null }) => [
        r.validFrom,
        r.flatAmount,
      ]),
    ).toEqual([
      [null, 0],
      ["2030-01-01T00:00:00.000Z", 250],
    ]);
    const code = await channel(list);
    const res = await api("POST", "/v1/api/prices/resolve", {
      body: {
        channelCode: code,
        at: "2030-06-01T00:00:00Z",
        lines: [{ productCode: p, quantity: 3 }],
      },
    });
    expect(res.body.lines[0].finalUnitAmount).toBe(550);
  });
});

describe("the linter on GRADUATED lists (docs/pricing-lint.md §14, §17)", () => {
  const lint = async (code: string, pricelistId: number) => {
    const res = await ok("GET", `/v1/api/pricing/lint?limit=100&filter.code=${code}`);
    return res.data.filter((f: { records: { kind: string; id?: number }[] }) =>
      f.records.some((r) => r.kind === "pricelist" && r.id === pricelistId),
    );
  };

  it("reports GRADUATED_FIRST_TIER for a first tier above 1, and no TIER_CLIFF", async () => {
    const p = await product();
    const rows = [
      { productCode: p, minQuantity: 5, amount: 100 },
      { productCode: p, minQuantity: 50, amount: 80 },
    ];
    const graduated = await pricelist({ tierMode: "GRADUATED" }, rows);
    const volume = await pricelist({}, rows);
    const [first] = await lint("GRADUATED_FIRST_TIER", graduated);
    expect(first).toMatchObject({ code: "GRADUATED_FIRST_TIER", severity: "WARNING" });
    expect(first.message).toContain(`first tier for product ${p} at quantity 5`);
    expect(await lint("GRADUATED_FIRST_TIER", volume)).toEqual([]);
    expect(await lint("TIER_CLIFF", graduated)).toEqual([]);
    expect(await lint("TIER_CLIFF", volume)).toHaveLength(1);
  });
});
