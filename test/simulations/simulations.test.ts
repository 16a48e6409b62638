import { env, exports } from "cloudflare:workers";
import { Hono } from "hono";
import { beforeAll, describe, expect, it } from "vitest";
import { streamJson } from "../../src/http/stream";
import { SimulationPlaces } from "../../src/resources/simulations/simulations.service";
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
} from "../factories";
import { api, expectProblem, KEYS, roundTrips, uid } from "../shared/helpers";

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
  derived: number;
}

/**
 * A channel with a primary list, a customer group, three customers (C0 in the group, C1 with a
 * DRAFT list of its own, C2 plain) and four products (P0 and P3 in the child group, P1 in the
 * root group, P2 in none); DRAFT: a customer list, a group discount on the root group, a
 * promotion on P2, a FLOOR list, a group list derived from an unassigned list; ACTIVE: a
 * channel surcharge on P1 (to deactivate).
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
  // A DRAFT list of the group derived from a list assigned nowhere: activating it reads its base.
  const base = (await createPricelist({ status: "ACTIVE" })).id;
  await ok("PUT", `/v1/api/pricelist/${base}/prices`, {
    prices: [
      { productCode: products[0], amount: 1100 },
      { productCode: products[2], amount: 3000 },
    ],
  });
  const derived = (
    await createPricelist({ derivation: { basePricelistId: base, adjustmentBp: -1000 } })
  ).id;
  await ok("POST", `/v1/api/customer-group/${group}/pricelist`, { pricelistId: derived });
  // What must not reach the selected buyers, before or after: a promotion for a group none of
  // them is in (its member buys here but is not selected), a discount for C2 alone.
  const other = (await createCustomerGroup()).code;
  await ok("POST", `/v1/api/channel/${channel}/customer-group`, { customerGroupCodes: [other] });
  await createCustomer({ customerGroupCodes: [other], channelCodes: [channel] });
  await createPromotion({
    status: "ACTIVE",
    value: 700,
    channelCodes: [channel],
    customerGroupCodes: [other],
  });
  const own = (await createTradeCondition({ scope: "CUSTOMER", value: 300, status: "ACTIVE" })).id;
  await ok("POST", `/v1/api/trade-conditions/${own}/customers`, { customerCodes: [customers[2]] });
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
    derived,
  };
}

/** Every buyer's line for every product, each priced alone by the price lookup (POST resolve). */
async function realLines(world: World, buyers: (string | null)[], quantity = 1) {
  const lines = new Map<string, unknown>();
  for (const customerCode of buyers) {
    for (const productCode of world.products) {
      // The simulation answers the lines an admin key gets (docs/simulation.md §4).
      const res = await api("POST", "/v1/api/prices/resolve", {
        key: KEYS.admin,
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
    pricelistIds: [w.draftList, w.floor, w.derived],
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
    const request = {
      channelCode: world.channel,
      at: AT,
      customers: { codes: world.customers, anonymous: true },
      products: { codes: world.products },
      changes: changeSet(world),
    };
    const res = await simulate(request);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(roundTrips(res)).toBe(2);
    expect(await writeMarks()).toEqual(marks);
    const sim = res.body;
    // maxRows answers the first rows only; the summary is the same.
    const first = await simulate({ ...request, maxRows: 3 });
    expect(first.body.rows).toEqual(sim.rows.slice(0, 3));
    expect(first.body.rowsOmitted).toBe(sim.rows.length - 3);
    expect(first.body.summary).toEqual(sim.summary);

    // Publish the change set for real.
    for (const id of [world.draftList, world.floor, world.derived]) {
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
      [c0, p2, -435, -1450, ["LEVEL", "BASE", "ADJUSTMENTS"]], // the derived group list 2700, −5 %
      [c0, p1, -250, -1220, ["RUNG", "ADJUSTMENTS"]], // 2050 → 1800: surcharge off, group −10 %
      [c0, p0, -109, -1090, ["LEVEL", "RUNG", "BASE", "ADJUSTMENTS"]], // 1100 − 10 % − 10 %
      [c1, p0, -100, -1000, ["LEVEL", "BASE"]], // its own list, 900
      [null, p2, -150, -500, ["ADJUSTMENTS"]], // the promotion −5 %
      [c1, p2, -150, -500, ["ADJUSTMENTS"]],
      [c2, p3, 170, 438, ["BASE", "ADJUSTMENTS", "FLOOR"]], // 4100 − 3 % held at the floor 4050
      [c2, p1, -50, -251, ["RUNG", "ADJUSTMENTS"]], // its own −3 %, the surcharge off
      [null, p3, 100, 250, ["BASE"]], // the tier override 4000 → 4100
      [c1, p3, 100, 250, ["BASE"]],
      [null, p1, -50, -244, ["RUNG", "ADJUSTMENTS"]], // the surcharge off: −50 / 2050
      [c1, p1, -50, -244, ["RUNG", "ADJUSTMENTS"]],
      [c2, p2, -60, -206, ["RUNG", "ADJUSTMENTS"]], // the promotion beats its own −3 %
      [c0, p3, 50, 125, ["RUNG", "BASE", "ADJUSTMENTS", "FLOOR"]], // 4100 − 10 % held at 4050
    ]);
    expect(sim.summary).toMatchObject({ evaluated: 16, changed: 14, raised: 4, lowered: 10 });
    expect(sim.summary.largestRises).toEqual(
      [
        [c2, 170, 438],
        [null, 100, 250],
        [c1, 100, 250],
        [c0, 50, 125],
      ].map(([customerCode, difference, differenceBp]) => ({
        customerCode,
        productCode: p3,
        difference,
        differenceBp,
      })),
    );
    expect(sim.summary.largestCuts.map((r: any) => r.differenceBp)).toEqual([
      -1450, -1220, -1090, -1000, -500, -500, -251, -244, -244, -206,
    ]);
    expect(sim.rowsOmitted).toBe(0);
    expect(sim.summary.distribution).toEqual([
      { percent: -15, count: 1 },
      { percent: -12, count: 1 },
      { percent: -11, count: 1 },
      { percent: -10, count: 1 },
      { percent: -5, count: 2 },
      { percent: -3, count: 1 },
      { percent: -2, count: 3 },
      { percent: 1, count: 1 },
      { percent: 3, count: 2 },
      { percent: 4, count: 1 },
    ]);
    expect(sim.summary.mostAffectedCustomers).toEqual([
      { customerCode: c0, changed: 4, raised: 1, lowered: 3 },
      { customerCode: c1, changed: 4, raised: 1, lowered: 3 },
      { customerCode: null, changed: 3, raised: 1, lowered: 2 },
      { customerCode: c2, changed: 3, raised: 1, lowered: 2 },
    ]);
  });
});

describe("POST /v1/api/simulations/prices: rates, price units and the channel's rounding", () => {
  it("prices both sides with the rate in force, per each line's unit, in the channel's mode, as publishing does", async () => {
    // A CHF list derived from a GBP one at GBP→CHF 0.98 (docs/pricing-rules.md §19), in a channel
    // that rounds HALF_EVEN (§21); screws per 1000 pieces (§20); a DRAFT 10 % to activate and
    // bolts set to 50.00 per 100.
    await ok("PUT", "/v1/api/exchange-rates", {
      rates: [{ from: "GBP", to: "CHF", rate: "0.98", validFrom: "2026-01-01T00:00:00Z" }],
    });
    const [screw, bolt] = [(await createProduct()).code, (await createProduct()).code];
    const base = (await createPricelist({ status: "ACTIVE", currency: "GBP" })).id;
    await ok("PUT", `/v1/api/pricelist/${base}/prices`, {
      prices: [
        { productCode: screw, amount: 1250, priceUnit: 1000 },
        { productCode: bolt, amount: 400 },
      ],
    });
    const list = (
      await createPricelist({
        status: "ACTIVE",
        currency: "CHF",
        derivation: { basePricelistId: base, adjustmentBp: 0 },
      })
    ).id;
    const channel = (await createChannel({ roundingMode: "HALF_EVEN" })).code;
    await setPrimaryPricelist(channel, list);
    const discount = (
      await createTradeCondition({
        scope: "CHANNEL",
        channelCodes: [channel],
        value: 1000,
        productCodes: [screw, bolt],
      })
    ).id;
    const lookup = async () => {
      const res = await api("POST", "/v1/api/prices/resolve", {
        body: {
          channelCode: channel,
          at: AT,
          lines: [screw, bolt].map((productCode) => ({ productCode, quantity: 2500 })),
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.lines;
    };
    const before = await lookup();
    const res = await simulate({
      channelCode: channel,
      at: AT,
      quantity: 2500,
      customers: { anonymous: true },
      products: { codes: [screw, bolt] },
      changes: {
        activate: { tradeConditionIds: [discount] },
        prices: [{ pricelistId: base, productCode: bolt, amount: 5000, priceUnit: 100 }],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rows = new Map(res.body.rows.map((r: any) => [r.productCode, r]));
    const [s, b] = [rows.get(screw) as any, rows.get(bolt) as any];
    // Screws: 1250 × 0.98 = 1225 per 1000, 3062.5 → 3062 (HALF_EVEN); then 10 % is 122.5 → 122.
    expect(s.before).toMatchObject({ finalUnitAmount: 1225, lineAmount: 3062, priceUnit: 1000 });
    expect(s.before.source.derivedFrom.exchangeRate).toMatchObject({ rate: "0.98", to: "CHF" });
    expect(s.after).toMatchObject({ finalUnitAmount: 1103, lineAmount: 2758, priceUnit: 1000 });
    expect([s.difference, s.differenceBp]).toEqual([-122, -996]);
    // Bolts: 392 a piece before; 5000 per 100 × 0.98 = 4900 − 490 = 4410 per 100 after: the
    // difference in the after line's unit, the ratio per piece (−88.75 %).
    expect(b.before).toMatchObject({ finalUnitAmount: 392, lineAmount: 980000, priceUnit: 1 });
    expect(b.after).toMatchObject({ finalUnitAmount: 4410, lineAmount: 110250, priceUnit: 100 });
    expect([b.difference, b.differenceBp]).toEqual([-34790, -8875]);

    // Published for real, the lookup answers the simulated lines.
    await ok("PATCH", `/v1/api/trade-conditions/${discount}`, { status: "ACTIVE" });
    await ok("PUT", `/v1/api/pricelist/${base}/prices`, {
      prices: [{ productCode: bolt, amount: 5000, priceUnit: 100 }],
    });
    const after = await lookup();
    expect([s.before, b.before]).toEqual(before);
    expect([s.after, b.after]).toEqual(after);
  });
});

describe("POST /v1/api/simulations/prices: selections", () => {
  let world: World;
  beforeAll(async () => {
    world = await buildWorld();
  });
  const changes = (w: World) => ({ activate: { tradeConditionIds: [w.draftCondition] } });

  it("prices the first N customers of the channel by code for a customer sample", async () => {
    const res = await simulate({
      channelCode: world.channel,
      at: AT,
      customers: { sample: 2 },
      products: { codes: world.products },
      changes: changes(world),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.summary.evaluated).toBe(8);
    // C0… sorts first: its group discount is among the first two customers' rows.
    const sorted = [...world.customers].sort((a, b) =>
      a.toLowerCase().localeCompare(b.toLowerCase()),
    );
    const buyers = new Set(res.body.rows.map((r: any) => r.customerCode));
    expect([...buyers].every((c) => sorted.slice(0, 2).includes(c as string))).toBe(true);
    expect(buyers.has(world.customers[0])).toBe(sorted.slice(0, 2).includes(world.customers[0]!));
  });

  it("prices the first N products by code, as the product list sorts them, for a product sample", async () => {
    const list = await api("GET", "/v1/api/product?sortBy=code:ASC&limit=5");
    const first = list.body.data.map((p: any) => p.code);
    const res = await simulate({
      channelCode: world.channel,
      at: AT,
      customers: { codes: [world.customers[0]] },
      products: { sample: 5 },
      changes: {
        prices: first.map((productCode: string) => ({
          pricelistId: world.primary,
          productCode,
          amount: 1,
        })),
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.summary.evaluated).toBe(5);
    // Each sampled product now has a price of 1 in the channel's primary list: all five change.
    expect(res.body.rows.map((r: any) => r.productCode).sort()).toEqual([...first].sort());
    expect(res.body.rows.every((r: any) => r.after.source.baseUnitAmount === 1)).toBe(true);
  });

  it("prices every product of the named groups and their descendants", async () => {
    const res = await simulate({
      channelCode: world.channel,
      at: AT,
      customers: { codes: [world.customers[0]] },
      products: { productGroupCodes: [world.groups.root] },
      changes: changes(world),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // P0 and P3 sit in the child group, P1 in the root; P2 in none.
    expect(res.body.summary.evaluated).toBe(3);
    const [p0, p1, , p3] = world.products;
    expect(res.body.rows.map((r: any) => r.productCode).sort()).toEqual([p0, p1, p3].sort());
    const child = await simulate({
      channelCode: world.channel,
      at: AT,
      customers: { codes: [world.customers[0]] },
      products: { productGroupCodes: [world.groups.child] },
      changes: changes(world),
    });
    expect(child.body.summary.evaluated).toBe(2);
  });

  it("prices the anonymous buyer alone: only channel-wide terms reach it", async () => {
    const res = await simulate({
      channelCode: world.channel,
      at: AT,
      customers: { anonymous: true },
      products: { codes: world.products },
      changes: {
        activate: {
          tradeConditionIds: [world.draftCondition],
          promotionIds: [world.draftPromotion],
        },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.summary.evaluated).toBe(4);
    // The group discount cannot reach it; the channel's promotion on P2 does.
    expect(res.body.rows.map((r: any) => [r.customerCode, r.productCode, r.difference])).toEqual([
      [null, world.products[2], -150],
    ]);
  });

  it("prices every line at `quantity`: tiers from that quantity apply", async () => {
    const res = await simulate({
      channelCode: world.channel,
      at: AT,
      quantity: 10,
      customers: { anonymous: true },
      products: { codes: [world.products[3]] },
      changes: {
        prices: [
          {
            pricelistId: world.primary,
            productCode: world.products[3],
            minQuantity: 10,
            amount: 3700,
          },
        ],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.quantity).toBe(10);
    expect(res.body.rows).toHaveLength(1);
    expect(res.body.rows[0]).toMatchObject({
      before: { quantity: 10, finalUnitAmount: 3800, lineAmount: 38000 },
      after: { quantity: 10, finalUnitAmount: 3700, lineAmount: 37000 },
      difference: -100,
      differenceBp: -263,
      changed: ["BASE"],
    });
  });

  it("accepts records of another channel: they change nothing here", async () => {
    const other = await createChannel();
    const elsewhere = await createTradeCondition({
      scope: "CHANNEL",
      value: 5000,
      channelCodes: [other.code],
    });
    const res = await simulate({
      channelCode: world.channel,
      at: AT,
      customers: { codes: world.customers, anonymous: true },
      products: { codes: world.products },
      changes: { activate: { tradeConditionIds: [elsewhere.id] } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.rows).toEqual([]);
    expect(res.body.summary).toEqual({
      evaluated: 16,
      changed: 0,
      raised: 0,
      lowered: 0,
      largestRises: [],
      largestCuts: [],
      mostAffectedCustomers: [],
      distribution: [],
      // No COST list here: every priced line is without a cost.
      margin: {
        before: {
          lines: 0,
          linesWithoutCost: 16,
          revenueAmount: 0,
          costAmount: 0,
          marginAmount: 0,
          marginBp: null,
        },
        after: {
          lines: 0,
          linesWithoutCost: 16,
          revenueAmount: 0,
          costAmount: 0,
          marginAmount: 0,
          marginBp: null,
        },
      },
    });
  });
});

describe("POST /v1/api/simulations/prices: refusals", () => {
  let world: World;
  let body: Record<string, any>;
  beforeAll(async () => {
    world = await buildWorld();
    body = {
      channelCode: world.channel,
      at: AT,
      customers: { codes: world.customers },
      products: { codes: world.products },
      changes: { activate: { tradeConditionIds: [world.draftCondition] } },
    };
  });
  const withBody = (patch: Record<string, unknown>) => simulate({ ...body, ...patch });
  /** The 400's issues as [path, message]. */
  const issuesOf = (res: any) =>
    expectProblem(res, 400, "VALIDATION_FAILED").errors!.map((e) => [e.path, e.message]);

  it("needs an admin key: 401 without one, 403 with a read key", async () => {
    expectProblem(await simulate(body, null as unknown as string), 401, "UNAUTHORIZED");
    const read = expectProblem(await simulate(body, KEYS.read), 403, "FORBIDDEN");
    expect(read.detail).toBe("a read key cannot simulate price changes; use an admin key");
  });

  it("answers 404 for an unknown channel, 409 for an inactive one, 400 without a currency", async () => {
    const unknown = expectProblem(
      await withBody({ channelCode: "NO-SUCH-CHANNEL" }),
      404,
      "NOT_FOUND",
    );
    expect(unknown.detail).toBe("channel NO-SUCH-CHANNEL not found");
    const inactive = await createChannel({ isActive: false });
    const res = await withBody({ channelCode: inactive.code });
    expect(expectProblem(res, 409, "CHANNEL_INACTIVE").detail).toBe(
      `channel ${inactive.code} is not active`,
    );
    const bare = await createChannel();
    const noCurrency = expectProblem(
      await withBody({ channelCode: bare.code }),
      400,
      "CURRENCY_REQUIRED",
    );
    expect(noCurrency.errors).toEqual([
      { path: "body.currency", message: "is required for this channel" },
    ]);
  });

  it("names the field of each malformed selection in a sentence", async () => {
    const cases: [Record<string, unknown>, [string, string][]][] = [
      [{ customers: {} }, [["body.customers", "must have one of codes, sample"]]],
      [{ customers: { codes: [] } }, [["body.customers.codes", "must name at least one customer"]]],
      [
        { customers: { codes: ["A"], sample: 2 } },
        [["body.customers.sample", "cannot be sent with codes: choose one of codes, sample"]],
      ],
      [
        { customers: { codes: ["A", "B", "A"] } },
        [["body.customers.codes.2", "names customer A again"]],
      ],
      [
        { customers: { codes: Array.from({ length: 101 }, (_, i) => `C${i}`) } },
        [["body.customers.codes", "must name at most 100 customers"]],
      ],
      [
        { customers: { codes: Array.from({ length: 100 }, (_, i) => `C${i}`), anonymous: true } },
        [["body.customers.anonymous", "makes 101 buyers; at most 100 per simulation"]],
      ],
      [{ customers: { sample: 101 } }, [["body.customers.sample", "must be at most 100"]]],
      [{ customers: { sample: 0 } }, [["body.customers.sample", "must be at least 1"]]],
      [
        { products: {} },
        [["body.products", "must have one of codes, productGroupCodes, brandCodes, sample"]],
      ],
      [
        { products: { codes: Array.from({ length: 1001 }, (_, i) => `P${i}`) } },
        [["body.products.codes", "must name at most 1000 products"]],
      ],
      [
        { products: { sample: 5, productGroupCodes: ["G"] } },
        [
          [
            "body.products.sample",
            "cannot be sent with productGroupCodes: choose one of codes, productGroupCodes, brandCodes, sample",
          ],
        ],
      ],
      [{ products: { sample: 1001 } }, [["body.products.sample", "must be at most 1000"]]],
      [
        { changes: {} },
        [["body.changes", "must name a record to activate or deactivate, or a price"]],
      ],
      [
        { changes: { activate: { promotionIds: [3, 3] } } },
        [["body.changes.activate.promotionIds.1", "names promotion 3 again"]],
      ],
      [
        {
          changes: {
            prices: [
              { pricelistId: 1, productCode: "P", amount: 1 },
              { pricelistId: 1, productCode: "P", minQuantity: 1, amount: 2 },
            ],
          },
        },
        [["body.changes.prices.1", "names the tier of P from 1 in pricelist 1 again"]],
      ],
      [{ quantity: 0 }, [["body.quantity", "must be at least 1"]]],
      [{ surprise: 1 }, [["body.surprise", "is not a known field"]]],
    ];
    for (const [patch, expected] of cases) {
      const res = await withBody(patch);
      expect(issuesOf(res), JSON.stringify(patch).slice(0, 200)).toEqual(expected);
    }
  });

  it("names unknown customers, products, groups and customers of other channels", async () => {
    const stranger = await createCustomer();
    const res = await withBody({
      customers: { codes: [world.customers[0], "NO-SUCH-C", stranger.code] },
      products: { codes: [world.products[0], "NO-SUCH-P"] },
    });
    expect(issuesOf(res)).toEqual([
      ["body.customers.codes.1", "unknown customer NO-SUCH-C"],
      [
        "body.customers.codes.2",
        `customer ${stranger.code} is not assigned to channel ${world.channel}`,
      ],
      ["body.products.codes.1", "unknown product NO-SUCH-P"],
    ]);
    const groups = await withBody({
      products: { productGroupCodes: [world.groups.root, "NO-SUCH-G"] },
    });
    expect(issuesOf(groups)).toEqual([
      ["body.products.productGroupCodes.1", "unknown product group NO-SUCH-G"],
    ]);
    const empty = await createProductGroup();
    const none = await withBody({ products: { productGroupCodes: [empty.code] } });
    expect(issuesOf(none)).toEqual([["body.products.productGroupCodes", "hold no products"]]);
    const lonely = await createChannel();
    await setPrimaryPricelist(lonely.code, world.primary);
    const sample = await withBody({ channelCode: lonely.code, customers: { sample: 5 } });
    expect(issuesOf(sample)).toEqual([
      ["body.customers.sample", `channel ${lonely.code} has no customers to sample`],
    ]);
  });

  it("refuses to activate what is ACTIVE or ARCHIVED or missing, to deactivate what is not ACTIVE, tiers of what cannot take them", async () => {
    const archived = (await createTradeCondition()).id;
    await ok("PATCH", `/v1/api/trade-conditions/${archived}`, { status: "ARCHIVED" });
    const archivedList = (await createPricelist()).id;
    await ok("PATCH", `/v1/api/pricelist/${archivedList}`, { status: "ARCHIVED" });
    const res = await withBody({
      changes: {
        activate: {
          tradeConditionIds: [world.activeSurcharge, archived, 99999999],
          pricelistIds: [world.primary],
        },
        deactivate: { promotionIds: [world.draftPromotion], pricelistIds: [99999998] },
        prices: [
          { pricelistId: archivedList, productCode: world.products[0], amount: 1 },
          { pricelistId: 99999997, productCode: "NO-SUCH-P", amount: 1 },
        ],
      },
    });
    expect(issuesOf(res)).toEqual([
      ["body.changes.activate.pricelistIds.0", `pricelist ${world.primary} is already ACTIVE`],
      ["body.changes.deactivate.pricelistIds.0", "pricelist 99999998 not found"],
      [
        "body.changes.activate.tradeConditionIds.0",
        `trade condition ${world.activeSurcharge} is already ACTIVE`,
      ],
      [
        "body.changes.activate.tradeConditionIds.1",
        `trade condition ${archived} is ARCHIVED and cannot become ACTIVE`,
      ],
      ["body.changes.activate.tradeConditionIds.2", "trade condition 99999999 not found"],
      [
        "body.changes.deactivate.promotionIds.0",
        `promotion ${world.draftPromotion} is DRAFT, not ACTIVE`,
      ],
      [
        "body.changes.prices.0.pricelistId",
        `pricelist ${archivedList} is ARCHIVED and can no longer be edited`,
      ],
      ["body.changes.prices.1.pricelistId", "pricelist 99999997 not found"],
      ["body.changes.prices.1.productCode", "unknown product NO-SUCH-P"],
    ]);
  });
});

describe("POST /v1/api/simulations/prices: the bounds", () => {
  it(
    "answers 100 customers × 1,000 products in two D1 round trips; a group of 1,001 products is refused",
    { timeout: 60_000 },
    async () => {
      const channel = (await createChannel()).code;
      const group = (await createProductGroup()).code;
      const codes = Array.from(
        { length: 1000 },
        (_, i) => `${group}-${String(i).padStart(4, "0")}`,
      );
      await ok("PUT", "/v1/api/product", {
        products: codes.map((code) => ({ code, name: code, productGroupCode: group })),
      });
      await ok("PUT", "/v1/api/customer", {
        customers: Array.from({ length: 100 }, (_, i) => ({
          code: `${channel}-C${i}`,
          name: "Customer",
          channelCodes: [channel],
        })),
      });
      const list = (await createPricelist({ status: "ACTIVE" })).id;
      await ok("PUT", `/v1/api/pricelist/${list}/prices`, {
        prices: codes.map((productCode, i) => ({ productCode, amount: 1000 + i })),
      });
      await setPrimaryPricelist(channel, list);
      const discount = (
        await createTradeCondition({ scope: "CHANNEL", value: 500, channelCodes: [channel] })
      ).id;
      const body = {
        channelCode: channel,
        at: AT,
        customers: { sample: 100 },
        products: { productGroupCodes: [group] },
        changes: { activate: { tradeConditionIds: [discount] } },
      };
      const marks = await writeMarks();
      const res = await simulate(body);
      expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(200);
      expect(roundTrips(res)).toBe(2);
      expect(await writeMarks()).toEqual(marks);
      expect(res.body.summary).toMatchObject({
        evaluated: 100_000,
        changed: 100_000,
        lowered: 100_000,
      });
      // The first 1,000 rows by default; the summary counts every changed pair.
      expect(res.body.rows).toHaveLength(1000);
      expect(res.body.rowsOmitted).toBe(99_000);
      expect(res.body.summary.distribution).toEqual([{ percent: -5, count: 100_000 }]);
      // −5 % of 1000…1999 minor units, rounded: about −500 bp, the rows by |differenceBp| descending.
      const bps = res.body.rows.map((r: any) => -r.differenceBp);
      expect(
        bps.every(
          (bp: number, i: number) => bp >= 490 && bp <= 510 && (i === 0 || bp <= bps[i - 1]),
        ),
      ).toBe(true);
      expect(res.body.summary.mostAffectedCustomers).toHaveLength(10);

      await ok("PUT", "/v1/api/product", {
        products: [{ code: `${group}-EXTRA`, name: "One too many", productGroupCode: group }],
      });
      const over = await simulate(body);
      expect(expectProblem(over, 400, "VALIDATION_FAILED").errors).toEqual([
        {
          path: "body.products.productGroupCodes",
          message: "hold more than 1000 products; name fewer groups, or products by code",
        },
      ]);
      expect(roundTrips(over)).toBe(1);
    },
  );
});

describe("POST /v1/api/simulations/prices: one at a time per key, two per isolate", () => {
  let body: Record<string, unknown>;
  beforeAll(async () => {
    // 2 customers × 1,000 products, every price changed: an answer of some 2 MB, more than the
    // runtime takes from the stream before the client reads, so an unread answer stays open.
    const channel = (await createChannel()).code;
    const group = (await createProductGroup()).code;
    const codes = Array.from({ length: 1000 }, (_, i) => `${group}-${String(i).padStart(4, "0")}`);
    await ok("PUT", "/v1/api/product", {
      products: codes.map((code) => ({ code, name: code, productGroupCode: group })),
    });
    const customers = [(await createCustomer({ channelCodes: [channel] })).code];
    customers.push((await createCustomer({ channelCodes: [channel] })).code);
    const list = (await createPricelist({ status: "ACTIVE" })).id;
    await ok("PUT", `/v1/api/pricelist/${list}/prices`, {
      prices: codes.map((productCode, i) => ({ productCode, amount: 1000 + i })),
    });
    await setPrimaryPricelist(channel, list);
    const discount = (
      await createTradeCondition({ scope: "CHANNEL", value: 500, channelCodes: [channel] })
    ).id;
    body = {
      channelCode: channel,
      at: AT,
      customers: { codes: customers },
      products: { productGroupCodes: [group] },
      changes: { activate: { tradeConditionIds: [discount] } },
      maxRows: 2000,
    };
  });

  /** A simulation whose answer is not read yet: it holds its place until it is. */
  const started = (key: string) =>
    exports.default.fetch(
      new Request(`http://pricing.test${PATH}`, {
        method: "POST",
        headers: { "x-webhook-signature": key, "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
    );

  it("answers 429 TOO_MANY_SIMULATIONS with Retry-After while the key's simulation is running, and lets the key run again once its answer is read", async () => {
    const first = await started(KEYS.admin);
    expect(first.status).toBe(200);
    const refused = await simulate(body);
    const problem = expectProblem(refused, 429, "TOO_MANY_SIMULATIONS");
    expect(problem).toMatchObject({
      title: "Too Many Requests",
      status: 429,
      type: "urn:problem:pricing:too-many-simulations",
      detail:
        "a simulation of this API key is still running (at most 1 per key at a time); retry after 5 seconds",
    });
    expect(refused.headers.get("retry-after")).toBe("5");
    // The whole answer, streamed: the JSON of every row, then the summary.
    const answer = JSON.parse(await first.text());
    expect(answer.rows).toHaveLength(2000);
    expect(answer.summary).toMatchObject({ evaluated: 2000, changed: 2000, lowered: 2000 });
    const again = await simulate(body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(answer);
  });

  it("runs one at a time in an isolate and refuses another key's until it is answered (issue 28 item 13)", async () => {
    const [k1, k2] = env.TEST_WRITER_KEYS;
    const held = await started(KEYS.admin);
    expect(held.status).toBe(200);
    const second = expectProblem(await simulate(body, k1!), 429, "TOO_MANY_SIMULATIONS");
    expect(second.detail).toBe(
      "a simulation is running on this server instance, the most it runs at once; retry after 5 seconds",
    );
    expect(JSON.parse(await held.text()).rows).toHaveLength(2000);
    expect((await simulate(body, k1!)).status).toBe(200);
    expect((await simulate(body, k2!)).status).toBe(200);
  });

  it("gives a place back when the answer's stream is cancelled, and after its lease in any case", async () => {
    // A client that goes away cancels the stream: its place is given back at once.
    const app = new Hono();
    let given = 0;
    const pieces = function* () {
      yield "[1";
      yield ",2]";
    };
    app.get("/", (c) => streamJson(c, pieces(), 200, () => given++));
    const res = await app.request("/");
    expect(res.headers.get("content-type")).toBe("application/json");
    await res.body!.cancel();
    expect(given).toBe(1);
    expect(await (await app.request("/")).json()).toEqual([1, 2]);
    expect(given).toBe(2);
    // A request the platform drops may never run that code: the lease ends its place anyway.
    let now = 0;
    const places = new SimulationPlaces({ perKey: 1, perIsolate: 2, leaseSeconds: 60 }, () => now);
    const release = places.claim("erp");
    expect(() => places.claim("erp")).toThrow(/this API key is still running/);
    places.claim("shop");
    expect(() => places.claim("bi")).toThrow(/2 simulations are running/);
    now = 59_999;
    expect(() => places.claim("erp")).toThrow(/still running/);
    now = 60_000;
    places.claim("erp");
    release(); // an expired place given back late frees nothing twice
    places.claim("bi");
    expect(() => places.claim("ops")).toThrow(/2 simulations are running/);
  });
});
