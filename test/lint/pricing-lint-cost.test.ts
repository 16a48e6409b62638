import { describe, expect, it } from "vitest";
import {
  assignPricelistToChannel,
  createChannel,
  createPricelist,
  createProduct,
  setPrimaryPricelist,
} from "../factories";
import { api } from "../shared/helpers";

/**
 * BELOW_COST of GET /v1/api/pricing/lint (docs/pricing-lint.md §15): data that triggers it and
 * data that does not. Every test's records live in a channel of their own, and assertions look
 * only at the findings that name them.
 */

interface Ref {
  kind: string;
  id?: number;
  code?: string;
}

const pl = (row: { id: number }): Ref => ({ kind: "pricelist", id: row.id });

async function ok(method: string, path: string, body?: unknown) {
  const res = await api(method, path, { body });
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

const putPrices = (id: number, prices: unknown[]) =>
  ok("PUT", `/v1/api/pricelist/${id}/prices`, { prices });

/** The BELOW_COST findings that name `record`. */
async function belowCost(record: Ref) {
  const res = await api("GET", "/v1/api/pricing/lint?limit=100&filter.code=BELOW_COST");
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.filter((f: { records: Ref[] }) =>
    f.records.some((r) => r.kind === record.kind && r.id === record.id && r.code === record.code),
  );
}

/** A channel with a primary list and a COST list (`cost` rows), all ACTIVE. */
async function costSetup(list: unknown[], cost: unknown[], costOverrides = {}) {
  const channel = await createChannel();
  const primary = await createPricelist({ status: "ACTIVE" });
  await putPrices(primary.id, list);
  await setPrimaryPricelist(channel.code, primary.id);
  const costList = await createPricelist({ status: "ACTIVE", kind: "COST", ...costOverrides });
  await putPrices(costList.id, cost);
  await assignPricelistToChannel(channel.code, costList.id);
  return { channel, primary, costList };
}

describe("BELOW_COST (docs/pricing-lint.md §15)", () => {
  it("names a price below the channel's cost where both apply, per piece", async () => {
    const product = await createProduct();
    const { channel, primary, costList } = await costSetup(
      [
        { productCode: product.code, amount: 500 },
        { productCode: product.code, minQuantity: 10, amount: 390 },
      ],
      // 400 per piece, written per 1000 pieces.
      [{ productCode: product.code, amount: 400_000, priceUnit: 1000 }],
    );
    expect(await belowCost(pl(primary))).toEqual([
      {
        code: "BELOW_COST",
        severity: "WARNING",
        message:
          `SALES pricelist ${primary.id} holds 390 for product ${product.code} from quantity 10, ` +
          `below its cost 400000 per 1000 in channel ${channel.code} (COST pricelist ` +
          `${costList.id}): every line it prices there sells at a loss`,
        records: [
          pl(primary),
          { kind: "product", code: product.code },
          { kind: "channel", code: channel.code },
          pl(costList),
        ],
      },
    ]);
  });

  it("names a floor below cost and a FLOOR derived from a COST list at a loss", async () => {
    const product = await createProduct();
    const { channel, costList } = await costSetup(
      [{ productCode: product.code, amount: 900 }],
      [{ productCode: product.code, amount: 600 }],
    );
    const floor = await createPricelist({ status: "ACTIVE", kind: "FLOOR" });
    await putPrices(floor.id, [{ productCode: product.code, amount: 550 }]);
    await assignPricelistToChannel(channel.code, floor.id);
    const [found] = await belowCost(pl(floor));
    expect(found.message).toBe(
      `FLOOR pricelist ${floor.id} holds 550 for product ${product.code} from quantity 1, below ` +
        `its cost 600 in channel ${channel.code} (COST pricelist ${costList.id}): the floor lets ` +
        "trade conditions and promotions sell it at a loss",
    );
    const derived = await createPricelist({
      status: "ACTIVE",
      kind: "FLOOR",
      derivation: { basePricelistId: costList.id, adjustmentBp: -500 },
    });
    expect(await belowCost(pl(derived))).toEqual([
      expect.objectContaining({
        message:
          `FLOOR pricelist ${derived.id} derives from COST pricelist ${costList.id} with ` +
          "adjustmentBp -500: its floor is below cost for every product it takes from there, so " +
          "it lets trade conditions and promotions sell at a loss",
        records: [pl(derived), pl(costList)],
      }),
    ]);
    const margin = await createPricelist({
      status: "ACTIVE",
      kind: "FLOOR",
      derivation: { basePricelistId: costList.id, adjustmentBp: 1000 },
    });
    expect(await belowCost(pl(margin))).toEqual([]);
  });

  it("does not name a price at or above cost, another currency, a shadowed COST list or a DRAFT one", async () => {
    const [even, above, other] = [
      await createProduct(),
      await createProduct(),
      await createProduct(),
    ];
    const { channel, primary } = await costSetup(
      [
        { productCode: even.code, amount: 500 },
        { productCode: above.code, amount: 700 },
        { productCode: other.code, amount: 100 },
      ],
      [
        { productCode: even.code, amount: 500 },
        { productCode: above.code, amount: 600 },
      ],
    );
    // A CHF cost does not compare with EUR prices; a DRAFT cost is not in force.
    const chf = await createPricelist({ status: "ACTIVE", kind: "COST", currency: "CHF" });
    await putPrices(chf.id, [{ productCode: other.code, amount: 9000 }]);
    await assignPricelistToChannel(channel.code, chf.id);
    const draft = await createPricelist({ kind: "COST" });
    await putPrices(draft.id, [{ productCode: other.code, amount: 9000 }]);
    await assignPricelistToChannel(channel.code, draft.id);
    // A lower-priority COST list is shadowed where the first one has a row for the product.
    const shadowed = await createPricelist({ status: "ACTIVE", kind: "COST", priority: -1 });
    await putPrices(shadowed.id, [{ productCode: above.code, amount: 9000 }]);
    await assignPricelistToChannel(channel.code, shadowed.id);
    expect(await belowCost(pl(primary))).toEqual([]);
  });
});
