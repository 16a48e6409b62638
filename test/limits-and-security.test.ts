import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { app } from "../src/app";
import { createChannel, createPricelist, createProduct, createTradeCondition } from "./factories";
import { api, expectProblem, issuePaths, KEYS, SALES_KEYS, uid } from "./helpers";

/**
 * Issue 6, limits and security: per-key rate limiting (429 + Retry-After; reads and writes apart
 * since issue 15), body and bulk size limits, hostile list queries on D1, security headers, CORS
 * only when configured, no keys or bodies in logs, and the read role kept from every write in /doc.
 */

const hex = async (text: string) => {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
};

let ADMIN_SHA = "";
let READ_SHA = "";
beforeAll(async () => {
  ADMIN_SHA = await hex(KEYS.admin);
  READ_SHA = await hex(KEYS.read);
});

/** The Worker with some bindings replaced, as a deploy with another configuration would run. */
function call(
  path: string,
  init: RequestInit & { key?: string | null } = {},
  bindings: Record<string, unknown> = {},
) {
  const headers = new Headers(init.headers);
  const key = init.key === undefined ? KEYS.admin : init.key;
  if (key !== null) headers.set("x-webhook-signature", key);
  if (typeof init.body === "string" && !headers.has("content-type")) {
    headers.set("content-type", "application/json");
  }
  return app.fetch(new Request(`http://pricing.test${path}`, { ...init, headers }), {
    ...env,
    ...bindings,
  });
}

const problem = async (res: Response) => {
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  return (await res.json()) as { status: number; code: string; detail: string };
};

afterEach(() => vi.restoreAllMocks());

describe("rate limits per API key: reads and writes apart", () => {
  // The numbers of wrangler.toml, which the tests run with (vitest.config.ts raises nothing).
  const READ = env.TEST_RATE_LIMITS.RATE_LIMITER_READ!;
  const ADMIN = env.TEST_RATE_LIMITS.RATE_LIMITER_ADMIN!;
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const newProduct = () => ({
    method: "POST",
    body: JSON.stringify({ code: uid("P"), name: "Rate test" }),
  });
  /** A limiter that lets everything through and notes which limit counted which key. */
  const recorder = (seen: string[], limit: string) => ({
    limit: async ({ key }: { key: string }) => {
      seen.push(`${limit} ${key}`);
      return { success: true };
    },
  });
  const refusing = { limit: async () => ({ success: false }) };
  const allowing = { limit: async () => ({ success: true }) };

  it("by default allows a read key 100 reads a second with headroom, and an admin key a few writes a second", () => {
    expect(READ.limit / READ.period).toBeGreaterThanOrEqual(150);
    expect(ADMIN.limit / ADMIN.period).toBeLessThanOrEqual(10);
  });

  it("lets a read key sustain 100 reads a second for 25 s (over twice the old 1200 a minute) without a 429", async () => {
    // A key name of its own, so no other test shares the bucket.
    const name = uid("storefront").toLowerCase();
    const bindings = { API_KEYS: `${name}:read:${READ_SHA}` };
    const statuses: Record<number, number> = {};
    const started = Date.now();
    // 10 reads every 100 ms; a late batch is not caught up, so the rate never exceeds 100 a second.
    for (let tick = 0; tick < 250; tick++) {
      const tickStart = Date.now();
      const batch = await Promise.all(
        Array.from({ length: 10 }, () =>
          call("/v1/api/channel?limit=1", { key: KEYS.read }, bindings),
        ),
      );
      for (const res of batch) {
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        await res.arrayBuffer();
      }
      await pause(Math.max(0, 100 - (Date.now() - tickStart)));
    }
    expect(statuses).toEqual({ 200: 2500 });
    // More than twice the old limit in a minute, so some minute window held over 1200 of them.
    expect(Date.now() - started).toBeLessThan(60_000);
  }, 90_000);

  it("stops an admin key's writes at the admin limit: 429, Retry-After and a sentence naming the limit", async () => {
    const name = uid("erp").toLowerCase();
    const bindings = { API_KEYS: `${name}:admin:${ADMIN_SHA}` };
    const written: number[] = [];
    let refused: Response | undefined;
    let refusedBody = "";
    // The limit passes per window; if the window turns mid-test, up to twice as many pass.
    while (!refused && written.length <= 2 * ADMIN.limit) {
      const write = newProduct();
      const res = await call("/v1/api/product", write, bindings);
      if (res.status === 429) [refused, refusedBody] = [res, write.body];
      else written.push(res.status);
    }
    expect(written.length).toBeGreaterThanOrEqual(ADMIN.limit);
    expect(new Set(written)).toEqual(new Set([201]));
    expect(refused?.headers.get("retry-after")).toBe(String(ADMIN.period));
    expect(refused?.headers.get("cache-control")).toBe("no-store");
    expect(await problem(refused!)).toMatchObject({
      status: 429,
      code: "RATE_LIMITED",
      title: "Too Many Requests",
      type: "urn:problem:pricing:rate-limited",
      detail:
        `too many writes for this API key: its admin limit (every call that changes data, ` +
        `counted per ${ADMIN.period} seconds) is used up; retry after ${ADMIN.period} seconds`,
    });
    // The refused write wrote nothing; the same key still reads (the read limit counts those),
    // and a read key is counted apart.
    const { code } = JSON.parse(refusedBody) as { code: string };
    const after = await call(`/v1/api/product/${code}`, {}, bindings);
    expect(await problem(after)).toMatchObject({ status: 404, code: "NOT_FOUND" });
    const reader = { API_KEYS: `${name}:admin:${ADMIN_SHA},${name}-shop:read:${READ_SHA}` };
    expect((await call("/v1/api/product?limit=1", { key: KEYS.read }, reader)).status).toBe(200);
  });

  it("counts each request once by the route's role: reads (an admin key's, the price lookup POST) on the read limit, writes on the admin limit", async () => {
    const seen: string[] = [];
    const bindings = {
      RATE_LIMITER_READ: recorder(seen, "read"),
      RATE_LIMITER_ADMIN: recorder(seen, "admin"),
      API_KEYS: `shop-eu:read:${READ_SHA},erp:admin:${ADMIN_SHA}`,
    };
    const lookup = { method: "POST", body: JSON.stringify({ channelCode: "NONE", lines: [] }) };
    await call("/v1/api/product", { key: KEYS.read }, bindings);
    await call("/v1/api/prices/resolve", { ...lookup, key: KEYS.read }, bindings);
    await call("/v1/api/product", { ...newProduct(), key: KEYS.read }, bindings); // 403, not counted
    await call("/v1/api/product", { key: KEYS.admin }, bindings);
    await call("/v1/api/audit", { key: KEYS.admin }, bindings);
    await call("/v1/api/product", { ...newProduct(), key: KEYS.admin }, bindings);
    expect(seen).toEqual(["read shop-eu", "read shop-eu", "read erp", "read erp", "admin erp"]);
  });

  it("refuses reads over the read limit with its own sentence and Retry-After, while writes go on", async () => {
    const bindings = { RATE_LIMITER_READ: refusing, RATE_LIMITER_ADMIN: allowing };
    const read = await call("/v1/api/prices?channel=WEB&product=P-1", { key: KEYS.read }, bindings);
    expect(read.status).toBe(429);
    expect(read.headers.get("retry-after")).toBe(String(READ.period));
    expect((await problem(read)).detail).toBe(
      `too many reads for this API key: its read limit (GET calls and price lookups, counted ` +
        `per ${READ.period} seconds) is used up; retry after ${READ.period} seconds`,
    );
    expect((await call("/v1/api/product", newProduct(), bindings)).status).toBe(201);
  });

  it("takes Retry-After from RATE_LIMIT_READ_PERIOD / RATE_LIMIT_ADMIN_PERIOD when they say 10 or 60", async () => {
    const both = { RATE_LIMITER_READ: refusing, RATE_LIMITER_ADMIN: refusing };
    const retryAfter = async (path: string, init: RequestInit, vars: Record<string, string>) =>
      (await call(path, init, { ...both, ...vars })).headers.get("retry-after");
    expect(await retryAfter("/v1/api/product", {}, { RATE_LIMIT_READ_PERIOD: "60" })).toBe("60");
    expect(
      await retryAfter("/v1/api/product", newProduct(), { RATE_LIMIT_ADMIN_PERIOD: "10" }),
    ).toBe("10");
    // Any other value is not a period the binding takes: the default stands.
    expect(await retryAfter("/v1/api/product", {}, { RATE_LIMIT_READ_PERIOD: "30" })).toBe("10");
    expect(await retryAfter("/v1/api/product", newProduct(), { RATE_LIMIT_ADMIN_PERIOD: "" })).toBe(
      "60",
    );
  });

  it("limits after authentication: no key → 401 without counting; /health and /doc are not limited", async () => {
    const limiter = { limit: vi.fn(async () => ({ success: false })) };
    const bindings = { RATE_LIMITER_READ: limiter, RATE_LIMITER_ADMIN: limiter };
    expect((await call("/v1/api/product", { key: null }, bindings)).status).toBe(401);
    expect((await call("/health", {}, bindings)).status).toBe(200);
    expect((await call("/doc", { key: null }, bindings)).status).toBe(200);
    expect(limiter.limit).not.toHaveBeenCalled();
  });

  it("RATE_LIMITS=off (npm run dev -- --no-rate-limits) lets every request through uncounted, with one warning", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const limiter = { limit: vi.fn(async () => ({ success: false })) };
    const off = { RATE_LIMITER_READ: limiter, RATE_LIMITER_ADMIN: limiter, RATE_LIMITS: "off" };
    for (let i = 0; i < 3; i++) {
      expect((await call("/v1/api/product", {}, off)).status).toBe(200);
      expect((await call("/v1/api/product", newProduct(), off)).status).toBe(201);
    }
    expect(limiter.limit).not.toHaveBeenCalled();
    expect(warn.mock.calls.map(([line]) => JSON.parse(String(line)))).toEqual([
      { warning: "RATE_LIMITS is off: no request is rate limited" },
    ]);
    // Any other value leaves the limits on.
    for (const value of ["on", "", "no", "false"]) {
      const on = { ...off, RATE_LIMITS: value };
      expect((await call("/v1/api/product", {}, on)).status, value).toBe(429);
    }
  });

  it("answers a method a path does not take with 405 + Allow before counting it (docs/api.md §7)", async () => {
    const limiter = { limit: vi.fn(async () => ({ success: false })) };
    const bindings = { RATE_LIMITER_READ: limiter, RATE_LIMITER_ADMIN: limiter };
    for (const key of [KEYS.admin, KEYS.read, null]) {
      const res = await call("/v1/api/product", { method: "DELETE", key }, bindings);
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("GET, HEAD, POST, PUT");
      expect((await problem(res)).code).toBe("METHOD_NOT_ALLOWED");
    }
    expect(limiter.limit).not.toHaveBeenCalled();
    // The limit still holds for the methods the path takes.
    expect((await call("/v1/api/product", {}, bindings)).status).toBe(429);
  });

  it("without a binding does not limit that traffic and warns once per binding; a failing limiter lets requests through", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const none = { RATE_LIMITER_READ: undefined, RATE_LIMITER_ADMIN: undefined };
    for (let i = 0; i < 3; i++) {
      expect((await call("/v1/api/product", {}, none)).status).toBe(200);
      expect((await call("/v1/api/product", newProduct(), none)).status).toBe(201);
    }
    expect(warn.mock.calls.map(([line]) => JSON.parse(String(line)))).toEqual([
      { warning: "no RATE_LIMITER_READ binding: reads are not rate limited" },
      { warning: "no RATE_LIMITER_ADMIN binding: writes are not rate limited" },
    ]);

    const broken = {
      limit: async () => {
        throw new Error("limiter unavailable");
      },
    };
    expect((await call("/v1/api/product", {}, { RATE_LIMITER_READ: broken })).status).toBe(200);
    expect(warn).toHaveBeenCalledTimes(3);
    expect(String(warn.mock.calls[2]![0])).toContain("rate limiter failed");
  });

  it("describes both limits, 429 and Retry-After in /doc", async () => {
    const doc = (await api("GET", "/doc", { key: null })).body;
    expect(doc.info.description).toContain(
      "one for reads (GET calls and price lookups, whatever the key's role) and one for writes",
    );
    expect(doc.info.description).toContain(
      "`Retry-After` (seconds; by default 10 for reads, 60 for writes)",
    );
    const audit = doc.paths["/v1/api/audit"].get.responses["429"];
    expect(audit.headers["Retry-After"]).toMatchObject({ schema: { type: "integer" } });
    expect(audit.content["application/problem+json"].example).toMatchObject({
      code: "RATE_LIMITED",
      detail: expect.stringMatching(/^too many reads for this API key: its read limit/),
    });
  });
});

describe("request and bulk size limits", () => {
  it("refuses bodies over 1 MiB with 413, whatever the route", async () => {
    const big = "x".repeat(1024 * 1024);
    for (const [method, path] of [
      ["POST", "/v1/api/product"],
      ["PUT", "/v1/api/pricelist/1/prices"],
      ["POST", "/v1/api/prices/resolve"],
    ] as const) {
      const res = await api(method, path, { body: { name: big } });
      expectProblem(res, 413, "PAYLOAD_TOO_LARGE");
    }
    // The read role's only POST is limited too.
    const read = await api("POST", "/v1/api/prices/resolve", { body: { x: big }, key: KEYS.read });
    expectProblem(read, 413, "PAYLOAD_TOO_LARGE");
  });

  it("takes a body just under 1 MiB to validation (400, not 413)", async () => {
    const res = await api("POST", "/v1/api/product", {
      body: { code: uid("P"), name: "x".repeat(1024 * 1024 - 100) },
    });
    expect(issuePaths(res)).toEqual(["body.name"]);
  });

  it("refuses bulk bodies of 0 or 1001 codes or prices with 400; 1000 pass", async () => {
    const channel = await createChannel({ name: "Bulk" });
    const pl = await createPricelist({ name: "Bulk" });
    const codes = (n: number) => Array.from({ length: n }, (_, i) => `NO-${i}`);
    const bulk = `/v1/api/channel/${channel.code}/customer`;
    expect(issuePaths(await api("POST", bulk, { body: { customerCodes: [] } }))).toEqual([
      "body.customerCodes",
    ]);
    expect(issuePaths(await api("POST", bulk, { body: { customerCodes: codes(1001) } }))).toEqual([
      "body.customerCodes",
    ]);
    const thousand = await api("POST", bulk, { body: { customerCodes: codes(1000) } });
    expect(thousand.status).toBe(201);
    expect(thousand.body.notFound).toHaveLength(1000);

    const prices = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ productCode: "P", minQuantity: i + 1, amount: 1 }));
    const upsert = `/v1/api/pricelist/${pl.id}/prices`;
    expect(issuePaths(await api("PUT", upsert, { body: { prices: [] } }))).toEqual(["body.prices"]);
    expect(issuePaths(await api("PUT", upsert, { body: { prices: prices(1001) } }))).toEqual([
      "body.prices",
    ]);
  });
});

describe("hostile list queries on D1", () => {
  it("answers 1,000 filter.status=ACTIVE parameters correctly (no 100-parameter failure)", async () => {
    const active = await createTradeCondition({
      name: uid("TC"),
      scope: "GLOBAL",
      type: "DISCOUNT",
      discountType: "PERCENTAGE",
      value: 100,
      status: "ACTIVE",
    });
    const one = await api("GET", "/v1/api/trade-conditions?filter.status=ACTIVE&limit=100");
    const query = Array.from({ length: 1000 }, () => "filter.status=ACTIVE").join("&");
    const many = await api("GET", `/v1/api/trade-conditions?${query}&limit=100`);
    expect(many.status).toBe(200);
    expect(many.body.meta.totalItems).toBe(one.body.meta.totalItems);
    expect(many.body.data.map((t: any) => t.id)).toEqual(one.body.data.map((t: any) => t.id));
    expect(many.body.data.map((t: any) => t.id)).toContain(active.id);
    expect(many.body.meta.filter.status).toHaveLength(1000);
    // Contradicting enum filters AND to nothing; still no 500.
    const none = await api(
      "GET",
      `/v1/api/trade-conditions?${query}&${"filter.status=DRAFT&".repeat(500)}`,
    );
    expect(none.status).toBe(200);
    expect(none.body.meta.totalItems).toBe(0);
  });

  it("refuses more than 80 bound text filter values with 400, not a D1 error", async () => {
    const query = Array.from({ length: 81 }, (_, i) => `filter.keyName=k${i}`).join("&");
    expect(issuePaths(await api("GET", `/v1/api/audit?${query}`))).toEqual(["query.filter"]);
  });

  it("finds products and channels by a 100-character search term (no 50-byte LIKE limit)", async () => {
    const term = `${uid("T")}-50%_off\\${"ä".repeat(20)}`.padEnd(100, "z");
    expect([...term].length).toBe(100);
    const product = await createProduct({ name: `Product ${term} tail` });
    const channel = await createChannel({ name: `${term}!` });
    const products = await api(
      "GET",
      `/v1/api/product?searchBy=name&search=${encodeURIComponent(term)}`,
    );
    expect(products.status).toBe(200);
    expect(products.body.data.map((p: any) => p.code)).toEqual([product.code]);
    const upper = await api(
      "GET",
      `/v1/api/product?searchBy=name&search=${encodeURIComponent(term.replace(/[a-z]/g, (c) => c.toUpperCase()))}`,
    );
    expect(upper.body.data.map((p: any) => p.code)).toEqual([product.code]);
    const channels = await api("GET", `/v1/api/channel?search=${encodeURIComponent(term)}`);
    expect(channels.status).toBe(200);
    expect(channels.body.data.map((c: any) => c.code)).toEqual([channel.code]);
    // 101 characters: a 400 naming the parameter.
    const tooLong = await api("GET", `/v1/api/product?search=${"a".repeat(101)}`);
    expect(issuePaths(tooLong)).toEqual(["query.search"]);
  });
});

describe("security headers", () => {
  const base = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
  };

  it("on API answers, errors included: nosniff, no referrer, no framing, no-store", async () => {
    const product = await createProduct();
    const answers = [
      await api("GET", "/v1/api/product"),
      await api("GET", `/v1/api/product/${product.code}`),
      await api("POST", "/v1/api/product", { body: { code: uid("P"), name: "x" } }),
      await api("GET", "/v1/api/product", { key: null }),
      await api("POST", "/v1/api/product", { key: KEYS.read, body: {} }),
      await api("GET", "/v1/api/product/NOPE-NOT-HERE"),
      await api("DELETE", "/v1/api/product"),
      await api("GET", "/v1/api/nothing-here"),
      await api("POST", "/v1/api/prices/resolve", { key: KEYS.read, body: {} }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 201, 401, 403, 404, 405, 404, 400]);
    for (const res of answers) {
      for (const [name, value] of Object.entries(base)) expect(res.headers.get(name)).toBe(value);
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
  });

  it("leaves GET /v1/api/prices its own caching", async () => {
    const product = await createProduct();
    const channel = await createChannel({ name: "Cache" });
    const res = await api(
      "GET",
      `/v1/api/prices?channel=${channel.code}&currency=EUR&product=${product.code}`,
      { key: KEYS.read },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers.get("cache-control")).toMatch(/^private, max-age=\d+$/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("on public answers too; /ui keeps its own CSP and is not given x-frame-options", async () => {
    for (const path of ["/health", "/doc"]) {
      const res = await api("GET", path, { key: null });
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
    }
    const ui = await api("GET", "/ui", { key: null });
    expect(ui.status).toBe(200);
    expect(ui.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(ui.headers.get("x-frame-options")).toBeNull();
    expect(ui.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("documents x-d1-bookmark and the headers in /doc", async () => {
    const doc = (await api("GET", "/doc", { key: null })).body;
    expect(doc.info.description).toContain("`x-d1-bookmark`");
    expect(doc.info.description).toContain("`cache-control: no-store`");
  });
});

describe("CORS", () => {
  const ORIGINS = { CORS_ORIGINS: "https://backoffice.example, https://shop.example/" };

  it("is off unless configured: no CORS headers, preflight not answered", async () => {
    const get = await call("/v1/api/product", { headers: { origin: "https://shop.example" } });
    expect(get.status).toBe(200);
    expect(get.headers.get("access-control-allow-origin")).toBeNull();
    const preflight = await call("/v1/api/product", {
      method: "OPTIONS",
      key: null,
      headers: {
        origin: "https://shop.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "x-webhook-signature, content-type",
      },
    });
    // No API path takes OPTIONS: without CORS a preflight is a method the path does not allow.
    expect(preflight.status).toBe(405);
    expect(preflight.headers.get("allow")).toBe("GET, HEAD, POST, PUT");
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("answers listed origins only, preflight included", async () => {
    const listed = await call(
      "/v1/api/product",
      { headers: { origin: "https://shop.example" } },
      ORIGINS,
    );
    expect(listed.status).toBe(200);
    expect(listed.headers.get("access-control-allow-origin")).toBe("https://shop.example");
    expect(listed.headers.get("vary")).toContain("Origin");
    expect(listed.headers.get("access-control-expose-headers")).toContain("x-d1-bookmark");
    expect(listed.headers.get("access-control-expose-headers")).toContain("x-correlation-id");
    // A storefront's script must be able to see that a price was answered through a D1 stall.
    expect(listed.headers.get("access-control-expose-headers")).toContain("x-price-stale");

    const other = await call(
      "/v1/api/product",
      { headers: { origin: "https://evil.example" } },
      ORIGINS,
    );
    expect(other.status).toBe(200);
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    expect(other.headers.get("vary")).toContain("Origin");

    const preflight = (origin: string) =>
      call(
        "/v1/api/pricelist/1/prices",
        {
          method: "OPTIONS",
          key: null,
          headers: {
            origin,
            "access-control-request-method": "PUT",
            "access-control-request-headers": "x-webhook-signature, content-type",
          },
        },
        ORIGINS,
      );
    const ok = await preflight("https://backoffice.example");
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-origin")).toBe("https://backoffice.example");
    expect(ok.headers.get("access-control-allow-methods")).toContain("PUT");
    expect(ok.headers.get("access-control-allow-headers")).toContain("x-webhook-signature");
    expect(ok.headers.get("access-control-max-age")).toBe("600");
    const refused = await preflight("https://evil.example");
    expect(refused.status).toBe(405);
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();
    expect(refused.headers.get("access-control-allow-methods")).toBeNull();
    expect(refused.headers.get("vary")).toContain("Origin");
  });
});

describe("keys and bodies never reach the log", () => {
  const CONSOLE = ["log", "info", "warn", "error", "debug", "trace"] as const;

  it("logs nothing for ordinary answers, 4xx included", async () => {
    const spies = CONSOLE.map((m) => vi.spyOn(console, m).mockImplementation(() => {}));
    const product = await createProduct({ name: "secret-name-1" });
    await api("PATCH", `/v1/api/product/${product.code}`, { body: { name: "secret-name-2" } });
    await api("POST", "/v1/api/product", { body: { code: product.code, name: "dup" } });
    await api("POST", "/v1/api/product", { body: { code: "bad code", name: 1 } });
    await api("GET", "/v1/api/product", { key: "a-wrong-key-secret" });
    await api("POST", "/v1/api/product", { key: KEYS.read, body: {} });
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });

  it("logs a 500's cause without the key, the body or the bound values", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    // A D1 whose writes fail: the error Drizzle raises carries the bound parameters.
    const failing = {
      withSession: () => {
        const session = env.DB.withSession("first-primary");
        return {
          prepare: (q: string) => session.prepare(q),
          batch: async () => {
            throw new Error("D1_ERROR: disk I/O error");
          },
          getBookmark: () => null,
        };
      },
    };
    const code = "SECRET-CODE-4711";
    const res = await call(
      "/v1/api/product",
      { method: "POST", body: JSON.stringify({ code, name: "Secret Name 4711" }) },
      { DB: failing },
    );
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain("D1_ERROR");
    expect(text).not.toContain("insert");
    expect(error).toHaveBeenCalledTimes(1);
    const logged = String(error.mock.calls[0]![0]);
    expect(logged).toContain("Failed query: insert into");
    expect(logged).toContain("D1_ERROR: disk I/O error");
    expect(JSON.parse(logged)).toMatchObject({
      requestId: res.headers.get("x-request-id"),
      keyName: `admin-${ADMIN_SHA.slice(0, 8)}`,
      error: {
        message: expect.stringMatching(/^Failed query: insert into/),
        cause: { message: "D1_ERROR: disk I/O error" },
      },
    });
    for (const secret of [code, "Secret Name 4711", KEYS.admin, ADMIN_SHA]) {
      expect(logged).not.toContain(secret);
    }
  });
});

/** The GETs only admin keys may make: the audit trail, the pricing lint, webhooks, change requests. */
const ADMIN_READS = [
  "/v1/api/audit",
  "/v1/api/pricing/lint",
  "/v1/api/webhooks",
  "/v1/api/webhooks/{id}",
  "/v1/api/webhooks/{id}/deliveries",
  "/v1/api/change-requests",
  "/v1/api/change-requests/policy",
  "/v1/api/change-requests/{id}",
  "/v1/api/quotes/policy",
];

describe("the read role reaches no write", () => {
  const sample: Record<string, string> = { code: "ANY-CODE", id: "1" };

  it("gets 403 problem+json on every non-GET operation of /doc but the price lookup", async () => {
    const doc = (await api("GET", "/doc", { key: null })).body;
    const before = (await api("GET", "/v1/api/audit?limit=1")).body.meta.totalItems;
    const writes: string[] = [];
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const method of Object.keys(item)) {
        if (!["post", "put", "patch", "delete"].includes(method)) continue;
        if (method === "post" && path === "/v1/api/prices/resolve") continue;
        // A read-only POST for admins: its own 403 below.
        if (method === "post" && path === "/v1/api/simulations/prices") continue;
        // The buyer's answers to a quote (docs/quotes.md §1): test/quotes-lifecycle.test.ts.
        const roles: string[] | undefined = item[method]["x-roles"];
        if (roles?.includes("read")) continue;
        const url = path.replace(/\{(\w+)\}/g, (_, name: string) => sample[name] ?? "1");
        const res = await api(method.toUpperCase(), url, {
          key: KEYS.read,
          body: method === "delete" ? undefined : {},
        });
        const body = expectProblem(res, 403, "FORBIDDEN");
        expect(body.detail).toMatch(
          roles
            ? /^a read key cannot .+ quotes; use an admin or a sales key$/
            : /^a read key cannot make changes; use an admin key$/,
        );
        // /doc documents the 403 it answers.
        expect(Object.keys(item[method].responses)).toContain("403");
        writes.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(writes.length).toBeGreaterThanOrEqual(39);
    // Nothing was written.
    expect((await api("GET", "/v1/api/audit?limit=1")).body.meta.totalItems).toBe(before);
  });

  it("a sales key gets 403 on every non-GET operation of /doc but the quotes' it is named for", async () => {
    const doc = (await api("GET", "/doc", { key: null })).body;
    const allowed: string[] = [];
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const method of Object.keys(item)) {
        if (!["post", "put", "patch", "delete"].includes(method)) continue;
        if (method === "post" && path === "/v1/api/prices/resolve") continue;
        if ((item[method]["x-roles"] ?? []).includes("sales")) {
          allowed.push(`${method.toUpperCase()} ${path}`);
          continue;
        }
        const url = path.replace(/\{(\w+)\}/g, (_, name: string) => sample[name] ?? "1");
        const res = await api(method.toUpperCase(), url, {
          key: SALES_KEYS["rep-1"],
          body: method === "delete" ? undefined : {},
        });
        expectProblem(res, 403, "FORBIDDEN");
      }
    }
    expect(allowed.sort()).toEqual([
      "PATCH /v1/api/quotes/{id}",
      "POST /v1/api/quotes",
      "POST /v1/api/quotes/{id}/approve",
      "POST /v1/api/quotes/{id}/reject",
      "POST /v1/api/quotes/{id}/send",
      "POST /v1/api/quotes/{id}/submit",
      "POST /v1/api/quotes/{id}/withdraw",
    ]);
  });

  it("may make every GET of /doc but the audit trail, the lint and the webhooks, and the price lookup", async () => {
    const doc = (await api("GET", "/doc", { key: null })).body;
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      if (!item.get) continue;
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) => sample[name] ?? "1");
      const res = await api("GET", url, { key: KEYS.read });
      if (ADMIN_READS.includes(path)) expectProblem(res, 403, "FORBIDDEN");
      else expect([200, 400, 404], `${path} ${res.status}`).toContain(res.status);
    }
    const lookup = await api("POST", "/v1/api/prices/resolve", { key: KEYS.read, body: {} });
    expect(lookup.status).toBe(400);
    const simulation = await api("POST", "/v1/api/simulations/prices", {
      key: KEYS.read,
      body: {},
    });
    expect(expectProblem(simulation, 403, "FORBIDDEN").detail).toBe(
      "a read key cannot simulate price changes; use an admin key",
    );
  });
});
