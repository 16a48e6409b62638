import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { app } from "../../src/app";
import { clearContextCache } from "../../src/db/pricing/reader";
import { holdingD1 } from "../../src/db/holding";
import { stallPolicy } from "../../src/db/pricing/stall";
import {
  assignPricelistToChannel,
  createChannel,
  createCustomer,
  createPricelist,
  createProduct,
  setPrimaryPricelist,
} from "../factories";
import { api, KEYS, uid } from "../shared/helpers";

/**
 * Price lookups through a D1 stall (docs/api/prices.md §9.1). `D1_DELAY_MS=1000`
 * makes every round trip of a request wait a second (the remote-latency model of the bench);
 * `D1_STALL_MS=300` bounds the freshness check of a held context. Lookups go to the app with the
 * Worker's own bindings plus those variables and an execution context of their own, so the
 * background check can be waited for (`waitOnExecutionContext`); writes go through the Worker's
 * entrypoint, without delay.
 */

const AT = "2025-06-15T10:00:00.000Z";
const window = { validFrom: "2025-01-01", validTo: "2026-01-01" };
const STALLED = { D1_DELAY_MS: "1000", D1_STALL_MS: "300" };
/** Two owners' admin keys of vitest.config.ts: one writes a change request, the other approves. */
const ALICE = "test-alice-key-2026";
const BOB = "test-bob-key";

interface Sent {
  status: number;
  body: any;
  headers: Headers;
  ms: number;
  /** Resolves once the request's waitUntil work is done. */
  settled: Promise<void>;
}

async function send(request: Request, vars: Record<string, string> = {}): Promise<Sent> {
  const ctx = createExecutionContext();
  const start = Date.now();
  const res = await app.fetch(request, { ...env, ...vars }, ctx);
  const text = await res.text();
  const ms = Date.now() - start;
  const body = text ? JSON.parse(text) : null;
  return {
    status: res.status,
    body,
    headers: res.headers,
    ms,
    settled: waitOnExecutionContext(ctx),
  };
}

const codes = { channel: "", other: "", customer: "", products: [] as string[] };
let listId = 0;

function lookupOf(key: string, options: { customer?: string; channel?: string } = {}) {
  const query = new URLSearchParams({
    channel: options.channel ?? codes.channel,
    product: codes.products.join(","),
    at: AT,
  });
  if (options.customer) query.set("customer", options.customer);
  return new Request(`http://pricing.test/v1/api/prices?${query}`, {
    headers: { "x-webhook-signature": key },
  });
}

function resolveOf(key: string) {
  return new Request("http://pricing.test/v1/api/prices/resolve", {
    method: "POST",
    headers: { "x-webhook-signature": key, "content-type": "application/json" },
    body: JSON.stringify({
      channelCode: codes.channel,
      at: AT,
      lines: codes.products.map((productCode) => ({ productCode, quantity: 2 })),
    }),
  });
}

const unitAmounts = (body: any) =>
  (body.lines as { finalUnitAmount: number | null }[]).map((line) => line.finalUnitAmount);

/** A stale answer (§9.1): 200 well under the modelled second, marked, no-store, the warm body. */
function expectMarkedStale(stale: Sent, warm: Sent) {
  expect(stale.status).toBe(200);
  expect(stale.ms).toBeLessThan(900);
  expect(stale.headers.get("x-price-stale")).toMatch(/^age=\d+$/);
  expect(stale.headers.get("cache-control")).toBe("no-store");
  // Its session's bookmark is not known until D1 answers, and it does not wait for one.
  expect(stale.headers.get("x-d1-bookmark")).toBeNull();
  expect(stale.body).toEqual(warm.body);
}

const ctxOf = (headers: Headers) =>
  /ctx;desc="(\w+)"/.exec(headers.get("server-timing") ?? "")?.[1];

async function ok(method: string, path: string, body?: unknown) {
  const res = await api(method, path, { body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${JSON.stringify(res.body)}`);
  return res.body;
}

beforeAll(async () => {
  clearContextCache();
  codes.products = [(await createProduct()).code, (await createProduct()).code];
  codes.channel = (await createChannel()).code;
  codes.other = (await createChannel()).code;
  codes.customer = (await createCustomer({ channelCodes: [codes.channel] })).code;
  const list = await createPricelist({ ...window, status: "ACTIVE" });
  listId = list.id;
  await ok("PUT", `/v1/api/pricelist/${listId}/prices`, {
    prices: codes.products.map((productCode, i) => ({ productCode, amount: 1000 * (i + 1) })),
  });
  await setPrimaryPricelist(codes.channel, listId);
  await assignPricelistToChannel(codes.other, listId);
  await setPrimaryPricelist(codes.other, listId);
  // A COST list: an admin's answer carries costs, a read key's never (docs/api/access.md §18).
  const cost = await createPricelist({ ...window, status: "ACTIVE", kind: "COST" });
  await ok("PUT", `/v1/api/pricelist/${cost.id}/prices`, {
    prices: codes.products.map((productCode) => ({ productCode, amount: 400 })),
  });
  await assignPricelistToChannel(codes.channel, cost.id);
});

describe("D1_STALL_MS and D1_STALE_MAX_S", () => {
  it("read whole numbers in range; anything else is the default, and D1_STALE_MAX_S=0 is off", () => {
    const none = () => undefined;
    expect(stallPolicy({}, none)).toMatchObject({ stallMs: 2000, staleMaxS: 60 });
    expect(stallPolicy({ D1_STALL_MS: "300", D1_STALE_MAX_S: "5" }, none)).toMatchObject({
      stallMs: 300,
      staleMaxS: 5,
    });
    for (const bad of ["", "0", "-1", "2.5", "abc", "60001"]) {
      expect(stallPolicy({ D1_STALL_MS: bad }, none)?.stallMs).toBe(2000);
    }
    for (const bad of ["-1", "1.5", "x", "3601"]) {
      expect(stallPolicy({ D1_STALE_MAX_S: bad }, none)?.staleMaxS).toBe(60);
    }
    expect(stallPolicy({ D1_STALE_MAX_S: "0" }, none)).toBeUndefined();
  });

  it("bounds the check by D1_BUSY_STALL_MS (20 ms by default) while the isolate holds D1, never above D1_STALL_MS", () => {
    const none = () => undefined;
    expect(stallPolicy({}, none)?.busyStallMs).toBe(20);
    expect(stallPolicy({ D1_BUSY_STALL_MS: "150" }, none)?.busyStallMs).toBe(150);
    expect(stallPolicy({ D1_STALL_MS: "300", D1_BUSY_STALL_MS: "500" }, none)?.busyStallMs).toBe(
      300,
    );
    for (const bad of ["", "0", "2.5", "x", "60001"]) {
      expect(stallPolicy({ D1_BUSY_STALL_MS: bad }, none)?.busyStallMs).toBe(20);
    }
  });
});

describe("a price lookup through a D1 stall", () => {
  it("answers a warm lookup from the isolate well under a second, marked stale and kept by no cache", async () => {
    const warm = await send(lookupOf(KEYS.read));
    expect(warm.status).toBe(200);
    expect(warm.headers.get("x-price-stale")).toBeNull();
    expect(warm.headers.get("etag")).not.toBeNull();

    const stale = await send(lookupOf(KEYS.read), STALLED);
    expectMarkedStale(stale, warm);
    expect(stale.headers.get("etag")).toBeNull();
    expect(ctxOf(stale.headers)).toBe("stale");
    await stale.settled;
  });

  it("refreshes the caches with the late answer: the next lookup sees a write made meanwhile in one round trip", async () => {
    await send(lookupOf(KEYS.read));
    const before = unitAmounts((await send(lookupOf(KEYS.read))).body);
    await ok("PUT", `/v1/api/pricelist/${listId}/prices`, {
      prices: [{ productCode: codes.products[0], amount: 1234 }],
    });
    const stale = await send(lookupOf(KEYS.read), STALLED);
    expect(stale.headers.get("x-price-stale")).toMatch(/^age=\d+$/);
    // The price the isolate held: the write is not seen yet, and the answer says so.
    expect(unitAmounts(stale.body)).toEqual(before);
    await stale.settled;
    // The check went on after the answer and read the new version: the cache is warm with it.
    const after = await send(lookupOf(KEYS.read));
    expect(after.headers.get("x-price-stale")).toBeNull();
    expect(unitAmounts(after.body)[0]).toBe(1234);
    expect(after.headers.get("server-timing")).toMatch(/^db;desc="1 query".*ctx;desc="hit"/);
  });

  it("answers the cart POST the same way", async () => {
    const warm = await send(resolveOf(KEYS.read));
    const stale = await send(resolveOf(KEYS.read), STALLED);
    expectMarkedStale(stale, warm);
    await stale.settled;
  });

  it("gives a read key its own answer, without cost, and an admin key its own, with it", async () => {
    const read = await send(lookupOf(KEYS.read));
    const admin = await send(lookupOf(KEYS.admin));
    const staleRead = await send(lookupOf(KEYS.read), STALLED);
    const staleAdmin = await send(lookupOf(KEYS.admin), STALLED);
    expect(staleRead.body).toEqual(read.body);
    expect(staleAdmin.body).toEqual(admin.body);
    expect(JSON.stringify(staleRead.body)).not.toMatch(/cost|margin|pocket|accru/i);
    expect(staleAdmin.body.lines[0].costUnitAmount).toBe(400);
    // The mark is the data's age alone, the same whoever asks.
    expect(staleRead.headers.get("x-price-stale")).toMatch(/^age=\d+$/);
    expect(staleAdmin.headers.get("x-price-stale")).toMatch(/^age=\d+$/);
    await Promise.all([staleRead.settled, staleAdmin.settled]);
  });

  it("answers 503 DATABASE_STALLED with Retry-After when the held data is older than D1_STALE_MAX_S", async () => {
    await send(lookupOf(KEYS.read));
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const refused = await send(lookupOf(KEYS.read), { ...STALLED, D1_STALE_MAX_S: "1" });
    expect(refused.status).toBe(503);
    expect(refused.ms).toBeLessThan(900);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(refused.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(refused.body).toMatchObject({ code: "DATABASE_STALLED", status: 503 });
    expect(refused.body.detail).toBe(
      "the database did not answer within 300 ms and the prices this server holds were last " +
        "confirmed more than 1 seconds ago; retry after 5 seconds",
    );
    await refused.settled;
    // The late check confirmed the data again, as of when it was sent (a second ago, before the
    // modelled delay): with a bound of 5 s the next stall answers stale, about a second old.
    const stale = await send(lookupOf(KEYS.read), { ...STALLED, D1_STALE_MAX_S: "5" });
    expect(stale.status).toBe(200);
    expect(stale.headers.get("x-price-stale")).toMatch(/^age=[12]$/);
    await stale.settled;
  });

  it("waits as today for a lookup whose context the isolate does not hold", async () => {
    clearContextCache();
    const cold = await send(lookupOf(KEYS.read, { channel: codes.other }), STALLED);
    expect(cold.status).toBe(200);
    expect(cold.ms).toBeGreaterThanOrEqual(990);
    expect(cold.headers.get("x-price-stale")).toBeNull();
    expect(cold.headers.get("etag")).not.toBeNull();
    // The channel's context is held now, the customer's is not: still no stale answer.
    await send(lookupOf(KEYS.read));
    const customer = await send(lookupOf(KEYS.read, { customer: codes.customer }), STALLED);
    expect(customer.status).toBe(200);
    expect(customer.ms).toBeGreaterThanOrEqual(990);
    expect(customer.headers.get("x-price-stale")).toBeNull();
    // A product the isolate never priced is not held either.
    const product = (await createProduct()).code;
    const query = new URLSearchParams({ channel: codes.channel, product, at: AT });
    const unheld = await send(
      new Request(`http://pricing.test/v1/api/prices?${query}`, {
        headers: { "x-webhook-signature": KEYS.read },
      }),
      STALLED,
    );
    expect(unheld.ms).toBeGreaterThanOrEqual(990);
    expect(unheld.headers.get("x-price-stale")).toBeNull();
  });

  it("never answers a write early: it waits for D1 and commits", async () => {
    const code = uid("STALL");
    const write = await send(
      new Request("http://pricing.test/v1/api/product", {
        method: "POST",
        headers: { "x-webhook-signature": KEYS.admin, "content-type": "application/json" },
        body: JSON.stringify({ code, name: "Written through a stall" }),
      }),
      STALLED,
    );
    expect(write.status).toBe(201);
    expect(write.ms).toBeGreaterThanOrEqual(990);
    expect(write.headers.get("x-price-stale")).toBeNull();
    expect((await api("GET", `/v1/api/product/${code}`)).body.name).toBe("Written through a stall");
    await write.settled;
  });

  it("waits at most D1_BUSY_STALL_MS while this isolate approves a change request, and D1_STALL_MS again after", async () => {
    const list = (await createPricelist({ status: "ACTIVE" })).id as number;
    const product = (await createProduct()).code as string;
    const base = "/v1/api/change-requests";
    const created = await api("POST", base, {
      key: ALICE,
      body: {
        title: "approved beside a lookup",
        effectiveAt: "2027-01-01T00:00:00Z",
        items: [
          { kind: "SET_PRICES", pricelistId: list, rows: [{ productCode: product, amount: 100 }] },
        ],
      },
    });
    const { id } = created.body;
    const submitted = await api("POST", `${base}/${id}/submit`, { key: ALICE });
    expect(submitted.body).toMatchObject({ status: "PENDING_APPROVAL" });
    const warm = await send(lookupOf(KEYS.read));

    // The approve's round trips each wait 400 ms: it holds D1 for seconds.
    const approving = send(
      new Request(`http://pricing.test${base}/${id}/approve`, {
        method: "POST",
        headers: { "x-webhook-signature": BOB },
      }),
      { D1_DELAY_MS: "400" },
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const busy = { D1_DELAY_MS: "1000", D1_BUSY_STALL_MS: "100" };
    const beside = await send(lookupOf(KEYS.read), busy);
    expectMarkedStale(beside, warm);

    const approved = await approving;
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body).toMatchObject({ id, status: "APPLIED", approvedBy: "bob" });
    await Promise.all([beside.settled, approved.settled]);
    // Nothing of this isolate holds D1 now (a first lookup reads the approve's new version): the
    // same bounds wait the whole second, unmarked.
    await send(lookupOf(KEYS.read));
    const after = await send(lookupOf(KEYS.read), busy);
    expect(after.ms).toBeGreaterThanOrEqual(990);
    expect(after.headers.get("x-price-stale")).toBeNull();
  }, 30_000);

  it("shortens the wait of a lookup already waiting when long D1 work starts", async () => {
    const warm = await send(lookupOf(KEYS.read));
    const busy = { D1_DELAY_MS: "1000", D1_BUSY_STALL_MS: "100" };
    const waiting = send(lookupOf(KEYS.read), busy);
    await new Promise((resolve) => setTimeout(resolve, 200));
    let release = () => {};
    const held = holdingD1(() => new Promise<void>((resolve) => (release = resolve)));
    const beside = await waiting;
    release();
    await held;
    // Answered once the work had started (200 ms in), not at D1_STALL_MS (2 s) nor before.
    expect(beside.ms).toBeGreaterThanOrEqual(190);
    expect(beside.ms).toBeLessThan(900);
    expect(beside.headers.get("x-price-stale")).toMatch(/^age=\d+$/);
    expect(beside.body).toEqual(warm.body);
    await beside.settled;
  });

  it("waits as today when D1_STALE_MAX_S is 0", async () => {
    await send(lookupOf(KEYS.read));
    const off = await send(lookupOf(KEYS.read), { ...STALLED, D1_STALE_MAX_S: "0" });
    expect(off.status).toBe(200);
    expect(off.ms).toBeGreaterThanOrEqual(990);
    expect(off.headers.get("x-price-stale")).toBeNull();
  });
});
