import { beforeAll, describe, expect, it } from "vitest";
import { seedExampleF } from "../../scripts/lib/demo-quotes.mjs";
import { WORKED_EXAMPLE_F as EXAMPLE_F } from "../../scripts/lib/worked-examples.mjs";
import { api, KEYS, SALES_KEYS } from "../shared/helpers";

/**
 * Quotes under concurrency (docs/quotes.md §6): every transition is a guarded UPDATE whose batch
 * fails unless it changed exactly one row, so of concurrent actions exactly one wins and the
 * others meet the new status: 409, and nothing of theirs is written. Each request carries its own
 * Idempotency-Key, as a client retrying safely would.
 */

const { channel, customer, product } = EXAMPLE_F.codes;
const rep1 = SALES_KEYS["rep-1"];

beforeAll(async () => {
  await seedExampleF((method, path, body, key) => api(method, path, { body, key }), KEYS.admin);
});

async function ok(method: string, path: string, key: string, body?: unknown) {
  const res = await api(method, path, { key, body });
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

/** A quote at 350 (MANAGER), taken as far as `until`. */
async function quoteUntil(until: "PENDING_APPROVAL" | "SENT" | "ACCEPTED") {
  const quote = await ok("POST", "/v1/api/quotes", rep1, {
    customerCode: customer,
    channelCode: channel,
    validTo: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    lines: [{ productCode: product, quantity: EXAMPLE_F.quantity, unitAmount: 350 }],
  });
  const id = quote.id as number;
  await ok("POST", `/v1/api/quotes/${id}/submit`, rep1);
  if (until === "PENDING_APPROVAL") return id;
  await ok("POST", `/v1/api/quotes/${id}/approve`, SALES_KEYS.manager);
  await ok("POST", `/v1/api/quotes/${id}/send`, rep1);
  if (until === "SENT") return id;
  await ok("POST", `/v1/api/quotes/${id}/accept`, KEYS.read);
  return id;
}

let n = 0;
const at = (id: number, action: string, key: string, body?: unknown) =>
  api("POST", `/v1/api/quotes/${id}/${action}`, {
    key,
    body,
    headers: { "idempotency-key": `race-${id}-${action}-${++n}` },
  });

/** The trail's UPDATE entries of the quote, each as [status after, key name]. */
async function updates(id: number) {
  const trail = await api(
    "GET",
    `/v1/api/audit?filter.entity=quote&filter.entityId=${id}&filter.action=UPDATE&sortBy=id:ASC&limit=100`,
  );
  expect(trail.status, JSON.stringify(trail.body)).toBe(200);
  return trail.body.data.map((e: any) => [e.after.status, e.keyName]);
}

describe("concurrent actions on one quote have one winner (docs/quotes.md §6)", () => {
  it("two approvers at once: one APPROVED, the other 409", async () => {
    const id = await quoteUntil("PENDING_APPROVAL");
    const answers = await Promise.all([
      at(id, "approve", SALES_KEYS.manager),
      at(id, "approve", SALES_KEYS.director),
    ]);
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses, JSON.stringify(answers.map((a) => a.body))).toEqual([200, 409]);
    const winner = answers.find((a) => a.status === 200)!.body;
    const loser = answers.find((a) => a.status === 409)!.body;
    expect(loser.code).toBe("INVALID_TRANSITION");
    const approvals = (await updates(id)).filter(([status]: string[]) => status === "APPROVED");
    expect(approvals).toEqual([["APPROVED", winner.approvedBy]]);
    const quote = (await api("GET", `/v1/api/quotes/${id}`)).body;
    expect(quote.revisions).toHaveLength(1);
  });

  it("accept against withdraw: exactly one wins", async () => {
    for (let round = 0; round < 3; round++) {
      const id = await quoteUntil("SENT");
      const [accept, withdraw] = await Promise.all([
        at(id, "accept", KEYS.read),
        at(id, "withdraw", rep1),
      ]);
      expect([accept.status, withdraw.status].sort()).toEqual([200, 409]);
      const final = (await api("GET", `/v1/api/quotes/${id}`)).body.status;
      expect(final).toBe(accept.status === 200 ? "ACCEPTED" : "WITHDRAWN");
      const loser = accept.status === 409 ? accept : withdraw;
      expect(loser.body.code).toBe("INVALID_TRANSITION");
    }
  });

  it("16 concurrent redeems: one REDEEMED, 15 × 409 QUOTE_REDEEMED, one trail entry", async () => {
    const id = await quoteUntil("ACCEPTED");
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) => at(id, "redeem", KEYS.read, { orderRef: `SO-${i}` })),
    );
    const won = answers.filter((a) => a.status === 200);
    const lost = answers.filter((a) => a.status === 409);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(15);
    for (const a of lost) expect(a.body.code).toBe("QUOTE_REDEEMED");
    const quote = (await api("GET", `/v1/api/quotes/${id}`)).body;
    expect(quote).toMatchObject({ status: "REDEEMED", orderRef: won[0]!.body.orderRef });
    const redeemed = (await updates(id)).filter(([status]: string[]) => status === "REDEEMED");
    expect(redeemed).toHaveLength(1);
  });
});
