import { describe, expect, it } from "vitest";
import { RATE_NOT_A_STRING } from "../../src/resources/exchange-rates/exchange-rates.schemas";
import { api, expectProblem, issuePaths, KEYS, roundTrips } from "../shared/helpers";
import { auditOf, pricingVersion } from "../shared/bulk-upsert";
import { head } from "../shared/webhook-helpers";

/**
 * Exchange rates through the real Worker (docs/api/prices.md §16.2, pricing rules v3 §3.2): the
 * bulk upsert by (from, to, validFrom) with decimal-string rates, the list with its derived
 * validTo, filters, sorts and ?at=, the key's GET and DELETE, the roles, the pricing version and
 * the audit trail. Every test uses pairs of its own, so none depends on another's data.
 */

type Rate = { from: string; to: string; rate: unknown; validFrom: string };

const put = (rates: unknown[], key: string = KEYS.admin) =>
  api("PUT", "/v1/api/exchange-rates", { body: { rates }, key });

const list = async (query: string, key: string = KEYS.admin) => {
  const res = await api("GET", `/v1/api/exchange-rates${query}`, { key });
  expect(res.status).toBe(200);
  return res.body as { data: any[]; meta: any; links: any };
};

/** The items of a list as [from, to, rate, validFrom, validTo]. */
const rows = (data: any[]) =>
  data.map((r) => [
    r.from,
    r.to,
    r.rate,
    r.validFrom.slice(0, 10),
    r.validTo?.slice(0, 10) ?? null,
  ]);

const JAN = "2027-01-01T00:00:00Z";
const FEB = "2027-02-01T00:00:00Z";

describe("PUT /v1/api/exchange-rates", () => {
  it("creates rates, answers counts, and lists them in normal form with their validTo", async () => {
    const res = await put([
      { from: "USD", to: "EUR", rate: "0.92", validFrom: JAN },
      { from: "USD", to: "EUR", rate: "0.900", validFrom: FEB },
      { from: "USD", to: "JPY", rate: "150.25", validFrom: "2027-01-01" },
      { from: "USD", to: "KWD", rate: "000.3075", validFrom: JAN },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ created: 4, updated: 0, unchanged: 0 });
    expect(roundTrips(res)).toBe(2);

    const page = await list("?filter.from=USD");
    expect(rows(page.data)).toEqual([
      ["USD", "EUR", "0.92", "2027-01-01", "2027-02-01"],
      ["USD", "EUR", "0.9", "2027-02-01", null],
      ["USD", "JPY", "150.25", "2027-01-01", null],
      ["USD", "KWD", "0.3075", "2027-01-01", null],
    ]);
    expect(page.data[0]).toEqual({
      from: "USD",
      to: "EUR",
      rate: "0.92",
      validFrom: "2027-01-01T00:00:00.000Z",
      validTo: "2027-02-01T00:00:00.000Z",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
    });
    expect(page.meta).toMatchObject({
      totalItems: 4,
      sortBy: [
        ["from", "ASC"],
        ["to", "ASC"],
        ["validFrom", "ASC"],
      ],
      filter: { from: "USD" },
    });
  });

  it("updates a changed rate, counts the same value unchanged, and writes nothing for it", async () => {
    const first = await put([
      { from: "GBP", to: "CHF", rate: "1.12", validFrom: JAN },
      { from: "GBP", to: "CHF", rate: "1.10", validFrom: FEB },
    ]);
    expect(first.body).toEqual({ created: 2, updated: 0, unchanged: 0 });

    const version = await pricingVersion();
    // The same values, written differently: still unchanged.
    const same = await put([
      { from: "GBP", to: "CHF", rate: "1.120", validFrom: "2027-01-01T01:00:00+01:00" },
      { from: "GBP", to: "CHF", rate: "01.1", validFrom: "2027-02-01" },
    ]);
    expect(same.status).toBe(200);
    expect(same.body).toEqual({ created: 0, updated: 0, unchanged: 2 });
    expect(roundTrips(same)).toBe(1);
    expect((await auditOf(same)).total).toBe(0);
    expect(await pricingVersion()).toBe(version);

    const moved = await put([
      { from: "GBP", to: "CHF", rate: "1.125", validFrom: JAN },
      { from: "GBP", to: "CHF", rate: "1.1", validFrom: FEB },
      { from: "GBP", to: "CHF", rate: "1.08", validFrom: "2027-03-01" },
    ]);
    expect(moved.body).toEqual({ created: 1, updated: 1, unchanged: 1 });
    expect(await pricingVersion()).toBeGreaterThan(version);

    const audit = await auditOf(moved);
    expect(audit.entries.map((e) => [e.entity, e.action, e.operation])).toEqual([
      ["exchangeRate", "INSERT", "upsertExchangeRates"],
      ["exchangeRate", "UPDATE", "upsertExchangeRates"],
    ]);
    // An update's entry holds the fields that changed.
    expect(audit.entries[1]).toMatchObject({
      before: { rate: "1.12" },
      after: { rate: "1.125" },
    });
    expect(audit.entries[0].after).toMatchObject({
      fromCurrency: "GBP",
      toCurrency: "CHF",
      validFrom: "2027-03-01T00:00:00.000Z",
      rate: "1.08",
    });

    const page = await list("?filter.from=GBP&filter.to=CHF");
    expect(rows(page.data)).toEqual([
      ["GBP", "CHF", "1.125", "2027-01-01", "2027-02-01"],
      ["GBP", "CHF", "1.1", "2027-02-01", "2027-03-01"],
      ["GBP", "CHF", "1.08", "2027-03-01", null],
    ]);
    expect(page.data[0].updatedAt > page.data[0].createdAt).toBe(true);
  });

  it("puts the rate change in the change feed as an exchangeRates event, every price dimension open", async () => {
    const cursor = await head();
    const res = await put([{ from: "SEK", to: "NOK", rate: "0.98", validFrom: JAN }]);
    expect(res.status).toBe(200);
    const changes = (await api("GET", `/v1/api/changes?after=${cursor}`)).body.data;
    expect(changes).toEqual([
      expect.objectContaining({
        event: "exchangeRates",
        entity: "exchangeRate",
        action: "INSERT",
        operation: "upsertExchangeRates",
        affects: {},
      }),
    ]);
  });

  describe("refuses bad rows with a 400 naming each, and writes nothing", () => {
    const row = (over: Partial<Rate>) => ({
      from: "AUD",
      to: "NZD",
      rate: "1.08",
      validFrom: JAN,
      ...over,
    });

    it.each([
      ["a JSON fraction", { rate: 0.92 }, "rate", RATE_NOT_A_STRING],
      ["a JSON integer", { rate: 1 }, "rate", RATE_NOT_A_STRING],
      ["zero", { rate: "0" }, "rate", "must be greater than 0"],
      ["zero with decimals", { rate: "0.0000" }, "rate", "must be greater than 0"],
      ["a negative rate", { rate: "-0.92" }, "rate", "must be greater than 0"],
      [
        "a rate too precise",
        { rate: "0.9200000000001" },
        "rate",
        "has 13 significant digits; at most 12 are allowed",
      ],
      [
        "an exponent",
        { rate: "9.2e-1" },
        "rate",
        'must be a decimal number written with digits and at most one decimal point, such as "0.92" (no sign, exponent, spaces or thousands separators)',
      ],
      ["null", { rate: null }, "rate", "must be a string, not null"],
      [
        "the same currency twice",
        { from: "EUR", to: "EUR" },
        "to",
        "must differ from from (EUR): a rate converts one currency into another",
      ],
      [
        "an unknown currency",
        { from: "ABC" },
        "from",
        "must be the ISO 4217 code of a currency in circulation, such as EUR",
      ],
      ["a malformed currency", { to: "eur" }, "to", "must be an ISO 4217 code such as EUR"],
      [
        "a bad instant",
        { validFrom: "2027-13-01" },
        "validFrom",
        "must be an ISO 8601 date-time with zone, or a date, in the years 0000-9999 UTC",
      ],
    ])("%s", async (_, over, field, message) => {
      const good = row({ from: "AUD", to: "SGD" });
      const res = await put([good, row(over as Partial<Rate>)]);
      const problem = expectProblem(res, 400, "VALIDATION_FAILED");
      expect(problem.errors).toEqual([{ path: `body.rates.1.${field}`, message }]);
      expect(roundTrips(res)).toBe(0);
      expect((await list("?filter.from=AUD")).data).toEqual([]);
    });

    it("names every bad row of a body", async () => {
      const res = await put([
        row({ rate: 0.92 }),
        row({ from: "NZD", rate: "1.1" }),
        row({ from: "CAD", rate: "0" }),
      ]);
      expect(issuePaths(res)).toEqual([
        "body.rates.0.rate",
        "body.rates.1.to",
        "body.rates.2.rate",
      ]);
    });

    it("refuses a key repeated in one body, also when the instant is written differently", async () => {
      const res = await put([
        row({}),
        row({ from: "CAD" }),
        row({ rate: "1.09", validFrom: "2027-01-01" }),
      ]);
      expect(expectProblem(res, 400, "VALIDATION_FAILED").errors).toEqual([
        {
          path: "body.rates.2.validFrom",
          message: "repeats the rate AUD→NZD from 2027-01-01T00:00:00.000Z of row 0",
        },
      ]);
    });

    it("refuses missing and unknown fields, an empty body and more than 1000 rows", async () => {
      const missing = await put([{ from: "AUD", to: "NZD" }]);
      expect(expectProblem(missing, 400, "VALIDATION_FAILED").errors).toEqual([
        { path: "body.rates.0.rate", message: "is required" },
        { path: "body.rates.0.validFrom", message: "is required" },
      ]);
      expect(
        issuePaths(await put([row({}), { ...row({ validFrom: FEB }), validTo: FEB }])),
      ).toEqual(["body.rates.1.validTo"]);
      expect(issuePaths(await put([]))).toEqual(["body.rates"]);
      const many = Array.from({ length: 1001 }, (_, i) =>
        row({ validFrom: new Date(Date.UTC(2027, 0, 1) + i * 86_400_000).toISOString() }),
      );
      expect(issuePaths(await put(many))).toEqual(["body.rates"]);
      const rates = await api("PUT", "/v1/api/exchange-rates", { body: { rate: [] } });
      expect(issuePaths(rates)).toEqual(expect.arrayContaining(["body.rates"]));
    });
  });
});

describe("GET /v1/api/exchange-rates", () => {
  /** Worked example B's rates (pricing rules v3), on a pair of their own. */
  const seed = async () => {
    const res = await put([
      { from: "CHF", to: "EUR", rate: "0.92", validFrom: JAN },
      { from: "CHF", to: "EUR", rate: "0.90", validFrom: FEB },
      { from: "CHF", to: "JPY", rate: "150.25", validFrom: JAN },
      { from: "CHF", to: "KWD", rate: "0.3075", validFrom: JAN },
      { from: "CHF", to: "KWD", rate: "0.31", validFrom: "2027-03-01" },
      { from: "EUR", to: "CHF", rate: "1.08", validFrom: "2026-06-01" },
    ]);
    expect(res.status).toBe(200);
  };

  it("?at= gives the rate of each pair in force then", async () => {
    await seed();
    const mid = await list("?filter.from=CHF&at=2027-01-15T00:00:00Z");
    expect(rows(mid.data)).toEqual([
      ["CHF", "EUR", "0.92", "2027-01-01", "2027-02-01"],
      ["CHF", "JPY", "150.25", "2027-01-01", null],
      ["CHF", "KWD", "0.3075", "2027-01-01", "2027-03-01"],
    ]);
    expect(mid.meta.totalItems).toBe(3);
    const later = await list("?filter.from=CHF&at=2027-02-15");
    expect(rows(later.data).map((r) => r.slice(0, 3))).toEqual([
      ["CHF", "EUR", "0.9"],
      ["CHF", "JPY", "150.25"],
      ["CHF", "KWD", "0.3075"],
    ]);
    // The instant of a validFrom is in force from it on.
    const edge = await list("?filter.from=CHF&filter.to=EUR&at=2027-02-01T00:00:00Z");
    expect(rows(edge.data).map((r) => r[2])).toEqual(["0.9"]);
    const before = await list("?filter.from=CHF&at=2026-12-31T23:59:59Z");
    expect(before.data).toEqual([]);
    expect(before.meta.totalItems).toBe(0);
    // The reverse pair is its own: no inversion.
    const reverse = await list("?filter.from=EUR&filter.to=CHF&at=2027-01-15");
    expect(rows(reverse.data)).toEqual([["EUR", "CHF", "1.08", "2026-06-01", null]]);
  });

  it("refuses a bad ?at= with a 400 naming it", async () => {
    const res = await api("GET", "/v1/api/exchange-rates?at=tomorrow");
    expect(expectProblem(res, 400, "VALIDATION_FAILED").errors).toEqual([
      {
        path: "query.at",
        message: "must be an ISO 8601 date-time with zone, or a date, in the years 0000-9999 UTC",
      },
    ]);
  });

  it("sorts by validFrom, filters by from and to, and refuses what the list does not allow", async () => {
    await put([
      { from: "DKK", to: "SEK", rate: "1.5", validFrom: FEB },
      { from: "DKK", to: "NOK", rate: "1.55", validFrom: "2027-03-01" },
      { from: "DKK", to: "SEK", rate: "1.48", validFrom: JAN },
    ]);
    const byDate = await list("?filter.from=DKK&sortBy=validFrom:DESC");
    expect(rows(byDate.data).map((r) => [r[1], r[3]])).toEqual([
      ["NOK", "2027-03-01"],
      ["SEK", "2027-02-01"],
      ["SEK", "2027-01-01"],
    ]);
    const paged = await list("?filter.from=DKK&sortBy=validFrom:ASC&limit=2&page=2");
    expect(rows(paged.data).map((r) => r[3])).toEqual(["2027-03-01"]);
    expect(paged.meta).toMatchObject({ totalItems: 3, totalPages: 2, currentPage: 2 });
    const sek = await list("?filter.from=DKK&filter.to=SEK");
    expect(rows(sek.data).map((r) => r[2])).toEqual(["1.48", "1.5"]);

    const bad = await api("GET", "/v1/api/exchange-rates?sortBy=rate:ASC&filter.from=$in:DKK,SEK");
    expect(issuePaths(bad).sort()).toEqual(["query.filter.from", "query.sortBy"]);
    expect(issuePaths(await api("GET", "/v1/api/exchange-rates?filter.rate=1"))).toEqual([
      "query.filter.rate",
    ]);
  });

  it("answers read keys, and 401 without a key", async () => {
    expect((await api("GET", "/v1/api/exchange-rates", { key: KEYS.read })).status).toBe(200);
    expectProblem(await api("GET", "/v1/api/exchange-rates", { key: null }), 401, "UNAUTHORIZED");
  });
});

describe("one rate by its key", () => {
  const path = (from: string, to: string, validFrom: string) =>
    `/v1/api/exchange-rates/${from}/${to}/${validFrom}`;

  it("GET answers it with its validTo; DELETE removes it and the previous rate holds on", async () => {
    await put([
      { from: "HKD", to: "SGD", rate: "0.17", validFrom: JAN },
      { from: "HKD", to: "SGD", rate: "0.171", validFrom: FEB },
      { from: "HKD", to: "SGD", rate: "0.172", validFrom: "2027-03-01" },
    ]);
    const got = await api("GET", path("HKD", "SGD", "2027-01-01"), { key: KEYS.read });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      from: "HKD",
      to: "SGD",
      rate: "0.17",
      validFrom: "2027-01-01T00:00:00.000Z",
      validTo: "2027-02-01T00:00:00.000Z",
    });

    const version = await pricingVersion();
    const removed = await api("DELETE", path("HKD", "SGD", encodeURIComponent(FEB)));
    expect(removed.status).toBe(204);
    expect(await pricingVersion()).toBeGreaterThan(version);
    const audit = await auditOf(removed);
    expect(audit.entries.map((e) => [e.entity, e.action, e.before.rate, e.after])).toEqual([
      ["exchangeRate", "DELETE", "0.171", null],
    ]);
    const page = await list("?filter.from=HKD");
    expect(rows(page.data)).toEqual([
      ["HKD", "SGD", "0.17", "2027-01-01", "2027-03-01"],
      ["HKD", "SGD", "0.172", "2027-03-01", null],
    ]);

    const again = await api("DELETE", path("HKD", "SGD", FEB));
    expect(expectProblem(again, 404, "NOT_FOUND").detail).toBe(
      "exchange rate HKD→SGD from 2027-02-01T00:00:00.000Z not found",
    );
    expectProblem(await api("GET", path("HKD", "SGD", FEB)), 404, "NOT_FOUND");
  });

  it("refuses a bad key with a 400 naming each part", async () => {
    const res = await api("GET", path("ABC", "sgd", "yesterday"));
    expect(issuePaths(res).sort()).toEqual(["path.from", "path.to", "path.validFrom"]);
  });
});

describe("roles", () => {
  it("a read key cannot write rates (403), a missing key is 401", async () => {
    const body = [{ from: "MXN", to: "USD", rate: "0.05", validFrom: JAN }];
    const res = await put(body, KEYS.read);
    expect(expectProblem(res, 403, "FORBIDDEN").detail).toBe(
      "a read key cannot make changes; use an admin key",
    );
    expectProblem(
      await api("DELETE", `/v1/api/exchange-rates/MXN/USD/2027-01-01`, { key: KEYS.read }),
      403,
      "FORBIDDEN",
    );
    expectProblem(
      await api("PUT", "/v1/api/exchange-rates", { body: { rates: body }, key: null }),
      401,
      "UNAUTHORIZED",
    );
    expect((await list("?filter.from=MXN")).data).toEqual([]);
  });
});
