import { describe, expect, it } from "vitest";
import { createChannel, createPricelist, createProduct, setPrimaryPricelist } from "../factories";
import { api, expectProblem } from "../shared/helpers";

/**
 * The limits of a change request (docs/api/change-requests.md §17.7) through the real Worker: an
 * adjusted amount past 2^53 − 1 is a 400 naming the item and the tier, never a 500; the impact's
 * changes in basis points are exact integers however large the rise (§17.3).
 */

const AUTHOR = "test-writer-key-95";
const MAX = Number.MAX_SAFE_INTEGER;
const base = "/v1/api/change-requests";

/** An ACTIVE list, primary in a channel of its own, with `prices`. */
async function listWith(prices: { productCode: string; amount: number; minQuantity?: number }[]) {
  const list = (await createPricelist({ status: "ACTIVE" })).id as number;
  await setPrimaryPricelist((await createChannel()).code as string, list);
  const put = await api("PUT", `/v1/api/pricelist/${list}/prices`, { body: { prices } });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  return list;
}

async function draft(items: unknown[]) {
  const res = await api("POST", base, {
    key: AUTHOR,
    body: { title: "Limits", effectiveAt: "2027-01-01T00:00:00Z", items },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as number;
}

const rowsOf = async (list: number) =>
  (await api("GET", `/v1/api/pricelist/${list}/prices?limit=100`)).body.data.map(
    (r: { productCode: string; minQuantity: number; amount: number; validTo: string | null }) => [
      r.productCode,
      r.minQuantity,
      r.amount,
      r.validTo,
    ],
  );

describe("a change request past 2^53 − 1 (docs/api/change-requests.md §17.7)", () => {
  it("400 at submit on the ADJUST_PRICES item naming the product and tier; still DRAFT, nothing written", async () => {
    const [small, huge] = [(await createProduct()).code, (await createProduct()).code];
    const other = await listWith([{ productCode: small, amount: 500 }]);
    const list = await listWith([
      { productCode: small, amount: 500 },
      { productCode: huge, minQuantity: 10, amount: 9_000_000_000_000_000 },
    ]);
    const before = await rowsOf(list);
    const id = await draft([
      { kind: "SET_PRICES", pricelistId: other, rows: [{ productCode: small, amount: 600 }] },
      { kind: "ADJUST_PRICES", pricelistId: list, adjustmentBp: 100 },
    ]);
    const res = await api("POST", `${base}/${id}/submit`, { key: AUTHOR });
    expect(expectProblem(res, 400, "VALIDATION_FAILED").errors).toEqual([
      {
        path: "items.1.adjustmentBp",
        message:
          `would take the price of product ${huge} from quantity 10 past 9007199254740991 ` +
          "minor units (2^53 − 1), the largest amount a price can have",
      },
    ]);
    expect((await api("GET", `${base}/${id}`, { key: AUTHOR })).body).toMatchObject({
      status: "DRAFT",
      impact: null,
    });
    expect(await rowsOf(list)).toEqual(before);
    expect(await rowsOf(other)).toEqual([[small, 1, 500, null]]);
  });

  it("the impact's maxRaiseBp is an exact integer: a rise past 2^53 − 1 bp counts as 2^53 − 1", async () => {
    const product = (await createProduct()).code;
    const list = await listWith([{ productCode: product, amount: 5 }]);
    const id = await draft([
      { kind: "SET_PRICES", pricelistId: list, rows: [{ productCode: product, amount: MAX }] },
    ]);
    const res = await api("POST", `${base}/${id}/submit`, { key: AUTHOR });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // (MAX − 5) × 10000 / 5 is about 1.8 × 10^19: answered as 2^53 − 1, not a rounded float.
    expect(res.body.impact).toMatchObject({ pricesChanged: 1, maxRaiseBp: MAX, maxCutBp: 0 });
    expect(Number.isSafeInteger(res.body.impact.maxRaiseBp)).toBe(true);
  });
});
