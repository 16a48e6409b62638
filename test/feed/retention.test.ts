import { createScheduledController } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import { RETENTION_BATCH, RETENTION_MAX_BATCHES } from "../../src/jobs/retention";
import { createProduct } from "../factories";
import { api, uid } from "../shared/helpers";

/**
 * The retention job (docs/operations.md, "Retention"): the Worker's Cron Trigger deletes audit
 * entries older than AUDIT_RETENTION_DAYS (400 by default) and idempotency keys older than 24
 * hours, in bounded batches, without recording its own deletes.
 */

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;

afterEach(() => {
  vi.restoreAllMocks();
});

/** An audit entry written `at` (epoch ms), found again by its request id. */
async function auditEntryAt(at: number) {
  const requestId = uid("old-req");
  await env.DB.prepare(
    `insert into audit_log (at, request_id, key_name, operation, method, path, entity, entity_key, action, after)
     values (?, ?, 'admin', 'createProduct', 'POST', '/v1/api/product', 'product', '{"id":1}', 'INSERT', '{"id":1}')`,
  )
    .bind(at, requestId)
    .run();
  return requestId;
}

const auditEntryExists = async (requestId: string) =>
  (await env.DB.prepare("select 1 from audit_log where request_id = ?").bind(requestId).first()) !==
  null;

/** An answered idempotency key created at `createdAt`. */
async function idempotencyKeyAt(createdAt: number) {
  const key = uid("idem");
  await env.DB.prepare(
    `insert into idempotency_keys (key_name, idempotency_key, fingerprint, request_id, state, status,
       content_type, body, created_at, updated_at)
     values ('admin', ?, 'f', 'r', 'DONE', 201, 'application/json', '{}', ?, ?)`,
  )
    .bind(key, createdAt, createdAt)
    .run();
  return key;
}

const idempotencyKeyExists = async (key: string) =>
  (await env.DB.prepare("select 1 from idempotency_keys where idempotency_key = ?")
    .bind(key)
    .first()) !== null;

const countOlderThan = async (cutoff: number) =>
  (await env.DB.prepare("select count(*) as n from audit_log where at < ?")
    .bind(cutoff)
    .first<{ n: number }>())!.n;

/** The Worker's scheduled handler itself, with the test bindings and `AUDIT_RETENTION_DAYS`. */
async function runScheduled(now: number, days?: string) {
  const controller = createScheduledController({ scheduledTime: now, cron: "17 3 * * *" });
  await worker.scheduled(controller, { ...env, AUDIT_RETENTION_DAYS: days });
}

/**
 * The loopback service of the module's default export, as workerd invokes it on a schedule (the
 * dated workers-types leave `scheduled` off `Fetcher`; the runtime has it).
 */
const cron = exports.default as unknown as {
  scheduled(options: { scheduledTime?: Date; cron?: string }): Promise<unknown>;
};

describe("the Cron Trigger", () => {
  it("deletes audit entries older than 400 days and idempotency keys older than 24 h, keeps the rest", async () => {
    const now = Date.now();
    const old = [await auditEntryAt(now - 401 * DAY), await auditEntryAt(now - 400 * DAY - 1)];
    const recent = [await auditEntryAt(now - 399 * DAY), await auditEntryAt(now - 1000)];
    const staleKey = await idempotencyKeyAt(now - 25 * HOUR);
    const freshKey = await idempotencyKeyAt(now - 23 * HOUR);
    // A real write's entry, to be sure the job leaves today's trail alone.
    const product = await createProduct();

    // What workerd runs on the schedule: the module's default export, `scheduled`.
    await cron.scheduled({ scheduledTime: new Date(now), cron: "17 3 * * *" });

    for (const id of old) expect(await auditEntryExists(id), id).toBe(false);
    for (const id of recent) expect(await auditEntryExists(id), id).toBe(true);
    expect(await idempotencyKeyExists(staleKey)).toBe(false);
    expect(await idempotencyKeyExists(freshKey)).toBe(true);
    const trail = await api(
      "GET",
      `/v1/api/audit?filter.entity=product&filter.entityCode=${product.code}`,
    );
    expect(trail.body.meta.totalItems).toBe(1);
  });

  it("logs one JSON line with the counts and records nothing in the audit trail", async () => {
    const now = Date.now();
    await auditEntryAt(now - 500 * DAY);
    await idempotencyKeyAt(now - 48 * HOUR);
    const expected = await countOlderThan(now - 400 * DAY);
    const total = async () =>
      (await env.DB.prepare("select count(*) as n from audit_log").first<{ n: number }>())!.n;
    const before = await total();
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    await runScheduled(now);
    expect(log).toHaveBeenCalledTimes(1);
    expect(JSON.parse(String(log.mock.calls[0]![0]))).toEqual({
      message: "retention",
      cron: "17 3 * * *",
      scheduledTime: new Date(now).toISOString(),
      auditRetentionDays: 400,
      deleted: {
        auditEntries: expected,
        idempotencyKeys: expect.any(Number),
        webhookDeliveries: expect.any(Number),
      },
    });
    expect(JSON.parse(String(log.mock.calls[0]![0])).deleted.idempotencyKeys).toBeGreaterThan(0);
    // Only the old entries went; the deletes themselves left no entry.
    expect(await total()).toBe(before - expected);
  });

  it("keeps AUDIT_RETENTION_DAYS days when the variable is a positive whole number", async () => {
    const now = Date.now();
    const gone = await auditEntryAt(now - 31 * DAY);
    const kept = await auditEntryAt(now - 29 * DAY);
    vi.spyOn(console, "log").mockImplementation(() => {});
    await runScheduled(now, "30");
    expect(await auditEntryExists(gone)).toBe(false);
    expect(await auditEntryExists(kept)).toBe(true);
  });

  it.each(["abc", "0", "-5", "1.5", "", " "])(
    "falls back to 400 days when AUDIT_RETENTION_DAYS is %j",
    async (value) => {
      const now = Date.now();
      const gone = await auditEntryAt(now - 401 * DAY);
      const kept = await auditEntryAt(now - 399 * DAY);
      const log = vi.spyOn(console, "log").mockImplementation(() => {});
      await runScheduled(now, value);
      expect(await auditEntryExists(gone)).toBe(false);
      expect(await auditEntryExists(kept)).toBe(true);
      expect(JSON.parse(String(log.mock.calls[0]![0])).auditRetentionDays).toBe(400);
    },
  );

  it(`deletes in batches of ${RETENTION_BATCH}, at most ${RETENTION_MAX_BATCHES} per run`, async () => {
    const now = Date.now();
    const bound = RETENTION_BATCH * RETENTION_MAX_BATCHES;
    // Everything older than the cutoff left by the tests before, plus enough to pass the bound.
    const cutoff = now - 400 * DAY;
    const extra = bound + 7 - (await countOlderThan(cutoff));
    await env.DB.prepare(
      `with recursive n(i) as (select 1 union all select i + 1 from n where i < ?)
       insert into audit_log (at, request_id, key_name, operation, method, path, entity, entity_key, action, after)
       select ? - i, 'bulk-old', 'admin', 'createProduct', 'POST', '/v1/api/product', 'product', '{"id":1}', 'INSERT', '{"id":1}'
       from n`,
    )
      .bind(extra, cutoff - DAY)
      .run();
    expect(await countOlderThan(cutoff)).toBe(bound + 7);
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    await runScheduled(now);
    expect(JSON.parse(String(log.mock.calls[0]![0])).deleted.auditEntries).toBe(bound);
    expect(await countOlderThan(cutoff)).toBe(7);
    // The next run takes the rest.
    await runScheduled(now);
    expect(JSON.parse(String(log.mock.calls[1]![0])).deleted.auditEntries).toBe(7);
    expect(await countOlderThan(cutoff)).toBe(0);
  });
});
