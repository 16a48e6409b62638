import { beforeAll, describe, expect, it } from "vitest";
import {
  assignPricelistToChannel,
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
import { cliffRange } from "../../src/pricing/lint/tiers";
import { api, expectProblem, issuePaths, KEYS, roundTrips } from "../shared/helpers";

/**
 * GET /v1/api/pricing/lint (docs/pricing-lint.md): each finding with data that triggers it and
 * data that does not. The findings are global and the storage is shared by the file, so every
 * test's records live in a channel of their own, and assertions look only at the findings that
 * name the test's records.
 */

interface Ref {
  kind: string;
  id?: number;
  code?: string;
}

interface Finding {
  code: string;
  severity: string;
  message: string;
  records: Ref[];
}

const PATH = "/v1/api/pricing/lint";

async function findings(code: string): Promise<Finding[]> {
  const res = await api("GET", `${PATH}?limit=100&filter.code=${code}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.meta.totalItems).toBeLessThanOrEqual(100);
  return res.body.data;
}

const sameRecord = (a: Ref, b: Ref) => a.kind === b.kind && a.id === b.id && a.code === b.code;

/** The findings of `code` that name `record`. */
const naming = async (code: string, record: Ref) =>
  (await findings(code)).filter((f) => f.records.some((r) => sameRecord(r, record)));

const tc = (row: { id: number }): Ref => ({ kind: "tradeCondition", id: row.id });
const pl = (row: { id: number }): Ref => ({ kind: "pricelist", id: row.id });

async function ok(method: string, path: string, body?: unknown) {
  const res = await api(method, path, { body });
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

const putPrices = (id: number, prices: unknown[]) =>
  ok("PUT", `/v1/api/pricelist/${id}/prices`, { prices });

/** An ACTIVE condition in the test's own channel, so no other test's condition meets it. */
const condition = (channel: { code: string }, overrides: Record<string, unknown> = {}) =>
  createTradeCondition({ status: "ACTIVE", channelCodes: [channel.code], ...overrides });

async function groupCondition(
  channel: { code: string },
  groups: string[],
  overrides: Record<string, unknown> = {},
) {
  const row = await condition(channel, { scope: "CUSTOMER_GROUP", ...overrides });
  await ok("POST", `/v1/api/trade-conditions/${row.id}/customer-groups`, {
    customerGroupCodes: groups,
  });
  return row;
}

/** A channel of its own with an ACTIVE primary pricelist (so it has no finding of its own). */
async function channelWithPrimary() {
  const channel = await createChannel();
  const primary = await createPricelist({ status: "ACTIVE" });
  await setPrimaryPricelist(channel.code, primary.id);
  return { channel, primary };
}

describe("GET /v1/api/pricing/lint: the list", () => {
  beforeAll(async () => {
    await createChannel(); // CHANNEL_WITHOUT_PRIMARY: ERROR
    await createTradeCondition({
      status: "ACTIVE",
      validFrom: "2020-01-01",
      validTo: "2021-01-01",
    });
  });

  it("answers a list envelope, ERROR first, then by code, in one D1 round trip", async () => {
    const res = await api("GET", PATH);
    expect(res.status).toBe(200);
    expect(roundTrips(res)).toBe(1);
    expect(res.body.meta).toMatchObject({
      itemsPerPage: 20,
      currentPage: 1,
      sortBy: [
        ["severity", "ASC"],
        ["code", "ASC"],
      ],
    });
    expect(res.body.links.current).toBe(
      `http://pricing.test${PATH}?page=1&limit=20&sortBy=severity:ASC&sortBy=code:ASC`,
    );
    const severities = res.body.data.map((f: Finding) => f.severity);
    expect(severities[0]).toBe("ERROR");
    expect(severities).toEqual(
      [...severities].sort(
        (a, b) => ["ERROR", "WARNING", "INFO"].indexOf(a) - ["ERROR", "WARNING", "INFO"].indexOf(b),
      ),
    );
  });

  it("filters by severity and code, sorts and pages", async () => {
    const info = await api("GET", `${PATH}?filter.severity=INFO`);
    expect(info.body.data.length).toBeGreaterThan(0);
    expect(info.body.data.every((f: Finding) => f.severity === "INFO")).toBe(true);

    const notInfo = await api("GET", `${PATH}?filter.severity=$not:INFO&limit=100`);
    expect(notInfo.body.data.some((f: Finding) => f.severity === "INFO")).toBe(false);
    const all = await api("GET", `${PATH}?limit=100`);
    expect(notInfo.body.meta.totalItems + info.body.meta.totalItems).toBe(all.body.meta.totalItems);

    const two = await api(
      "GET",
      `${PATH}?filter.code=$in:CHANNEL_WITHOUT_PRIMARY,EXPIRED_BUT_ACTIVE&sortBy=code:DESC`,
    );
    const codes = two.body.data.map((f: Finding) => f.code);
    expect(codes[0]).toBe("EXPIRED_BUT_ACTIVE");
    expect(codes.at(-1)).toBe("CHANNEL_WITHOUT_PRIMARY");

    const page = await api("GET", `${PATH}?limit=1&page=2`);
    expect(page.body.data).toEqual([all.body.data[1]]);
    expect(page.body.meta).toMatchObject({ itemsPerPage: 1, currentPage: 2 });
    expect(page.body.links.previous).toContain("page=1&limit=1");
  });

  it("refuses an unknown code, sort or operator with a 400 naming the parameter", async () => {
    const res = await api(
      "GET",
      `${PATH}?filter.code=NOPE&sortBy=message:ASC&filter.severity=$gt:INFO`,
    );
    const body = expectProblem(res, 400, "VALIDATION_FAILED");
    expect(issuePaths(res)).toEqual(["query.sortBy", "query.filter.code", "query.filter.severity"]);
    expect(body.errors![1]!.message).toContain("must be one of CHANNEL_WITHOUT_PRIMARY");
  });

  it("is for admin keys only", async () => {
    const read = expectProblem(await api("GET", PATH, { key: KEYS.read }), 403, "FORBIDDEN");
    expect(read.detail).toBe("a read key cannot lint the pricing rules; use an admin key");
    expectProblem(await api("GET", PATH, { key: null }), 401, "UNAUTHORIZED");
  });
});

describe("CHANNEL_WITHOUT_PRIMARY", () => {
  it("names an active channel without a primary pricelist", async () => {
    const channel = await createChannel();
    expect(
      await naming("CHANNEL_WITHOUT_PRIMARY", { kind: "channel", code: channel.code }),
    ).toEqual([
      {
        code: "CHANNEL_WITHOUT_PRIMARY",
        severity: "ERROR",
        message:
          `channel ${channel.code} is active but has no primary pricelist: a price request ` +
          "without a currency is refused (CURRENCY_REQUIRED), and list prices come only from " +
          "its other pricelists",
        records: [{ kind: "channel", code: channel.code }],
      },
    ]);
  });

  it("does not name a channel with a primary pricelist, or an inactive one", async () => {
    const { channel } = await channelWithPrimary();
    const inactive = await createChannel({ isActive: false });
    for (const code of [channel.code, inactive.code]) {
      expect(await naming("CHANNEL_WITHOUT_PRIMARY", { kind: "channel", code })).toEqual([]);
    }
  });
});

describe("EXPIRED_BUT_ACTIVE", () => {
  const past = { validFrom: "2020-01-01", validTo: "2021-01-01T00:00:00Z" };

  it("names ACTIVE pricelists, conditions and promotions whose window has ended", async () => {
    const list = await createPricelist({ status: "ACTIVE", ...past });
    const cond = await createTradeCondition({ status: "ACTIVE", ...past });
    const promo = await createPromotion({ status: "ACTIVE", ...past });
    const expected = (noun: string, record: Ref) => ({
      code: "EXPIRED_BUT_ACTIVE",
      severity: "INFO",
      message:
        `${noun} is ACTIVE but its window ended at 2021-01-01T00:00:00.000Z: it no longer ` +
        "takes part in any price; make it INACTIVE or ARCHIVED, or extend validTo",
      records: [record],
    });
    expect(await naming("EXPIRED_BUT_ACTIVE", pl(list))).toEqual([
      expected(`pricelist ${list.id}`, pl(list)),
    ]);
    expect(await naming("EXPIRED_BUT_ACTIVE", tc(cond))).toEqual([
      expected(`trade condition ${cond.id}`, tc(cond)),
    ]);
    const ref = { kind: "promotion", id: promo.id };
    expect(await naming("EXPIRED_BUT_ACTIVE", ref)).toEqual([
      expected(`promotion ${promo.id}`, ref),
    ]);
  });

  it("does not name an expired record that is not ACTIVE, or an ACTIVE one still valid", async () => {
    const inactive = await createTradeCondition({ status: "DRAFT", ...past });
    const valid = await createTradeCondition({ status: "ACTIVE", validTo: "2999-01-01" });
    const open = await createPricelist({ status: "ACTIVE" });
    for (const record of [tc(inactive), tc(valid), pl(open)]) {
      expect(await naming("EXPIRED_BUT_ACTIVE", record)).toEqual([]);
    }
  });
});

describe("UNREACHABLE_PRICELIST", () => {
  it("names an ACTIVE GENERAL SALES pricelist nothing reaches", async () => {
    const list = await createPricelist({ status: "ACTIVE" });
    expect(await naming("UNREACHABLE_PRICELIST", pl(list))).toEqual([
      {
        code: "UNREACHABLE_PRICELIST",
        severity: "WARNING",
        message:
          `pricelist ${list.id} is ACTIVE but assigned to no channel, customer group or ` +
          "customer, and no pricelist derives from it: no price request can reach it",
        records: [pl(list)],
      },
    ]);
  });

  it("does not name one that is assigned, a derivation base, a DRAFT or a FLOOR list", async () => {
    const { primary } = await channelWithPrimary();
    const group = await createCustomerGroup();
    const forGroup = await createPricelist({ status: "ACTIVE" });
    await ok("POST", `/v1/api/customer-group/${group.code}/pricelist`, {
      pricelistId: forGroup.id,
    });
    const customer = await createCustomer();
    const forCustomer = await createPricelist({ status: "ACTIVE" });
    await ok("POST", `/v1/api/customer/${customer.code}/pricelist`, {
      pricelistId: forCustomer.id,
    });
    const base = await createPricelist({ status: "ACTIVE" });
    await createPricelist({ derivation: { basePricelistId: base.id, adjustmentBp: -500 } });
    const draft = await createPricelist();
    const floor = await createPricelist({ status: "ACTIVE", kind: "FLOOR" });
    for (const list of [primary, forGroup, forCustomer, base, draft, floor]) {
      expect(await naming("UNREACHABLE_PRICELIST", pl(list))).toEqual([]);
    }
  });
});

describe("EMPTY_GROUP_TARGETED", () => {
  it("names the terms in force that name a group holding no product, and the group", async () => {
    const { channel } = await channelWithPrimary();
    const empty = await createProductGroup();
    const parent = await createProductGroup();
    const child = await createProductGroup({ parentCode: parent.code });
    await createProduct({ productGroupCode: child.code });
    const cond = await condition(channel, { productGroupCodes: [parent.code, empty.code] });
    const promo = await createPromotion({
      status: "ACTIVE",
      channelCodes: [channel.code],
      productGroupCodes: [empty.code],
    });
    const message = (noun: string) =>
      `${noun} names product group ${empty.code}, which holds no product (neither directly ` +
      "nor through a group below): it reaches nothing through it";
    const group = { kind: "productGroup", code: empty.code };
    expect(await naming("EMPTY_GROUP_TARGETED", tc(cond))).toEqual([
      {
        code: "EMPTY_GROUP_TARGETED",
        severity: "WARNING",
        message: message(`trade condition ${cond.id}`),
        records: [tc(cond), group],
      },
    ]);
    const ref = { kind: "promotion", id: promo.id };
    expect(await naming("EMPTY_GROUP_TARGETED", ref)).toEqual([
      expect.objectContaining({ message: message(`promotion ${promo.id}`), records: [ref, group] }),
    ]);
  });

  it("does not name a group whose descendant holds a product, or a DRAFT condition", async () => {
    const { channel } = await channelWithPrimary();
    const parent = await createProductGroup();
    const child = await createProductGroup({ parentCode: parent.code });
    await createProduct({ productGroupCode: child.code });
    const held = await condition(channel, { productGroupCodes: [parent.code] });
    const empty = await createProductGroup();
    const draft = await condition(channel, { status: "DRAFT", productGroupCodes: [empty.code] });
    for (const record of [tc(held), tc(draft), { kind: "productGroup", code: parent.code }]) {
      expect(await naming("EMPTY_GROUP_TARGETED", record)).toEqual([]);
    }
  });
});

describe("PRICE_GAP", () => {
  it("names a hole between two rows of an ACTIVE list's timeline, not a timeline that ends", async () => {
    const [product, ended] = [await createProduct(), await createProduct()];
    const list = await createPricelist({ status: "ACTIVE" });
    await putPrices(list.id, [
      { productCode: product.code, amount: 500 },
      { productCode: product.code, amount: 519, validFrom: "2031-01-01T00:00:00Z" },
      // A campaign with its own end cuts the undated row, and leaves a hole after it.
      {
        productCode: product.code,
        amount: 450,
        validFrom: "2030-06-01T00:00:00Z",
        validTo: "2030-09-01T00:00:00Z",
      },
      { productCode: ended.code, amount: 100, validTo: "2030-01-01T00:00:00Z" },
    ]);
    expect(await naming("PRICE_GAP", pl(list))).toEqual([
      {
        code: "PRICE_GAP",
        severity: "WARNING",
        message:
          `pricelist ${list.id} has no row for product ${product.code} from quantity 1 between ` +
          "2030-09-01T00:00:00.000Z and 2031-01-01T00:00:00.000Z: lines then take their price " +
          "from another pricelist, or have none (NO_PRICE)",
        records: [pl(list), { kind: "product", code: product.code }],
      },
    ]);
    // Filled, the hole is gone.
    await putPrices(list.id, [
      { productCode: product.code, amount: 480, validFrom: "2030-09-01T00:00:00Z" },
    ]);
    expect(await naming("PRICE_GAP", pl(list))).toEqual([]);
  });
});

describe("NO_FIRST_TIER", () => {
  it("names an ACTIVE list whose rows for a product start above its smallest quantity", async () => {
    const product = await createProduct();
    const boxed = await createProduct({ minOrderQuantity: 5, orderIncrement: 5 });
    const list = await createPricelist({ status: "ACTIVE" });
    await putPrices(list.id, [
      { productCode: product.code, minQuantity: 10, amount: 450 },
      { productCode: product.code, minQuantity: 50, amount: 400 },
      { productCode: boxed.code, minQuantity: 10, amount: 900 },
    ]);
    const found = await naming("NO_FIRST_TIER", pl(list));
    const about = (code: string) => found.filter((f) => f.records[1]!.code === code);
    expect(found).toHaveLength(2);
    expect(about(product.code)).toEqual([
      {
        code: "NO_FIRST_TIER",
        severity: "WARNING",
        message:
          `pricelist ${list.id} has rows for product ${product.code} from quantity 10 on only, ` +
          "but the product may be ordered from 1: for quantities 1–9 the line takes its price " +
          "from another pricelist, or has none (NO_PRICE)",
        records: [pl(list), { kind: "product", code: product.code }],
      },
    ]);
    expect(about(boxed.code)[0]!.message).toContain("may be ordered from 5: for quantities 5–9");
  });

  it("says what a FLOOR list without a first tier leaves unguarded", async () => {
    const product = await createProduct();
    const floor = await createPricelist({ status: "ACTIVE", kind: "FLOOR" });
    await putPrices(floor.id, [{ productCode: product.code, minQuantity: 3, amount: 100 }]);
    const [found] = await naming("NO_FIRST_TIER", pl(floor));
    expect(found!.message).toBe(
      `FLOOR pricelist ${floor.id} has rows for product ${product.code} from quantity 3 on ` +
        "only, but the product may be ordered from 1: for quantities 1–2 it guards nothing " +
        "(another FLOOR list of the channel, or none, applies)",
    );
  });

  it("does not name a first tier at the product's minimum, or a list not in force", async () => {
    const product = await createProduct();
    const boxed = await createProduct({ minOrderQuantity: 10 });
    const list = await createPricelist({ status: "ACTIVE" });
    await putPrices(list.id, [
      { productCode: product.code, amount: 500 },
      { productCode: product.code, minQuantity: 10, amount: 450 },
      { productCode: boxed.code, minQuantity: 10, amount: 450 },
    ]);
    const draft = await createPricelist();
    await putPrices(draft.id, [{ productCode: product.code, minQuantity: 10, amount: 450 }]);
    const ended = await createPricelist({ status: "ACTIVE", validTo: "2021-01-01" });
    await putPrices(ended.id, [{ productCode: product.code, minQuantity: 10, amount: 450 }]);
    for (const record of [pl(list), pl(draft), pl(ended)]) {
      expect(await naming("NO_FIRST_TIER", record)).toEqual([]);
    }
  });
});

describe("FLOOR_ABOVE_LIST", () => {
  /** A channel, its primary list and an assigned FLOOR list, with rows. */
  async function floorSetup(list: unknown[], floor: unknown[], floorOverrides = {}) {
    const { channel, primary } = await channelWithPrimary();
    await putPrices(primary.id, list);
    const floorList = await createPricelist({ status: "ACTIVE", kind: "FLOOR", ...floorOverrides });
    await putPrices(floorList.id, floor);
    await assignPricelistToChannel(channel.code, floorList.id);
    return { channel, primary, floorList };
  }

  it("names a FLOOR row above the primary list's price where both apply", async () => {
    const product = await createProduct();
    const { channel, primary, floorList } = await floorSetup(
      [
        { productCode: product.code, amount: 500 },
        { productCode: product.code, minQuantity: 10, amount: 400 },
      ],
      [{ productCode: product.code, amount: 450 }],
    );
    expect(await naming("FLOOR_ABOVE_LIST", pl(floorList))).toEqual([
      {
        code: "FLOOR_ABOVE_LIST",
        severity: "WARNING",
        message:
          `FLOOR pricelist ${floorList.id} holds 450 for product ${product.code} from quantity ` +
          `10, above the list price 400 of channel ${channel.code}'s primary pricelist ` +
          `${primary.id}: where it is the line's floor, a price at or below it is its own ` +
          "effective floor, so no trade condition or promotion lowers that price",
        records: [
          pl(floorList),
          { kind: "product", code: product.code },
          { kind: "channel", code: channel.code },
          pl(primary),
        ],
      },
    ]);
  });

  it("does not name a floor below the list, one that no orderable quantity meets, or another currency", async () => {
    const low = await createProduct();
    const boxed = await createProduct({ minOrderQuantity: 20, orderIncrement: 20 });
    const lists = await floorSetup(
      [
        { productCode: low.code, amount: 500 },
        { productCode: boxed.code, amount: 500 },
        { productCode: boxed.code, minQuantity: 10, amount: 300 },
        { productCode: boxed.code, minQuantity: 20, amount: 500 },
      ],
      // Above 300 only for 10-19, which boxes of 20 never order.
      [
        { productCode: low.code, amount: 300 },
        { productCode: boxed.code, amount: 400 },
      ],
    );
    const other = await floorSetup(
      [{ productCode: low.code, amount: 500 }],
      [{ productCode: low.code, amount: 900 }],
      { currency: "CHF" },
    );
    for (const list of [lists.floorList, other.floorList]) {
      expect(await naming("FLOOR_ABOVE_LIST", pl(list))).toEqual([]);
    }
  });
});

/** The findings of `code` about `record`: those naming it first. */
const about = async (code: string, record: Ref) =>
  (await findings(code)).filter((f) => sameRecord(f.records[0]!, record));

describe("NEVER_WINS", () => {
  it("names a condition a rival with the same or wider reach outranks by priority", async () => {
    const { channel } = await channelWithPrimary();
    const [g1, g2] = [await createCustomerGroup(), await createCustomerGroup()];
    const loser = await groupCondition(channel, [g1.code], { value: 500 });
    const rival = await groupCondition(channel, [g1.code, g2.code], { value: 300, priority: 5 });
    expect(await about("NEVER_WINS", tc(loser))).toEqual([
      {
        code: "NEVER_WINS",
        severity: "WARNING",
        message:
          `trade condition ${loser.id} (DISCOUNT, CUSTOMER_GROUP) never wins: wherever and ` +
          `whenever it is a candidate from now on, trade condition ${rival.id} is a candidate ` +
          "too and ranks before it (priority 5 against 0)",
        records: [tc(loser), tc(rival)],
      },
    ]);
    // The rival also reaches g2's members, where the loser is no candidate.
    expect(await about("NEVER_WINS", tc(rival))).toEqual([]);
  });

  it("names a GLOBAL condition that a CHANNEL one reaching its products always outranks", async () => {
    const { channel } = await channelWithPrimary();
    const group = await createProductGroup();
    const product = await createProduct({ productGroupCode: group.code });
    const loser = await condition(channel, { productCodes: [product.code], value: 2000 });
    const rival = await condition(channel, {
      scope: "CHANNEL",
      productGroupCodes: [group.code],
      value: 100,
    });
    const [found] = await about("NEVER_WINS", tc(loser));
    expect(found!.records).toEqual([tc(loser), tc(rival)]);
    expect(found!.message).toContain("(a CHANNEL condition is on a more specific rung)");
  });

  it("names a condition an older one with the same priority and a larger value outranks", async () => {
    const { channel } = await channelWithPrimary();
    const customer = await createCustomer({ channelCodes: [channel.code] });
    const target = async (row: { id: number }) => {
      await ok("POST", `/v1/api/trade-conditions/${row.id}/customers`, {
        customerCodes: [customer.code],
      });
      return row;
    };
    const rival = await target(await condition(channel, { scope: "CUSTOMER", value: 1000 }));
    const loser = await target(await condition(channel, { scope: "CUSTOMER", value: 500 }));
    const [found] = await about("NEVER_WINS", tc(loser));
    expect(found!.records).toEqual([tc(loser), tc(rival)]);
    expect(found!.message).toContain(
      "(the same priority, a value at least as good and a lower id)",
    );
  });

  it("does not name a condition that wins somewhere, or in some window", async () => {
    const { channel } = await channelWithPrimary();
    const [g1, g2] = [await createCustomerGroup(), await createCustomerGroup()];
    const group = await createProductGroup();
    const product = await createProduct({ productGroupCode: group.code });
    const subject = await groupCondition(channel, [g1.code, g2.code], {
      value: 500,
      productCodes: [product.code],
    });
    const rivals = { value: 500, productCodes: [product.code], priority: 5 };
    // Each rival fails one requirement: a shorter window, fewer targets, a worse rung, another
    // channel, stackable, scales (maybe no candidate), a higher id with a better value only.
    await groupCondition(channel, [g1.code, g2.code], { ...rivals, validTo: "2999-01-01" });
    await groupCondition(channel, [g1.code], rivals);
    await groupCondition(channel, [g1.code, g2.code], {
      ...rivals,
      productCodes: [],
      productGroupCodes: [group.code],
    });
    const other = await createChannel();
    await groupCondition(other, [g1.code, g2.code], rivals);
    await groupCondition(channel, [g1.code, g2.code], { ...rivals, stackable: true });
    await groupCondition(channel, [g1.code, g2.code], {
      ...rivals,
      scales: [{ minimum: 1, value: 900 }],
    });
    await groupCondition(channel, [g1.code, g2.code], { ...rivals, priority: 0, value: 900 });
    expect(await about("NEVER_WINS", tc(subject))).toEqual([]);
  });

  it("leaves identical conditions to TIE_BY_ID", async () => {
    const { channel } = await channelWithPrimary();
    const first = await condition(channel, { value: 700 });
    const second = await condition(channel, { value: 700 });
    expect(await about("NEVER_WINS", tc(second))).toEqual([]);
    expect(await about("TIE_BY_ID", tc(first))).toHaveLength(1);
  });
});

describe("TIE_BY_ID", () => {
  it("names two conditions with the same type, rung, targets, priority and value", async () => {
    const { channel } = await channelWithPrimary();
    const group = await createCustomerGroup();
    const body = { value: 800, priority: 2, validFrom: "2025-01-01" };
    const first = await groupCondition(channel, [group.code], body);
    const second = await groupCondition(channel, [group.code], { ...body, validTo: "2999-01-01" });
    expect(await about("TIE_BY_ID", tc(first))).toEqual([
      {
        code: "TIE_BY_ID",
        severity: "WARNING",
        message:
          `trade conditions ${first.id} and ${second.id} are the same DISCOUNT for the same ` +
          "targets (same rung, priority and value): only their ids rank them, so " +
          `${first.id} applies wherever both are valid and ${second.id} never does there`,
        records: [tc(first), tc(second)],
      },
    ]);
  });

  it("does not name conditions that another key ranks, or that are never valid together", async () => {
    const { channel } = await channelWithPrimary();
    const group = await createCustomerGroup();
    const body = { value: 800 };
    const subject = await groupCondition(channel, [group.code], body);
    await groupCondition(channel, [group.code], { ...body, priority: 1 });
    await groupCondition(channel, [group.code], { ...body, value: 801 });
    await groupCondition(channel, [group.code], { ...body, stackable: true });
    await groupCondition(channel, [group.code], { ...body, type: "SURCHARGE" });
    const later = { ...body, validFrom: "2990-01-01", validTo: "2991-01-01" };
    const a = await groupCondition(channel, [group.code], { ...later, priority: 7 });
    const b = await groupCondition(channel, [group.code], {
      ...later,
      priority: 7,
      validFrom: "2991-01-01",
      validTo: "2992-01-01",
    });
    for (const record of [tc(subject), tc(a), tc(b)]) {
      expect(await naming("TIE_BY_ID", record)).toEqual([]);
    }
  });
});

describe("STACKABLES_TO_ZERO", () => {
  const stackable = { stackable: true };

  it("names stackable discounts one line meets that add up to 100 % or more", async () => {
    const { channel } = await channelWithPrimary();
    const group = await createProductGroup();
    const product = await createProduct({ productGroupCode: group.code });
    const a = await condition(channel, { ...stackable, value: 6000, productCodes: [product.code] });
    const b = await condition(channel, {
      ...stackable,
      scope: "CHANNEL",
      value: 5000,
      productGroupCodes: [group.code],
    });
    expect(await naming("STACKABLES_TO_ZERO", tc(a))).toEqual([
      {
        code: "STACKABLES_TO_ZERO",
        severity: "ERROR",
        message:
          `stackable discounts ${a.id} and ${b.id} (60 % and 50 %) add up to 110 % on one ` +
          `line, for example product ${product.code} in channel ${channel.code} for anyone: ` +
          "each takes its share of what the others left, so together they leave 20 % of the price",
        records: [
          tc(a),
          tc(b),
          { kind: "product", code: product.code },
          { kind: "channel", code: channel.code },
        ],
      },
    ]);
  });

  it("finds a set that meets for the members of a customer group of the channel", async () => {
    const { channel } = await channelWithPrimary();
    const group = await createCustomerGroup();
    await ok("POST", `/v1/api/channel/${channel.code}/customer-group`, {
      customerGroupCodes: [group.code],
    });
    const product = await createProduct();
    const whole = await groupCondition(channel, [group.code], {
      ...stackable,
      value: 10000,
      productCodes: [product.code],
    });
    const [found] = await naming("STACKABLES_TO_ZERO", tc(whole));
    expect(found!.message).toBe(
      `stackable discount ${whole.id} (100 %) takes the whole price, for example product ` +
        `${product.code} in channel ${channel.code} for a member of customer group ${group.code}`,
    );
    expect(found!.records.at(-1)).toEqual({ kind: "customerGroup", code: group.code });
  });

  it("does not name stackables that never meet on one line or stay under 100 %", async () => {
    const { channel } = await channelWithPrimary();
    const on = async () => ({ ...stackable, productCodes: [(await createProduct()).code] });
    // Under 100 %.
    const under = await on();
    const a = await condition(channel, { ...under, value: 6000 });
    await condition(channel, { ...under, value: 3000 });
    // Never valid together.
    const apart = await on();
    const b = await condition(channel, { ...apart, value: 5000, validTo: "2990-01-01" });
    await condition(channel, { ...apart, value: 9000, validFrom: "2990-01-01" });
    // Other products; another channel; a group not assigned to the channel; a DRAFT.
    const shared = await on();
    const c = await condition(channel, { ...shared, value: 5000 });
    await condition(channel, { ...(await on()), value: 9000 });
    await condition(await createChannel(), { ...shared, value: 9000 });
    const group = await createCustomerGroup();
    await groupCondition(channel, [group.code], { ...shared, value: 9000 });
    await condition(channel, { ...shared, value: 9000, status: "DRAFT" });
    for (const record of [tc(a), tc(b), tc(c)]) {
      expect(await naming("STACKABLES_TO_ZERO", record)).toEqual([]);
    }
  });
});

describe("MISSING_EXCHANGE_RATE", () => {
  const putRate = (from: string, to: string, validFrom: string, rate = "1.25") =>
    ok("PUT", "/v1/api/exchange-rates", { rates: [{ from, to, rate, validFrom }] });

  /** An ACTIVE list in `currency` deriving from `base`. */
  const derived = (currency: string, base: { id: number }, overrides = {}) =>
    createPricelist({
      status: "ACTIVE",
      currency,
      derivation: { basePricelistId: base.id, adjustmentBp: 0 },
      ...overrides,
    });

  it("names an ACTIVE list derived across currencies with no rate of the pair, until one holds", async () => {
    const base = await createPricelist({ status: "ACTIVE", currency: "NOK" });
    const list = await derived("SEK", base);
    // The opposite direction is no rate for this pair (rates are never inverted).
    await putRate("SEK", "NOK", "2020-01-01T00:00:00Z");
    expect(await naming("MISSING_EXCHANGE_RATE", pl(list))).toEqual([
      {
        code: "MISSING_EXCHANGE_RATE",
        severity: "ERROR",
        message:
          `pricelist ${list.id} derives from pricelist ${base.id} in NOK, but no exchange rate ` +
          "NOK → SEK holds now: it has no price for the products it takes from that base (lines " +
          "fall to the next pricelist, or NO_PRICE); add a rate NOK → SEK (PUT /v1/api/exchange-rates)",
        records: [pl(list), pl(base)],
      },
    ]);
    // A rate that starts later does not hold now.
    await putRate("NOK", "SEK", "2990-01-01T00:00:00Z");
    expect(await naming("MISSING_EXCHANGE_RATE", pl(list))).toHaveLength(1);
    await putRate("NOK", "SEK", "2020-01-01T00:00:00Z");
    expect(await naming("MISSING_EXCHANGE_RATE", pl(list))).toEqual([]);
  });

  it("judges a list that starts later at its start, and a chain at every step", async () => {
    const base = await createPricelist({ status: "ACTIVE", currency: "PLN" });
    const later = await derived("CZK", base, { validFrom: "2980-01-01T00:00:00Z" });
    await putRate("PLN", "CZK", "2985-01-01T00:00:00Z");
    const [found] = await naming("MISSING_EXCHANGE_RATE", pl(later));
    expect(found!.message).toContain(
      "but no exchange rate PLN → CZK holds from its start at 2980-01-01T00:00:00.000Z",
    );
    await putRate("PLN", "CZK", "2979-01-01T00:00:00Z");
    expect(await naming("MISSING_EXCHANGE_RATE", pl(later))).toEqual([]);

    // HUF ← RON ← PLN: the RON → HUF step has a rate, PLN → RON has none. The middle list is a
    // DRAFT: not in force itself, a step of the ACTIVE list's chain all the same.
    const middle = await createPricelist({
      currency: "RON",
      derivation: { basePricelistId: base.id, adjustmentBp: 0 },
    });
    const top = await derived("HUF", middle);
    await putRate("RON", "HUF", "2020-01-01T00:00:00Z");
    expect(await naming("MISSING_EXCHANGE_RATE", pl(top))).toEqual([
      {
        code: "MISSING_EXCHANGE_RATE",
        severity: "ERROR",
        message:
          `pricelist ${top.id} derives, through pricelist ${middle.id} (RON), from pricelist ` +
          `${base.id} in PLN, but no exchange rate PLN → RON holds now: it has no price for the ` +
          "products it takes from that base (lines fall to the next pricelist, or NO_PRICE); add " +
          "a rate PLN → RON (PUT /v1/api/exchange-rates)",
        records: [pl(top), pl(middle), pl(base)],
      },
    ]);
    expect(await naming("MISSING_EXCHANGE_RATE", pl(middle))).toHaveLength(1); // only as a step
  });

  it("does not name a list in its base's currency, nor one not in force", async () => {
    const base = await createPricelist({ status: "ACTIVE", currency: "ISK" });
    const same = await derived("ISK", base);
    const draft = await createPricelist({
      currency: "KWD",
      derivation: { basePricelistId: base.id, adjustmentBp: 0 },
    });
    const ended = await derived("JPY", base, { validTo: "2021-01-01T00:00:00Z" });
    for (const list of [same, draft, ended]) {
      expect(await naming("MISSING_EXCHANGE_RATE", pl(list))).toEqual([]);
    }
  });
});

describe("TIER_CLIFF", () => {
  const product = (code: string): Ref => ({ kind: "product", code });

  it("names the pieces that cost more than the next tier (worked example D)", async () => {
    const item = await createProduct();
    const list = await createPricelist({ status: "ACTIVE" });
    await putPrices(list.id, [
      { productCode: item.code, amount: 100 },
      { productCode: item.code, minQuantity: 50, amount: 80 },
    ]);
    expect(await naming("TIER_CLIFF", pl(list))).toEqual([
      {
        code: "TIER_CLIFF",
        severity: "WARNING",
        message:
          `pricelist ${list.id} prices product ${item.code} at 100 from quantity 1 and 80 from ` +
          "50: buying 41–49 pieces costs more than buying 50; lower the price from 1, raise the " +
          "one from 50 or add a tier between them, so that fewer pieces never cost more",
        records: [pl(list), product(item.code)],
      },
    ]);
    // A tier between them makes two smaller cliffs, named in the order of the tiers.
    await putPrices(list.id, [{ productCode: item.code, minQuantity: 40, amount: 90 }]);
    const found = await naming("TIER_CLIFF", pl(list));
    expect(found.map((f) => f.message.split(": ")[1]!.split(";")[0])).toEqual([
      "buying 37–39 pieces costs more than buying 40",
      "buying 45–49 pieces costs more than buying 50",
    ]);
    // Raised so that no fewer pieces cost more: 39 × 100 ≤ 40 × 98, 49 × 98 ≤ 50 × 97.
    await putPrices(list.id, [
      { productCode: item.code, minQuantity: 40, amount: 98 },
      { productCode: item.code, minQuantity: 50, amount: 97 },
    ]);
    expect(await naming("TIER_CLIFF", pl(list))).toEqual([]);
  });

  it("compares tiers per piece when they are priced per different units", async () => {
    const [screw, bolt] = [await createProduct(), await createProduct()];
    const list = await createPricelist({ status: "ACTIVE" });
    await putPrices(list.id, [
      { productCode: screw.code, amount: 1250, priceUnit: 1000 },
      { productCode: screw.code, minQuantity: 5000, amount: 900, priceUnit: 1000 },
      { productCode: bolt.code, amount: 2 },
      { productCode: bolt.code, minQuantity: 1000, amount: 1500, priceUnit: 1000 },
    ]);
    const found = await naming("TIER_CLIFF", pl(list));
    const message = (code: string) => found.find((f) => f.records[1]!.code === code)?.message;
    expect(message(screw.code)).toContain(
      "at 1250 per 1000 from quantity 1 and 900 per 1000 from 5000: buying 3601–4999 pieces " +
        "costs more than buying 5000",
    );
    expect(message(bolt.code)).toContain(
      "at 2 from quantity 1 and 1500 per 1000 from 1000: buying 751–999 pieces costs more than " +
        "buying 1000",
    );
  });

  it("looks only at the quantities the product's quantity rule allows", async () => {
    const tiers = (code: string) => [
      { productCode: code, amount: 100 },
      { productCode: code, minQuantity: 50, amount: 80 },
    ];
    // Boxes of 20: 40 costs 4000, the next allowed quantity of the 50+ tier is 60 (4800).
    const twenties = await createProduct({ minOrderQuantity: 20, orderIncrement: 20 });
    // Boxes of 5: of 41–49 only 45 may be ordered.
    const fives = await createProduct({ minOrderQuantity: 5, orderIncrement: 5 });
    // Steps of 20 from 1 (1, 21, 41, 61): the 50+ tier's first quantity, 61, is in the 60+ tier.
    const steps = await createProduct({ orderIncrement: 20 });
    const list = await createPricelist({ status: "ACTIVE" });
    await putPrices(list.id, [
      ...tiers(twenties.code),
      ...tiers(fives.code),
      ...tiers(steps.code),
      { productCode: steps.code, minQuantity: 60, amount: 79 },
    ]);
    const found = await naming("TIER_CLIFF", pl(list));
    expect(found.map((f) => [f.records[1]!.code, f.message.split(": ")[1]!.split(";")[0]])).toEqual(
      [[fives.code, "buying 45 pieces costs more than buying 50"]],
    );
  });

  it("does not name tiers where more never costs less, nor a list not in force or a FLOOR list", async () => {
    const item = await createProduct();
    const fair = await createPricelist({ status: "ACTIVE" });
    // 49 × 100 = 4900 = 50 × 98: the same, not more.
    await putPrices(fair.id, [
      { productCode: item.code, amount: 100 },
      { productCode: item.code, minQuantity: 50, amount: 98 },
    ]);
    const cliff = [
      { productCode: item.code, amount: 100 },
      { productCode: item.code, minQuantity: 50, amount: 80 },
    ];
    const draft = await createPricelist();
    await putPrices(draft.id, cliff);
    const floor = await createPricelist({ status: "ACTIVE", kind: "FLOOR" });
    await putPrices(floor.id, cliff);
    // A cliff that starts later is judged once its rows are in force.
    const dated = await createPricelist({ status: "ACTIVE" });
    await putPrices(dated.id, [
      { productCode: item.code, amount: 100 },
      { productCode: item.code, minQuantity: 50, amount: 80, validFrom: "2990-01-01T00:00:00Z" },
    ]);
    for (const list of [fair, draft, floor, dated]) {
      expect(await naming("TIER_CLIFF", pl(list))).toEqual([]);
    }
  });

  it("computes the range exactly, with amounts too large for a float product", () => {
    const rule = { minimum: 1, increment: 1, maximum: null };
    const cliff = { pricelistId: 1, productCode: "P", m1: 1, u1: 1, u2: 1, m3: null, rule };
    expect(cliffRange({ ...cliff, a1: 100, m2: 50, a2: 80 })).toEqual({
      from: 41,
      to: 49,
      buy: 50,
    });
    // Products far past 2^53: 500,000 × (2^53 − 1) is 500,000 more than 10^6 × (2^52 − 1).
    const big = Number.MAX_SAFE_INTEGER;
    expect(cliffRange({ ...cliff, a1: big, m2: 1_000_000, a2: 2 ** 52 - 1 })).toEqual({
      from: 500_000,
      to: 999_999,
      buy: 1_000_000,
    });
    expect(cliffRange({ ...cliff, a1: big, m2: 1_000_000, a2: big - 1 })).toBeNull();
    expect(cliffRange({ ...cliff, a1: 0, m2: 50, a2: 0 })).toBeNull();
    expect(cliffRange({ ...cliff, m1: 45, a1: 100, m2: 50, a2: 80 })).toEqual({
      from: 45,
      to: 49,
      buy: 50,
    });
  });
});
