import { describe, expect, it } from "vitest";
import { CURRENCIES } from "../../src/core/currencies";
import { CURRENCY_EXPONENTS, exponentOf } from "../../src/pricing";
import { api, expectProblem, issuePaths, KEYS, roundTrips } from "../shared/helpers";

/**
 * The currencies' ISO 4217 exponents (src/pricing/currencies.ts; pricing rules v3 §3.1) and
 * GET /v1/api/currencies (docs/api/prices.md §16.1), through the real Worker.
 */

const byExponent = (exponent: number) =>
  [...CURRENCY_EXPONENTS].filter(([, e]) => e === exponent).map(([code]) => code);

describe("the exponent table", () => {
  it("has one exponent for exactly the accepted currencies", () => {
    expect(new Set(CURRENCY_EXPONENTS.keys())).toEqual(CURRENCIES);
    expect(CURRENCY_EXPONENTS.size).toBe(155);
  });

  it("follows ISO 4217: no minor unit, thousandths, and cents for every other code", () => {
    expect(byExponent(0)).toEqual(
      "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX VND VUV XAF XOF XPF".split(" "),
    );
    expect(byExponent(3)).toEqual("BHD IQD JOD KWD LYD OMR TND".split(" "));
    expect(byExponent(2)).toHaveLength(155 - 16 - 7);
    for (const code of ["EUR", "USD", "CHF", "GBP", "XCG", "ZWG", "SLE", "VED", "MGA", "MRU"]) {
      expect(exponentOf(code), code).toBe(2);
    }
  });

  it("knows no other code", () => {
    for (const code of ["ABC", "XXX", "XTS", "XAU", "CLF", "UYW", "ANG", "eur", ""]) {
      expect(exponentOf(code), code).toBeUndefined();
    }
  });
});

describe("GET /v1/api/currencies", () => {
  it("lists every accepted currency with its exponent, by code, without a D1 round trip", async () => {
    const res = await api("GET", "/v1/api/currencies?limit=100", { key: KEYS.read });
    expect(res.status).toBe(200);
    expect(res.body.data.slice(0, 3)).toEqual([
      { code: "AED", exponent: 2 },
      { code: "AFN", exponent: 2 },
      { code: "ALL", exponent: 2 },
    ]);
    expect(res.body.meta).toMatchObject({
      itemsPerPage: 100,
      totalItems: 155,
      totalPages: 2,
      sortBy: [["code", "ASC"]],
    });
    expect(roundTrips(res)).toBe(0);
    const rest = await api("GET", "/v1/api/currencies?limit=100&page=2");
    const all = [...res.body.data, ...rest.body.data];
    expect(all.map((c: { code: string }) => c.code)).toEqual([...CURRENCY_EXPONENTS.keys()]);
    expect(Object.fromEntries(all.map((c) => [c.code, c.exponent]))).toEqual(
      Object.fromEntries(CURRENCY_EXPONENTS),
    );
  });

  it("filters by code and by exponent, and sorts by exponent", async () => {
    const some = await api("GET", "/v1/api/currencies?filter.code=$in:KWD,EUR,JPY");
    expect(some.body.data).toEqual([
      { code: "EUR", exponent: 2 },
      { code: "JPY", exponent: 0 },
      { code: "KWD", exponent: 3 },
    ]);
    const one = await api("GET", "/v1/api/currencies?filter.code=CHF");
    expect(one.body.data).toEqual([{ code: "CHF", exponent: 2 }]);
    const thousandths = await api("GET", "/v1/api/currencies?filter.exponent=3");
    expect(thousandths.body.data.map((c: { code: string }) => c.code)).toEqual(byExponent(3));
    const sorted = await api("GET", "/v1/api/currencies?sortBy=exponent:DESC,code:ASC&limit=8");
    expect(sorted.body.data.map((c: { code: string }) => c.code)).toEqual([
      ...byExponent(3),
      "AED",
    ]);
    const unknown = await api("GET", "/v1/api/currencies?filter.code=ABC");
    expect(unknown.body).toMatchObject({ data: [], meta: { totalItems: 0 } });
  });

  it("refuses what the list does not allow, and a call without a key", async () => {
    const res = await api("GET", "/v1/api/currencies?filter.code=$null&sortBy=name:ASC&search=E");
    expect(issuePaths(res).sort()).toEqual(["query.filter.code", "query.search", "query.sortBy"]);
    expect(issuePaths(await api("GET", "/v1/api/currencies?filter.exponent=two"))).toEqual([
      "query.filter.exponent",
    ]);
    expectProblem(await api("GET", "/v1/api/currencies", { key: null }), 401, "UNAUTHORIZED");
  });
});
