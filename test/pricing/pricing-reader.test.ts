import { env } from "cloudflare:workers";
import type { PriceRow } from "../../src/pricing";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb, DbMeter } from "../../src/db/client";
import { SEES_ALL, SEES_NO_COSTS } from "../../src/db/visibility";
import {
  assemblePriceContext,
  channelContextOf,
  customerContextOf,
  viewOf,
} from "../../src/db/pricing/contexts";
import {
  loadChannelAndRequest,
  loadPriceContext,
  type PriceContext,
  type PriceQuery,
} from "../../src/db/pricing/lookup";
import {
  assignPricelistToChannel,
  assignPricelistToCustomer,
  createBrand,
  createChannel,
  createCustomer,
  createCustomerGroup,
  createIndividualPricelist,
  createPricelist,
  createProduct,
  createProductGroup,
  createPromotion,
  createTradeCondition,
  setPricelistStatus,
  setPrimaryPricelist,
} from "../factories";
import { clearProductCache, loadProductPart } from "../../src/db/pricing/product-cache";
import { api } from "../shared/helpers";

/**
 * The pricing reader's two ways to the same records (src/db/pricing/reach.ts): the one-batch
 * reader's SQL (`loadPriceContext`) and the cached contexts' in-memory picks
 * (`assemblePriceContext` over the channel and customer parts), on generated data: channels,
 * a product-group forest, brands, customers in groups, and trade conditions and promotions with
 * random scopes, statuses, windows and links to channels, products, groups, brands and
 * customers. For every generated request both must give the engine the same input.
 */

/** mulberry32: a small seeded generator, so a failure can be replayed. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rand = random(20261126);
const pick = <T>(values: readonly T[]): T => values[Math.floor(rand() * values.length)]!;
const some = <T>(values: readonly T[], chance: number) => values.filter(() => rand() < chance);
// Brands draw from a generator of their own, so the rest of the world stays as it was generated.
const brandRand = random(20261129);
const someBrands = (chance: number) => world.brands.filter(() => brandRand() < chance);

const DAY = 86_400_000;
const T0 = Date.parse("2026-06-01T00:00:00Z");
const MOMENTS = [T0 - 40 * DAY, T0, T0 + 20 * DAY, T0 + 400 * DAY];
const iso = (ms: number) => new Date(ms).toISOString();

async function ok(method: string, path: string, body: unknown) {
  const res = await api(method, path, { body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${JSON.stringify(res.body)}`);
  return res.body;
}

const world = {
  channels: [] as string[],
  products: [] as string[],
  groups: [] as string[],
  customers: [] as string[],
  brands: [] as string[],
};

/** A window: none, ended before T0, running, or starting later. */
function window() {
  const kind = pick(["always", "ended", "running", "later"] as const);
  if (kind === "always") return {};
  if (kind === "ended") return { validFrom: iso(T0 - 90 * DAY), validTo: iso(T0 - 10 * DAY) };
  if (kind === "running") return { validFrom: iso(T0 - 10 * DAY), validTo: iso(T0 + 30 * DAY) };
  return { validFrom: iso(T0 + 10 * DAY) };
}

async function seedWorld() {
  for (let i = 0; i < 3; i++) world.channels.push((await createChannel()).code);
  const [main, second] = world.channels as [string, string, string];
  // A forest: two roots, children, a grandchild.
  const roots = [(await createProductGroup()).code, (await createProductGroup()).code];
  const mid = (await createProductGroup({ parentCode: roots[0] })).code;
  const leaf = (await createProductGroup({ parentCode: mid })).code;
  const other = (await createProductGroup({ parentCode: roots[1] })).code;
  const productGroups = [...roots, mid, leaf, other];
  for (let i = 0; i < 3; i++) world.brands.push((await createBrand()).code);
  for (let i = 0; i < 14; i++) {
    const group = rand() < 0.8 ? pick(productGroups) : undefined;
    const [brand] = someBrands(0.3);
    world.products.push(
      (
        await createProduct({
          ...(group ? { productGroupCode: group } : {}),
          ...(brand ? { brandCode: brand } : {}),
        })
      ).code,
    );
  }
  for (let i = 0; i < 4; i++) world.groups.push((await createCustomerGroup()).code);
  await ok("POST", `/v1/api/channel/${main}/customer-group`, {
    customerGroupCodes: world.groups.slice(0, 3),
  });
  await ok("POST", `/v1/api/channel/${second}/customer-group`, {
    customerGroupCodes: world.groups.slice(2),
  });
  for (let i = 0; i < 6; i++) {
    const customer = await createCustomer({
      customerGroupCodes: some(world.groups, 0.5),
      channelCodes: i === 5 ? [second] : [main, ...some([second], 0.5)],
    });
    world.customers.push(customer.code);
  }
  await seedLists(main, productGroups);
  for (let i = 0; i < 40; i++) await seedCondition(productGroups);
  for (let i = 0; i < 20; i++) await seedPromotion(productGroups);
}

async function seedLists(channel: string, productGroups: string[]) {
  // Some rows per 1000 pieces (docs/pricing-rules.md §20).
  const rows = (codes: readonly string[]) =>
    codes.map((productCode) => ({
      productCode,
      amount: 1000 + Math.floor(rand() * 900),
      priceUnit: rand() < 0.2 ? 1000 : 1,
    }));
  const primary = await createPricelist({ status: "ACTIVE" });
  await ok("PUT", `/v1/api/pricelist/${primary.id}/prices`, { prices: rows(world.products) });
  await setPrimaryPricelist(channel, primary.id);
  const derived = await createPricelist({
    status: "ACTIVE",
    derivation: { basePricelistId: primary.id, adjustmentBp: -500 },
  });
  await assignPricelistToChannel(channel, derived.id);
  const group = await createPricelist({ status: pick(["ACTIVE", "DRAFT"]) });
  await ok("PUT", `/v1/api/pricelist/${group.id}/prices`, {
    prices: rows(some(world.products, 0.5)),
  });
  await ok("POST", `/v1/api/customer-group/${world.groups[0]}/pricelist`, {
    pricelistId: group.id,
  });
  const own = await createIndividualPricelist(world.customers[0]!);
  await setPricelistStatus(own.id, "ACTIVE");
  await ok("PUT", `/v1/api/pricelist/${own.id}/prices`, {
    prices: rows(some(world.products, 0.4)),
  });
  const assigned = await createPricelist({ status: "ACTIVE", currency: "CHF" });
  await ok("PUT", `/v1/api/pricelist/${assigned.id}/prices`, { prices: rows(world.products) });
  await assignPricelistToCustomer(world.customers[1]!, assigned.id);
  // Lists derived across currencies (docs/pricing-rules.md §19) with rates before, between and
  // after the generated moments; CHF → USD has none.
  const chf = await createPricelist({
    status: "ACTIVE",
    currency: "CHF",
    derivation: { basePricelistId: primary.id, adjustmentBp: 300 },
  });
  await assignPricelistToChannel(channel, chf.id);
  const usd = await createPricelist({
    status: "ACTIVE",
    currency: "USD",
    derivation: { basePricelistId: assigned.id, adjustmentBp: 0 },
  });
  await assignPricelistToCustomer(world.customers[1]!, usd.id);
  const usdFromEur = await createPricelist({
    status: "ACTIVE",
    currency: "USD",
    derivation: { basePricelistId: derived.id, adjustmentBp: -200 },
  });
  await assignPricelistToChannel(channel, usdFromEur.id);
  await ok("PUT", "/v1/api/exchange-rates", {
    rates: [
      { from: "EUR", to: "CHF", rate: "0.95", validFrom: iso(T0 - 60 * DAY) },
      { from: "EUR", to: "CHF", rate: "0.96", validFrom: iso(T0 + 10 * DAY) },
      { from: "EUR", to: "CHF", rate: "0.97", validFrom: iso(T0 + 500 * DAY) },
      { from: "EUR", to: "USD", rate: "1.08", validFrom: iso(T0) },
      { from: "USD", to: "EUR", rate: "0.93", validFrom: iso(T0) },
    ],
  });
  for (const status of ["ACTIVE", "DRAFT"]) {
    const floor = await createPricelist({ kind: "FLOOR", status });
    await ok("PUT", `/v1/api/pricelist/${floor.id}/prices`, {
      prices: rows(some(world.products, 0.5)),
    });
    await assignPricelistToChannel(channel, floor.id);
  }
  // COST lists (read for admin keys only) and FLOOR lists derived from one, in its currency and
  // in another (docs/pricing-rules.md §23, §24).
  const costs: { id: number }[] = [];
  for (const status of ["ACTIVE", "DRAFT"]) {
    const cost = await createPricelist({ kind: "COST", status });
    await ok("PUT", `/v1/api/pricelist/${cost.id}/prices`, {
      prices: rows(some(world.products, 0.7)),
    });
    await assignPricelistToChannel(channel, cost.id);
    costs.push(cost);
  }
  for (const currency of ["EUR", "USD"]) {
    const floor = await createPricelist({
      kind: "FLOOR",
      status: "ACTIVE",
      currency,
      derivation: { basePricelistId: costs[0]!.id, adjustmentBp: 1000 },
    });
    await assignPricelistToChannel(channel, floor.id);
  }
  void productGroups;
}

const channelsOf = (scope: string) => {
  const chosen = some(world.channels, 0.4);
  return scope === "CHANNEL" && chosen.length === 0 ? [world.channels[0]!] : chosen;
};

async function seedCondition(productGroups: string[]) {
  const scope = pick(["GLOBAL", "CHANNEL", "CUSTOMER_GROUP", "CUSTOMER"] as const);
  // Some are ACCRUALs, which only an admin's lookup reads (docs/pricing-rules.md §25).
  const accrual = rand() < 0.2;
  const condition = await createTradeCondition({
    scope,
    ...(accrual ? { type: "ACCRUAL" } : {}),
    status: pick(["ACTIVE", "ACTIVE", "DRAFT"]),
    priority: Math.floor(rand() * 5),
    stackable: !accrual && rand() < 0.3,
    ...window(),
    channelCodes: channelsOf(scope),
    productCodes: some(world.products, 0.15),
    productGroupCodes: some(productGroups, 0.2),
    brandCodes: someBrands(0.15),
  });
  if (scope === "CUSTOMER_GROUP") {
    const groups = some(world.groups, 0.4);
    if (groups.length > 0) {
      await ok("POST", `/v1/api/trade-conditions/${condition.id}/customer-groups`, {
        customerGroupCodes: groups,
      });
    }
  } else if (scope === "CUSTOMER") {
    const customers = some(world.customers, 0.3);
    if (customers.length > 0) {
      await ok("POST", `/v1/api/trade-conditions/${condition.id}/customers`, {
        customerCodes: customers,
      });
    }
  }
}

async function seedPromotion(productGroups: string[]) {
  await createPromotion({
    status: pick(["ACTIVE", "ACTIVE", "DRAFT"]),
    priority: Math.floor(rand() * 5),
    ...window(),
    channelCodes: some(world.channels, 0.4),
    customerGroupCodes: some(world.groups, 0.3),
    productCodes: some(world.products, 0.15),
    productGroupCodes: some(productGroups, 0.2),
    brandCodes: someBrands(0.15),
  });
}

/** A context in a canonical order: the engine ranks records itself, whatever order they come in. */
function canonical(context: PriceContext) {
  const byId = <T extends { id: number }>(records: readonly T[]) =>
    [...records].sort((a, b) => a.id - b.id);
  // Rows in a stable order: the engine sorts a product's tiers itself.
  const rows = <T extends { prices: readonly PriceRow[] }>(lists: readonly T[]) =>
    byId(lists as readonly (T & { id: number })[]).map((list) => ({
      ...list,
      prices: [...list.prices].sort(
        (a, b) => a.productCode.localeCompare(b.productCode) || a.minQuantity - b.minQuantity,
      ),
    }));
  return {
    ...context,
    products: [...context.products].sort(([a], [b]) => a.localeCompare(b)),
    pricelists: rows(context.pricelists),
    priceBases: rows(context.priceBases),
    floors: rows(context.floors),
    costs: rows(context.costs),
    tradeConditions: byId(context.tradeConditions),
    promotions: byId(context.promotions),
  };
}

function queries(count: number): PriceQuery[] {
  return Array.from({ length: count }, () => ({
    channelCode: pick(world.channels),
    customerCode: rand() < 0.25 ? null : pick(world.customers),
    currency: rand() < 0.7 ? null : pick(["EUR", "CHF", "USD"]),
    at: pick(MOMENTS),
    explain: rand() < 0.3,
    scope: rand() < 0.4 ? SEES_ALL : SEES_NO_COSTS,
    productCodes: [...some(world.products, 0.3), ...(rand() < 0.2 ? ["NO-SUCH-PRODUCT"] : [])],
  }));
}

describe("the pricing reader's SQL and in-memory reach", () => {
  beforeAll(seedWorld, 120_000);

  it("pick the same records for 80 generated requests", async () => {
    const db = createDb(env.DB, new DbMeter());
    let records = 0;
    let rates = 0;
    let costs = 0;
    let accrualsRead = 0;
    for (const query of queries(80)) {
      const bySql = await loadPriceContext(db, query);
      const parts = await loadChannelAndRequest(db, query);
      const inMemory = assemblePriceContext(
        channelContextOf(parts.channel),
        parts.customer && customerContextOf(parts.customer),
        parts.request,
        query,
      );
      expect(canonical(inMemory), JSON.stringify(query)).toEqual(canonical(bySql));
      records += bySql.tradeConditions.length + bySql.promotions.length;
      rates += bySql.exchangeRates.length;
      // A read key's lookup reads no cost and no accrual at all (docs/api/access.md §18).
      const accruals = bySql.tradeConditions.filter((c) => c.type === "ACCRUAL").length;
      if (query.scope.costs) {
        costs += bySql.costs.length;
        accrualsRead += accruals;
      } else {
        expect(bySql.costs).toEqual([]);
        expect(accruals).toBe(0);
      }
      // The product cache reads the rows of the lists reach.ts `priceListIds` names: the same
      // rows as the SQL's, read cold and then served from the cache.
      const channel = channelContextOf(parts.channel);
      const customer = parts.customer && customerContextOf(parts.customer);
      const view = viewOf(channel, customer, query);
      clearProductCache();
      for (const round of ["cold", "cached"]) {
        const part = await loadProductPart(db, bySql.version, query.productCodes, view.listIds);
        const fromCache = assemblePriceContext(channel, customer, part!, query, view);
        expect(canonical(fromCache), `${round} ${JSON.stringify(query)}`).toEqual(canonical(bySql));
      }
    }
    // The generated data must reach: a comparison of empty sets proves nothing.
    expect(records).toBeGreaterThan(200);
    expect(rates).toBeGreaterThan(10);
    expect(costs).toBeGreaterThan(10);
    expect(accrualsRead).toBeGreaterThan(5);
  });
});
