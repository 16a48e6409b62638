import { beforeAll, describe, expect, it } from "vitest";
import {
  assignPricelistToChannel,
  createChannel,
  createPricelist,
  createProduct,
  setPrimaryPricelist,
} from "../factories";
import { api, expectProblem, KEYS } from "../shared/helpers";

/**
 * Dated price rows (docs/pricing-rules.md §17): the timeline rules of a price write, the rows
 * listed at a moment, and lookups, derived lists and floors judging rows at `at`.
 */

const NEW_YEAR = "2027-01-01T00:00:00.000Z";
const JUNE = "2026-06-01T00:00:00.000Z";
const SEPTEMBER = "2026-09-01T00:00:00.000Z";

const path = (id: number, query = "") => `/v1/api/pricelist/${id}/prices${query}`;

async function put(id: number, prices: object[]) {
  return api("PUT", path(id), { body: { prices } });
}

/** The rows as [amount, validFrom, validTo], in the list's order. */
async function rows(id: number, query = "") {
  const res = await api("GET", path(id, query ? `?${query}` : ""), { key: KEYS.read });
  expect(res.status).toBe(200);
  return (
    res.body.data as { amount: number; validFrom: string | null; validTo: string | null }[]
  ).map((row) => [row.amount, row.validFrom, row.validTo]);
}

const version = async () => {
  const res = await api("GET", "/v1/api/changes?limit=1", { key: KEYS.read });
  return res.body.next as number;
};

describe("writing dated rows: the timeline rules", () => {
  let list: number;
  let product: string;

  beforeAll(async () => {
    list = (await createPricelist()).id;
    product = (await createProduct()).code;
    expect((await put(list, [{ productCode: product, amount: 500 }])).body).toEqual({
      upserted: 1,
      closed: 0,
    });
  });

  it("cuts the row running at a new row's start; the new row takes its end", async () => {
    const res = await put(list, [{ productCode: product, amount: 519, validFrom: NEW_YEAR }]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ upserted: 1, closed: 1 });
    expect(await rows(list)).toEqual([
      [500, null, NEW_YEAR],
      [519, NEW_YEAR, null],
    ]);
  });

  it("re-sending the undated row writes nothing: it still ends where the next row begins", async () => {
    const before = await version();
    const res = await put(list, [{ productCode: product, amount: 500 }]);
    expect(res.body).toEqual({ upserted: 1, closed: 0 });
    expect(await version()).toBe(before);
    expect(await rows(list)).toEqual([
      [500, null, NEW_YEAR],
      [519, NEW_YEAR, null],
    ]);
  });

  it("a row with its own end keeps it, and leaves a gap before the next row", async () => {
    const res = await put(list, [
      { productCode: product, amount: 450, validFrom: JUNE, validTo: SEPTEMBER },
    ]);
    expect(res.body).toEqual({ upserted: 1, closed: 1 });
    expect(await rows(list)).toEqual([
      [500, null, JUNE],
      [450, JUNE, SEPTEMBER],
      [519, NEW_YEAR, null],
    ]);
  });

  it("a row without an end in a gap ends where the next row begins", async () => {
    const october = "2026-10-01T00:00:00.000Z";
    const res = await put(list, [{ productCode: product, amount: 470, validFrom: october }]);
    expect(res.body).toEqual({ upserted: 1, closed: 0 });
    expect((await rows(list)).at(2)).toEqual([470, october, NEW_YEAR]);
  });

  it("409 PRICE_ROWS_OVERLAP naming both intervals when a row would overlap; nothing written", async () => {
    const before = await rows(list);
    const res = await put(list, [
      { productCode: "unused", amount: 1 },
      {
        productCode: product,
        amount: 999,
        validFrom: "2026-08-01T00:00:00Z",
        validTo: "2027-02-01T00:00:00Z",
      },
    ]);
    // The unknown product is refused first (400), the overlap only once every code is known.
    expect(res.status).toBe(400);
    const overlap = await put(list, [
      {
        productCode: product,
        amount: 999,
        validFrom: "2026-08-01T00:00:00Z",
        validTo: "2027-02-01T00:00:00Z",
      },
    ]);
    expect(expectProblem(overlap, 409, "PRICE_ROWS_OVERLAP").detail).toBe(
      `prices of product ${product} from quantity 1 would overlap: the row written ` +
        "(2026-08-01T00:00:00.000Z to 2027-02-01T00:00:00.000Z) and the row stored " +
        "(2026-10-01T00:00:00.000Z to 2027-01-01T00:00:00.000Z); nothing was written",
    );
    expect(await rows(list)).toEqual(before);
  });

  it("lists the rows valid at `at` only", async () => {
    expect(await rows(list, "at=2026-07-15T00:00:00Z")).toEqual([[450, JUNE, SEPTEMBER]]);
    expect(await rows(list, `at=${NEW_YEAR}`)).toEqual([[519, NEW_YEAR, null]]);
    expect(await rows(list, "at=2026-09-15T00:00:00Z")).toEqual([]);
    const bad = await api("GET", path(list, "?at=soon"), { key: KEYS.read });
    expect(bad.status).toBe(400);
  });

  it("refuses a validTo not after validFrom, and the same row twice in one body", async () => {
    const backwards = await put(list, [
      { productCode: product, amount: 1, validFrom: NEW_YEAR, validTo: JUNE },
    ]);
    expect(backwards.status).toBe(400);
    const twice = await put(list, [
      { productCode: product, amount: 1, validFrom: NEW_YEAR },
      { productCode: product, amount: 2, validFrom: NEW_YEAR },
    ]);
    expect(twice.status).toBe(400);
    expect(twice.body.errors[0].message).toContain(`validFrom ${NEW_YEAR}`);
  });
});

describe("an undated row written after a dated one has started (docs/pricing-rules.md §17)", () => {
  const PAST = "2026-01-01T00:00:00.000Z";

  it("changes the price before that start, not today's, and answers 200", async () => {
    const channel = (await createChannel()).code;
    const product = (await createProduct()).code;
    const list = await createPricelist({ status: "ACTIVE" });
    await put(list.id, [
      { productCode: product, amount: 500 },
      { productCode: product, amount: 519, validFrom: PAST },
    ]);
    await setPrimaryPricelist(channel, list.id);
    // A nightly sync of undated rows sends a new amount after the dated row has started.
    const res = await put(list.id, [{ productCode: product, amount: 480 }]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ upserted: 1, closed: 0 });
    expect(await rows(list.id)).toEqual([
      [480, null, PAST],
      [519, PAST, null],
    ]);
    const price = async (at?: string) => {
      const answer = await api("POST", "/v1/api/prices/resolve", {
        key: KEYS.read,
        body: {
          channelCode: channel,
          ...(at ? { at } : {}),
          lines: [{ productCode: product, quantity: 1 }],
        },
      });
      expect(answer.status).toBe(200);
      return answer.body.lines[0].finalUnitAmount as number;
    };
    expect(await price()).toBe(519);
    expect(await price("2025-12-31T00:00:00Z")).toBe(480);
  });
});

describe("lookups at a moment", () => {
  const ch = { code: "" };
  const codes = { a: "", b: "" };
  let derived = 0;

  beforeAll(async () => {
    ch.code = (await createChannel()).code;
    codes.a = (await createProduct()).code;
    codes.b = (await createProduct()).code;
    const primary = await createPricelist({ status: "ACTIVE" });
    await put(primary.id, [
      { productCode: codes.a, amount: 500 },
      { productCode: codes.b, amount: 1000 },
      { productCode: codes.b, minQuantity: 10, amount: 900 },
      { productCode: codes.a, amount: 519, validFrom: NEW_YEAR },
      { productCode: codes.b, amount: 1039, validFrom: NEW_YEAR },
      { productCode: codes.b, minQuantity: 10, amount: 929, validFrom: NEW_YEAR },
    ]);
    await setPrimaryPricelist(ch.code, primary.id);
    const list = await createPricelist({
      status: "ACTIVE",
      priority: 5,
      derivation: { basePricelistId: primary.id, adjustmentBp: -1000 },
    });
    derived = list.id;
    const floor = await createPricelist({ kind: "FLOOR", status: "ACTIVE" });
    await put(floor.id, [{ productCode: codes.a, amount: 480, validFrom: NEW_YEAR }]);
    await assignPricelistToChannel(ch.code, floor.id);
  });

  const resolve = async (at: string, lines: [string, number][]) => {
    const res = await api("POST", "/v1/api/prices/resolve", {
      key: KEYS.read,
      body: {
        channelCode: ch.code,
        at,
        lines: lines.map(([productCode, quantity]) => ({ productCode, quantity })),
      },
    });
    expect(res.status).toBe(200);
    return res.body;
  };

  it("prices with the rows valid then, and the answer expires when a scheduled row starts", async () => {
    const before = await resolve("2026-12-31T23:59:59Z", [
      [codes.a, 1],
      [codes.b, 10],
    ]);
    expect(before.lines.map((l: { finalUnitAmount: number }) => l.finalUnitAmount)).toEqual([
      500, 900,
    ]);
    expect(before.validUntil).toBe(NEW_YEAR);
    const after = await resolve(NEW_YEAR, [
      [codes.a, 1],
      [codes.b, 10],
    ]);
    expect(after.lines.map((l: { finalUnitAmount: number }) => l.finalUnitAmount)).toEqual([
      519, 929,
    ]);
    expect(after.lines[1].tiers).toEqual([
      { minQuantity: 1, amount: 1039, priceUnit: 1, flatAmount: 0 },
      { minQuantity: 10, amount: 929, priceUnit: 1, flatAmount: 0 },
    ]);
    expect(after.validUntil).toBeNull();
  });

  it("a derived list derives from its base's rows valid then, and a floor's rows count from their start", async () => {
    // The derived list becomes the channel's primary: the old primary is only its base now.
    await setPrimaryPricelist(ch.code, derived);
    const explained = async (at: string) => {
      const res = await api("POST", "/v1/api/prices/resolve", {
        key: KEYS.read,
        body: {
          channelCode: ch.code,
          at,
          explain: true,
          lines: [{ productCode: codes.a, quantity: 1 }],
        },
      });
      return res.body.lines[0];
    };
    const before = await explained("2026-12-31T00:00:00Z");
    // 500 − 10 % = 450; the floor has no row yet.
    expect(before.finalUnitAmount).toBe(450);
    expect(before.source.derivedFrom).toMatchObject({ unitAmount: 500 });
    expect(before.explain.floors[0]).toMatchObject({ outcome: "NO_PRICE_FOR_PRODUCT" });
    const after = await explained(NEW_YEAR);
    // 519 − 10 % = 467.1 → 467; the floor's row of the new year is read (it does not lift a
    // price above its list price, docs/pricing-rules.md §14).
    expect(after.finalUnitAmount).toBe(467);
    expect(after.source.derivedFrom).toMatchObject({ unitAmount: 519 });
    expect(after.explain.floors[0]).toMatchObject({ outcome: "USED", amount: 480 });
  });
});
