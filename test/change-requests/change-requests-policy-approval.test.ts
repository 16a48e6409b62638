import { beforeEach, describe, expect, it } from "vitest";
import { createChannel, createPricelist, createProduct, setPrimaryPricelist } from "../factories";
import { api, expectProblem, KEYS } from "../shared/helpers";

/**
 * The approval policy changes by four eyes (docs/api/change-requests.md §17.4): a PUT that would
 * approve more than the policy in force waits for an admin key of another owner; one that approves
 * no more applies at once. The red team's walk-around (issue 28, item 5): one admin key PUTs
 * { 100000, 10000 } and submits a +500 % request that applies at once. Keys of
 * vitest.config.ts: alice's two (one rotated), bob's.
 */

const ALICE = "test-alice-key-2026";
const ALICE_ROTATED = "test-alice-key-2027";
const BOB = "test-bob-key";

const base = "/v1/api/change-requests";
const call = (method: string, path: string, key: string, body?: unknown) =>
  api(method, `${base}${path}`, { key, body });
const limits = (raise: number | null, cut: number | null) => ({
  autoApproveMaxRaiseBp: raise,
  autoApproveMaxCutBp: cut,
});

/** Back to the default, whoever set what: turning the policy off applies at once. */
beforeEach(async () => {
  const res = await call("PUT", "/policy", BOB, limits(null, null));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
});

/** A +500 % request on a priced product of a channel's primary list, submitted by `key`. */
async function submitRaise(key: string) {
  const list = (await createPricelist({ status: "ACTIVE" })).id as number;
  await setPrimaryPricelist((await createChannel()).code as string, list);
  const product = (await createProduct()).code as string;
  const put = await api("PUT", `/v1/api/pricelist/${list}/prices`, {
    body: { prices: [{ productCode: product, amount: 1000 }] },
  });
  expect(put.status).toBe(200);
  const created = await call("POST", "", key, {
    title: "+500 %",
    items: [{ kind: "ADJUST_PRICES", pricelistId: list, adjustmentBp: 50_000 }],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return call("POST", `/${created.body.id}/submit`, key);
}

describe("loosening the policy needs a second owner", () => {
  it("the author's own PUT { 100000, 10000 } only proposes it: the +500 % request waits", async () => {
    const put = await call("PUT", "/policy", ALICE, limits(100_000, 10_000));
    expect(put.status).toBe(202);
    expect(put.body).toMatchObject({
      ...limits(null, null),
      proposal: {
        ...limits(100_000, 10_000),
        proposedBy: "alice",
        proposedByCaller: true,
      },
    });
    const submitted = await submitRaise(ALICE);
    expect(submitted.body).toMatchObject({
      status: "PENDING_APPROVAL",
      approvedBy: null,
      impact: { maxRaiseBp: 50_000 },
    });
  });

  it("no key of the proposer may approve it, a rotated one neither; another owner's does", async () => {
    await call("PUT", "/policy", ALICE, limits(500, 0));
    for (const key of [ALICE, ALICE_ROTATED]) {
      const self = await call("POST", "/policy/approve", key, limits(500, 0));
      expect(expectProblem(self, 403, "SELF_APPROVAL").detail).toBe(
        "the policy change was proposed by alice; an admin key of another owner must approve it",
      );
    }
    const asBob = await call("GET", "/policy", BOB);
    expect(asBob.body.proposal).toMatchObject({ proposedBy: "alice", proposedByCaller: false });
    const approved = await call("POST", "/policy/approve", BOB, limits(500, 0));
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      ...limits(500, 0),
      setBy: "alice",
      approvedBy: "bob",
      proposal: null,
    });
  });

  it("the approver names the limits: a proposal replaced meanwhile is not approved", async () => {
    await call("PUT", "/policy", ALICE, limits(500, 0));
    await call("PUT", "/policy", ALICE, limits(100_000, 10_000));
    const stale = await call("POST", "/policy/approve", BOB, limits(500, 0));
    expect(expectProblem(stale, 409, "POLICY_PROPOSAL_CHANGED").detail).toBe(
      "the proposal waiting for approval is { autoApproveMaxRaiseBp: 100000, autoApproveMaxCutBp: " +
        "10000 } by alice, not the limits sent; nothing was approved",
    );
    expect((await call("GET", "/policy", BOB)).body).toMatchObject(limits(null, null));
  });

  it("409 NO_POLICY_PROPOSAL when none waits; 400 naming a bad limit", async () => {
    const none = await call("POST", "/policy/approve", BOB, limits(500, 0));
    expect(expectProblem(none, 409, "NO_POLICY_PROPOSAL").detail).toBe(
      "no change of the approval policy waits for approval",
    );
    const bad = await call("POST", "/policy/approve", BOB, { autoApproveMaxRaiseBp: -1 });
    expect(expectProblem(bad, 400, "VALIDATION_FAILED").errors?.map((e) => e.path)).toEqual([
      "body.autoApproveMaxRaiseBp",
      "body.autoApproveMaxCutBp",
    ]);
  });

  it("raising one limit of a policy in force is a loosening too", async () => {
    await call("PUT", "/policy", ALICE, limits(500, 0));
    await call("POST", "/policy/approve", BOB, limits(500, 0));
    for (const [raise, cut] of [
      [500, 100],
      [501, 0],
    ] as const) {
      const put = await call("PUT", "/policy", BOB, limits(raise, cut));
      expect(put.status).toBe(202);
      expect(put.body).toMatchObject({ ...limits(500, 0), proposal: limits(raise, cut) });
    }
  });
});

describe("tightening applies at once", () => {
  it("lower limits, or off, by any admin key; a PUT replaces the waiting proposal", async () => {
    await call("PUT", "/policy", ALICE, limits(500, 100));
    await call("POST", "/policy/approve", BOB, limits(500, 100));
    await call("PUT", "/policy", BOB, limits(100_000, 10_000));

    const lower = await call("PUT", "/policy", ALICE, limits(200, 0));
    expect(lower.status).toBe(200);
    expect(lower.body).toMatchObject({
      ...limits(200, 0),
      setBy: "alice",
      approvedBy: null,
      proposal: null,
    });
    // One limit off turns the policy off: it approves nothing, so it is no loosening.
    const off = await call("PUT", "/policy", ALICE, limits(null, 10_000));
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ ...limits(null, 10_000), setBy: "alice" });
  });

  it("the same limits again keep who set and approved them", async () => {
    await call("PUT", "/policy", ALICE, limits(500, 0));
    await call("POST", "/policy/approve", BOB, limits(500, 0));
    const again = await call("PUT", "/policy", ALICE, limits(500, 0));
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ setBy: "alice", approvedBy: "bob", proposal: null });
  });
});

describe("the audit trail names who changed the policy", () => {
  it("the proposal by alice's key and the approval by bob's, with both owners in the row", async () => {
    await call("PUT", "/policy", ALICE, limits(300, 0));
    await call("POST", "/policy/approve", BOB, limits(300, 0));
    const trail = await api("GET", "/v1/api/audit?filter.entity=changeRequestPolicy&limit=2");
    expect(trail.status).toBe(200);
    const [approval, proposal] = trail.body.data;
    expect(proposal).toMatchObject({
      keyName: "alice-2026",
      operation: "putChangeRequestPolicy",
      after: { proposedMaxRaiseBp: 300, proposedBy: "alice" },
    });
    expect(approval).toMatchObject({
      keyName: "bob-laptop",
      operation: "approveChangeRequestPolicy",
      after: { autoApproveMaxRaiseBp: 300, setBy: "alice", approvedBy: "bob", proposedBy: null },
    });
  });

  it("a read key gets 403 on the approval", async () => {
    const res = await call("POST", "/policy/approve", KEYS.read, limits(1, 1));
    expectProblem(res, 403, "FORBIDDEN");
  });
});
