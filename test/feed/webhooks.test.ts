import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import { CHANGE_EVENTS } from "../../src/pricing/vocabulary";
import { MAX_WEBHOOKS } from "../../src/resources/webhooks/webhooks.schemas";
import { createProduct } from "../factories";
import { call } from "../fuzz/worker";
import { api, created, expectProblem, issuePaths, KEYS, uid } from "../shared/helpers";
import { head, RECEIVER, receivedAt, signedBy, sleep } from "../shared/webhook-helpers";

/**
 * The webhooks resource (docs/api/feed-and-webhooks.md §14) and the queue consumer driven message
 * by message (createMessageBatch / getQueueResult): retries with backoff, the pause after 16
 * failures, the dead-letter queue, URL safety at save and at delivery, kept answers, signatures.
 */

const ALL = [...CHANGE_EVENTS];

afterEach(() => {
  vi.restoreAllMocks();
});

/** DNS over HTTPS answered by the test: `addresses[host]` (a throw for "fail"). */
function fakeDns(addresses: Record<string, string[] | "fail">) {
  const real = globalThis.fetch;
  return vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.hostname !== "cloudflare-dns.com") return real(input, init);
    const host = url.searchParams.get("name")!;
    const answer = addresses[host] ?? [];
    if (answer === "fail") throw new Error("network down");
    const type = url.searchParams.get("type") === "A" ? 1 : 28;
    const data = answer.filter((a) => (type === 1) === !a.includes(":"));
    return Response.json({ Status: 0, Answer: data.map((d) => ({ type, data: d })) });
  });
}

/**
 * A webhook that receives nothing until it is switched on behind the API's back, after a write:
 * the queue's own consumer has no message for it, so the test's messages drive it alone.
 */
async function quietWebhook(url: string, events = ALL) {
  const hook = await created("/v1/api/webhooks", { url, events, active: false });
  await createProduct();
  // The product's change: the first one the webhook gets (its own creation is no pricing data).
  const firstChange = await head();
  // The write's message reaches the consumer within its 1 s batch timeout; the webhook is off.
  await sleep(2500);
  await env.DB.prepare("update webhooks set active = 1 where id = ?").bind(hook.id).run();
  return { ...hook, firstChange };
}

/**
 * One `deliver` message for the webhook through the Worker's queue handler; `retriedWith`: the
 * options of its retry() (the pool's result leaves the delay out).
 */
async function deliverMessage(webhookId: number, attempts = 1, queue = "pricing-webhooks") {
  const batch = createMessageBatch(queue, [
    { id: `m-${uid("m")}`, timestamp: new Date(), attempts, body: { type: "deliver", webhookId } },
  ]);
  const retry = vi.spyOn(batch.messages[0]!, "retry");
  const ctx = createExecutionContext();
  await worker.queue(batch as never, env);
  const result = await getQueueResult(batch, ctx);
  return { ...result, retriedWith: retry.mock.calls.map((args) => args[0]) };
}

const webhook = async (id: number) => (await api("GET", `/v1/api/webhooks/${id}`)).body;
const attemptsOf = async (id: number) =>
  (await api("GET", `/v1/api/webhooks/${id}/deliveries`)).body.data as Record<string, unknown>[];

describe("the webhooks resource", () => {
  it("creates a webhook, shows its secret once, and starts it at the newest change", async () => {
    await createProduct();
    const newest = await head();
    const res = await api("POST", "/v1/api/webhooks", {
      body: { url: `${RECEIVER}/hooks/a`, events: ["pricelists", "prices", "prices"] },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      url: `${RECEIVER}/hooks/a`,
      events: ["prices", "pricelists"],
      active: true,
      cursor: newest,
      failures: 0,
      nextAttemptAt: null,
      pausedAt: null,
      lastError: null,
      lastDeliveredAt: null,
      previousSecretExpiresAt: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      secret: expect.stringMatching(/^whsec_[0-9a-f]{64}$/),
    });
    const { secret, ...shown } = res.body;
    expect(secret).toBeDefined();
    expect(await webhook(res.body.id)).toEqual(shown);
    const list = await api("GET", "/v1/api/webhooks?limit=100");
    expect(list.body.data.filter((w: { id: number }) => w.id === res.body.id)).toEqual([shown]);
    // Nothing in the audit trail copies it.
    const copies = await env.DB.prepare(
      "select count(*) as n from audit_log where instr(coalesce(after, '') || coalesce(before, ''), ?) > 0",
    )
      .bind(secret)
      .first<{ n: number }>();
    expect(copies!.n).toBe(0);
  });

  it("starts after a given cursor, but not before the oldest kept nor after the newest", async () => {
    await createProduct();
    const newest = await head();
    const from = await created("/v1/api/webhooks", {
      url: `${RECEIVER}/hooks/b`,
      events: ["products"],
      after: newest - 1,
    });
    expect(from.cursor).toBe(newest - 1);
    // Its creation is in the audit trail (§11), so the newest cursor moved on by one.
    const past = await api("POST", "/v1/api/webhooks", {
      body: { url: `${RECEIVER}/hooks/b`, events: ["products"], after: newest + 5 },
    });
    expect(issuePaths(past)).toEqual(["body.after"]);
    expect(past.body.errors[0].message).toBe(`is past the newest change (cursor ${newest + 1})`);
  });

  it("refuses bodies it cannot take with a sentence per field", async () => {
    const cases: [unknown, string, string][] = [
      [{ events: ["prices"] }, "body.url", "is required"],
      [{ url: `${RECEIVER}/x` }, "body.events", "is required"],
      [{ url: `${RECEIVER}/x`, events: [] }, "body.events", "must name at least one event"],
      [
        { url: `${RECEIVER}/x`, events: ["price"] },
        "body.events.0",
        `must be one of ${CHANGE_EVENTS.join(", ")}`,
      ],
      [
        { url: `${RECEIVER}/x`, events: ["prices"], active: "yes" },
        "body.active",
        "must be true or false",
      ],
      [
        { url: `${RECEIVER}/x`, events: ["prices"], secret: "mine" },
        "body.secret",
        "is not a known field",
      ],
    ];
    for (const [body, path, message] of cases) {
      const res = await api("POST", "/v1/api/webhooks", { body });
      expect(issuePaths(res), JSON.stringify(body)).toEqual([path]);
      expect(res.body.errors[0].message).toBe(message);
    }
  });

  it("refuses URLs that are not https or point to private or special-purpose addresses", async () => {
    const cases: [string, string][] = [
      ["not a url", "must be an absolute https URL"],
      ["ftp://hooks.example.com/x", "must be an absolute https URL"],
      [
        "http://hooks.example.com/x",
        "must use https (http only for hosts in WEBHOOK_ALLOWED_HOSTS)",
      ],
      ["https://user:pw@hooks.example.com/x", "must not carry a user name or password"],
      [
        "https://hooks.example.com:8443/x",
        "must use the https port 443 (no other port is reachable from Workers)",
      ],
      [
        "https://10.1.2.3/x",
        "must not point to a private or special-purpose address (10.1.2.3 is in 10.0.0.0/8, private use)",
      ],
      [
        "https://192.168.0.10/x",
        "must not point to a private or special-purpose address (192.168.0.10 is in 192.168.0.0/16, private use)",
      ],
      [
        "https://127.0.0.2/x",
        "must not point to a private or special-purpose address (127.0.0.2 is in 127.0.0.0/8, loopback)",
      ],
      [
        "https://169.254.169.254/latest",
        "must not point to a private or special-purpose address (169.254.169.254 is in 169.254.0.0/16, link-local)",
      ],
      [
        "https://0x7f.0.0.2/x",
        "must not point to a private or special-purpose address (127.0.0.2 is in 127.0.0.0/8, loopback)",
      ],
      [
        "https://[::1]/x",
        "must not point to a private or special-purpose address (::1 is in ::1/128, loopback)",
      ],
      [
        "https://[fe80::1]/x",
        "must not point to a private or special-purpose address (fe80::1 is in fe80::/10, link-local)",
      ],
      [
        "https://[fd12::1]/x",
        "must not point to a private or special-purpose address (fd12::1 is in fc00::/7, unique local)",
      ],
      [
        "https://[::ffff:10.0.0.1]/x",
        "must not point to a private or special-purpose address (::ffff:a00:1 is in ::ffff:0:0/96, IPv4-mapped)",
      ],
      ["https://localhost/x", "must not point to a local host name (localhost)"],
      ["https://db.internal/x", "must not point to a local host name (db.internal)"],
    ];
    for (const [url, message] of cases) {
      const res = await api("POST", "/v1/api/webhooks", { body: { url, events: ["prices"] } });
      expect(issuePaths(res), url).toEqual(["body.url"]);
      expect(res.body.errors[0].message, url).toBe(message);
    }
    expect(
      (await api("GET", "/v1/api/webhooks?limit=100")).body.data.map((w: { url: string }) => w.url),
    ).not.toContain("https://10.1.2.3/x");
  });

  it("asks DNS for host names: a name resolving to a private address is refused", async () => {
    fakeDns({
      "hooks.example.com": ["93.184.216.34", "2606:2800:220:1::1"],
      "sneaky.example.com": ["93.184.216.34", "10.9.8.7"],
      "gone.example.com": [],
      "flaky.example.com": "fail",
    });
    const ok = await api("POST", "/v1/api/webhooks", {
      body: { url: "https://hooks.example.com/prices", events: ["prices"] },
    });
    expect(ok.status).toBe(201);
    const refused: [string, string][] = [
      [
        "sneaky.example.com",
        "must not resolve to a private or special-purpose address (sneaky.example.com → 10.9.8.7 is in 10.0.0.0/8, private use)",
      ],
      ["gone.example.com", "host gone.example.com does not resolve to an address"],
      [
        "flaky.example.com",
        "host flaky.example.com could not be resolved (the DNS lookup failed); try again",
      ],
    ];
    for (const [host, message] of refused) {
      const res = await api("POST", "/v1/api/webhooks", {
        body: { url: `https://${host}/x`, events: ["prices"] },
      });
      expect(res.body.errors?.[0]?.message, host).toBe(message);
    }
  });

  it("changes, rotates and deletes a webhook; read keys and unknown ids are refused", async () => {
    const hook = await created("/v1/api/webhooks", {
      url: `${RECEIVER}/hooks/c`,
      events: ["prices"],
    });
    const patched = await api("PATCH", `/v1/api/webhooks/${hook.id}`, {
      body: { events: ["promotions", "tradeConditions"], active: false },
    });
    expect(patched.body).toMatchObject({
      events: ["tradeConditions", "promotions"],
      active: false,
    });
    expect(
      issuePaths(
        await api("PATCH", `/v1/api/webhooks/${hook.id}`, { body: { url: "http://example.com" } }),
      ),
    ).toEqual(["body.url"]);

    const rotated = await api("POST", `/v1/api/webhooks/${hook.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(hook.secret);
    const overlap = Date.parse(rotated.body.previousSecretExpiresAt) - Date.now();
    expect(overlap).toBeGreaterThan(23.9 * 3600_000);
    expect(overlap).toBeLessThanOrEqual(24 * 3600_000);
    expect((await webhook(hook.id)).secret).toBeUndefined();

    for (const [method, path] of [
      ["GET", "/v1/api/webhooks"],
      ["GET", `/v1/api/webhooks/${hook.id}`],
      ["GET", `/v1/api/webhooks/${hook.id}/deliveries`],
      ["POST", `/v1/api/webhooks/${hook.id}/rotate-secret`],
    ] as const) {
      expectProblem(await api(method, path, { key: KEYS.read }), 403, "FORBIDDEN");
    }
    expect((await api("DELETE", `/v1/api/webhooks/${hook.id}`)).status).toBe(204);
    for (const [method, path] of [
      ["GET", `/v1/api/webhooks/${hook.id}`],
      ["PATCH", `/v1/api/webhooks/${hook.id}`],
      ["DELETE", `/v1/api/webhooks/${hook.id}`],
      ["POST", `/v1/api/webhooks/${hook.id}/rotate-secret`],
      ["GET", `/v1/api/webhooks/${hook.id}/deliveries`],
    ] as const) {
      const res = await api(method, path, method === "PATCH" ? { body: { active: true } } : {});
      expect(expectProblem(res, 404, "NOT_FOUND").detail).toBe(`webhook ${hook.id} not found`);
    }
    expect(issuePaths(await api("GET", "/v1/api/webhooks/abc"))).toEqual(["path.id"]);
  });
});

describe("secrets are shown once", () => {
  /** The idempotency store's rows that hold `text` anywhere in their stored answer. */
  const storedWith = async (text: string) =>
    (await env.DB.prepare("select count(*) as n from idempotency_keys where instr(body, ?) > 0")
      .bind(text)
      .first<{ n: number }>())!.n;

  it("a replayed create or rotate answers the webhook with secret null, and the store never holds it", async () => {
    const body = { url: `${RECEIVER}/hooks/${uid("once")}`, events: ["prices"], active: false };
    const key = { "Idempotency-Key": uid("create") };
    const first = await api("POST", "/v1/api/webhooks", { body, headers: key });
    expect(first.status).toBe(201);
    expect(first.body.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    const replay = await api("POST", "/v1/api/webhooks", { body, headers: key });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual({ ...first.body, secret: null });
    expect(await storedWith(first.body.secret)).toBe(0);
    expect(await storedWith(`"id":${first.body.id},`)).toBe(1);
    // The replay wrote nothing: one webhook with that URL.
    const list = await api(
      "GET",
      `/v1/api/webhooks?limit=100&search=${encodeURIComponent(body.url)}`,
    );
    expect(list.body.data.map((w: { id: number }) => w.id)).toEqual([first.body.id]);

    const rotateKey = { "Idempotency-Key": uid("rotate") };
    const path = `/v1/api/webhooks/${first.body.id}/rotate-secret`;
    const rotated = await api("POST", path, { headers: rotateKey });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    const again = await api("POST", path, { headers: rotateKey });
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual({ ...rotated.body, secret: null });
    expect(await storedWith(rotated.body.secret)).toBe(0);
    // Rotated once, not twice: the first answer's secret is the one that signs.
    const row = await env.DB.prepare("select secret, previous_secret from webhooks where id = ?")
      .bind(first.body.id)
      .first<{ secret: string; previous_secret: string }>();
    expect(row).toEqual({ secret: rotated.body.secret, previous_secret: first.body.secret });
    // Without the header nothing is stored, and the secret is answered as before.
    expect((await api("POST", path)).body.secret).toMatch(/^whsec_/);
  });

  it("creation, change, rotation and deletion are in the audit trail, without the secret", async () => {
    const start = await head();
    const hook = await created("/v1/api/webhooks", {
      url: `${RECEIVER}/hooks/${uid("audited")}`,
      events: ["prices"],
      active: false,
    });
    await api("PATCH", `/v1/api/webhooks/${hook.id}`, { body: { events: ["prices", "products"] } });
    const { secret } = (await api("POST", `/v1/api/webhooks/${hook.id}/rotate-secret`)).body;
    expect((await api("DELETE", `/v1/api/webhooks/${hook.id}`)).status).toBe(204);

    const trail = await api(
      "GET",
      `/v1/api/audit?filter.entity=webhook&filter.entityId=${hook.id}&sortBy=id:ASC`,
    );
    expect(trail.status).toBe(200);
    const entries = trail.body.data as Record<string, any>[];
    expect(entries.map((e) => [e.operation, e.action, e.method])).toEqual([
      ["createWebhook", "INSERT", "POST"],
      ["updateWebhook", "UPDATE", "PATCH"],
      ["rotateWebhookSecret", "UPDATE", "POST"],
      ["deleteWebhook", "DELETE", "DELETE"],
    ]);
    // The admin key's name (the tests' key is named admin-<first 8 hex of its hash>).
    for (const e of entries) expect(e.keyName).toMatch(/^admin-[0-9a-f]{8}$/);
    expect(entries[0]!.after).toEqual({
      id: hook.id,
      url: hook.url,
      events: ["prices"],
      active: false,
      pausedAt: null,
      previousSecretExpiresAt: null,
      createdAt: hook.createdAt,
      updatedAt: hook.updatedAt,
    });
    expect(entries[1]!.before.events).toEqual(["prices"]);
    expect(entries[1]!.after.events).toEqual(["prices", "products"]);
    expect(Object.keys(entries[2]!.after).sort()).toEqual(["previousSecretExpiresAt", "updatedAt"]);
    expect(entries[3]!.before).toMatchObject({ id: hook.id, url: hook.url });
    // No secret, old or new, anywhere: not in the answer, not in the stored rows.
    for (const text of [hook.secret, secret]) {
      expect(JSON.stringify(trail.body)).not.toContain(text);
      const stored = await env.DB.prepare(
        `select count(*) as n from audit_log
         where instr(coalesce(before, '') || coalesce(after, '') || entity_key, ?) > 0`,
      )
        .bind(text)
        .first<{ n: number }>();
      expect(stored!.n).toBe(0);
    }
    expect(JSON.stringify(trail.body)).not.toMatch(/"(previousSecret|secret)"/);
    // Settings, not pricing data: the change feed leaves them out.
    const feed = await api("GET", `/v1/api/changes?after=${start}&limit=1000`);
    expect(feed.body.data.filter((c: { entity: string }) => c.entity === "webhook")).toEqual([]);
  });
});

describe("the number of webhooks", () => {
  it(`is at most ${MAX_WEBHOOKS} per deployment, paused ones included: 409 naming the limit`, async () => {
    const count = async () =>
      (await api("GET", "/v1/api/webhooks?limit=1")).body.meta.totalItems as number;
    const body = (n: number) => ({
      url: `${RECEIVER}/hooks/cap-${n}`,
      events: ["prices"],
      active: false,
    });
    const mine: number[] = [];
    for (let n = await count(); n < MAX_WEBHOOKS - 1; n++) {
      mine.push((await created("/v1/api/webhooks", body(n))).id);
    }
    // Three creates at once for the last place: one takes it, the others are refused.
    const racing = await Promise.all(
      [1, 2, 3].map((n) => api("POST", "/v1/api/webhooks", { body: body(100 + n) })),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    mine.push(racing.find((r) => r.status === 201)!.body.id);
    expect(await count()).toBe(MAX_WEBHOOKS);

    const refused = await api("POST", "/v1/api/webhooks", { body: body(200) });
    expect(expectProblem(refused, 409, "TOO_MANY_WEBHOOKS").detail).toBe(
      `this deployment has ${MAX_WEBHOOKS} webhooks, the most it may have; delete one before ` +
        "creating another (docs/operations.md, Webhooks)",
    );
    expect(await count()).toBe(MAX_WEBHOOKS);
    // A paused webhook still counts; deleting one frees its place.
    await api("PATCH", `/v1/api/webhooks/${mine[0]}`, { body: { active: false } });
    expect((await api("POST", "/v1/api/webhooks", { body: body(201) })).status).toBe(409);
    expect((await api("DELETE", `/v1/api/webhooks/${mine.shift()}`)).status).toBe(204);
    mine.push((await created("/v1/api/webhooks", body(202))).id);
    for (const id of mine) await api("DELETE", `/v1/api/webhooks/${id}`);
  });
});

describe("the queue consumer, message by message", () => {
  it(
    "a failing receiver: the queue retries the message with a doubling delay, 16 failures pause it, PATCH resumes",
    { timeout: 60_000 },
    async () => {
      const path = `/hooks/${uid("down")}`;
      const hook = await quietWebhook(`${RECEIVER}${path}?status=500`);

      const first = await deliverMessage(hook.id);
      expect(first.retriedWith).toEqual([{ delaySeconds: 1 }]);
      expect(await webhook(hook.id)).toMatchObject({
        failures: 1,
        active: true,
        nextAttemptAt: expect.any(String),
        lastError: "the receiver answered 500",
      });
      const second = await deliverMessage(hook.id, 2);
      expect(second.retriedWith).toEqual([{ delaySeconds: 2 }]);
      const attempts = await attemptsOf(hook.id);
      expect(attempts.map((a) => [a.attempt, a.outcome, a.status])).toEqual([
        [2, "FAILED", 500],
        [1, "FAILED", 500],
      ]);
      expect(attempts[0]!.deliveryId).toBe(attempts[1]!.deliveryId);

      // The 16th failure in a row pauses it; its message is done.
      await env.DB.prepare("update webhooks set failures = 15, retry_at = null where id = ?")
        .bind(hook.id)
        .run();
      const last = await deliverMessage(hook.id, 3);
      expect(last.retryMessages).toEqual([]);
      expect(last.explicitAcks).toHaveLength(1);
      const paused = await webhook(hook.id);
      expect(paused).toMatchObject({ active: false, failures: 16, pausedAt: expect.any(String) });
      // Paused: further messages change nothing.
      await deliverMessage(hook.id, 4);
      expect(await attemptsOf(hook.id)).toHaveLength(3);

      const fixed = `/hooks/${uid("up")}`;
      const resumed = await api("PATCH", `/v1/api/webhooks/${hook.id}`, {
        body: { url: `${RECEIVER}${fixed}`, active: true },
      });
      expect(resumed.body).toMatchObject({
        active: true,
        failures: 0,
        pausedAt: null,
        nextAttemptAt: null,
      });
      await deliverMessage(hook.id);
      const got = await receivedAt(fixed);
      expect(got.map((r) => r.answered)).toEqual([200]);
      expect(JSON.parse(got[0]!.body).changes[0].cursor).toBe(hook.firstChange);
    },
  );

  it("keeps only the first 1 KB of an answer", { timeout: 30_000 }, async () => {
    const hook = await quietWebhook(`${RECEIVER}/hooks/${uid("big")}?big=1`);
    await deliverMessage(hook.id);
    const [attempt] = await attemptsOf(hook.id);
    expect(attempt).toMatchObject({ outcome: "DELIVERED", status: 200, changes: 1 });
    expect(attempt!.responseBody).toBe("x".repeat(1024));
  });

  it(
    "re-checks the host before each delivery: one that now resolves privately is not sent to",
    { timeout: 30_000 },
    async () => {
      const hook = await quietWebhook(`${RECEIVER}/hooks/${uid("moved")}`);
      // Saved when its host was public (or so DNS said then); now it resolves privately.
      await env.DB.prepare("update webhooks set url = 'https://erp.example.com/hooks' where id = ?")
        .bind(hook.id)
        .run();
      fakeDns({ "erp.example.com": ["10.0.0.8"] });
      const result = await deliverMessage(hook.id);
      expect(result.retriedWith).toEqual([{ delaySeconds: 1 }]);
      const [attempt] = await attemptsOf(hook.id);
      expect(attempt).toMatchObject({
        outcome: "REFUSED",
        status: null,
        error:
          "not sent: the URL must not resolve to a private or special-purpose address (erp.example.com → 10.0.0.8 is in 10.0.0.0/8, private use)",
      });
    },
  );

  it(
    "signs with the new and the previous secret for a day after a rotation",
    { timeout: 30_000 },
    async () => {
      const path = `/hooks/${uid("rot")}`;
      const hook = await quietWebhook(`${RECEIVER}${path}`);
      const { secret } = (await api("POST", `/v1/api/webhooks/${hook.id}/rotate-secret`)).body;
      await deliverMessage(hook.id);
      const [delivery] = await receivedAt(path);
      const header = delivery!.signature;
      expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
      expect(await signedBy(header, delivery!.body, secret)).toBe(true);
      expect(await signedBy(header, delivery!.body, hook.secret)).toBe(true);
      expect(await signedBy(header, delivery!.body, "whsec_other")).toBe(false);
    },
  );

  it("a message from the dead-letter queue is noted on its webhook and acknowledged", async () => {
    const hook = await created("/v1/api/webhooks", { url: `${RECEIVER}/hooks/dlq`, events: ALL });
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const result = await deliverMessage(hook.id, 21, "pricing-webhooks-dlq");
    expect(result.explicitAcks).toHaveLength(1);
    expect((await webhook(hook.id)).lastError).toBe(
      "a delivery kept failing inside the service and went to the dead-letter queue; the sweep tries again every minute",
    );
    expect(String(errors.mock.calls[0]![0])).toContain("webhook message dead-lettered");
  });
});

describe("announcing writes", () => {
  it("a write succeeds when the queue refuses its message", async () => {
    const send = vi.spyOn(env.WEBHOOK_QUEUE!, "send").mockRejectedValue(new Error("queue down"));
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const res = await call("POST", "/v1/api/product", { body: { code: uid("P"), name: "Bolt" } });
    expect(res.status).toBe(201);
    expect(send).toHaveBeenCalledWith({ type: "changes" });
    expect(String(errors.mock.calls[0]![0])).toContain("change announcement not sent");
  });

  it("reads send nothing", async () => {
    const send = vi.spyOn(env.WEBHOOK_QUEUE!, "send");
    expect((await call("GET", "/v1/api/product?limit=1")).status).toBe(200);
    expect(send).not.toHaveBeenCalled();
  });
});
