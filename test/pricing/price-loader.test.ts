import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb, DbMeter } from "../../src/db/client";
import { loadPriceContext, priceStatements, type PriceQuery } from "../../src/db/pricing/lookup";
import { decodedBatch } from "../../src/db/rows";
import { SEES_NO_COSTS } from "../../src/db/visibility";
import { api, created, uid } from "../shared/helpers";

/**
 * The price loader's one raw-SQL batch, run for real on data that gives every statement rows and
 * every link list a code: each decoded field of each row must be there. A column renamed in the
 * schema, or an alias the decoder does not know, fails here (and in every price request) instead
 * of reaching the engine as `undefined`.
 */

const AT = Date.UTC(2025, 5, 15);
const window = { validFrom: "2025-01-01", validTo: "2026-01-01" };
let query: PriceQuery;
let groupCode: string;
let groupPath: string[];
/** A DRAFT derived list of the channel and its base. */
let idleLists: number[];

async function ok(method: string, path: string, body: unknown) {
  const res = await api(method, path, { body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${JSON.stringify(res.body)}`);
  return res.body;
}

async function pricelist(path: string, body: Record<string, unknown>, productCode: string) {
  const pl = await created(path, { name: uid("PL"), currency: "EUR", ...window, ...body });
  await ok("PUT", `/v1/api/pricelist/${pl.id}/prices`, {
    prices: [
      { productCode, amount: 1000 },
      { productCode, minQuantity: 10, amount: 900 },
    ],
  });
  return pl.id as number;
}

beforeAll(async () => {
  const [channel, product, group, customer] = [uid("CH"), uid("P"), uid("G"), uid("C")];
  const [parentGroup, childGroup] = [uid("PG"), uid("PG")];
  groupCode = group;
  groupPath = [childGroup, parentGroup];
  await created("/v1/api/channel", { code: channel, name: "Channel" });
  await created("/v1/api/product-group", { code: parentGroup, name: "Parent" });
  await created("/v1/api/product-group", {
    code: childGroup,
    name: "Child",
    parentCode: parentGroup,
  });
  await created("/v1/api/product", {
    code: product,
    name: "Product",
    productGroupCode: childGroup,
    minOrderQuantity: 2,
    orderIncrement: 2,
    maxOrderQuantity: 1000,
  });
  await created("/v1/api/customer-group", { code: group, name: "Group" });
  await ok("POST", `/v1/api/channel/${channel}/customer-group`, { customerGroupCodes: [group] });
  await created("/v1/api/customer", {
    code: customer,
    name: "Customer",
    customerGroupCodes: [group],
    channelCodes: [channel],
  });

  // One pricelist at every level.
  const own = await pricelist("/v1/api/pricelist/individual", { customerCode: customer }, product);
  await ok("PATCH", `/v1/api/pricelist/${own}`, { status: "ACTIVE" });
  const general = (status = "ACTIVE") => pricelist("/v1/api/pricelist", { status }, product);
  await ok("POST", `/v1/api/customer/${customer}/pricelist`, { pricelistId: await general() });
  await ok("POST", `/v1/api/customer-group/${group}/pricelist`, { pricelistId: await general() });
  await ok("PUT", `/v1/api/channel/${channel}/pricelist/primary`, {
    pricelistId: await general(),
  });
  // A derived list of the channel, its base (unassigned, DRAFT) and a FLOOR list of the channel.
  const base = await pricelist("/v1/api/pricelist", {}, product);
  const derivation = {
    basePricelistId: base,
    adjustmentBp: -1000,
    rounding: { mode: "NEAREST", step: 10, ending: 9 },
  };
  const derived = await pricelist("/v1/api/pricelist", { status: "ACTIVE", derivation }, product);
  await ok("POST", `/v1/api/channel/${channel}/pricelist`, { pricelistId: derived });
  // A DRAFT derived list of the channel: a candidate (explain names it), but it cannot price, so
  // neither its base nor any price row of that base is read.
  const idleBase = await pricelist("/v1/api/pricelist", {}, product);
  const idle = await pricelist(
    "/v1/api/pricelist",
    { derivation: { ...derivation, basePricelistId: idleBase } },
    product,
  );
  await ok("POST", `/v1/api/channel/${channel}/pricelist`, { pricelistId: idle });
  idleLists = [idle, idleBase];
  const floor = await pricelist("/v1/api/pricelist", { status: "ACTIVE", kind: "FLOOR" }, product);
  await ok("POST", `/v1/api/channel/${channel}/pricelist`, { pricelistId: floor });

  // A condition per targeted scope, each with every kind of link and a scale.
  const links = { productCodes: [product], channelCodes: [channel] };
  for (const [scope, target] of [
    ["CUSTOMER", { customerCodes: [customer] }],
    ["CUSTOMER_GROUP", { customerGroupCodes: [group] }],
  ] as const) {
    const tc = await created("/v1/api/trade-conditions", {
      name: uid("TC"),
      status: "ACTIVE",
      scope,
      type: "DISCOUNT",
      discountType: "PERCENTAGE",
      value: 500,
      scaleBasis: "ORDER_QUANTITY",
      scales: [{ minimum: 10, value: 700 }],
      productGroupCodes: [parentGroup],
      ...window,
      ...links,
    });
    const path = scope === "CUSTOMER" ? "customers" : "customer-groups";
    await ok("POST", `/v1/api/trade-conditions/${tc.id}/${path}`, target);
  }
  await created("/v1/api/promotion", {
    name: uid("PR"),
    status: "ACTIVE",
    discountType: "ABSOLUTE",
    value: 50,
    currency: "EUR",
    customerGroupCodes: [group],
    productGroupCodes: [parentGroup],
    threshold: { basis: "QUANTITY", minimum: 5 },
    ...window,
    ...links,
  });

  query = {
    channelCode: channel,
    customerCode: customer,
    currency: null,
    at: AT,
    explain: true,
    scope: SEES_NO_COSTS,
    productCodes: [product],
  };
});

/** Paths of every undefined value inside `value` (objects and arrays, all the way down). */
function undefinedPaths(value: unknown, path = "$"): string[] {
  if (value === undefined) return [path];
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, v]) => undefinedPaths(v, `${path}.${key}`));
}

describe("the price loader's batch", () => {
  it("gives rows from every statement, every field of every row decoded", async () => {
    const meter = new DbMeter();
    const results = await decodedBatch(createDb(env.DB, meter), priceStatements(query));
    expect(meter.calls).toBe(1);
    const [context, lists, prices, conditions, promotions, facts, version] = results;
    // One statement reads the candidates, the lists they derive from and the floors.
    const pricelists = lists.filter((l) => l.role === "CANDIDATE");
    const bases = lists.filter((l) => l.role === "BASE");
    const floors = lists.filter((l) => l.role === "FLOOR");
    expect(lists.map((l) => l.role)).toEqual([
      ...pricelists.map(() => "CANDIDATE"),
      ...bases.map(() => "BASE"),
      ...floors.map(() => "FLOOR"),
    ]);
    expect(context).toHaveLength(1);
    expect(pricelists).toHaveLength(6);
    // The 5 candidates that can price, the base and the floor: 2 tiers each. The DRAFT derived
    // list's own tiers are read only because this query explains (explain shows what a list that
    // does not apply holds, docs/pricing-rules.md §9); its base is not read.
    expect(prices).toHaveLength(16);
    const [idle, idleBase] = idleLists;
    expect(prices.filter((row) => row.pricelistId === idle)).toHaveLength(2);
    expect(prices.filter((row) => row.pricelistId === idleBase)).toEqual([]);
    expect(conditions).toHaveLength(2);
    expect(promotions).toHaveLength(1);
    // The product, then its group and that group's parent, each once: the loader walks the path
    // in memory.
    const groups = facts.filter((row) => row.kind === "GROUP");
    const [child, parent] = groupPath.map((code) => groups.find((g) => g.code === code));
    expect(facts).toEqual([
      {
        kind: "PRODUCT",
        code: query.productCodes[0],
        groupId: child!.groupId,
        parentId: null,
        minOrderQuantity: 2,
        orderIncrement: 2,
        maxOrderQuantity: 1000,
        brandCode: null,
      },
      ...groups,
    ]);
    expect(groups).toHaveLength(2);
    expect(child!.parentId).toBe(parent!.groupId);
    expect(parent!.parentId).toBeNull();
    expect(bases).toHaveLength(1);
    expect(floors).toHaveLength(1);
    expect(version).toHaveLength(1);
    const active = pricelists.filter((p) => !idleLists.includes(p.id));
    expect(active.filter((p) => p.basePricelistId !== null)).toEqual([
      expect.objectContaining({
        basePricelistId: bases[0]!.id,
        adjustmentBp: -1000,
        roundingMode: "NEAREST",
        roundingStep: 10,
        roundingEnding: 9,
      }),
    ]);
    results.forEach((rows, statement) => {
      for (const row of rows) {
        expect(undefinedPaths(row), `statement ${statement}`).toEqual([]);
        expect(Object.keys(row).length).toBeGreaterThan(0);
      }
    });
    // The link lists and scales are decoded from JSON, not left as text.
    expect(context[0]!.groupCodes).toEqual([groupCode]);
    for (const c of conditions) {
      expect(c.productCodes).toEqual(query.productCodes);
      expect(c.channelCodes).toEqual([query.channelCode]);
      expect(c.scales).toEqual([{ minimum: 10, value: 700 }]);
      expect(c.scaleBasis).toBe("ORDER_QUANTITY");
      expect(c.productGroupCodes).toEqual([groupPath[1]]);
      expect([...c.customerCodes, ...c.customerGroupCodes]).toHaveLength(1);
    }
    expect(promotions[0]!.customerGroupCodes).toEqual([groupCode]);
    expect(promotions[0]!.productGroupCodes).toEqual([groupPath[1]]);
    expect(promotions[0]).toMatchObject({ thresholdBasis: "QUANTITY", thresholdMinimum: 5 });
    expect(new Set(pricelists.flatMap((p) => p.levels))).toEqual(
      new Set(["INDIVIDUAL", "CUSTOMER", "CUSTOMER_GROUP", "CHANNEL_PRIMARY", "CHANNEL"]),
    );
  });

  it("hands the engine candidates with every field present", async () => {
    const context = await loadPriceContext(createDb(env.DB, new DbMeter()), query);
    expect(undefinedPaths(context)).toEqual([]);
    // Every list of the context holds its 2 tiers (explain reads the DRAFT one's too).
    expect(context.pricelists.map((p) => p.prices.length)).toEqual(context.pricelists.map(() => 2));
    expect(context.currency).toBe("EUR");
    expect(context.products.get(query.productCodes[0]!)).toEqual({
      groupPath,
      minOrderQuantity: 2,
      orderIncrement: 2,
      maxOrderQuantity: 1000,
      brandCode: null,
    });
    expect(context.priceBases).toEqual([
      expect.objectContaining({
        derivation: null,
        prices: expect.arrayContaining([expect.anything()]),
      }),
    ]);
    expect(context.floors).toHaveLength(1);
    expect(context.floors[0]!.prices).toHaveLength(2);
    expect(context.promotions[0]!.threshold).toEqual({ basis: "QUANTITY", minimum: 5 });
  });

  it("refuses a row that lacks a column or holds the wrong type, naming the column", () => {
    const [, pricelists, , conditions] = priceStatements(query);
    const row = {
      role: "CANDIDATE",
      id: 1,
      name: "PL",
      status: "ACTIVE",
      currency: "EUR",
      priority: 0,
      valid_from: null, // the column's SQL name, not the field the decoder asked for
      validTo: null,
      allowsTradeDiscounts: 1,
      taxInclusive: 0,
      levels: '["CHANNEL"]',
      basePricelistId: null,
      adjustmentBp: null,
      roundingMode: null,
      roundingStep: null,
      tierMode: "VOLUME",
      roundingEnding: null,
      rates: "[]",
    };
    expect(() => pricelists.decode(row)).toThrow("column validFrom is missing");
    expect(() => pricelists.decode({ ...row, validFrom: null, status: "LIVE" })).toThrow(
      'column status is "LIVE"',
    );
    expect(pricelists.decode({ ...row, validFrom: null })).toMatchObject({ levels: ["CHANNEL"] });
    expect(() => conditions.decode({})).toThrow("column id is missing");
  });

  it("stays one D1 round trip for a price request", async () => {
    const res = await api("POST", "/v1/api/prices/resolve", {
      body: {
        channelCode: query.channelCode,
        customerCode: query.customerCode,
        at: new Date(AT).toISOString(),
        explain: true,
        lines: [{ productCode: query.productCodes[0], quantity: 10 }],
      },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("server-timing")).toMatch(/^db;desc="1 query"/);
    expect(res.body.lines[0].status).toBe("OK");
  });
});
