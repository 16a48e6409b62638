import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_QUOTE_CODES, seedExampleF } from "../../scripts/lib/demo-quotes.mjs";
import { app } from "../../src/app";
import { api, expectProblem, KEYS, SALES_KEYS } from "../shared/helpers";
import { act, ok } from "../shared/quote-calls";

/**
 * Four eyes on quotes (docs/quotes.md §3.2, §4.3): the owners of the keys that wrote a quote
 * (create, PATCH) are its `writers`, and none of them may approve or reject it. Worked example F's
 * records and policy in the demo's codes (WEB-Q, K-1, P-QB; REP tier: cut ≤ 500, margin ≥ 2000).
 */

const { channel, customer, product } = DEMO_QUOTE_CODES;
const { admin, read } = KEYS;
const rep1 = SALES_KEYS["rep-1"];
const rep2 = SALES_KEYS["rep-2"];
const manager = SALES_KEYS.manager;

const call = (method: string, path: string, body: unknown, key: string) =>
  api(method, path, { body, key });

beforeAll(async () => {
  await seedExampleF(call, admin, DEMO_QUOTE_CODES, "writers");
});

const lines = (unitAmount: number) => [{ productCode: product, quantity: 60, unitAmount }];

async function createQuote(key: string, unitAmount: number) {
  const res = await api("POST", "/v1/api/quotes", {
    key,
    body: {
      customerCode: customer,
      channelCode: channel,
      validTo: new Date(Date.now() + 90 * 86_400_000).toISOString(),
      mode: "ONCE",
      lock: "FIXED",
      lines: lines(unitAmount),
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function patch(id: number, key: string, unitAmount: number) {
  const res = await api("PATCH", `/v1/api/quotes/${id}`, {
    key,
    body: { lines: lines(unitAmount) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const get = async (id: number, key: string) =>
  (await api("GET", `/v1/api/quotes/${id}`, { key })).body;

const selfApproval = (id: number, writers: string) =>
  `quote ${id} was written by ${writers}; a key of another owner must approve or reject it`;

describe("writers of a quote (docs/quotes.md §3.2)", () => {
  it("refuses the rep who rewrote the manager's draft: 403 SELF_APPROVAL, still PENDING_APPROVAL", async () => {
    const quote = await createQuote(manager, 390);
    expect(quote).toMatchObject({ author: "manager", writers: ["manager"], writtenByCaller: true });

    const changed = await patch(quote.id, rep1, 376);
    expect(changed).toMatchObject({ writers: ["manager", "rep-1"], writtenByCaller: true });
    const submitted = await ok(quote.id, "submit", rep1);
    expect(submitted).toMatchObject({ status: "PENDING_APPROVAL", requiredTier: "REP" });

    for (const key of [rep1, manager]) {
      const refused = expectProblem(await act(quote.id, "approve", key), 403, "SELF_APPROVAL");
      expect(refused.detail).toBe(selfApproval(quote.id, "manager, rep-1"));
      const rejected = await act(quote.id, "reject", key, { reason: "mine" });
      expect(expectProblem(rejected, 403, "SELF_APPROVAL").detail).toBe(refused.detail);
    }
    expect(await get(quote.id, admin)).toMatchObject({
      status: "PENDING_APPROVAL",
      requiredTier: "REP",
      approvedBy: null,
      approvedAt: null,
      rejectedBy: null,
      writers: ["manager", "rep-1"],
    });

    // rep-2 wrote nothing of it and approves at REP.
    const approved = await ok(quote.id, "approve", rep2);
    expect(approved).toMatchObject({
      status: "APPROVED",
      author: "manager",
      approvedBy: "rep-2",
      writers: ["manager", "rep-1"],
      writtenByCaller: false,
    });
  });

  it("lets an owner who wrote nothing approve: the manager, a REP-tier quote written only by rep-1", async () => {
    const quote = await createQuote(rep1, 376);
    await ok(quote.id, "submit", rep1);
    expectProblem(await act(quote.id, "approve", rep1), 403, "SELF_APPROVAL");
    const approved = await ok(quote.id, "approve", manager);
    expect(approved).toMatchObject({
      status: "APPROVED",
      approvedBy: "manager",
      writers: ["rep-1"],
      writtenByCaller: false,
    });
  });

  it("lists the writers in the order they first wrote; submit, reject and approve write none", async () => {
    const quote = await createQuote(rep1, 390);
    await patch(quote.id, manager, 380);
    await patch(quote.id, rep1, 376);
    await patch(quote.id, manager, 377);
    await ok(quote.id, "submit", rep2);
    await ok(quote.id, "reject", SALES_KEYS.director, { reason: "once more" });
    const after = await get(quote.id, admin);
    expect(after).toMatchObject({ status: "DRAFT", writers: ["rep-1", "manager"] });

    const adminPatch = await patch(quote.id, admin, 378);
    const adminOwner = adminPatch.writers[2];
    expect(adminPatch.writers).toEqual(["rep-1", "manager", expect.stringMatching(/^admin-/)]);
    await ok(quote.id, "submit", rep1);
    // An admin key approves at every tier, but not what its owner wrote.
    expect(expectProblem(await act(quote.id, "approve", admin), 403, "SELF_APPROVAL").detail).toBe(
      selfApproval(quote.id, `rep-1, manager, ${adminOwner}`),
    );
  });

  it("answers writtenByCaller per asking key, in GET and in the list", async () => {
    const quote = await createQuote(rep1, 390);
    await patch(quote.id, manager, 380);
    for (const [key, wrote] of [
      [rep1, true],
      [manager, true],
      [rep2, false],
      [admin, false],
      [read, false],
    ] as const) {
      expect(await get(quote.id, key), key).toMatchObject({
        writers: ["rep-1", "manager"],
        writtenByCaller: wrote,
      });
      const list = await api("GET", `/v1/api/quotes?filter.customerCode=${customer}&limit=100`, {
        key,
      });
      expect(list.status, JSON.stringify(list.body)).toBe(200);
      expect(
        list.body.data.find((q: { id: number }) => q.id === quote.id),
        key,
      ).toMatchObject({
        writers: ["rep-1", "manager"],
        writtenByCaller: wrote,
      });
    }
  });

  it("a RENEGOTIATING quote's next revision keeps the writers of the one before", async () => {
    const quote = await createQuote(rep1, 376);
    await ok(quote.id, "submit", rep1);
    await ok(quote.id, "approve", manager);
    await ok(quote.id, "send", rep1);
    await ok(quote.id, "decline", read, { reason: "cheaper", renegotiate: true });
    const revised = await patch(quote.id, rep2, 375);
    expect(revised).toMatchObject({ revision: 2, status: "DRAFT", writers: ["rep-1", "rep-2"] });
    const submitted = await ok(quote.id, "submit", rep2);
    expect(submitted).toMatchObject({ status: "PENDING_APPROVAL", requiredTier: "REP" });
    for (const key of [rep1, rep2]) {
      expectProblem(await act(quote.id, "approve", key), 403, "SELF_APPROVAL");
    }
    expect(await ok(quote.id, "approve", manager)).toMatchObject({ approvedBy: "manager" });
  });
});

describe("migration 0032: a quote written before has its author's owner as its one writer", () => {
  const db = (env as unknown as { IMPORT_DB: D1Database }).IMPORT_DB;

  it("backfills writers, and the author's key is refused", async () => {
    const migrations = env.TEST_MIGRATIONS;
    const at = migrations.findIndex((m) => m.name.startsWith("0032_"));
    expect(at).toBeGreaterThan(0);
    await applyD1Migrations(db, migrations.slice(0, at));
    const now = Date.now();
    await db.batch([
      db.prepare("insert into channels (code, name) values ('OLD-C', 'Old')"),
      db.prepare("insert into customers (code, name) values ('OLD-K', 'Old')"),
      db
        .prepare(
          `insert into quotes (status, customer_id, channel_id, currency, valid_to, total_amount,
             author, author_owner, required_tier, submitted_at, priced_at)
           values ('PENDING_APPROVAL', (select id from customers where code = 'OLD-K'),
             (select id from channels where code = 'OLD-C'), 'EUR', ?, 0, 'rep-1', 'rep-1', 'ADMIN', ?, ?)`,
        )
        .bind(now + 86_400_000, now, now),
    ]);
    await applyD1Migrations(db, migrations);
    const row = await db
      .prepare("select id, writers from quotes")
      .first<{ id: number; writers: string }>();
    expect(JSON.parse(row!.writers)).toEqual(["rep-1"]);

    const res = await app.fetch(
      new Request(`http://pricing.test/v1/api/quotes/${row!.id}/approve`, {
        method: "POST",
        headers: { "x-webhook-signature": rep1 },
      }),
      { ...env, DB: db },
    );
    const body = (await res.json()) as { code: string; detail: string };
    expect([res.status, body.code]).toEqual([403, "SELF_APPROVAL"]);
    expect(body.detail).toBe(selfApproval(row!.id, "rep-1"));
  });
});
