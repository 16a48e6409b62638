import { beforeAll, describe, expect, it } from "vitest";
import {
  assignPricelistToChannel,
  createChannel,
  createPricelist,
  createProduct,
  createTradeCondition,
  setPrimaryPricelist,
} from "../factories";
import { api, KEYS, roundTrips } from "../shared/helpers";
import { ok, seedExampleE, seedWorkedExample } from "../shared/worked-example";

/**
 * Worked example E of pricing rules v3 (docs/pricing-rules.md §26) through the HTTP API, with an
 * admin and a read key side by side: the v1 worked example (§10) with a COST list on WEB-DE, an
 * ACCRUAL for C-1001 and a FLOOR list derived from the COST list.
 */

const AT = "2025-06-15T10:00:00Z";
const ids: Record<string, number> = {};
const MARGIN_FIELDS = [
  "costUnitAmount",
  "marginAmount",
  "marginBp",
  "accruals",
  "pocketUnitAmount",
  "pocketMarginBp",
];

beforeAll(async () => {
  Object.assign(ids, await seedWorkedExample());
  await ok("PATCH", `/v1/api/pricelist/${ids["PL-900"]}`, { status: "ACTIVE" });
  await seedExampleE(ids);
});

const cart = {
  channelCode: "WEB-DE",
  customerCode: "C-1001",
  at: AT,
  lines: [
    { productCode: "P-A", quantity: 3 },
    { productCode: "P-B", quantity: 60 },
    { productCode: "P-C", quantity: 10 },
  ],
};

const resolve = (key: string, extra: Record<string, unknown> = {}) =>
  api("POST", "/v1/api/prices/resolve", { body: { ...cart, ...extra }, key });
const lineOf = (res: { body: any }, code: string) =>
  res.body.lines.find((l: any) => l.productCode === code);

describe("worked example E through HTTP (docs/pricing-rules.md §26)", () => {
  it("an admin key sees P-B's cost 300, margin 91 (2327 bp), accrual 8, pocket 383 (2167 bp)", async () => {
    const res = await resolve(KEYS.admin);
    expect(res.status).toBe(200);
    expect(lineOf(res, "P-B")).toMatchObject({
      finalUnitAmount: 391,
      lineAmount: 23460,
      costUnitAmount: 300,
      marginAmount: 91,
      marginBp: 2327,
      accruals: [{ id: ids.accrual, amount: 8 }],
      pocketUnitAmount: 383,
      pocketMarginBp: 2167,
    });
    // P-A and P-C have no cost: the order's cost and margin are not answered.
    expect(lineOf(res, "P-A")).toMatchObject({ costUnitAmount: null, pocketUnitAmount: 850 });
    expect(res.body).toMatchObject({ totalAmount: 27710, costAmount: null, marginAmount: null });
  });

  it("the FLOOR derived from the COST list is 330 and changes nothing here", async () => {
    const res = await resolve(KEYS.admin, { explain: true });
    const pb = lineOf(res, "P-B");
    expect(pb.explain.floors).toEqual([
      expect.objectContaining({
        pricelistId: ids.floor,
        outcome: "USED",
        amount: 330,
        effectiveAmount: 330,
        regularAdjustment: 0,
        finalAdjustment: 0,
      }),
    ]);
    expect(pb.explain.costs).toEqual([
      expect.objectContaining({ pricelistId: ids.cost, outcome: "USED", costUnitAmount: 300 }),
    ]);
    expect(pb.explain.tradeConditions).toContainEqual(
      expect.objectContaining({ id: ids.accrual, type: "ACCRUAL", outcome: "APPLIED", amount: 8 }),
    );
  });

  it("the same lookup with a read key answers the same prices and none of these fields", async () => {
    const admin = await resolve(KEYS.admin, { explain: true });
    const read = await resolve(KEYS.read, { explain: true });
    expect(read.status).toBe(200);
    expect(read.body.lines.map((l: any) => l.finalUnitAmount)).toEqual([850, 391, 170]);
    expect(read.body.totalAmount).toBe(27710);
    const text = JSON.stringify(read.body);
    for (const field of [...MARGIN_FIELDS, "costAmount", "marginAmount", "costs", "ACCRUAL"]) {
      expect(text).not.toContain(`"${field}`);
    }
    expect(text).not.toContain(`"id":${ids.accrual},`);
    expect(text).not.toContain(`"pricelistId":${ids.cost},`);
    expect(text).not.toContain(`"pricelistId":${ids.floor},`);
    // Everything else is the admin's answer.
    const strip = (body: any) => {
      const { costAmount: _c, marginAmount: _m, ...rest } = body;
      return {
        ...rest,
        lines: rest.lines.map((l: any) => {
          const copy = { ...l };
          for (const field of MARGIN_FIELDS) delete copy[field];
          const { costs: _costs, ...explain } = l.explain;
          const tradeConditions = explain.tradeConditions.filter((c: any) => c.type !== "ACCRUAL");
          // The FLOOR derived from the COST list is as hidden (docs/pricing-rules.md §24): no
          // entry in explain, and its adjustment (none here: 330 is below) names no list.
          const floors = explain.floors.filter((f: any) => f.pricelistId !== ids.floor);
          const adjustments = copy.adjustments.map((a: any) =>
            a.kind === "FLOOR" && a.id === ids.floor ? { ...a, id: null } : a,
          );
          return { ...copy, adjustments, explain: { ...explain, tradeConditions, floors } };
        }),
      };
    };
    expect(read.body).toEqual(strip(admin.body));
  });

  it("GET /v1/api/prices: the admin's answer has the fields, its own ETag, one round trip", async () => {
    const query = `channel=WEB-DE&customer=C-1001&at=${AT}&quantity=60&product=P-B`;
    const admin = await api("GET", `/v1/api/prices?${query}`, { key: KEYS.admin });
    const read = await api("GET", `/v1/api/prices?${query}`, { key: KEYS.read });
    expect(admin.body.lines[0]).toMatchObject({ costUnitAmount: 300, marginBp: 2327 });
    expect(admin.body).toMatchObject({ costAmount: 18000, marginAmount: 5460 });
    expect(read.body.lines[0]).not.toHaveProperty("costUnitAmount");
    expect(read.body).not.toHaveProperty("costAmount");
    expect(admin.headers.get("etag")).not.toBe(read.headers.get("etag"));
    // A read key's tag never earns the admin's body a 304, nor the other way round.
    const cross = await api("GET", `/v1/api/prices?${query}`, {
      key: KEYS.read,
      headers: { "if-none-match": admin.headers.get("etag")! },
    });
    expect(cross.status).toBe(200);
    const again = await api("GET", `/v1/api/prices?${query}`, { key: KEYS.admin });
    expect(roundTrips(again)).toBe(1);
  });

  it("with a cost on every line the order has its cost and margin", async () => {
    await ok("PUT", `/v1/api/pricelist/${ids.cost}/prices`, {
      prices: [
        { productCode: "P-A", amount: 600 },
        { productCode: "P-C", amount: 123 },
      ],
    });
    const res = await resolve(KEYS.admin);
    // 600 × 3 + 300 × 60 + 123 × 10 = 21030; 27710 − 21030 = 6680.
    expect(res.body).toMatchObject({ costAmount: 21030, marginAmount: 6680 });
    expect(lineOf(res, "P-C")).toMatchObject({ costUnitAmount: 123, marginAmount: 47 });
    await ok("POST", `/v1/api/pricelist/${ids.cost}/prices/delete`, {
      productCodes: ["P-A", "P-C"],
    });
  });
});

describe("a FLOOR derived from a COST list follows the cost (docs/pricing-rules.md §24)", () => {
  it("keeps a 50 % discount at cost + 10 %, for every key, and moves with the cost", async () => {
    const channel = (await createChannel()).code as string;
    const product = (await createProduct()).code as string;
    const list = await createPricelist({ status: "ACTIVE" });
    await ok("PUT", `/v1/api/pricelist/${list.id}/prices`, {
      prices: [{ productCode: product, amount: 1000 }],
    });
    await setPrimaryPricelist(channel, list.id);
    const cost = await createPricelist({ kind: "COST", status: "ACTIVE" });
    await ok("PUT", `/v1/api/pricelist/${cost.id}/prices`, {
      prices: [{ productCode: product, amount: 600 }],
    });
    const floor = await createPricelist({
      kind: "FLOOR",
      status: "ACTIVE",
      derivation: { basePricelistId: cost.id, adjustmentBp: 1000 },
    });
    await assignPricelistToChannel(channel, floor.id);
    await createTradeCondition({
      status: "ACTIVE",
      value: 5000,
      channelCodes: [channel],
    });
    const price = async (key: string) => {
      const res = await api("GET", `/v1/api/prices?channel=${channel}&product=${product}`, { key });
      expect(res.status).toBe(200);
      return res.body.lines[0];
    };
    for (const key of [KEYS.admin, KEYS.read]) {
      expect(await price(key)).toMatchObject({ finalUnitAmount: 660 });
    }
    // The COST list is not assigned to the channel: the floor still derives from it, but no
    // line of this channel has a cost.
    expect((await price(KEYS.admin)).costUnitAmount).toBeNull();
    await ok("PUT", `/v1/api/pricelist/${cost.id}/prices`, {
      prices: [{ productCode: product, amount: 700 }],
    });
    for (const key of [KEYS.admin, KEYS.read]) {
      expect(await price(key)).toMatchObject({ finalUnitAmount: 770 });
    }
    await assignPricelistToChannel(channel, cost.id);
    expect(await price(KEYS.admin)).toMatchObject({
      finalUnitAmount: 770,
      costUnitAmount: 700,
      marginAmount: 70,
      marginBp: 909,
    });
  });
});
