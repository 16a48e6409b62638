import { beforeAll, describe, expect, it } from "vitest";
import { createPricelist, createProduct } from "../factories";
import { api, expectProblem } from "../shared/helpers";

/**
 * The lint list's record filters (docs/pricing-lint.md §12): `filter.pricelistId` and
 * `filter.productCode` keep the findings that name one of the values, `$not` those that name
 * none. Two lists with a tier cliff each, on two products; the storage is shared by the file, so
 * assertions look only at the findings that name these records.
 */

const PATH = "/v1/api/pricing/lint";
let lists: { id: number }[];
let products: { code: string }[];

async function cliff(list: { id: number }, product: { code: string }) {
  const res = await api("PUT", `/v1/api/pricelist/${list.id}/prices`, {
    body: {
      prices: [
        { productCode: product.code, amount: 100 },
        { productCode: product.code, minQuantity: 50, amount: 80 },
      ],
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
}

beforeAll(async () => {
  products = [await createProduct(), await createProduct()];
  lists = [
    await createPricelist({ status: "ACTIVE" }),
    await createPricelist({ status: "ACTIVE" }),
  ];
  await cliff(lists[0]!, products[0]!);
  await cliff(lists[1]!, products[0]!);
  await cliff(lists[1]!, products[1]!);
});

/** [pricelist id, product code] of each TIER_CLIFF the query keeps among this file's records. */
async function cliffs(query: string): Promise<[number, string][]> {
  const res = await api("GET", `${PATH}?limit=100&filter.code=TIER_CLIFF&${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const mine = new Set<string | number>([
    ...lists.map((l) => l.id),
    ...products.map((p) => p.code),
  ]);
  return res.body.data
    .filter((f: any) => f.records.every((r: any) => mine.has(r.id ?? r.code)))
    .map((f: any) => [f.records[0].id, f.records[1].code]);
}

describe("GET /v1/api/pricing/lint filtered by the records a finding names", () => {
  it("filter.pricelistId keeps the findings of that list, $in of several", async () => {
    const [a, b] = lists as [{ id: number }, { id: number }];
    const [p, q] = products.map((x) => x.code) as [string, string];
    expect(await cliffs(`filter.pricelistId=${a.id}`)).toEqual([[a.id, p]]);
    expect(await cliffs(`filter.pricelistId=${b.id}`)).toEqual([
      [b.id, p],
      [b.id, q],
    ]);
    expect(await cliffs(`filter.pricelistId=$in:${a.id},${b.id}`)).toHaveLength(3);
  });

  it("filter.productCode keeps the findings of that product, with the list filter too", async () => {
    const [a, b] = lists as [{ id: number }, { id: number }];
    const [p, q] = products.map((x) => x.code) as [string, string];
    expect(await cliffs(`filter.productCode=${q}`)).toEqual([[b.id, q]]);
    expect(await cliffs(`filter.productCode=${p}`)).toEqual([
      [a.id, p],
      [b.id, p],
    ]);
    expect(await cliffs(`filter.productCode=${p}&filter.pricelistId=${b.id}`)).toEqual([[b.id, p]]);
  });

  it("$not keeps the findings that name none of the values; a finding naming no product is in neither", async () => {
    const [a, b] = lists as [{ id: number }, { id: number }];
    const [, q] = products.map((x) => x.code) as [string, string];
    expect(await cliffs(`filter.pricelistId=$not:${a.id}`)).toHaveLength(2);
    expect(
      await cliffs(`filter.productCode=$not:$in:${q}&filter.pricelistId=${b.id}`),
    ).toHaveLength(1);
    // A channel without a primary list names no product: $not:product does not keep it either.
    const all = await api("GET", `${PATH}?limit=100&filter.code=CHANNEL_WITHOUT_PRIMARY`);
    const without = await api(
      "GET",
      `${PATH}?limit=100&filter.code=CHANNEL_WITHOUT_PRIMARY&filter.productCode=$not:${q}`,
    );
    expect(without.body.meta.totalItems).toBe(0);
    expect(all.status).toBe(200);
  });

  it("answers the filters in meta and refuses a pricelist id that is not a number", async () => {
    const res = await api("GET", `${PATH}?filter.pricelistId=${lists[0]!.id}&limit=5`);
    expect(res.body.meta.filter).toEqual({ pricelistId: String(lists[0]!.id) });
    const bad = expectProblem(
      await api("GET", `${PATH}?filter.pricelistId=abc`),
      400,
      "VALIDATION_FAILED",
    );
    expect(bad.detail).toMatch(/filter\.pricelistId/);
    const sorted = expectProblem(
      await api("GET", `${PATH}?sortBy=productCode:ASC`),
      400,
      "VALIDATION_FAILED",
    );
    expect(sorted.detail).toMatch(/sortBy/);
  });
});
