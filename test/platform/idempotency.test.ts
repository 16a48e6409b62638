import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ABANDONED_AFTER_MS, decide, IDEMPOTENCY_TTL_MS } from "../../src/db/idempotency";
import { createChannel, createProduct, tradeConditionBody } from "../factories";
import { api, expectProblem, uid } from "../shared/helpers";

/** Idempotent retries of writes (docs/api/resources.md §4.4). */

const KEY_HEADER = "Idempotency-Key";

const createCondition = (key: string | undefined, body = tradeConditionBody({ name: uid("TC") })) =>
  api("POST", "/v1/api/trade-conditions", {
    body,
    headers: key === undefined ? {} : { [KEY_HEADER]: key },
  });

const conditionsNamed = async (name: string) =>
  (await env.DB.prepare("select count(*) as n from trade_conditions where name = ?")
    .bind(name)
    .first<{ n: number }>())!.n;

const storedKey = (key: string) =>
  env.DB.prepare("select * from idempotency_keys where idempotency_key = ?")
    .bind(key)
    .first<Record<string, unknown>>();

describe("Idempotency-Key on writes", () => {
  it("without a key, a retried create writes twice (why the header exists)", async () => {
    const body = tradeConditionBody({ name: uid("TC") });
    expect((await createCondition(undefined, body)).status).toBe(201);
    expect((await createCondition(undefined, body)).status).toBe(201);
    expect(await conditionsNamed(body.name)).toBe(2);
  });

  it("a retried create with the same key answers the first answer again and writes once", async () => {
    const key = crypto.randomUUID();
    const body = tradeConditionBody({ name: uid("TC") });
    const first = await createCondition(key, body);
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const retry = await createCondition(key, body);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await conditionsNamed(body.name)).toBe(1);
    expect(await storedKey(key)).toMatchObject({ state: "DONE", status: 201 });
    expect((await storedKey(key))!.key_name).toMatch(/^admin/);
  });

  it("20 concurrent requests with one key: one write, twenty identical answers", async () => {
    const key = crypto.randomUUID();
    const body = tradeConditionBody({ name: uid("TC") });
    const answers = await Promise.all(Array.from({ length: 20 }, () => createCondition(key, body)));
    for (const answer of answers) {
      if (answer.status !== 201) expectProblem(answer, 409, "IDEMPOTENCY_KEY_IN_USE");
    }
    const ids = new Set(answers.filter((a) => a.status === 201).map((a) => a.body.id));
    expect(ids.size).toBe(1);
    expect(await conditionsNamed(body.name)).toBe(1);
    // Every one of them got the answer (they wait for the first rather than fail).
    expect(answers.filter((a) => a.status === 201)).toHaveLength(20);
  });

  it("the same key with another body is refused and writes nothing", async () => {
    const key = crypto.randomUUID();
    expect((await createCondition(key)).status).toBe(201);
    const other = tradeConditionBody({ name: uid("TC") });
    const res = await createCondition(key, other);
    const problem = expectProblem(res, 409, "IDEMPOTENCY_KEY_REUSED");
    expect(problem.detail).toContain("was used for a different request");
    expect(await conditionsNamed(other.name)).toBe(0);
  });

  it("the same key on another path is another request", async () => {
    const key = crypto.randomUUID();
    expect((await createCondition(key)).status).toBe(201);
    const res = await api("POST", "/v1/api/product", {
      body: { code: uid("P"), name: "Product" },
      headers: { [KEY_HEADER]: key },
    });
    expectProblem(res, 409, "IDEMPOTENCY_KEY_REUSED");
  });

  it("a refused write frees its key: the corrected request may use it", async () => {
    const key = crypto.randomUUID();
    const bad = await createCondition(key, tradeConditionBody({ value: 0 }));
    expectProblem(bad, 400, "VALIDATION_FAILED");
    expect(await storedKey(key)).toBeNull();
    const good = await createCondition(key);
    expect(good.status).toBe(201);
  });

  // A PATCH or DELETE of a record that is not there writes a batch that changes no row, then
  // answers 404: nothing was written, so the key is free (docs/api/resources.md §4.4).
  it.each([
    ["PATCH", "/v1/api/channel/NO-SUCH", { name: "x" }],
    ["DELETE", "/v1/api/channel/NO-SUCH"],
    ["PATCH", "/v1/api/customer/NO-SUCH", { name: "x" }],
    ["DELETE", "/v1/api/customer/NO-SUCH"],
    ["PATCH", "/v1/api/customer-group/NO-SUCH", { name: "x" }],
    ["DELETE", "/v1/api/customer-group/NO-SUCH"],
    ["PATCH", "/v1/api/brand/NO-SUCH", { name: "x" }],
    ["DELETE", "/v1/api/product/NO-SUCH"],
    ["DELETE", "/v1/api/product-group/NO-SUCH"],
    ["PATCH", "/v1/api/webhooks/999999", { active: false }],
    ["DELETE", "/v1/api/webhooks/999999"],
    ["DELETE", "/v1/api/pricelist/individual/999999"],
    ["DELETE", "/v1/api/exchange-rates/EUR/USD/2020-01-01T00:00:00Z"],
  ] as const)(
    "a 404 of %s %s frees its key: nothing stored, a retry runs again",
    async (method, path, body?) => {
      const key = crypto.randomUUID();
      const send = () => api(method, path, { body, headers: { [KEY_HEADER]: key } });
      expectProblem(await send(), 404, "NOT_FOUND");
      expect(await storedKey(key)).toBeNull();
      const again = await send();
      expectProblem(again, 404, "NOT_FOUND");
      expect(again.headers.get("idempotent-replayed")).toBeNull();
    },
  );

  it("after a 404 the corrected request may use the key, and its answer is kept", async () => {
    const channel = await createChannel();
    const key = crypto.randomUUID();
    const patch = (code: string) =>
      api("PATCH", `/v1/api/channel/${code}`, {
        body: { name: "Renamed" },
        headers: { [KEY_HEADER]: key },
      });
    expectProblem(await patch("NO-SUCH"), 404, "NOT_FOUND");
    const corrected = await patch(channel.code);
    expect(corrected.status).toBe(200);
    expect(corrected.body).toMatchObject({ code: channel.code, name: "Renamed" });
    const retried = await patch(channel.code);
    expect(retried.headers.get("idempotent-replayed")).toBe("true");
    expect(retried.body).toEqual(corrected.body);
  });

  it("replays a 204 and the bulk answers too", async () => {
    const product = await createProduct();
    const key = crypto.randomUUID();
    const del = () =>
      api("DELETE", `/v1/api/product/${product.code}`, { headers: { [KEY_HEADER]: key } });
    expect((await del()).status).toBe(204);
    const again = await del();
    expect(again.status).toBe(204);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
  });

  it("refuses a malformed key with a sentence about the header", async () => {
    const res = await createCondition("x".repeat(256));
    const problem = expectProblem(res, 400, "VALIDATION_FAILED");
    expect(problem.errors).toEqual([
      {
        path: "header.Idempotency-Key",
        message: "must be 1-255 visible ASCII characters (a UUID is a good choice)",
      },
    ]);
  });

  it("ignores the header on reads, also on the read-only price lookup", async () => {
    const key = crypto.randomUUID();
    const res = await api("POST", "/v1/api/prices/resolve", {
      body: { channelCode: "NOPE", lines: [{ productCode: "X", quantity: 1 }] },
      headers: { [KEY_HEADER]: key },
    });
    expect(res.status).toBe(404);
    expect(await storedKey(key)).toBeNull();
  });

  it("a key older than 24 hours is forgotten: the request runs again", async () => {
    const key = crypto.randomUUID();
    const body = tradeConditionBody({ name: uid("TC") });
    expect((await createCondition(key, body)).status).toBe(201);
    const old = Date.now() - IDEMPOTENCY_TTL_MS - 1000;
    await env.DB.prepare(
      "update idempotency_keys set created_at = ?, updated_at = ? where idempotency_key = ?",
    )
      .bind(old, old, key)
      .run();
    const again = await createCondition(key, body);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBeNull();
    expect(await conditionsNamed(body.name)).toBe(2);
  });

  it("a claim abandoned before any write is taken over; a write whose answer was lost is not repeated", async () => {
    const abandoned = crypto.randomUUID();
    const lost = crypto.randomUUID();
    const body = tradeConditionBody({ name: uid("TC") });
    // Fingerprints as the service computes them: take them from real claims.
    expect((await createCondition(abandoned, body)).status).toBe(201);
    expect((await createCondition(lost, body)).status).toBe(201);
    const stale = Date.now() - ABANDONED_AFTER_MS - 1000;
    for (const [key, state] of [
      [abandoned, "PENDING"],
      [lost, "COMMITTED"],
    ]) {
      await env.DB.prepare(
        "update idempotency_keys set state = ?, status = null, body = null, updated_at = ? where idempotency_key = ?",
      )
        .bind(state, stale, key)
        .run();
    }
    const takenOver = await createCondition(abandoned, body);
    expect(takenOver.status).toBe(201);
    expect(takenOver.headers.get("idempotent-replayed")).toBeNull();
    const refused = await createCondition(lost, body);
    const problem = expectProblem(refused, 409, "IDEMPOTENCY_ANSWER_LOST");
    expect(problem.detail).toContain("was carried out");
    expect(await conditionsNamed(body.name)).toBe(3);
  });
});

describe("decide (pure)", () => {
  const row = {
    keyName: "admin",
    idempotencyKey: "k",
    fingerprint: "f",
    requestId: "r",
    state: "PENDING" as const,
    status: null,
    contentType: null,
    body: null,
    createdAt: 1_000_000,
    updatedAt: 1_000_000,
  };
  it.each([
    ["another fingerprint → reused", row, "g", 1_000_001, "reused"],
    ["a stored answer → replay", { ...row, state: "DONE" as const }, "f", 1_000_001, "replay"],
    ["a fresh claim → wait", row, "f", 1_000_001, "wait"],
    ["a fresh commit → wait", { ...row, state: "COMMITTED" as const }, "f", 1_000_001, "wait"],
    ["an abandoned claim → abandoned", row, "f", 1_000_000 + ABANDONED_AFTER_MS, "abandoned"],
    [
      "a lost answer → lost",
      { ...row, state: "COMMITTED" as const },
      "f",
      1_000_000 + ABANDONED_AFTER_MS,
      "lost",
    ],
    [
      "an expired key → expired",
      { ...row, state: "DONE" as const },
      "g",
      1_000_000 + IDEMPOTENCY_TTL_MS,
      "expired",
    ],
  ])("%s", (_name, stored, fingerprint, now, kind) => {
    expect(decide(stored, fingerprint, now).kind).toBe(kind);
  });
});
