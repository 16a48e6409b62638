import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { app } from "../../src/app";
import { IsolateCache } from "../../src/db/isolate-cache";
import {
  clearContextCache,
  CONTEXT_CACHE_BOUNDS,
  contextCacheEnabled,
} from "../../src/db/pricing/reader";
import {
  assignPricelistToChannel,
  assignPricelistToCustomer,
  createChannel,
  createCustomer,
  createCustomerGroup,
  createIndividualPricelist,
  createPricelist,
  createProduct,
  createProductGroup,
  createPromotion,
  createTradeCondition,
  setPrimaryPricelist,
} from "../factories";
import { api, KEYS } from "../shared/helpers";

/**
 * The channel context cache (src/db/pricing/reader.ts, docs/performance.md
 * "The channel context cache"). Lookups go to the app with the Worker's own bindings, once as
 * configured (cache on) and once with `PRICE_CONTEXT_CACHE: "off"`: the same module, so the same
 * isolate cache, and the same D1, with only the variable changed. No test-only switch exists in
 * the Worker. Writes go through the Worker's entrypoint as everywhere else.
 */

const AT = "2025-06-15T10:00:00.000Z";
const window = { validFrom: "2025-01-01", validTo: "2026-01-01" };

async function ok(method: string, path: string, body?: unknown) {
  const res = await api(method, path, { body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${JSON.stringify(res.body)}`);
  return res.body;
}

const codes = {
  channel: "",
  customer: "",
  group: "",
  root: "",
  mid: "",
  leaf: "",
  other: "",
  products: [] as string[],
  unrequested: "",
};
const ids: Record<string, number> = {};

interface Lookup {
  method: "GET" | "POST";
  customer: boolean;
  explain: boolean;
  /** Absent: the primary list's (EUR). */
  currency?: string;
  /**
   * An admin key's lookup, with costs and accruals (docs/api/access.md §18); absent: a read key's.
   */
  admin?: boolean;
}

const LOOKUPS: Lookup[] = [
  ...(["GET", "POST"] as const).flatMap((method) =>
    [false, true].flatMap((customer) =>
      [false, true].map((explain) => ({ method, customer, explain })),
    ),
  ),
  // The channel's CHF lists: a derived one whose base is read for CHF lookups only.
  { method: "GET", customer: true, explain: true, currency: "CHF" },
  { method: "POST", customer: false, explain: false, currency: "CHF" },
  // Admin keys: contexts of their own, with the channel's COST lists and the ACCRUALs.
  { method: "GET", customer: true, explain: true, admin: true },
  { method: "POST", customer: true, explain: false, admin: true },
  { method: "POST", customer: false, explain: true, admin: true },
];

const name = (l: Lookup) =>
  `${l.method} ${l.customer ? "customer" : "anonymous"}${l.explain ? " explain" : ""}` +
  (l.currency ? ` ${l.currency}` : "") +
  (l.admin ? " admin" : "");

function requestOf(l: Lookup, channel = codes.channel): Request {
  const key = l.admin ? KEYS.admin : KEYS.read;
  const headers = { "x-webhook-signature": key, "content-type": "application/json" };
  const [p1, p2, p3, p4] = codes.products;
  if (l.method === "GET") {
    const query = new URLSearchParams({
      channel,
      product: [p1, p2, p3, p4, "NOPE"].join(","),
      quantity: "10",
      at: AT,
    });
    if (l.customer) query.set("customer", codes.customer);
    if (l.explain) query.set("explain", "true");
    if (l.currency) query.set("currency", l.currency);
    return new Request(`http://pricing.test/v1/api/prices?${query}`, { headers });
  }
  const lines = [
    { productCode: p1, quantity: 10 },
    { productCode: p2, quantity: 5 },
    { productCode: p3, quantity: 1 },
    { productCode: p4, quantity: 2 },
    { productCode: "NOPE", quantity: 1 },
  ];
  const body = {
    channelCode: channel,
    ...(l.customer ? { customerCode: codes.customer } : {}),
    at: AT,
    explain: l.explain,
    ...(l.currency ? { currency: l.currency } : {}),
    lines,
  };
  return new Request("http://pricing.test/v1/api/prices/resolve", {
    method: "POST",
    headers,
    body: JSON.stringify(body),
  });
}

interface Answer {
  status: number;
  /** The body as sent; for a problem, without its request id (a new one per request). */
  body: string;
  etag: string | null;
  timing: string;
}

async function send(request: Request, cache: "on" | "off"): Promise<Answer> {
  const bindings = cache === "on" ? env : { ...env, PRICE_CONTEXT_CACHE: "off" };
  const res = await app.fetch(request, bindings);
  let body = await res.text();
  if (res.status >= 400) body = JSON.stringify({ ...JSON.parse(body), requestId: null });
  return {
    status: res.status,
    body,
    etag: res.headers.get("etag"),
    timing: res.headers.get("server-timing") ?? "",
  };
}

const lookup = (l: Lookup, cache: "on" | "off", channel?: string) =>
  send(requestOf(l, channel), cache);

/** The Server-Timing entries of a lookup: round trips and the channel context's source. */
function trips(timing: string) {
  const match =
    /^db;desc="(\d+) quer(?:y|ies)";dur=[\d.]+, ctx;desc="(hit|miss|off)"(?:, engine;desc="ran")?$/.exec(
      timing,
    );
  if (!match) throw new Error(`unexpected Server-Timing: ${timing}`);
  return `${match[1]} ${match[2]}`;
}

/**
 * Every lookup with the cache on, twice, and off; asserts that all three answer the same bytes
 * and returns the answers. `afterWrite`: the cache holds contexts of an older version, so the
 * first lookup of each channel key (plain, explain) needs a second round trip; the customer's
 * context, of an older version too (or never read), is read in the first customer lookup's one
 * batch of each key (a miss) unless that lookup was the one reading everything; the rest hit.
 */
async function compareAll(step: string, afterWrite = true) {
  const answers: Record<string, Omit<Answer, "timing">> = {};
  // The contexts are kept per explain and per whether the key sees costs.
  const seen = new Set<string>();
  const seenCustomer = new Set<string>();
  for (const l of LOOKUPS) {
    const first = await lookup(l, "on");
    const second = await lookup(l, "on");
    const off = await lookup(l, "off");
    const label = `${step}: ${name(l)}`;
    const expected = { status: off.status, body: off.body, etag: off.etag };
    expect({ status: first.status, body: first.body, etag: first.etag }, label).toEqual(expected);
    expect({ status: second.status, body: second.body, etag: second.etag }, label).toEqual(
      expected,
    );
    const variant = `${l.explain} ${l.admin === true}`;
    const stale = afterWrite && !seen.has(variant);
    const staleCustomer = l.customer && !seenCustomer.has(variant);
    seen.add(variant);
    if (l.customer) seenCustomer.add(variant);
    expect(trips(first.timing), label).toBe(stale ? "2 miss" : staleCustomer ? "1 miss" : "1 hit");
    expect(trips(second.timing), label).toBe("1 hit");
    expect(trips(off.timing), label).toBe("1 off");
    answers[name(l)] = expected;
  }
  return answers;
}

beforeAll(async () => {
  clearContextCache();
  codes.channel = (await createChannel()).code;
  codes.root = (await createProductGroup()).code;
  codes.mid = (await createProductGroup({ parentCode: codes.root })).code;
  codes.leaf = (await createProductGroup({ parentCode: codes.mid })).code;
  codes.other = (await createProductGroup()).code;
  codes.products = [
    (await createProduct({ productGroupCode: codes.leaf })).code,
    (await createProduct({ productGroupCode: codes.other })).code,
    (await createProduct()).code,
    (await createProduct({ productGroupCode: codes.leaf, minOrderQuantity: 2, orderIncrement: 2 }))
      .code,
  ];
  codes.unrequested = (await createProduct({ productGroupCode: codes.root })).code;
  codes.group = (await createCustomerGroup()).code;
  await ok("POST", `/v1/api/channel/${codes.channel}/customer-group`, {
    customerGroupCodes: [codes.group],
  });
  codes.customer = (
    await createCustomer({ customerGroupCodes: [codes.group], channelCodes: [codes.channel] })
  ).code;
  await pricelists();
  await conditions();
});

/** A list with one row per product: `amounts[i]` for product i (null: no row). */
async function list(key: string, body: Record<string, unknown>, amounts: (number | null)[]) {
  const pl =
    key === "individual"
      ? await createIndividualPricelist(codes.customer, { ...window, ...body })
      : await createPricelist({ ...window, ...body });
  ids[key] = pl.id;
  const prices = amounts.flatMap((amount, i) =>
    amount === null ? [] : [{ productCode: codes.products[i], amount }],
  );
  if (prices.length) await ok("PUT", `/v1/api/pricelist/${pl.id}/prices`, { prices });
  return pl.id as number;
}

async function pricelists() {
  const channel = codes.channel;
  await setPrimaryPricelist(
    channel,
    await list("primary", { status: "ACTIVE" }, [1000, 2000, 3000, 4000]),
  );
  await list("base", { status: "ACTIVE" }, [1100, 2100, 3100, 4100]);
  const derivation = { basePricelistId: ids.base, adjustmentBp: -1000 };
  await assignPricelistToChannel(
    channel,
    await list("derived", { status: "ACTIVE", derivation, priority: 5 }, [null, null, 2900, null]),
  );
  await assignPricelistToChannel(channel, await list("draft", {}, [800, 1800, 2800, 3800]));
  await assignPricelistToChannel(
    channel,
    await list("floor", { status: "ACTIVE", kind: "FLOOR" }, [500, 1000, null, null]),
  );
  await list("chfBase", { status: "ACTIVE", currency: "CHF" }, [1300, 2300, 3300, 4300]);
  const chfDerivation = { basePricelistId: ids.chfBase, adjustmentBp: 500 };
  await assignPricelistToChannel(
    channel,
    await list("chf", { status: "ACTIVE", currency: "CHF", derivation: chfDerivation }, [
      null,
      2200,
      null,
      null,
    ]),
  );
  // A CHF list derived from an EUR one (docs/pricing-rules.md §19): it prices once a rate of
  // EUR → CHF holds (a write below), and beats the other CHF list then.
  const fromEur = { basePricelistId: ids.base, adjustmentBp: 0 };
  await assignPricelistToChannel(
    channel,
    await list(
      "chfFromEur",
      { status: "ACTIVE", currency: "CHF", derivation: fromEur, priority: 7 },
      [null, null, null, null],
    ),
  );
  // The channel's COST list (admin lookups only) and a FLOOR derived from it, for everyone.
  await assignPricelistToChannel(
    channel,
    await list("cost", { status: "ACTIVE", kind: "COST" }, [600, 1300, 2000, null]),
  );
  const fromCost = { basePricelistId: ids.cost, adjustmentBp: 1000 };
  await assignPricelistToChannel(
    channel,
    await list("costFloor", { status: "ACTIVE", kind: "FLOOR", derivation: fromCost }, [
      null,
      null,
      null,
      null,
    ]),
  );
  const group = await list("group", { status: "ACTIVE" }, [null, 1500, null, null]);
  await ok("POST", `/v1/api/customer-group/${codes.group}/pricelist`, { pricelistId: group });
  // The customer's own derived list: its base is reached through the customer only.
  await list("customerBase", { status: "ACTIVE" }, [null, null, 2600, 3600]);
  const customerDerivation = { basePricelistId: ids.customerBase, adjustmentBp: -500 };
  await assignPricelistToCustomer(
    codes.customer,
    await list("customer", { status: "ACTIVE", derivation: customerDerivation }, [
      null,
      null,
      2500,
      null,
    ]),
  );
  await list("individual", {}, [null, null, null, 3500]);
  await ok("PATCH", `/v1/api/pricelist/${ids.individual}`, { status: "ACTIVE" });
}

async function condition(key: string, body: Record<string, unknown>) {
  const tc = await createTradeCondition({ status: "ACTIVE", ...window, ...body });
  ids[key] = tc.id;
  return tc.id as number;
}

async function conditions() {
  const channelCodes = [codes.channel];
  await condition("global", { scope: "GLOBAL", value: 200, channelCodes });
  await condition("channel", {
    scope: "CHANNEL",
    value: 500,
    channelCodes,
    productGroupCodes: [codes.mid],
  });
  // Names a product no lookup asks for and a group one does: trimmed to the group, it ranks
  // as a group condition (its rung on lines it does not reach shows in explain).
  await condition("mixed", {
    scope: "GLOBAL",
    value: 100,
    productCodes: [codes.unrequested],
    productGroupCodes: [codes.other],
  });
  // Not yet valid at AT: it ends the answers' validity interval (validUntil).
  await condition("later", {
    scope: "CHANNEL",
    value: 100,
    channelCodes,
    validFrom: "2025-07-01",
  });
  // Expired: read only with explain.
  await condition("expired", {
    scope: "CHANNEL",
    value: 100,
    channelCodes,
    validFrom: "2024-01-01",
    validTo: "2025-01-01",
  });
  await condition("elsewhere", {
    scope: "CHANNEL",
    value: 900,
    channelCodes: [(await createChannel()).code],
  });
  const group = await condition("group", {
    scope: "CUSTOMER_GROUP",
    value: 300,
    productCodes: [codes.products[0]],
  });
  await ok("POST", `/v1/api/trade-conditions/${group}/customer-groups`, {
    customerGroupCodes: [codes.group],
  });
  const customer = await condition("customer", {
    scope: "CUSTOMER",
    value: 400,
    productGroupCodes: [codes.root],
  });
  await ok("POST", `/v1/api/trade-conditions/${customer}/customers`, {
    customerCodes: [codes.customer],
  });
  // Accruals (admin lookups only): one for everyone, one for the customer's group.
  await condition("accrual", { scope: "GLOBAL", type: "ACCRUAL", value: 200, channelCodes });
  const groupAccrual = await condition("groupAccrual", {
    scope: "CUSTOMER_GROUP",
    type: "ACCRUAL",
    discountType: "ABSOLUTE",
    currency: "EUR",
    value: 7,
  });
  await ok("POST", `/v1/api/trade-conditions/${groupAccrual}/customer-groups`, {
    customerGroupCodes: [codes.group],
  });
  ids.promotion = (
    await createPromotion({
      status: "ACTIVE",
      ...window,
      value: 100,
      productGroupCodes: [codes.leaf],
    })
  ).id;
  ids.groupPromotion = (
    await createPromotion({
      status: "ACTIVE",
      ...window,
      discountType: "ABSOLUTE",
      currency: "EUR",
      value: 50,
      productCodes: [codes.products[1]],
      customerGroupCodes: [codes.group],
      threshold: { basis: "QUANTITY", minimum: 5 },
    })
  ).id;
}

/** One write of each kind of record a price answer depends on, in an order that shows each. */
const WRITES: [string, () => Promise<unknown>][] = [
  ["a price tier", () => prices("primary", [1000, 2222, 3000, 4000])],
  ["a FLOOR list's tier", () => prices("floor", [990, 1000, null, null])],
  [
    "a COST list's tier (and the FLOOR derived from it)",
    () => prices("cost", [700, 1300, 2100, 50]),
  ],
  [
    "the derivation of the FLOOR derived from the COST list",
    () =>
      ok("PATCH", `/v1/api/pricelist/${ids.costFloor}`, {
        derivation: { basePricelistId: ids.cost, adjustmentBp: 2500 },
      }),
  ],
  [
    "an ACCRUAL condition",
    () => ok("PATCH", `/v1/api/trade-conditions/${ids.accrual}`, { value: 300 }),
  ],
  [
    "a CUSTOMER_GROUP ACCRUAL condition",
    () => ok("PATCH", `/v1/api/trade-conditions/${ids.groupAccrual}`, { value: 9 }),
  ],
  ["a derived list's base tier", () => prices("base", [1200, 2100, 3100, 4100])],
  ["a CHF derived list's base tier", () => prices("chfBase", [1300, 2400, 3300, 4300])],
  [
    "an exchange rate the CHF list derived from EUR needs",
    () =>
      ok("PUT", "/v1/api/exchange-rates", {
        rates: [{ from: "EUR", to: "CHF", rate: "0.94", validFrom: "2025-01-01T00:00:00Z" }],
      }),
  ],
  [
    "that exchange rate changed",
    () =>
      ok("PUT", "/v1/api/exchange-rates", {
        rates: [{ from: "EUR", to: "CHF", rate: "0.9612", validFrom: "2025-01-01T00:00:00Z" }],
      }),
  ],
  [
    "a derived list's derivation",
    () =>
      ok("PATCH", `/v1/api/pricelist/${ids.derived}`, {
        derivation: { basePricelistId: ids.base, adjustmentBp: -2000 },
      }),
  ],
  [
    "a channel list's status",
    () => ok("PATCH", `/v1/api/pricelist/${ids.draft}`, { status: "ACTIVE" }),
  ],
  [
    "the channel's primary list",
    async () =>
      setPrimaryPricelist(
        codes.channel,
        await list("primary2", { status: "ACTIVE" }, [1010, 2010, 3010, 4010]),
      ),
  ],
  ["a group list's tier", () => prices("group", [null, 1400, null, null])],
  [
    "a GLOBAL condition",
    () => ok("PATCH", `/v1/api/trade-conditions/${ids.global}`, { value: 250 }),
  ],
  [
    "a CHANNEL condition",
    () => ok("PATCH", `/v1/api/trade-conditions/${ids.channel}`, { value: 600 }),
  ],
  [
    "a CHANNEL condition's products",
    () =>
      ok("PATCH", `/v1/api/trade-conditions/${ids.channel}`, {
        productCodes: [codes.products[2]],
      }),
  ],
  [
    "a CUSTOMER_GROUP condition",
    () => ok("PATCH", `/v1/api/trade-conditions/${ids.group}`, { value: 350 }),
  ],
  [
    "a CUSTOMER condition",
    () => ok("PATCH", `/v1/api/trade-conditions/${ids.customer}`, { value: 450 }),
  ],
  // The customer's context (cached per channel, customer and explain): each write below changes
  // it alone, so a context used whatever its version would answer the old data.
  [
    "a CUSTOMER condition's product groups",
    () =>
      ok("PATCH", `/v1/api/trade-conditions/${ids.customer}`, {
        productGroupCodes: [codes.other],
      }),
  ],
  [
    "the customer's individual list",
    () => ok("PATCH", `/v1/api/pricelist/${ids.individual}`, { status: "INACTIVE" }),
  ],
  [
    "a pricelist assigned to the customer group",
    async () =>
      ok("POST", `/v1/api/customer-group/${codes.group}/pricelist`, {
        pricelistId: await list("group2", { status: "ACTIVE" }, [900, null, null, null]),
      }),
  ],
  [
    "a pricelist assigned to the customer",
    async () =>
      assignPricelistToCustomer(
        codes.customer,
        await list("customer2", { status: "ACTIVE", priority: 9 }, [null, 1300, null, null]),
      ),
  ],
  [
    "a new CHANNEL condition",
    () =>
      condition("new", {
        scope: "CHANNEL",
        value: 700,
        channelCodes: [codes.channel],
        productCodes: [codes.products[1]],
      }),
  ],
  ["a promotion", () => ok("PATCH", `/v1/api/promotion/${ids.promotion}`, { value: 150 })],
  [
    "a promotion's customer groups",
    () => ok("PATCH", `/v1/api/promotion/${ids.groupPromotion}`, { customerGroupCodes: [] }),
  ],
  [
    "the product group tree",
    () => ok("PATCH", `/v1/api/product-group/${codes.leaf}`, { parentCode: codes.other }),
  ],
  [
    "a product's group",
    () => ok("PATCH", `/v1/api/product/${codes.products[2]}`, { productGroupCode: codes.leaf }),
  ],
  [
    "a product's quantity rule",
    () =>
      ok("PATCH", `/v1/api/product/${codes.products[3]}`, {
        minOrderQuantity: 4,
        orderIncrement: 4,
      }),
  ],
  [
    "the customer group's channel assignment",
    () =>
      ok("POST", `/v1/api/channel/${codes.channel}/customer-group/unassign`, {
        customerGroupCodes: [codes.group],
      }),
  ],
  [
    "the customer group assigned again",
    () =>
      ok("POST", `/v1/api/channel/${codes.channel}/customer-group`, {
        customerGroupCodes: [codes.group],
      }),
  ],
  [
    "the customer's groups",
    () => ok("PATCH", `/v1/api/customer/${codes.customer}`, { customerGroupCodes: [] }),
  ],
  [
    "the channel deactivated",
    () => ok("PATCH", `/v1/api/channel/${codes.channel}`, { isActive: false }),
  ],
  [
    "the channel active again",
    () => ok("PATCH", `/v1/api/channel/${codes.channel}`, { isActive: true }),
  ],
  [
    "the channel's rounding mode",
    () => ok("PATCH", `/v1/api/channel/${codes.channel}`, { roundingMode: "UP" }),
  ],
  [
    "a price row's price unit",
    () =>
      ok("PUT", `/v1/api/pricelist/${ids.primary2}/prices`, {
        prices: [{ productCode: codes.products[0], amount: 10100, priceUnit: 10 }],
      }),
  ],
];

function prices(key: string, amounts: (number | null)[]) {
  const rows = amounts.flatMap((amount, i) =>
    amount === null ? [] : [{ productCode: codes.products[i], amount }],
  );
  return ok("PUT", `/v1/api/pricelist/${ids[key]}/prices`, { prices: rows });
}

describe("the channel context cache", () => {
  it("answers byte for byte as without it, through writes that change each kind of record", async () => {
    // Nothing cached yet: each key's (plain, explain) first lookup reads both parts in one
    // round trip.
    for (const l of LOOKUPS.slice(0, 2))
      expect(trips((await lookup(l, "on")).timing)).toBe("1 miss");
    let before = await compareAll("before any write", false);
    expect(Object.values(before).map((a) => a.status)).toEqual(LOOKUPS.map(() => 200));
    for (const [step, write] of WRITES) {
      await write();
      const after = await compareAll(`after ${step}`);
      // The write changed an answer, so a stale context would have shown.
      expect(after, `${step} changed no answer`).not.toEqual(before);
      before = after;
    }
  }, 60_000);
});

describe("round trips (Server-Timing db and ctx)", () => {
  const plain = LOOKUPS[0]!;

  it("a cold channel: one round trip; warm: one, a hit; after a write: two, then a hit again", async () => {
    const channel = (await createChannel()).code;
    await setPrimaryPricelist(channel, await list("roundTrips", { status: "ACTIVE" }, [10, 20]));
    const timings = async () => {
      const seen = [];
      for (let i = 0; i < 2; i++) seen.push(trips((await lookup(plain, "on", channel)).timing));
      return seen;
    };
    expect(await timings()).toEqual(["1 miss", "1 hit"]);
    await prices("roundTrips", [11, 20]);
    expect(await timings()).toEqual(["2 miss", "1 hit"]);
    expect(trips((await lookup(plain, "off", channel)).timing)).toBe("1 off");
  });

  it("two lookups missing at once both answer the new data, and leave a usable entry", async () => {
    const channel = (await createChannel()).code;
    await setPrimaryPricelist(channel, await list("concurrent", { status: "ACTIVE" }, [10, 20]));
    await lookup(plain, "on", channel);
    await prices("concurrent", [12, 20]);
    const [a, b] = await Promise.all([lookup(plain, "on", channel), lookup(plain, "on", channel)]);
    const off = await lookup(plain, "off", channel);
    for (const answer of [a, b]) {
      expect(answer.body).toBe(off.body);
      expect(trips(answer.timing)).toBe("2 miss");
    }
    expect(JSON.parse(off.body).lines[0].finalUnitAmount).toBe(12);
    const next = await lookup(plain, "on", channel);
    expect([next.body, trips(next.timing)]).toEqual([off.body, "1 hit"]);
  });

  it("a customer's context: read in the lookup's one batch, then kept; a write to it is read at once", async () => {
    const channel = (await createChannel()).code;
    // A product of no group: only this test's records price it.
    const product = (await createProduct()).code as string;
    const primary = await createPricelist({ ...window, status: "ACTIVE" });
    await ok("PUT", `/v1/api/pricelist/${primary.id}/prices`, {
      prices: [{ productCode: product, amount: 1000 }],
    });
    await setPrimaryPricelist(channel, primary.id);
    const customer = async () => (await createCustomer({ channelCodes: [channel] })).code as string;
    const [first, second] = [await customer(), await customer()];
    const discount = await condition("contract", { scope: "CUSTOMER", value: 1000 });
    await ok("POST", `/v1/api/trade-conditions/${discount}/customers`, { customerCodes: [first] });
    const get = (customerCode: string | null, cache: "on" | "off") => {
      const query = new URLSearchParams({ channel, product, at: AT });
      if (customerCode) query.set("customer", customerCode);
      const headers = { "x-webhook-signature": KEYS.read };
      return send(new Request(`http://pricing.test/v1/api/prices?${query}`, { headers }), cache);
    };
    /** Round trips, cache use and price of a lookup, which answers as without the cache. */
    const price = async (customerCode: string | null) => {
      const res = await get(customerCode, "on");
      expect(res.status, res.body).toBe(200);
      expect(res.body).toBe((await get(customerCode, "off")).body);
      const amount = JSON.parse(res.body).lines[0].finalUnitAmount as number;
      return `${trips(res.timing)} ${amount}`;
    };
    expect([await price(first), await price(first), await price(null)]).toEqual([
      "1 miss 900",
      "1 hit 900",
      "1 hit 1000",
    ]);
    // The channel's context is fresh again after the anonymous lookup; the customer's is not.
    await ok("PATCH", `/v1/api/trade-conditions/${discount}`, { value: 2000 });
    expect([await price(null), await price(first), await price(first)]).toEqual([
      "2 miss 1000",
      "1 miss 800",
      "1 hit 800",
    ]);
    // Another customer of the warm channel: its context is read in the one batch, then kept.
    expect([await price(second), await price(second), await price(first)]).toEqual([
      "1 miss 1000",
      "1 hit 1000",
      "1 hit 800",
    ]);
  });

  it("keeps at most CONTEXT_CACHE_BOUNDS.maxEntries channels, the least recently used going first", async () => {
    const channels: string[] = [];
    for (let i = 0; i <= CONTEXT_CACHE_BOUNDS.maxEntries; i++) {
      channels.push((await createChannel()).code);
    }
    // A currency, since these channels have no primary list: the answers price nothing.
    const cold = async (channel: string) => {
      const res = await app.fetch(
        new Request(`http://pricing.test/v1/api/prices?channel=${channel}&product=X&currency=EUR`, {
          headers: { "x-webhook-signature": KEYS.read },
        }),
        env,
      );
      expect(res.status).toBe(200);
      return trips(res.headers.get("server-timing") ?? "");
    };
    for (const channel of channels) expect(await cold(channel)).toBe("1 miss");
    // The first was pushed out by the last; the second is still there.
    expect(await cold(channels[1]!)).toBe("1 hit");
    expect(await cold(channels[0]!)).toBe("1 miss");
  }, 60_000);
});

describe("IsolateCache", () => {
  const bounds = { maxEntries: 3, maxWeight: 100, maxEntryWeight: 60 };

  it("evicts the least recently used entry past maxEntries (a get counts as a use)", () => {
    const cache = new IsolateCache<string>(bounds);
    for (const key of ["a", "b", "c"]) cache.set(key, key.toUpperCase(), 1);
    expect(cache.get("a")).toBe("A");
    cache.set("d", "D", 1);
    expect([cache.get("a"), cache.get("b"), cache.get("c"), cache.get("d")]).toEqual([
      "A",
      undefined,
      "C",
      "D",
    ]);
    expect([cache.size, cache.totalWeight]).toEqual([3, 3]);
  });

  it("evicts past maxWeight, refuses an entry heavier than maxEntryWeight, and counts replacements once", () => {
    const cache = new IsolateCache<number>(bounds);
    cache.set("a", 1, 40);
    cache.set("b", 2, 40);
    cache.set("c", 3, 30);
    expect([cache.get("a"), cache.size, cache.totalWeight]).toEqual([undefined, 2, 70]);
    expect(cache.set("huge", 4, 61)).toBe(false);
    expect([cache.get("huge"), cache.size, cache.totalWeight]).toEqual([undefined, 2, 70]);
    cache.set("b", 5, 10);
    expect([cache.get("b"), cache.size, cache.totalWeight]).toEqual([5, 2, 40]);
    cache.clear();
    expect([cache.size, cache.totalWeight]).toEqual([0, 0]);
  });

  it("PRICE_CONTEXT_CACHE: only off (any case) turns it off", () => {
    expect([undefined, "", "on", "true", "0"].map(contextCacheEnabled)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(["off", "OFF", " Off "].map(contextCacheEnabled)).toEqual([false, false, false]);
  });
});
