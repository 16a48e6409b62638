import { describe, expect, it, vi } from "vitest";
import { createPricelist, createProduct } from "../factories";
import { api, expectProblem } from "../shared/helpers";

/**
 * Flat amounts in change requests (docs/pricing-rules.md §29, docs/api/change-requests.md §17.1):
 * a VOLUME pricelist takes no flat amount, through a SET_PRICES item as through its row write
 * (test/prices/graduated.test.ts). Refused at create, at PATCH, and at submit when the list became
 * VOLUME after the request was written; nothing is written. ADJUST_PRICES adjusts a VOLUME list's
 * flat amounts of 0 to 0, so it has nothing to refuse.
 */

// A submit prices the request's impact: seconds on a loaded machine.
vi.setConfig({ testTimeout: 30_000 });

const base = "/v1/api/change-requests";
const VOLUME_MESSAGE = (id: number) =>
  `must be 0: pricelist ${id} is VOLUME (flat amounts are for GRADUATED pricelists)`;

/** A list (VOLUME unless told) with P at 100 from 1 and 90 from 10. */
async function listWith(tierMode: "VOLUME" | "GRADUATED" = "VOLUME") {
  const product = (await createProduct()).code as string;
  const list = (await createPricelist({ status: "ACTIVE", tierMode })).id as number;
  const rows = [
    { productCode: product, amount: 100 },
    { productCode: product, minQuantity: 10, amount: 90 },
  ];
  const put = await api("PUT", `/v1/api/pricelist/${list}/prices`, { body: { prices: rows } });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  return { list, product };
}

const setPrices = (list: number, rows: object[]) => ({
  title: "Flat amounts",
  effectiveAt: "2030-01-01T00:00:00.000Z",
  items: [{ kind: "SET_PRICES", pricelistId: list, rows }],
});

/** The ids of the change requests that exist. */
async function requestIds() {
  const res = await api("GET", `${base}?limit=1000`);
  expect(res.status).toBe(200);
  return res.body.data.map((r: { id: number }) => r.id) as number[];
}

describe("a SET_PRICES item's flatAmount on a VOLUME pricelist", () => {
  it("is refused at create: 400 naming the row's field in a sentence, nothing written", async () => {
    const { list, product } = await listWith();
    const before = await requestIds();
    const res = await api("POST", base, {
      body: setPrices(list, [
        { productCode: product, amount: 95 },
        { productCode: product, minQuantity: 10, amount: 85, flatAmount: 500 },
      ]),
    });
    const problem = expectProblem(res, 400, "VALIDATION_FAILED");
    expect(problem.errors).toEqual([
      { path: "body.items.0.rows.1.flatAmount", message: VOLUME_MESSAGE(list) },
    ]);
    expect(await requestIds()).toEqual(before);
  });

  it("takes a flatAmount of 0 or none on a VOLUME list, and any on a GRADUATED one", async () => {
    const volume = await listWith();
    const zero = await api("POST", base, {
      body: setPrices(volume.list, [
        { productCode: volume.product, amount: 95, flatAmount: 0 },
        { productCode: volume.product, minQuantity: 10, amount: 85 },
      ]),
    });
    expect(zero.status, JSON.stringify(zero.body)).toBe(201);
    const graduated = await listWith("GRADUATED");
    const flat = await api("POST", base, {
      body: setPrices(graduated.list, [
        { productCode: graduated.product, minQuantity: 10, amount: 85, flatAmount: 500 },
      ]),
    });
    expect(flat.status, JSON.stringify(flat.body)).toBe(201);
    expect(flat.body.items[0].rows[0]).toMatchObject({ flatAmount: 500 });
  });

  it("is refused at PATCH, the request left as it was", async () => {
    const { list, product } = await listWith();
    const draft = await api("POST", base, {
      body: setPrices(list, [{ productCode: product, amount: 95 }]),
    });
    expect(draft.status).toBe(201);
    const res = await api("PATCH", `${base}/${draft.body.id}`, {
      body: {
        items: [
          {
            kind: "SET_PRICES",
            pricelistId: list,
            rows: [{ productCode: product, amount: 95, flatAmount: 1 }],
          },
        ],
      },
    });
    expect(expectProblem(res, 400, "VALIDATION_FAILED").errors).toEqual([
      { path: "body.items.0.rows.0.flatAmount", message: VOLUME_MESSAGE(list) },
    ]);
    const after = await api("GET", `${base}/${draft.body.id}`);
    expect(after.body.items).toEqual(draft.body.items);
    expect(after.body.updatedAt).toBe(draft.body.updatedAt);
  });

  it("is refused at submit when the list became VOLUME after the request was written", async () => {
    const { list, product } = await listWith("GRADUATED");
    const draft = await api("POST", base, {
      body: setPrices(list, [{ productCode: product, minQuantity: 10, amount: 85, flatAmount: 7 }]),
    });
    expect(draft.status, JSON.stringify(draft.body)).toBe(201);
    // No stored row has a flat amount, so the list may go back to VOLUME (§29).
    const patched = await api("PATCH", `/v1/api/pricelist/${list}`, {
      body: { tierMode: "VOLUME" },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const res = await api("POST", `${base}/${draft.body.id}/submit`);
    expect(expectProblem(res, 400, "VALIDATION_FAILED").errors).toEqual([
      { path: "items.0.rows.0.flatAmount", message: VOLUME_MESSAGE(list) },
    ]);
    const after = await api("GET", `${base}/${draft.body.id}`);
    expect(after.body).toMatchObject({ status: "DRAFT", submittedAt: null });
    const rows = await api("GET", `/v1/api/pricelist/${list}/prices`);
    expect(rows.body.data.map((r: { flatAmount: number }) => r.flatAmount)).toEqual([0, 0]);
  });
});
