import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { app } from "../../src/app";
import { AUDITED_TABLES } from "../../src/db/audit";
import { NOT_AUDITED, UNVERSIONED } from "../../src/db/schema/audited";
import { sessionStart } from "../../src/http/context";
import { MAX_AGE_SECONDS } from "../../src/resources/prices/prices.cache";
import {
  createChannel,
  createCustomerGroup,
  createPricelist,
  createProduct,
  createProductGroup,
  createTradeCondition,
} from "../factories";
import { api, KEYS, uid, type ApiResponse } from "../shared/helpers";

/**
 * The edge read path of issue 5: every request runs on a D1 session whose bookmark travels in
 * `x-d1-bookmark`, and `GET /v1/api/prices` answers carry an ETag (pricing data version +
 * normalized request) and Cache-Control, and honour If-None-Match.
 */

const BOOKMARK = /^[0-9a-f]+(?:-[0-9a-f]+)+$/;
const bookmarkOf = (res: ApiResponse) => res.headers.get("x-d1-bookmark");
const roundTrips = (res: ApiResponse) => res.headers.get("server-timing")?.split(";dur=")[0];

async function ok(method: string, path: string, body?: unknown) {
  const res = await api(method, path, { body });
  if (res.status >= 300) {
    throw new Error(`${method} ${path} -> ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body;
}

describe("D1 sessions: the bookmark header", () => {
  it("starts reads anywhere and writes on the primary, unless a bookmark continues a session", () => {
    expect(sessionStart(true, undefined).constraint).toBe("first-unconstrained");
    expect(sessionStart(false, undefined).constraint).toBe("first-primary");
    const mark = "00000000-0000000b-00000000-00000000000000000000000000000000";
    expect(sessionStart(true, mark)).toEqual({ constraint: mark, bookmark: mark });
    expect(sessionStart(false, mark).constraint).toBe(mark);
  });

  it("takes GET, HEAD and the routes marked read-only (the price lookup POST) as reads", async () => {
    const started: string[] = [];
    const DB = {
      withSession(constraint: D1SessionConstraint) {
        started.push(String(constraint));
        return env.DB.withSession(constraint);
      },
    };
    const requests = [
      ["GET", "/v1/api/product"],
      ["HEAD", "/v1/api/product"],
      // The price lookup is a POST only because carts are long: it is a read.
      ["POST", "/v1/api/prices/resolve"],
      ["POST", "/v1/api/product"],
      ["PUT", "/v1/api/pricelist/1/prices"],
      ["PATCH", "/v1/api/product/x"],
      ["DELETE", "/v1/api/pricelist/individual/1"],
    ];
    for (const [method, path] of requests) {
      // No key: the session starts before authentication refuses the request.
      const res = await app.fetch(new Request(`http://pricing.test${path}`, { method }), {
        ...env,
        DB,
      });
      expect(res.status).toBe(401);
    }
    expect(started).toEqual([
      "first-unconstrained",
      "first-unconstrained",
      "first-unconstrained",
      "first-primary",
      "first-primary",
      "first-primary",
      "first-primary",
    ]);
  });

  it("returns the session's bookmark on reads and writes, in one round trip as before", async () => {
    const write = await api("POST", "/v1/api/product", { body: { code: uid("BM"), name: "B" } });
    expect(write.status).toBe(201);
    expect(bookmarkOf(write)).toMatch(BOOKMARK);
    const read = await api("GET", `/v1/api/product/${write.body.code}`, { key: KEYS.read });
    expect(read.status).toBe(200);
    expect(bookmarkOf(read)).toMatch(BOOKMARK);
    expect(roundTrips(read)).toBe('db;desc="1 query"');
  });

  it("reads its own write when the write's bookmark is sent back; bookmarks only move forward", async () => {
    const code = uid("RYW");
    const write = await api("POST", "/v1/api/product", { body: { code, name: "Mine" } });
    const mark = bookmarkOf(write)!;
    const read = await api("GET", `/v1/api/product/${code}`, {
      key: KEYS.read,
      headers: { "x-d1-bookmark": mark },
    });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(write.body);
    // Bookmarks sort lexicographically, oldest first.
    expect(bookmarkOf(read)! >= mark).toBe(true);
    const update = await api("PATCH", `/v1/api/product/${code}`, {
      body: { name: "Mine, renamed" },
      headers: { "x-d1-bookmark": mark },
    });
    expect(update.status).toBe(200);
    expect(bookmarkOf(update)! > mark).toBe(true);
  });

  it("keeps the bookmark on errors that ran a query, and echoes a valid one when none ran", async () => {
    const missing = await api("GET", "/v1/api/product/NO-SUCH-PRODUCT", { key: KEYS.read });
    expect(missing.status).toBe(404);
    expect(bookmarkOf(missing)).toMatch(BOOKMARK);
    // 401 happens before any query: nothing new to report, so a valid bookmark comes back as sent.
    const mark = bookmarkOf(missing)!;
    const anonymous = await api("GET", "/v1/api/product", {
      key: null,
      headers: { "x-d1-bookmark": mark },
    });
    expect(anonymous.status).toBe(401);
    expect(bookmarkOf(anonymous)).toBe(mark);
    expect(bookmarkOf(await api("GET", "/v1/api/product", { key: null }))).toBeNull();
    expect(bookmarkOf(await api("GET", "/health", { key: null }))).toBeNull();
  });

  it.each([
    "garbage!!",
    "GARBAGE",
    "00000000",
    "00000000-0000000B-00000000-00000000000000000000000000000000",
    "0000000z-00000001",
    "-00000000-00000001",
    "00000000--00000001",
    "00000000-00000001-",
    "../../etc/passwd",
    "' or 1=1 --",
    "first-primary",
    "first-unconstrained",
    `${"0".repeat(100)}-${"0".repeat(100)}`,
    "a".repeat(8192),
  ])("ignores the malformed bookmark %s (never a 500, never echoed)", async (garbage) => {
    for (const [method, path, body] of [
      ["GET", "/v1/api/product?limit=1", undefined],
      ["POST", "/v1/api/product", { code: uid("GB"), name: "G" }],
    ] as const) {
      const res = await api(method, path, { body, headers: { "x-d1-bookmark": garbage } });
      expect(res.status).toBeLessThan(300);
      expect(bookmarkOf(res)).toMatch(BOOKMARK);
      expect(bookmarkOf(res)).not.toBe(garbage);
    }
  });
});

describe("GET /v1/api/prices: ETag, Cache-Control, If-None-Match", () => {
  const AT = "2025-06-15T10:00:00Z";
  let channel: string;
  let a: string;
  let b: string;
  let pricelistId: number;
  let conditionId: number;

  beforeAll(async () => {
    channel = (await createChannel({ name: "Edge" })).code;
    a = (await createProduct({ name: "Edge A" })).code;
    b = (await createProduct({ name: "Edge B" })).code;
    const pl = await createPricelist({
      name: "Edge list",
      status: "ACTIVE",
      validFrom: "2025-01-01",
    });
    pricelistId = pl.id;
    await ok("PUT", `/v1/api/pricelist/${pl.id}/prices`, {
      prices: [
        { productCode: a, amount: 1000 },
        { productCode: b, amount: 500 },
      ],
    });
    await ok("PUT", `/v1/api/channel/${channel}/pricelist/primary`, { pricelistId: pl.id });
    const tc = await createTradeCondition({
      name: "Edge discount",
      scope: "CHANNEL",
      status: "ACTIVE",
      type: "DISCOUNT",
      discountType: "PERCENTAGE",
      value: 1000,
      channelCodes: [channel],
      validFrom: "2025-01-01",
    });
    conditionId = tc.id;
  });

  const lookup = (query: string, headers: Record<string, string> = {}) =>
    api("GET", `/v1/api/prices?channel=${channel}&${query}`, { key: KEYS.read, headers });
  const q = () => `at=${AT}&quantity=2&product=${a}&product=${b}`;
  const etag = (res: ApiResponse) => res.headers.get("etag");

  it("tags an answer with an explicit `at` strongly, one round trip, private max-age", async () => {
    const res = await lookup(q());
    expect(res.status).toBe(200);
    expect(res.body.lines.map((l: { finalUnitAmount: number }) => l.finalUnitAmount)).toEqual([
      900, 450,
    ]);
    expect(etag(res)).toMatch(/^"[A-Za-z0-9_-]{24}"$/);
    expect(res.headers.get("cache-control")).toBe(`private, max-age=${MAX_AGE_SECONDS}`);
    expect(roundTrips(res)).toBe('db;desc="1 query"');
    // Same request, same data: same tag; `at` written differently is the same instant.
    expect(etag(await lookup(q()))).toBe(etag(res));
    const sameInstant = `at=2025-06-15T12:00:00%2B02:00&quantity=2&product=${a}&product=${b}`;
    expect(etag(await lookup(sameInstant))).toBe(etag(res));
  });

  it("gives every different request its own tag", async () => {
    const base = etag(await lookup(q()));
    const variants = [
      `at=${AT}&quantity=3&product=${a}&product=${b}`,
      `at=${AT}&quantity=2&product=${b}&product=${a}`,
      `at=${AT}&quantity=2&product=${a}`,
      `at=2025-06-15T10:00:00.001Z&quantity=2&product=${a}&product=${b}`,
      `${q()}&explain=true`,
      `${q()}&currency=EUR`,
      `quantity=2&product=${a}&product=${b}`,
    ];
    const tags = await Promise.all(variants.map(async (v) => etag(await lookup(v))));
    expect(new Set([base, ...tags]).size).toBe(variants.length + 1);
  });

  it("answers If-None-Match with 304 and no body, comparing weakly; otherwise 200", async () => {
    const first = await lookup(q());
    const tag = etag(first)!;
    for (const ifNoneMatch of [tag, `W/${tag}`, `"other", ${tag}`, "*"]) {
      const again = await lookup(q(), { "if-none-match": ifNoneMatch });
      expect(again.status).toBe(304);
      expect(again.body).toBe("");
      expect(etag(again)).toBe(tag);
      expect(again.headers.get("cache-control")).toBe(`private, max-age=${MAX_AGE_SECONDS}`);
      expect(roundTrips(again)).toBe('db;desc="1 query"');
      // The tag is known from the data version and the request: the engine does not run.
      expect(again.headers.get("server-timing")).toContain('engine;desc="skipped"');
    }
    expect(first.headers.get("server-timing")).toContain('engine;desc="ran"');
    const stale = await lookup(q(), { "if-none-match": '"not-this-one"' });
    expect(stale.status).toBe(200);
    expect(stale.body).toEqual(first.body);
  });

  it("tags an answer without `at` weakly: the same within one validity interval", async () => {
    const now = await lookup(`product=${a}`);
    expect(now.status).toBe(200);
    expect(etag(now)).toMatch(/^W\/"[A-Za-z0-9_-]{24}"$/);
    // A later moment of the same interval: the body's `at` differs, the prices do not.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const later = await lookup(`product=${a}`);
    expect(later.body.at).not.toBe(now.body.at);
    expect(etag(later)).toBe(etag(now));
    expect((await lookup(`product=${a}`, { "if-none-match": etag(now)! })).status).toBe(304);
    // No validity edge ahead (validUntil null): the full max-age.
    expect(now.body.validUntil).toBeNull();
    expect(now.headers.get("cache-control")).toBe(`private, max-age=${MAX_AGE_SECONDS}`);
  });

  it("without `at`, never lets an answer outlive validUntil", async () => {
    const soon = await createChannel({ name: "Soon" });
    const p = await createProduct();
    const ends = new Date(Date.now() + 30_000).toISOString();
    const pl = await createPricelist({
      name: "Ends soon",
      status: "ACTIVE",
      validTo: ends,
    });
    await ok("PUT", `/v1/api/pricelist/${pl.id}/prices`, {
      prices: [{ productCode: p.code, amount: 7 }],
    });
    await ok("PUT", `/v1/api/channel/${soon.code}/pricelist/primary`, { pricelistId: pl.id });
    const res = await api("GET", `/v1/api/prices?channel=${soon.code}&product=${p.code}`, {
      key: KEYS.read,
    });
    expect(res.body.validUntil).toBe(ends);
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(res.headers.get("cache-control")!)![1]);
    expect(maxAge).toBeGreaterThanOrEqual(25);
    expect(maxAge).toBeLessThanOrEqual(30);
    // With an explicit `at` the same answer is fixed for the data version: the full max-age.
    const pinned = await api(
      "GET",
      `/v1/api/prices?channel=${soon.code}&product=${p.code}&at=${new Date().toISOString()}`,
      { key: KEYS.read },
    );
    expect(pinned.headers.get("cache-control")).toBe(`private, max-age=${MAX_AGE_SECONDS}`);
  });

  it("refuses a 304 to a tag issued before the answer gained its honest totals", async () => {
    // The tag as issued before `pricedTotalAmount` and `complete` existed: digest of the data
    // version and the normalized request only. A client holding it has a body whose totalAmount
    // may leave out unpriced lines: it must get the new body, not a 304.
    const row = await env.DB.prepare("SELECT version FROM pricing_version WHERE id = 1").first();
    const basis = JSON.stringify([
      row!.version,
      channel,
      null,
      null,
      Date.parse(AT),
      false,
      [a, b].map((code) => [code, 2]),
    ]);
    const digest = new Uint8Array(
      await crypto.subtle.digest("SHA-256", new TextEncoder().encode(basis)),
    ).slice(0, 18);
    const old = `"${btoa(String.fromCharCode(...digest))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")}"`;
    const res = await lookup(q(), { "if-none-match": old });
    expect(res.status).toBe(200);
    expect(etag(res)).not.toBe(old);
    expect(res.body).toMatchObject({
      totalAmount: 1350 * 2,
      pricedTotalAmount: 2700,
      complete: true,
    });
  });

  it("keeps the tag across writes that cannot change a price", async () => {
    const before = etag(await lookup(q()));
    await ok("PATCH", `/v1/api/product/${a}`, { name: "Edge A, renamed" });
    await ok("PATCH", `/v1/api/channel/${channel}`, { name: "Edge, renamed" });
    await ok("GET", `/v1/api/pricelist/${pricelistId}`);
    expect(etag(await lookup(q()))).toBe(before);
  });

  it("changes the tag after a price upsert, and the old tag no longer gets a 304", async () => {
    const before = await lookup(q());
    await ok("PUT", `/v1/api/pricelist/${pricelistId}/prices`, {
      prices: [{ productCode: a, amount: 2000 }],
    });
    const after = await lookup(q(), { "if-none-match": etag(before)! });
    expect(after.status).toBe(200);
    expect(etag(after)).not.toBe(etag(before));
    expect(after.body.lines[0].finalUnitAmount).toBe(1800);
  });

  it("changes the tag after a trade-condition PATCH", async () => {
    const before = await lookup(q());
    await ok("PATCH", `/v1/api/trade-conditions/${conditionId}`, { value: 2000 });
    const after = await lookup(q(), { "if-none-match": etag(before)! });
    expect(after.status).toBe(200);
    expect(etag(after)).not.toBe(etag(before));
    expect(after.body.lines[1].finalUnitAmount).toBe(400);
  });

  it("documents the conditional request in OpenAPI", async () => {
    const doc = (await api("GET", "/doc", { key: null })).body;
    const op = doc.paths["/v1/api/prices"].get;
    expect(Object.keys(op.responses).sort()).toEqual([
      "200",
      "304",
      "400",
      "401",
      "404",
      "409",
      "429",
      "503",
    ]);
    // x-price-stale: only on an answer through a D1 stall (docs/api/prices.md §9.1).
    expect(Object.keys(op.responses["200"].headers)).toEqual([
      "ETag",
      "Cache-Control",
      "x-price-stale",
    ]);
    expect(op.responses["503"].headers["Retry-After"]).toBeDefined();
    expect(op.parameters).toContainEqual(
      expect.objectContaining({ name: "if-none-match", in: "header", required: false }),
    );
  });
});

describe("the pricing data version (migration 0003 triggers)", () => {
  const version = async () =>
    (await env.DB.prepare("select version from pricing_version where id = 1").first<{
      version: number;
    }>())!.version;

  it("has insert, update and delete triggers on every table but the bookkeeping ones", async () => {
    const tables = await env.DB.prepare(
      `select name from sqlite_master where type = 'table' and name not like 'sqlite_%'
         and name not like '\\_cf\\_%' escape '\\' and name not like 'd1_%'
         and name not like 'products_search%'
       order by name`,
    ).all<{ name: string }>();
    const triggers = await env.DB.prepare(
      "select tbl_name as tbl, name from sqlite_master where type = 'trigger' and name like 'pricing_version_%'",
    ).all<{ tbl: string; name: string }>();
    // Every audited table but UNVERSIONED is pricing data (src/db/schema/audited.ts lists them).
    const audited = tables.results.map((t) => t.name).filter((name) => !NOT_AUDITED.has(name));
    expect(audited).toEqual([...AUDITED_TABLES]);
    const names = audited.filter((name) => !UNVERSIONED.has(name));
    expect(names).toContain("pricelist_prices");
    expect(audited.filter((name) => UNVERSIONED.has(name)).sort()).toEqual([...UNVERSIONED].sort());
    for (const table of names) {
      const own = triggers.results.filter((t) => t.tbl === table).map((t) => t.name);
      expect(own.sort(), table).toEqual(
        ["delete", "insert", "update"].map((e) => `pricing_version_${table}_${e}`),
      );
    }
  });

  it("only grows, with a write or with each row of a bulk write, never with a read", async () => {
    const start = await version();
    await ok("GET", "/v1/api/product?limit=1");
    expect(await version()).toBe(start);
    const p = await createProduct();
    const afterInsert = await version();
    expect(afterInsert).toBeGreaterThan(start);
    // Renaming is not a price change; a new code is (UNKNOWN_PRODUCT vs a price).
    await ok("PATCH", `/v1/api/product/${p.code}`, { name: "Renamed" });
    expect(await version()).toBe(afterInsert);
    await ok("PATCH", `/v1/api/product/${p.code}`, { code: uid("P") });
    expect(await version()).toBeGreaterThan(afterInsert);
  });

  it("moves with links, memberships and channel activity", async () => {
    const ch = await createChannel({ name: "V" });
    const group = await createCustomerGroup({ name: "V" });
    const steps: [string, string, unknown][] = [
      ["POST", `/v1/api/channel/${ch.code}/customer-group`, { customerGroupCodes: [group.code] }],
      ["PATCH", `/v1/api/channel/${ch.code}`, { isActive: false }],
      [
        "POST",
        "/v1/api/customer",
        { code: uid("C"), name: "V", customerGroupCodes: [group.code], channelCodes: [ch.code] },
      ],
    ];
    for (const [method, path, body] of steps) {
      const before = await version();
      await ok(method, path, body);
      expect(await version(), `${method} ${path}`).toBeGreaterThan(before);
    }
  });

  it("moves with product groups, derivation bases, floors and quantity rules (migration 0012)", async () => {
    const group = await createProductGroup();
    const parent = await createProductGroup();
    const product = await createProduct();
    const base = await createPricelist();
    const derived = await createPricelist({
      derivation: { basePricelistId: base.id, adjustmentBp: 0 },
    });
    const floor = await createPricelist({ kind: "FLOOR" });
    const channel = await createChannel();
    const steps: [string, string, unknown][] = [
      // A group: its place in the tree and the links that name it.
      ["PATCH", `/v1/api/product-group/${group.code}`, { parentCode: parent.code }],
      ["PATCH", `/v1/api/product/${product.code}`, { productGroupCode: group.code }],
      [
        "POST",
        "/v1/api/trade-conditions",
        {
          name: "G",
          scope: "GLOBAL",
          type: "DISCOUNT",
          discountType: "PERCENTAGE",
          value: 100,
          productGroupCodes: [group.code],
        },
      ],
      [
        "POST",
        "/v1/api/promotion",
        { name: "G", discountType: "PERCENTAGE", value: 100, productGroupCodes: [group.code] },
      ],
      // A derivation base: the derived list's adjustment, rounding and base.
      [
        "PATCH",
        `/v1/api/pricelist/${derived.id}`,
        {
          derivation: {
            basePricelistId: base.id,
            adjustmentBp: -500,
            rounding: { mode: "UP", step: 10, ending: 9 },
          },
        },
      ],
      [
        "PUT",
        `/v1/api/pricelist/${base.id}/prices`,
        { prices: [{ productCode: product.code, amount: 1000 }] },
      ],
      // A floor: its kind, its assignment, its rows.
      ["POST", `/v1/api/channel/${channel.code}/pricelist`, { pricelistId: floor.id }],
      [
        "PUT",
        `/v1/api/pricelist/${floor.id}/prices`,
        { prices: [{ productCode: product.code, amount: 500 }] },
      ],
      ["PATCH", `/v1/api/pricelist/${floor.id}`, { kind: "SALES" }],
      // A quantity rule, field by field.
      ["PATCH", `/v1/api/product/${product.code}`, { minOrderQuantity: 10 }],
      ["PATCH", `/v1/api/product/${product.code}`, { orderIncrement: 5 }],
      ["PATCH", `/v1/api/product/${product.code}`, { maxOrderQuantity: 1000 }],
    ];
    for (const [method, path, body] of steps) {
      const before = await version();
      await ok(method, path, body);
      expect(await version(), `${method} ${path} ${JSON.stringify(body)}`).toBeGreaterThan(before);
    }
    // A group's name reaches no price answer.
    const before = await version();
    await ok("PATCH", `/v1/api/product-group/${group.code}`, { name: "Renamed" });
    expect(await version()).toBe(before);
  });
});
