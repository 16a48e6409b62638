import { beforeAll, describe, expect, it } from "vitest";
import {
  assignPricelistToChannel,
  createChannel,
  createPricelist,
  createProduct,
  createBrand,
  createProductGroup,
  createTradeCondition,
  setPrimaryPricelist,
} from "../factories";
import { api, KEYS, SALES_KEYS } from "../shared/helpers";
import { ok, seedExampleE, seedWorkedExample } from "../shared/worked-example";

/**
 * docs/api/access.md §18: a read key never sees a cost, a margin, an accrual, a COST pricelist or
 * an ACCRUAL condition, in any answer, explain, list, header or error. This test walks EVERY
 * operation of /doc a read key may call (those that document no 403, as the README's role
 * column reads them), with cost data present (worked example E, docs/pricing-rules.md §26, with
 * distinctive amounts and names), calls each with every fixture value of its parameters, and
 * searches each answer's body and headers for the cost fields' names, the COST list's and the
 * accrual's names and ids, and the cost amounts. The same calls with an admin key must find
 * them, so the search is known to look where the costs would be.
 */

const AT = "2025-06-15T10:00:00Z";
/** Amounts no other record of the fixture holds. */
const COSTS = { "P-A": 7919, "P-B": 6133, "P-C": 5347 };
const COST_NAME = "CO-SECRET cost of WEB-DE";
/** A FLOOR derived from the COST list: as hidden as it (docs/api/access.md §18). */
const FLOOR_NAME = "FL-SECRET cost + 10 %";
const ACCRUAL_NAME = "AC-SECRET year-end bonus";
/** The names of every field only an admin's answer has (docs/pricing-rules.md §26). */
const COST_FIELDS = [
  "costUnitAmount",
  "marginAmount",
  "marginBp",
  "accruals",
  "pocketUnitAmount",
  "pocketMarginBp",
  "costAmount",
  '"costs"',
  "ACCRUAL",
  '"COST"',
];

const ids: Record<string, number> = {};
const codes = { productGroup: "", brand: "" };

beforeAll(async () => {
  Object.assign(ids, await seedWorkedExample());
  await ok("PATCH", `/v1/api/pricelist/${ids["PL-900"]}`, { status: "ACTIVE" });
  await seedExampleE(ids, {
    names: { cost: COST_NAME, accrual: ACCRUAL_NAME, floor: FLOOR_NAME },
    costs: Object.entries(COSTS).map(([productCode, amount]) => ({
      productCode,
      minQuantity: 1,
      amount,
    })),
  });
  codes.productGroup = (await createProductGroup()).code;
  codes.brand = (await createBrand()).code;
  await ok("PUT", "/v1/api/exchange-rates", {
    rates: [{ from: "USD", to: "EUR", rate: "0.92", validFrom: "2025-01-01T00:00:00Z" }],
  });
  Object.assign(ids, await changeRequests());
  Object.assign(ids, await quotes());
});

/**
 * Quotes (docs/quotes.md) priced where the COST list and the FLOOR derived from it reach them:
 * channel WEB-Q (no window: quotes price now) with P-B at 9000, quoted at 8000. A draft for the
 * sales key's writes, and a quote in each status the buyer's actions need, for the read key's.
 */
async function quotes() {
  await ok("POST", "/v1/api/channel", { code: "WEB-Q", name: "Quotes" });
  await ok("POST", "/v1/api/customer", {
    code: "C-Q",
    name: "Quote buyer",
    channelCodes: ["WEB-Q"],
  });
  const list = await createPricelist({ name: "Quote prices", status: "ACTIVE" });
  await ok("PUT", `/v1/api/pricelist/${list.id}/prices`, {
    prices: [{ productCode: "P-B", amount: 9000 }],
  });
  await setPrimaryPricelist("WEB-Q", list.id);
  await assignPricelistToChannel("WEB-Q", ids.cost!);
  await assignPricelistToChannel("WEB-Q", ids.floor!);
  const quote = async (...actions: string[]) => {
    const created = await ok("POST", "/v1/api/quotes", quoteBody());
    for (const action of actions) {
      // Another owner approves what the admin key wrote (docs/quotes.md §4).
      const key = action === "approve" ? "test-writer-key-1" : KEYS.admin;
      const res = await api("POST", `/v1/api/quotes/${created.id}/${action}`, { key });
      expect(res.status, `${action}: ${JSON.stringify(res.body)}`).toBe(200);
    }
    return created.id as number;
  };
  return {
    quoteDraft: await quote(),
    quotePending: await quote("submit"),
    quoteSent: await quote("submit", "approve", "send"),
    quoteSent2: await quote("submit", "approve", "send"),
    quoteAccepted: await quote("submit", "approve", "send", "accept"),
  };
}

const quoteBody = () => ({
  customerCode: "C-Q",
  channelCode: "WEB-Q",
  validTo: new Date(Date.now() + 30 * 86_400_000).toISOString(),
  lines: [{ productCode: "P-B", quantity: 3, unitAmount: 8000 }],
});

/**
 * Change requests in the feed (issue 28, item 11): one applied on the COST list (its `affects`
 * names the COST list and the FLOOR derived from it), one drafted on the accrual, and one on a
 * SALES list, which read keys see.
 */
async function changeRequests() {
  const request = async (title: string, items: unknown[]) => {
    const res = await api("POST", "/v1/api/change-requests", {
      key: "test-writer-key-1",
      body: { title, effectiveAt: "2027-03-01T00:00:00.000Z", items },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as number;
  };
  const costRequest = await request("new costs", [
    { kind: "SET_PRICES", pricelistId: ids.cost, rows: [{ productCode: "P-B", amount: 6211 }] },
  ]);
  const submitted = await api("POST", `/v1/api/change-requests/${costRequest}/submit`, {
    key: "test-writer-key-1",
  });
  expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
  if (submitted.body.status !== "APPLIED") {
    const approved = await api("POST", `/v1/api/change-requests/${costRequest}/approve`, {
      key: "test-writer-key-2",
    });
    expect(approved.body.status, JSON.stringify(approved.body)).toBe("APPLIED");
  }
  const accrualRequest = await request("bonus ends", [
    { kind: "DEACTIVATE", target: { kind: "tradeCondition", id: ids.accrual } },
  ]);
  const salesRequest = await request("P-C dearer", [
    { kind: "SET_PRICES", pricelistId: ids["PL-100"], rows: [{ productCode: "P-C", amount: 230 }] },
  ]);
  return { costRequest, accrualRequest, salesRequest };
}

/** Every id of every kind, the hidden ones first: each read is tried with each. */
const pricelistIds = () => [ids.cost!, ids.floor!, ids["PL-100"]!, ids["PL-900"]!, ids["PL-200"]!];
const conditionIds = () => [ids.accrual!, ids["TC-2"]!, ids["TC-4"]!];
const prices = (query: string) => [
  `/v1/api/prices?channel=WEB-DE&customer=C-1001&at=${AT}&quantity=60&product=P-A,P-B,P-C${query}`,
  `/v1/api/prices?channel=WEB-DE&at=${AT}&product=P-A,P-B,P-C${query}`,
];

/**
 * The calls of each read operation (by its /doc path), with fixture values of its parameters:
 * every list asks for its largest page, every id-addressed read each fixture id.
 */
interface Call {
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

function callsOf(path: string): Call[] {
  const list = (p: string) => [{ path: `${p}?limit=100` }];
  const each = (values: (string | number)[], make: (v: string | number) => string) =>
    values.map((v) => ({ path: make(v) }));
  switch (path) {
    case "/v1/api/product":
    case "/v1/api/product-group":
    case "/v1/api/brand":
    case "/v1/api/channel":
    case "/v1/api/customer":
    case "/v1/api/customer-group":
    case "/v1/api/pricelist":
    case "/v1/api/promotion":
    case "/v1/api/currencies":
    case "/v1/api/exchange-rates":
      return list(path);
    case "/v1/api/trade-conditions":
      return [...list(path), { path: `${path}?limit=100`, headers: { "x-channel": "WEB-DE" } }];
    case "/v1/api/changes":
      return [{ path: `${path}?limit=1000` }];
    case "/v1/api/me":
      return [{ path }];
    case "/v1/api/product/{code}":
      return each(["P-A", "P-B", "P-C"], (c) => `/v1/api/product/${c}`);
    case "/v1/api/product-group/{code}":
      return [{ path: `/v1/api/product-group/${codes.productGroup}` }];
    case "/v1/api/brand/{code}":
      return [{ path: `/v1/api/brand/${codes.brand}` }];
    case "/v1/api/channel/{code}":
    case "/v1/api/channel/{code}/pricelists":
    case "/v1/api/channel/{code}/customers":
    case "/v1/api/channel/{code}/customer-groups":
      return [{ path: `${path.replace("{code}", "WEB-DE")}?limit=100` }];
    case "/v1/api/customer/{code}":
    case "/v1/api/customer/{code}/trade-conditions":
      return [{ path: `${path.replace("{code}", "C-1001")}?limit=100` }];
    case "/v1/api/customer-group/{code}":
    case "/v1/api/customer-group/{code}/customers":
    case "/v1/api/customer-group/{code}/pricelists":
      return each(["WHOLESALE", "NORTH"], (c) => `${path.replace("{code}", String(c))}?limit=100`);
    case "/v1/api/pricelist/{id}":
    case "/v1/api/pricelist/{id}/prices":
    case "/v1/api/pricelist/{id}/customers":
      return each(pricelistIds(), (id) => `${path.replace("{id}", String(id))}?limit=100`);
    case "/v1/api/trade-conditions/{id}":
      return each(conditionIds(), (id) => `/v1/api/trade-conditions/${id}`);
    case "/v1/api/promotion/{id}":
      return [{ path: `/v1/api/promotion/${ids["PR-7"]}` }];
    case "/v1/api/exchange-rates/{from}/{to}/{validFrom}":
      return [{ path: "/v1/api/exchange-rates/USD/EUR/2025-01-01" }];
    case "/v1/api/prices":
      return [...prices(""), ...prices("&explain=true")].map((p) => ({ path: p }));
    case "/v1/api/prices/resolve":
      return [false, true].flatMap((explain) =>
        [{ customerCode: "C-1001" }, {}].map((who) => ({
          path,
          body: {
            channelCode: "WEB-DE",
            ...who,
            at: AT,
            explain,
            lines: [
              { productCode: "P-A", quantity: 3 },
              { productCode: "P-B", quantity: 60 },
              { productCode: "P-C", quantity: 10 },
            ],
          },
        })),
      );
    case "/v1/api/quotes":
      return [
        { path: "/v1/api/quotes?limit=100" },
        { path: "/v1/api/quotes?filter.customerCode=C-Q&filter.status=SENT" },
      ];
    case "/v1/api/quotes/{id}":
      return quoteIds().map((id) => ({ path: `/v1/api/quotes/${id}` }));
    default:
      return quoteWrites(path);
  }
}

const quoteIds = () =>
  [ids.quoteDraft, ids.quotePending, ids.quoteSent, ids.quoteAccepted].map(Number);

/**
 * The quote writes a read key (the buyer's answers) or a sales key may make, each once on a quote
 * in the status it needs; the bodies of the others too, their answers (409s) searched as well.
 */
function quoteWrites(path: string): Call[] {
  const on = (id: number | undefined, body?: unknown): Call[] => [
    { path: path.replace("{id}", String(id)), body },
  ];
  switch (path) {
    case "/v1/api/quotes":
      return [{ path, body: quoteBody() }];
    case "/v1/api/quotes/{id}":
      return on(ids.quoteDraft, { validTo: quoteBody().validTo });
    case "/v1/api/quotes/{id}/submit":
    case "/v1/api/quotes/{id}/send":
      return on(ids.quoteDraft);
    case "/v1/api/quotes/{id}/approve":
    case "/v1/api/quotes/{id}/withdraw":
      return on(ids.quotePending);
    case "/v1/api/quotes/{id}/reject":
      return on(ids.quotePending, { reason: "no" });
    case "/v1/api/quotes/{id}/accept":
      return on(ids.quoteSent);
    case "/v1/api/quotes/{id}/decline":
      return on(ids.quoteSent2, { reason: "no", renegotiate: true });
    case "/v1/api/quotes/{id}/redeem":
      return on(ids.quoteAccepted, { orderRef: "SO-1" });
    default:
      return [];
  }
}

interface Operation {
  method: string;
  path: string;
}

/**
 * The operations of /doc a key of `role` may call: those documenting no 403 (docs/api/access.md §6),
 * and the writes whose `x-roles` name the role (quotes: docs/quotes.md §1).
 */
async function operationsFor(role: "read" | "sales"): Promise<Operation[]> {
  const doc = await api("GET", "/doc", { key: null });
  expect(doc.status).toBe(200);
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries<any>(doc.body.paths)) {
    for (const [method, operation] of Object.entries<any>(item)) {
      if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
      const named = (operation["x-roles"] ?? []).includes(role);
      if (Object.hasOwn(operation.responses ?? {}, "403") && !named) continue;
      operations.push({ method: method.toUpperCase(), path });
    }
  }
  return operations;
}

const readOperations = () => operationsFor("read");

/**
 * Where in an answer (body or a header) a cost shows, or null. `allowed`: words a sales key's
 * quote answers carry (its margin, docs/quotes.md §2).
 */
function costIn(answer: string, allowed: readonly string[] = []): string | null {
  // A problem's random requestId (a UUID) can hold a cost's digits ("…-5347-…"): not a leak. Nor
  // can the opaque tokens of the headers: the request id, a D1 bookmark (hex), an entity tag.
  const text = answer
    .replace(/"requestId":"[0-9a-f-]*"/g, '"requestId":""')
    .replace(/^(x-request-id|x-d1-bookmark|etag): .*$/gm, "$1: ");
  for (const field of COST_FIELDS) {
    if (!allowed.includes(field) && text.includes(field)) return `the word ${field}`;
  }
  for (const name of [COST_NAME, ACCRUAL_NAME, FLOOR_NAME]) {
    if (text.includes(name)) return `the name ${name}`;
  }
  for (const key of ["pricelistId", "basePricelistId"]) {
    for (const id of [ids.cost, ids.floor]) {
      if (new RegExp(`"${key}":${id}(?!\\d)`).test(text)) return `${key} ${id}`;
    }
  }
  // The derived floor's adjustment names no list, and no list of `affects` names it.
  if (new RegExp(`"kind":"FLOOR","id":${ids.floor}(?!\\d)`).test(text)) return "the floor's id";
  if (new RegExp(`"pricelistIds":\\[[^\\]]*(?<!\\d)(${ids.cost}|${ids.floor})(?!\\d)`).test(text)) {
    return "a hidden list in affects";
  }
  if (new RegExp(`"(id|tradeConditionId)":${ids.accrual}(?!\\d)[^}]*"type":"ACCRUAL"`).test(text)) {
    return `the accrual ${ids.accrual}`;
  }
  for (const amount of Object.values(COSTS)) {
    if (new RegExp(`(?<!\\d)${amount}(?!\\d)`).test(text)) return `the cost amount ${amount}`;
  }
  return null;
}

async function answer(method: string, call: Call, key: string) {
  const res = await api(method, call.path, { key, body: call.body, headers: call.headers });
  const headers = [...res.headers.entries()].map(([k, v]) => `${k}: ${v}`).join("\n");
  return { res, text: `${JSON.stringify(res.body)}\n${headers}` };
}

describe("a read key never sees a cost (docs/api/access.md §18)", () => {
  it("walks every read-key operation of /doc with cost data present and finds no cost", async () => {
    const operations = await readOperations();
    // Every read operation has its calls here: a new one fails until it is added.
    const uncovered = operations.filter((o) => callsOf(o.path).length === 0);
    expect(uncovered, "read operations without fixture calls").toEqual([]);
    expect(operations.length).toBeGreaterThanOrEqual(30);
    let calls = 0;
    const adminSaw = new Set<string>();
    for (const { method, path } of operations) {
      for (const call of callsOf(path)) {
        const read = await answer(method, call, KEYS.read);
        expect(read.res.status, `${method} ${call.path}`).toBeLessThan(500);
        expect(costIn(read.text), `${method} ${call.path} (${read.res.status})`).toBeNull();
        const admin = await answer(method, call, KEYS.admin);
        const seen = costIn(admin.text);
        if (seen) adminSaw.add(path);
        calls += 1;
      }
    }
    expect(calls).toBeGreaterThan(50);
    // The search looks where the costs are: an admin key finds them in each of these.
    expect([...adminSaw].sort()).toEqual(
      expect.arrayContaining([
        "/v1/api/changes",
        "/v1/api/channel/{code}/pricelists",
        "/v1/api/customer/{code}/trade-conditions",
        "/v1/api/pricelist",
        "/v1/api/pricelist/{id}",
        "/v1/api/pricelist/{id}/prices",
        "/v1/api/prices",
        "/v1/api/prices/resolve",
        "/v1/api/quotes/{id}",
        "/v1/api/trade-conditions",
        "/v1/api/trade-conditions/{id}",
      ]),
    );
  }, 60_000);

  it("walks every operation of /doc a sales key may call and finds no cost (docs/quotes.md §1)", async () => {
    const operations = await operationsFor("sales");
    const uncovered = operations.filter((o) => callsOf(o.path).length === 0);
    expect(uncovered, "sales operations without fixture calls").toEqual([]);
    const writes = operations.filter((o) => o.method !== "GET").map((o) => o.path);
    expect(writes).toEqual(
      expect.arrayContaining([
        "/v1/api/quotes",
        "/v1/api/quotes/{id}/submit",
        "/v1/api/quotes/{id}/approve",
      ]),
    );
    expect(writes).not.toContain("/v1/api/quotes/{id}/accept");
    let calls = 0;
    let margins = 0;
    for (const { method, path } of operations) {
      for (const call of callsOf(path)) {
        const sales = await answer(method, call, SALES_KEYS.manager);
        expect(sales.res.status, `${method} ${call.path}`).toBeLessThan(500);
        // A sales key sees a quote's margin, and nothing else of cost.
        const allowed = path.startsWith("/v1/api/quotes") ? ["marginBp"] : [];
        expect(
          costIn(sales.text, allowed),
          `${method} ${call.path} (${sales.res.status})`,
        ).toBeNull();
        if (sales.text.includes('"marginBp"')) margins += 1;
        calls += 1;
      }
    }
    expect(calls).toBeGreaterThan(50);
    expect(margins).toBeGreaterThan(0);
  }, 60_000);

  it("a read key's 404 for a COST list or an ACCRUAL is the 404 of a record that does not exist", async () => {
    const missing = async (path: string, id: number, unknown: number) => {
      const [hidden, absent] = await Promise.all([
        api("GET", `${path}/${id}`, { key: KEYS.read }),
        api("GET", `${path}/${unknown}`, { key: KEYS.read }),
      ]);
      expect(hidden.status).toBe(404);
      const shape = (body: any) => ({
        ...body,
        detail: body.detail.replace(/\d+/, "N"),
        requestId: null,
      });
      expect(shape(hidden.body)).toEqual(shape(absent.body));
    };
    await missing("/v1/api/pricelist", ids.cost!, 987654321);
    await missing("/v1/api/pricelist", ids.floor!, 987654321);
    await missing("/v1/api/trade-conditions", ids.accrual!, 987654321);
  });

  it("a FLOOR derived from the COST list is as hidden: lists, kind filter, explain (issue 28, 14 and 19)", async () => {
    const listed = async (key: string, query: string) => {
      const res = await api("GET", `/v1/api/pricelist?limit=100${query}`, { key });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return { ids: res.body.data.map((p: any) => p.id), total: res.body.meta.totalItems };
    };
    // `kind` filters (docs/api/access.md §18): a read key's COST page is empty, its FLOOR page
    // holds no floor derived from cost; an admin's holds both.
    expect(await listed(KEYS.read, "&filter.kind=COST")).toEqual({ ids: [], total: 0 });
    expect((await listed(KEYS.read, "&filter.kind=FLOOR")).ids).not.toContain(ids.floor);
    expect((await listed(KEYS.admin, "&filter.kind=COST")).ids).toEqual([ids.cost]);
    expect((await listed(KEYS.admin, "&filter.kind=FLOOR")).ids).toContain(ids.floor);
    const sales = await listed(KEYS.read, "&filter.kind=SALES");
    expect(sales.ids).toEqual(expect.arrayContaining([ids["PL-100"], ids["PL-200"]]));
    expect((await listed(KEYS.read, "")).ids).not.toContain(ids.floor);
    const bad = await api("GET", "/v1/api/pricelist?filter.kind=RETAIL", { key: KEYS.read });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toBe("query.filter.kind");
    const channel = await api("GET", "/v1/api/channel/WEB-DE/pricelists?limit=100", {
      key: KEYS.read,
    });
    expect(channel.body.data.map((p: any) => p.id)).not.toContain(ids.floor);
  });

  it("a derived floor floors a read key's price without naming it; cost-only writes keep its ETag (issue 28, 12 and 19)", async () => {
    // A 50 % discount on 1000 stopped by a floor at cost 600 + 10 % (docs/pricing-rules.md §24).
    const channel = (await createChannel()).code as string;
    const product = (await createProduct()).code as string;
    const list = await createPricelist({ status: "ACTIVE" });
    await ok("PUT", `/v1/api/pricelist/${list.id}/prices`, {
      prices: [{ productCode: product, amount: 1000 }],
    });
    await setPrimaryPricelist(channel, list.id);
    const costOf = async (amount: number) => {
      const cost = await createPricelist({ kind: "COST", status: "ACTIVE" });
      await ok("PUT", `/v1/api/pricelist/${cost.id}/prices`, {
        prices: [{ productCode: product, amount }],
      });
      await assignPricelistToChannel(channel, cost.id);
      return cost.id as number;
    };
    const [base, other] = [await costOf(600), await costOf(500)];
    const floor = await createPricelist({
      kind: "FLOOR",
      status: "ACTIVE",
      derivation: { basePricelistId: base, adjustmentBp: 1000 },
    });
    await assignPricelistToChannel(channel, floor.id);
    await createTradeCondition({ status: "ACTIVE", value: 5000, channelCodes: [channel] });
    const path = `/v1/api/prices?channel=${channel}&product=${product}&at=${AT}&explain=true`;
    const lookup = (key: string, tag?: string) =>
      api("GET", path, { key, headers: tag ? { "if-none-match": tag } : {} });

    // The price is floored for both keys; the read key's adjustment names no list, and its
    // explain has no entry for the floor.
    const [admin, read] = [await lookup(KEYS.admin), await lookup(KEYS.read)];
    const [adminLine, readLine] = [admin.body.lines[0], read.body.lines[0]];
    expect(readLine.finalUnitAmount).toBe(660);
    expect(adminLine.finalUnitAmount).toBe(660);
    const floorOf = (line: any) => line.adjustments.find((a: any) => a.kind === "FLOOR");
    expect(floorOf(adminLine)).toEqual({
      kind: "FLOOR",
      id: floor.id,
      scope: null,
      rung: null,
      valueBp: null,
      amount: 160,
    });
    expect(readLine.adjustments).toEqual(
      adminLine.adjustments.map((a: any) => (a.kind === "FLOOR" ? { ...a, id: null } : a)),
    );
    expect(adminLine.explain.floors.map((f: any) => f.pricelistId)).toEqual([floor.id]);
    expect(readLine.explain.floors).toEqual([]);

    // Writes no read key's answer depends on keep its ETag (a 304), and move the admin's.
    const tags = { read: read.headers.get("etag")!, admin: admin.headers.get("etag")! };
    const costOnly = [
      () =>
        ok("PUT", `/v1/api/pricelist/${other}/prices`, {
          prices: [{ productCode: product, amount: 510 }],
        }),
      () => ok("PATCH", `/v1/api/pricelist/${other}`, { name: "cost, renamed" }),
      () =>
        createTradeCondition({
          type: "ACCRUAL",
          status: "ACTIVE",
          value: 100,
          channelCodes: [channel],
        }),
    ];
    for (const write of costOnly) {
      await write();
      const again = await lookup(KEYS.read, tags.read);
      expect(again.status).toBe(304);
      expect(again.headers.get("etag")).toBe(tags.read);
      const adminAgain = await lookup(KEYS.admin, tags.admin);
      expect(adminAgain.status).toBe(200);
      tags.admin = adminAgain.headers.get("etag")!;
    }
    // The COST list the floor derives from moves a read key's price: its ETag follows.
    await ok("PUT", `/v1/api/pricelist/${base}/prices`, {
      prices: [{ productCode: product, amount: 700 }],
    });
    const moved = await lookup(KEYS.read, tags.read);
    expect(moved.status).toBe(200);
    expect(moved.body.lines[0].finalUnitAmount).toBe(770);
    expect(moved.headers.get("etag")).not.toBe(tags.read);
  });

  it("the feed has no entry of a change request naming a COST list or an ACCRUAL (issue 28, 11)", async () => {
    const requests = async (key: string) => {
      const res = await api("GET", "/v1/api/changes?limit=1000", { key });
      expect(res.status).toBe(200);
      expect(res.body.hasMore).toBe(false);
      const ofRequests = res.body.data.filter((c: any) => c.entity.startsWith("changeRequest"));
      return new Set(ofRequests.map((c: any) => c.key.id ?? c.key.changeRequestId));
    };
    const [admin, read] = [await requests(KEYS.admin), await requests(KEYS.read)];
    expect([...admin]).toEqual(
      expect.arrayContaining([ids.costRequest, ids.accrualRequest, ids.salesRequest]),
    );
    expect(read.has(ids.costRequest)).toBe(false);
    expect(read.has(ids.accrualRequest)).toBe(false);
    expect(read.has(ids.salesRequest)).toBe(true);
  });
});
