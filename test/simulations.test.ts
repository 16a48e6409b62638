import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import {
  createChannel,
  createCustomer,
  createCustomerGroup,
  createPricelist,
  createProduct,
  createProductGroup,
  createPromotion,
  createTradeCondition,
  setPrimaryPricelist,
} from "./factories";
import { api, KEYS, roundTrips, uid } from "./helpers";

/**
 * POST /v1/api/simulations/prices (docs/simulation.md): a change set of DRAFT records, a
 * deactivation and a price override simulated, then really published through the API; the
 * simulation's lines must be the price lookup's, line for line, before and after, and the
 * simulation itself must write nothing.
 */

const PATH = "/v1/api/simulations/prices";
const AT = "2026-06-01T12:00:00Z";

async function ok(method: string, path: string, body?: unknown) {
  const res = await api(method, path, { body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${JSON.stringify(res.body)}`);
  return res.body;
}

const simulate = (body: Record<string, unknown>, key: string = KEYS.admin) =>
  api("POST", PATH, { body, key });

/** The data version, the audit trail's length and the feed's head: what a write would move. */
async function writeMarks() {
  const version = await env.DB.prepare("select version from pricing_version where id = 1").first();
  const audit = (await api("GET", "/v1/api/audit?limit=1")).body.meta.totalItems;
  const feed = await env.DB.prepare("select coalesce(max(id), 0) as n from audit_log").first();
  return { version, audit, feed };
}

interface World {
  channel: string;
  customers: string[];
  products: string[];
  groups: { root: string; child: string };
  primary: number;
  draftList: number;
  draftCondition: number;
  draftPromotion: number;
  activeSurcharge: number;
  floor: number;
}

/**
 * A channel with a primary list, a customer group, three customers (C0 in the group, C1 with a
 * DRAFT list of its own, C2 plain) and four products (P0 and P3 in the child group, P1 in the
 * root group, P2 in none); DRAFT: a customer list, a group discount on the root group, a
 * promotion on P2, a FLOOR list; ACTIVE: a channel surcharge on P1 (to deactivate).
 */
async function buildWorld(): Promise<World> {
  const channel = (await createChannel()).code;
  const root = (await createProductGroup()).code;
  const child = (await createProductGroup({ parentCode: root })).code;
  const products = [
    (await createProduct({ productGroupCode: child })).code,
    (await createProduct({ productGroupCode: root })).code,
    (await createProduct()).code,
    (await createProduct({ productGroupCode: child })).code,
  ];
  const group = (await createCustomerGroup()).code;
  await ok("POST", `/v1/api/channel/${channel}/customer-group`, { customerGroupCodes: [group] });
  const customers = [
    (
      await createCustomer({
        code: uid("C0"),
        customerGroupCodes: [group],
        channelCodes: [channel],
      })
    ).code,
    (await createCustomer({ code: uid("C1"), channelCodes: [channel] })).code,
    (await createCustomer({ code: uid("C2"), channelCodes: [channel] })).code,
  ];
  const primary = (await createPricelist({ status: "ACTIVE" })).id;
  await ok("PUT", `/v1/api/pricelist/${primary}/prices`, {
    prices: [
      { productCode: products[0], amount: 1000 },
      { productCode: products[1], amount: 2000 },
      { productCode: products[2], amount: 3000 },
      { productCode: products[3], amount: 4000 },
      { productCode: products[3], minQuantity: 10, amount: 3800 },
    ],
  });
  await setPrimaryPricelist(channel, primary);
  const draftList = (await createPricelist()).id;
  await ok("PUT", `/v1/api/pricelist/${draftList}/prices`, {
    prices: [{ productCode: products[0], amount: 900 }],
  });
  await ok("POST", `/v1/api/customer/${customers[1]}/pricelist`, { pricelistId: draftList });
  const draftCondition = (
    await createTradeCondition({
      scope: "CUSTOMER_GROUP",
      value: 1000,
      productGroupCodes: [root],
      channelCodes: [channel],
    })
  ).id;
  await ok("POST", `/v1/api/trade-conditions/${draftCondition}/customer-groups`, {
    customerGroupCodes: [group],
  });
  const draftPromotion = (
    await createPromotion({ value: 500, productCodes: [products[2]], channelCodes: [channel] })
  ).id;
  const activeSurcharge = (
    await createTradeCondition({
      scope: "CHANNEL",
      type: "SURCHARGE",
      discountType: "ABSOLUTE",
      currency: "EUR",
      value: 50,
      status: "ACTIVE",
      productCodes: [products[1]],
      channelCodes: [channel],
    })
  ).id;
  const floor = (await createPricelist({ kind: "FLOOR" })).id;
  await ok("PUT", `/v1/api/pricelist/${floor}/prices`, {
    prices: [{ productCode: products[3], amount: 4050 }],
  });
  await ok("POST", `/v1/api/channel/${channel}/pricelist`, { pricelistId: floor });
  return {
    channel,
    customers,
    products,
    groups: { root, child },
    primary,
    draftList,
    draftCondition,
    draftPromotion,
    activeSurcharge,
    floor,
  };
}

/** Every buyer's line for every product, each priced alone by the price lookup (POST resolve). */
async function realLines(world: World, buyers: (string | null)[], quantity = 1) {
  const lines = new Map<string, unknown>();
  for (const customerCode of buyers) {
    for (const productCode of world.products) {
      const res = await api("POST", "/v1/api/prices/resolve", {
        key: KEYS.read,
        body: {
          channelCode: world.channel,
          customerCode,
          at: AT,
          lines: [{ productCode, quantity }],
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      lines.set(`${customerCode} ${productCode}`, res.body.lines[0]);
    }
  }
  return lines;
}

const changeSet = (w: World) => ({
  activate: {
    pricelistIds: [w.draftList, w.floor],
    tradeConditionIds: [w.draftCondition],
    promotionIds: [w.draftPromotion],
  },
  deactivate: { tradeConditionIds: [w.activeSurcharge] },
  prices: [{ pricelistId: w.primary, productCode: w.products[3], amount: 4100 }],
});

describe("POST /v1/api/simulations/prices: the simulation is what publishing does", () => {
  let world: World;
  let buyers: (string | null)[];
  beforeAll(async () => {
    world = await buildWorld();
    buyers = [null, ...world.customers];
  });

  it("answers, line for line, the price lookup before publishing and after it, and writes nothing", async () => {
    const before = await realLines(world, buyers);
    const marks = await writeMarks();
    const res = await simulate({
      channelCode: world.channel,
      at: AT,
      customers: { codes: world.customers, anonymous: true },
      products: { codes: world.products },
      changes: changeSet(world),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(roundTrips(res)).toBe(2);
    expect(await writeMarks()).toEqual(marks);
    const sim = res.body;

    // Publish the change set for real.
    for (const id of [world.draftList, world.floor]) {
      await ok("PATCH", `/v1/api/pricelist/${id}`, { status: "ACTIVE" });
    }
    await ok("PATCH", `/v1/api/trade-conditions/${world.draftCondition}`, { status: "ACTIVE" });
    await ok("PATCH", `/v1/api/promotion/${world.draftPromotion}`, { status: "ACTIVE" });
    await ok("PATCH", `/v1/api/trade-conditions/${world.activeSurcharge}`, { status: "INACTIVE" });
    await ok("PUT", `/v1/api/pricelist/${world.primary}/prices`, {
      prices: [{ productCode: world.products[3], amount: 4100 }],
    });
    const after = await realLines(world, buyers);

    const rows = new Map<string, any>(
      sim.rows.map((r: any) => [`${r.customerCode} ${r.productCode}`, r]),
    );
    for (const [pair, line] of before) {
      const row = rows.get(pair);
      if (row) {
        expect(row.before, pair).toEqual(line);
        expect(row.after, pair).toEqual(after.get(pair));
      } else {
        expect(after.get(pair), `${pair} is not in rows, so publishing must not change it`).toEqual(
          line,
        );
      }
    }
    const [p0, p1, p2, p3] = world.products;
    const [c0, c1, c2] = world.customers;
    // The numbers: a row per changed pair, sorted by |differenceBp|, then customer, product.
    expect(
      sim.rows.map((r: any) => [
        r.customerCode,
        r.productCode,
        r.difference,
        r.differenceBp,
        r.changed,
      ]),
    ).toEqual([
      [c0, p1, -250, -1220, ["RUNG", "ADJUSTMENTS"]], // 2050 → 1800: surcharge off, group −10 %
      [c0, p0, -100, -1000, ["RUNG", "ADJUSTMENTS"]], // group −10 %
      [c1, p0, -100, -1000, ["LEVEL", "BASE"]], // its own list, 900
      [null, p2, -150, -500, ["ADJUSTMENTS"]], // the promotion −5 %
      [c0, p2, -150, -500, ["ADJUSTMENTS"]],
      [c1, p2, -150, -500, ["ADJUSTMENTS"]],
      [c2, p2, -150, -500, ["ADJUSTMENTS"]],
      [null, p3, 100, 250, ["BASE"]], // the tier override 4000 → 4100
      [c1, p3, 100, 250, ["BASE"]],
      [c2, p3, 100, 250, ["BASE"]],
      [null, p1, -50, -244, ["RUNG", "ADJUSTMENTS"]], // the surcharge off: −50 / 2050
      [c1, p1, -50, -244, ["RUNG", "ADJUSTMENTS"]],
      [c2, p1, -50, -244, ["RUNG", "ADJUSTMENTS"]],
      [c0, p3, 50, 125, ["RUNG", "BASE", "ADJUSTMENTS", "FLOOR"]], // 4100 − 10 % held at the floor 4050
    ]);
    expect(sim.summary).toMatchObject({ evaluated: 16, changed: 14, raised: 4, lowered: 10 });
    expect(sim.summary.largestRises[0]).toEqual({
      customerCode: null,
      productCode: p3,
      difference: 100,
      differenceBp: 250,
    });
    expect(sim.summary.largestCuts.map((r: any) => r.differenceBp)).toEqual([
      -1220, -1000, -1000, -500, -500, -500, -500, -244, -244, -244,
    ]);
    expect(sim.summary.mostAffectedCustomers).toEqual([
      { customerCode: c0, changed: 4, raised: 1, lowered: 3 },
      { customerCode: c1, changed: 4, raised: 1, lowered: 3 },
      { customerCode: null, changed: 3, raised: 1, lowered: 2 },
      { customerCode: c2, changed: 3, raised: 1, lowered: 2 },
    ]);
  });
});
