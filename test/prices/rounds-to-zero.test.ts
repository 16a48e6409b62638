import { beforeAll, describe, expect, it } from "vitest";
import { api, created, uid } from "../shared/helpers";

/**
 * A derived amount that rounds to 0 from a positive base is no price (docs/pricing-rules.md §19,
 * §3.7): the line falls to the next list or answers NO_PRICE, explain says ROUNDS_TO_ZERO; and
 * the linter names the rates that do it (RATE_ROUNDS_TO_ZERO, docs/pricing-lint.md §16). Through
 * the real Worker; this file's storage is its own, so the rates of its pairs are only its own.
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
  const code = (await created("/v1/api/channel", { code: uid("CH"), name: "Channel" }))
    .code as string;
  await ok("PUT", `/v1/api/channel/${code}/pricelist/primary`, { pricelistId: primary });
  for (const id of others)
    await ok("POST", `/v1/api/channel/${code}/pricelist`, { pricelistId: id });
  return code;
}

async function lineOf(channelCode: string, productCode: string, quantity = 1) {
  const res = await api("POST", "/v1/api/prices/resolve", {
    body: { channelCode, lines: [{ productCode, quantity }], explain: true },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.lines[0];
}

const putRate = (from: string, to: string, rate: string, validFrom = "2020-01-01T00:00:00Z") =>
  ok("PUT", "/v1/api/exchange-rates", { rates: [{ from, to, rate, validFrom }] });

describe("a derived amount rounded to 0 from a positive base (docs/pricing-rules.md §19)", () => {
  const t = { p: "", p0: "", base: 0, derived: 0, only: "", fallback: "", fallbackList: 0 };

  beforeAll(async () => {
    t.p = await product();
    t.p0 = await product();
    t.base = await pricelist({ currency: "USD" }, [
      { productCode: t.p, amount: 1000 },
      { productCode: t.p0, amount: 0 },
    ]);
    t.derived = await pricelist({
      currency: "GBP",
      derivation: { basePricelistId: t.base, adjustmentBp: 0 },
    });
    await putRate("USD", "GBP", "0.000000000001");
    t.only = await channel(t.derived);
    t.fallbackList = await pricelist({ currency: "GBP" }, [{ productCode: t.p, amount: 777 }]);
    t.fallback = await channel(t.derived, [t.fallbackList]);
  });

  it("is NO_PRICE, not 0 with status OK; explain says ROUNDS_TO_ZERO with the tier and its base", async () => {
    const line = await lineOf(t.only, t.p);
    expect(line.status).toBe("NO_PRICE");
    expect(line.finalUnitAmount ?? null).toBeNull();
    expect(line.explain.pricelists).toEqual([
      expect.objectContaining({
        pricelistId: t.derived,
        outcome: "ROUNDS_TO_ZERO",
        tierMinQuantity: 1,
        amount: 0,
        derivedFrom: {
          pricelistId: t.base,
          unitAmount: 1000,
          exchangeRate: expect.objectContaining({ from: "USD", to: "GBP", rate: "0.000000000001" }),
        },
      }),
    ]);
  });

  it("lets the line fall to the next list that has a price", async () => {
    const line = await lineOf(t.fallback, t.p);
    expect(line.status).toBe("OK");
    expect(line.finalUnitAmount).toBe(777);
    expect(line.source.pricelistId).toBe(t.fallbackList);
    const outcomes = Object.fromEntries(
      line.explain.pricelists.map((p: { pricelistId: number; outcome: string }) => [
        p.pricelistId,
        p.outcome,
      ]),
    );
    expect(outcomes).toEqual({ [t.derived]: "ROUNDS_TO_ZERO", [t.fallbackList]: "USED" });
  });

  it("a base amount of 0 still derives to a price of 0", async () => {
    const line = await lineOf(t.only, t.p0);
    expect(line.status).toBe("OK");
    expect(line.finalUnitAmount).toBe(0);
  });

  it("in one currency too: 1 − 60 % rounds to 0, while 2 − 60 % is 1", async () => {
    const [one, two] = [await product(), await product()];
    const base = await pricelist({}, [
      { productCode: one, amount: 1 },
      { productCode: two, amount: 2 },
    ]);
    const cut = await pricelist({ derivation: { basePricelistId: base, adjustmentBp: -6000 } });
    const ch = await channel(cut);
    const zero = await lineOf(ch, one);
    expect(zero.status).toBe("NO_PRICE");
    expect(zero.explain.pricelists[0].outcome).toBe("ROUNDS_TO_ZERO");
    const priced = await lineOf(ch, two);
    expect(priced.status).toBe("OK");
    expect(priced.finalUnitAmount).toBe(1);
  });

  it("a chain keeps it: a later step does not make the 0 a price", async () => {
    const p = await product();
    const base = await pricelist({ currency: "USD" }, [{ productCode: p, amount: 1000 }]);
    const middle = await pricelist({
      currency: "GBP",
      derivation: { basePricelistId: base, adjustmentBp: 0 },
    });
    const top = await pricelist({
      currency: "GBP",
      derivation: { basePricelistId: middle, adjustmentBp: 5000 },
    });
    const line = await lineOf(await channel(top), p);
    expect(line.status).toBe("NO_PRICE");
    expect(line.explain.pricelists[0].outcome).toBe("ROUNDS_TO_ZERO");
  });
});

interface Finding {
  code: string;
  severity: string;
  message: string;
  records: { kind: string; id?: number; code?: string }[];
}

async function rateFindings(): Promise<Finding[]> {
  const res = await api("GET", "/v1/api/pricing/lint?limit=100&filter.code=RATE_ROUNDS_TO_ZERO");
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

const naming = async (id: number) =>
  (await rateFindings()).filter((f) =>
    f.records.some((r) => r.kind === "pricelist" && r.id === id),
  );

describe("RATE_ROUNDS_TO_ZERO (docs/pricing-lint.md §16)", () => {
  it("names the rate that turns the base's smallest price into 0, and not a rate that does not", async () => {
    const [small, large] = [await product(), await product()];
    const base = await pricelist({ currency: "CHF" }, [
      { productCode: large, amount: 5_000_000 },
      { productCode: small, amount: 250 },
    ]);
    const list = await pricelist({
      currency: "JPY",
      derivation: { basePricelistId: base, adjustmentBp: 0 },
    });
    // CHF → JPY: 250 × 0.0001 / 100 = 0.00025 yen: 0.
    await putRate("CHF", "JPY", "0.0001");
    expect(await naming(list)).toEqual([
      {
        code: "RATE_ROUNDS_TO_ZERO",
        severity: "ERROR",
        message:
          `exchange rate CHF → JPY "0.0001" (in force) turns pricelist ${base}'s price 250 of ` +
          `product ${small} into 0 in pricelist ${list}: its lines for the products so derived ` +
          "answer NO_PRICE (explain ROUNDS_TO_ZERO); check the rate (PUT /v1/api/exchange-rates)",
        records: [
          { kind: "pricelist", id: list },
          { kind: "pricelist", id: base },
          { kind: "product", code: small },
        ],
      },
    ]);
    // The rate corrected: 250 × 160 / 100 = 400 yen.
    await putRate("CHF", "JPY", "160");
    expect(await naming(list)).toEqual([]);
    // A later rate that would do it is named before it starts, with its start.
    await putRate("CHF", "JPY", "0.00000001", "2990-01-01T00:00:00Z");
    const [later] = await naming(list);
    expect(later!.message).toContain(
      'exchange rate CHF → JPY "0.00000001" (from 2990-01-01T00:00:00.000Z) turns',
    );
  });

  it("judges the step's ending too, and stays silent when the smallest price survives", async () => {
    const p = await product();
    const base = await pricelist({ currency: "SEK" }, [{ productCode: p, amount: 100 }]);
    // 100 × 0.1 = 10 öre → NEAREST step 100 ending 0: 0.
    const ending = await pricelist({
      currency: "NOK",
      derivation: {
        basePricelistId: base,
        adjustmentBp: 0,
        rounding: { mode: "NEAREST", step: 100, ending: 0 },
      },
    });
    const plain = await pricelist({
      currency: "DKK",
      derivation: { basePricelistId: base, adjustmentBp: 0 },
    });
    await putRate("SEK", "NOK", "0.1");
    await putRate("SEK", "DKK", "0.1");
    expect((await naming(ending)).map((f) => f.code)).toEqual(["RATE_ROUNDS_TO_ZERO"]);
    expect(await naming(plain)).toEqual([]);
    expect((await lineOf(await channel(ending), p)).status).toBe("NO_PRICE");
    expect((await lineOf(await channel(plain), p)).finalUnitAmount).toBe(10);
  });
});
