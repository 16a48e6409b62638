import { beforeAll, describe, expect, it } from "vitest";
import {
  assignPricelistToChannel,
  createChannel,
  createCustomer,
  createPricelist,
  createProduct,
  createTradeCondition,
  setPrimaryPricelist,
} from "../factories";
import { api, KEYS } from "../shared/helpers";

/**
 * The publish simulation's margins (docs/simulation.md §4, docs/pricing-rules.md §26): its lines
 * are an admin's (cost, margin, accruals, pocket price), its summary adds the margin of every
 * evaluated line before and after, and a change that moves only a cost or an accrual is a row
 * whose `changed` is MARGIN.
 */

const AT = "2026-06-01T12:00:00Z";
const world = { channel: "", customer: "", products: [] as string[] };
const ids: Record<string, number> = {};

async function ok(method: string, path: string, body?: unknown) {
  const res = await api(method, path, { body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${JSON.stringify(res.body)}`);
  return res.body;
}

beforeAll(async () => {
  world.channel = (await createChannel()).code;
  world.customer = (await createCustomer({ channelCodes: [world.channel] })).code;
  world.products = [(await createProduct()).code, (await createProduct()).code];
  const [p0, p1] = world.products;
  const primary = await createPricelist({ status: "ACTIVE" });
  await ok("PUT", `/v1/api/pricelist/${primary.id}/prices`, {
    prices: [
      { productCode: p0, amount: 1000 },
      { productCode: p1, amount: 2000 },
    ],
  });
  await setPrimaryPricelist(world.channel, primary.id);
  const cost = await createPricelist({ kind: "COST", status: "ACTIVE" });
  ids.cost = cost.id;
  await ok("PUT", `/v1/api/pricelist/${cost.id}/prices`, {
    prices: [{ productCode: p0, amount: 600 }],
  });
  await assignPricelistToChannel(world.channel, cost.id);
  ids.accrual = (
    await createTradeCondition({ type: "ACCRUAL", value: 300, channelCodes: [world.channel] })
  ).id;
  ids.discount = (await createTradeCondition({ value: 1000, channelCodes: [world.channel] })).id;
});

const simulate = (changes: Record<string, unknown>) =>
  api("POST", "/v1/api/simulations/prices", {
    key: KEYS.admin,
    body: {
      channelCode: world.channel,
      at: AT,
      customers: { codes: [world.customer], anonymous: true },
      products: { codes: world.products },
      changes,
    },
  });

describe("the publish simulation's margins (docs/simulation.md §4)", () => {
  it("a new cost is a MARGIN row; the summary's margin moves, the prices do not", async () => {
    const [p0, p1] = world.products;
    const res = await simulate({
      prices: [{ pricelistId: ids.cost, productCode: p1, amount: 1500 }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rows = res.body.rows.map((r: any) => [r.customerCode, r.productCode, r.changed]);
    expect(rows).toEqual([
      [null, p1, ["MARGIN"]],
      [world.customer, p1, ["MARGIN"]],
    ]);
    const row = res.body.rows[0];
    expect(row).toMatchObject({ difference: 0, differenceBp: 0 });
    expect(row.before).toMatchObject({ finalUnitAmount: 2000, costUnitAmount: null });
    expect(row.after).toMatchObject({ costUnitAmount: 1500, marginAmount: 500, marginBp: 2500 });
    // Both buyers pay 1000 for P0 (cost 600) before; P1 has a cost only after.
    expect(res.body.summary.margin).toEqual({
      before: {
        lines: 2,
        linesWithoutCost: 2,
        revenueAmount: 2000,
        costAmount: 1200,
        marginAmount: 800,
        marginBp: 4000,
      },
      after: {
        lines: 4,
        linesWithoutCost: 0,
        revenueAmount: 6000,
        costAmount: 4200,
        marginAmount: 1800,
        marginBp: 3000,
      },
    });
    expect(res.body.summary).toMatchObject({ changed: 2, raised: 0, lowered: 0 });
    void p0;
  });

  it("activating a discount lowers the margin after; activating an accrual lowers the pocket only", async () => {
    const discount = await simulate({ activate: { tradeConditionIds: [ids.discount] } });
    expect(discount.body.summary.margin.after).toMatchObject({
      lines: 2,
      revenueAmount: 1800,
      costAmount: 1200,
      marginAmount: 600,
      marginBp: 3333,
    });
    const accrual = await simulate({ activate: { tradeConditionIds: [ids.accrual] } });
    expect(accrual.body.summary.margin.after).toEqual(accrual.body.summary.margin.before);
    const row = accrual.body.rows.find((r: any) => r.productCode === world.products[0]);
    expect(row.changed).toEqual(["MARGIN"]);
    expect(row.after).toMatchObject({
      finalUnitAmount: 1000,
      accruals: [{ id: ids.accrual, amount: 30 }],
      pocketUnitAmount: 970,
      pocketMarginBp: 3814,
    });
  });

  it("its after lines are what an admin's lookup answers once published", async () => {
    const sim = await simulate({ activate: { tradeConditionIds: [ids.accrual, ids.discount] } });
    await ok("PATCH", `/v1/api/trade-conditions/${ids.accrual}`, { status: "ACTIVE" });
    await ok("PATCH", `/v1/api/trade-conditions/${ids.discount}`, { status: "ACTIVE" });
    for (const row of sim.body.rows) {
      const query = new URLSearchParams({
        channel: world.channel,
        at: AT,
        product: row.productCode,
        ...(row.customerCode ? { customer: row.customerCode } : {}),
      });
      const res = await api("GET", `/v1/api/prices?${query}`, { key: KEYS.admin });
      expect(res.body.lines[0]).toEqual(row.after);
    }
  });
});
