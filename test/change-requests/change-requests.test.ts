import { createScheduledController } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createDb, DbMeter } from "../../src/db/client";
import { discardAttempt } from "../../src/db/price-rows";
import worker from "../../src/index";
import {
  CHANGE_REQUEST_ACTIONS,
  type ChangeRequestAction,
  type ChangeRequestStatus,
} from "../../src/pricing/vocabulary";
import {
  archivePricelist,
  createChannel,
  createPricelist,
  createProduct,
  createProductGroup,
  createPromotion,
  createTradeCondition,
  setPrimaryPricelist,
} from "../factories";
import { api, created, expectProblem, issuePaths, KEYS, uid } from "../shared/helpers";
import { head, RECEIVER, receivedAt, sleep, until, type Delivery } from "../shared/webhook-helpers";

/**
 * Change requests (docs/api/change-requests.md §17, docs/pricing-rules.md §18) through the real
 * Worker: worked example A of pricing-rules v3 with two admin keys, every transition and its
 * errors.
 */

// Each submit and approve prices the impact (a simulation per channel and quantity, one more
// for the base of a cumulative change, docs/api/change-requests.md §17.3): more than 5 s on a
// loaded machine.
vi.setConfig({ testTimeout: 30_000 });

const AUTHOR = "test-writer-key-1";
const APPROVER = "test-writer-key-2";
const NEW_YEAR = "2027-01-01T00:00:00.000Z";

const base = "/v1/api/change-requests";

const call = (method: string, path: string, body?: unknown, key: string = AUTHOR) =>
  api(method, `${base}${path}`, { body, key });

/** A key of another owner than AUTHOR and APPROVER: it approves the policies they propose. */
const POLICY_APPROVER = "test-writer-key-9";

/** The policy in force: a loosening PUT by the author is approved by another owner (§17.4). */
async function setPolicy(autoApproveMaxRaiseBp: number | null, autoApproveMaxCutBp: number | null) {
  const limits = { autoApproveMaxRaiseBp, autoApproveMaxCutBp };
  const res = await call("PUT", "/policy", limits);
  expect([200, 202], JSON.stringify(res.body)).toContain(res.status);
  if (res.status === 202) {
    const approved = await call("POST", "/policy/approve", limits, POLICY_APPROVER);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  }
}

/** Worked example A's data: channel WEB with primary PL-1, P-1 and P-2 in group G. */
async function exampleA() {
  const group = (await createProductGroup()).code as string;
  const p1 = (await createProduct({ productGroupCode: group })).code as string;
  const p2 = (await createProduct({ productGroupCode: group })).code as string;
  const list = (await createPricelist({ status: "ACTIVE" })).id as number;
  const channel = (await createChannel()).code as string;
  await setPrimaryPricelist(channel, list);
  const put = await api("PUT", `/v1/api/pricelist/${list}/prices`, {
    body: {
      prices: [
        { productCode: p1, amount: 500 },
        { productCode: p2, amount: 1000 },
        { productCode: p2, minQuantity: 10, amount: 900 },
      ],
    },
  });
  expect(put.status).toBe(200);
  return { group, p1, p2, list, channel };
}

const increase = (list: number, group: string) => ({
  title: "2027 increase",
  effectiveAt: "2027-01-01T00:00:00Z",
  items: [
    {
      kind: "ADJUST_PRICES",
      pricelistId: list,
      productGroupCodes: [group],
      adjustmentBp: 300,
      rounding: { mode: "UP", step: 10, ending: 9 },
    },
  ],
});

async function resolve(channel: string, at: string, lines: object[]) {
  const res = await api("POST", "/v1/api/prices/resolve", {
    body: { channelCode: channel, at, lines },
    key: KEYS.read,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function rows(list: number, query = "") {
  const res = await api("GET", `/v1/api/pricelist/${list}/prices${query}`, { key: KEYS.read });
  expect(res.status).toBe(200);
  return (res.body.data as any[]).map((r) => [
    r.productCode,
    r.minQuantity,
    r.amount,
    r.validFrom,
    r.validTo,
  ]);
}

describe("worked example A: a price increase on a date", () => {
  beforeEach(() => setPolicy(null, null));

  it("policy {500, 0}: APPLIED at submit, impact +380/+390 bp, prices change at the date", async () => {
    const a = await exampleA();
    await setPolicy(500, 0);
    const created = await call("POST", "", increase(a.list, a.group));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ status: "DRAFT", author: "writer-1", impact: null });
    const submitted = await call("POST", `/${created.body.id}/submit`);
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    expect(submitted.body).toMatchObject({
      status: "APPLIED",
      approvedBy: "policy",
      impact: {
        at: NEW_YEAR,
        channelCodes: [a.channel],
        // Quantity 1 of P-1 and P-2, and P-2's 10+ tier (900 → 929, +322 bp): §17.3.
        quantities: [1, 10],
        pricesCompared: 3,
        pricesChanged: 3,
        pricesAppeared: 0,
        pricesVanished: 0,
        maxRaiseBp: 390,
        maxCutBp: 0,
        totalBefore: 2400,
        totalAfter: 2487,
        distribution: [
          { percent: 3, count: 1 },
          { percent: 4, count: 2 },
        ],
        channelsOmitted: 0,
        productsOmitted: 0,
        customersOmitted: 0,
        quantitiesOmitted: 0,
      },
    });
    const before = await resolve(a.channel, "2026-12-31T23:59:59Z", [
      { productCode: a.p1, quantity: 1 },
    ]);
    expect(before.lines[0].finalUnitAmount).toBe(500);
    expect(before.validUntil).toBe(NEW_YEAR);
    const after = await resolve(a.channel, "2027-01-01T00:00:00Z", [
      { productCode: a.p1, quantity: 1 },
      { productCode: a.p2, quantity: 1 },
      { productCode: a.p2, quantity: 10 },
    ]);
    expect(after.lines.map((l: any) => l.finalUnitAmount)).toEqual([519, 1039, 929]);
    expect(await rows(a.list, "?at=2026-06-01T00:00:00Z")).toEqual([
      [a.p1, 1, 500, null, NEW_YEAR],
      [a.p2, 1, 1000, null, NEW_YEAR],
      [a.p2, 10, 900, null, NEW_YEAR],
    ]);
    expect(await rows(a.list)).toHaveLength(6);
  });

  it("policy {200, 0}: PENDING_APPROVAL, approved by a second key, cancel restores three undated rows", async () => {
    const a = await exampleA();
    await setPolicy(200, 0);
    const { body } = await call("POST", "", increase(a.list, a.group));
    const submitted = await call("POST", `/${body.id}/submit`);
    expect(submitted.body).toMatchObject({ status: "PENDING_APPROVAL", approvedBy: null });
    expect(submitted.body.impact.maxRaiseBp).toBe(390);
    const self = await call("POST", `/${body.id}/approve`);
    expect(expectProblem(self, 403, "SELF_APPROVAL").detail).toContain("writer-1");
    const approved = await call("POST", `/${body.id}/approve`, undefined, APPROVER);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body).toMatchObject({
      status: "APPLIED",
      author: "writer-1",
      approvedBy: "writer-2",
    });
    expect(await rows(a.list)).toHaveLength(6);
    const cancelled = await call("POST", `/${body.id}/cancel`);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.status).toBe("CANCELLED");
    expect(await rows(a.list)).toEqual([
      [a.p1, 1, 500, null, null],
      [a.p2, 1, 1000, null, null],
      [a.p2, 10, 900, null, null],
    ]);
  });
});

/** A request created by AUTHOR; its answer. */
async function draft(body: object) {
  const res = await call("POST", "", body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; status: string; [key: string]: unknown };
}

const setItem = (list: number, rows: object[]) => ({ kind: "SET_PRICES", pricelistId: list, rows });

/** A DRAFT setting P-1 to 600 in example A's list from `effectiveAt`. */
const setRequest = (list: number, code: string, effectiveAt: string | null = "2027-01-01") => ({
  title: "New price",
  effectiveAt,
  items: [setItem(list, [{ productCode: code, amount: 600 }])],
});

describe("the request: create, read, list, PATCH", () => {
  it("answers the request with its items; the key that creates it is its author", async () => {
    const a = await exampleA();
    const body = await draft(increase(a.list, a.group));
    expect(body).toEqual({
      id: body.id,
      title: "2027 increase",
      status: "DRAFT",
      effectiveAt: NEW_YEAR,
      author: "writer-1",
      writers: ["writer-1"],
      writtenByCaller: true,
      submittedAt: null,
      approvedBy: null,
      approvedAt: null,
      appliedAt: null,
      rejectedBy: null,
      rejectionReason: null,
      impact: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      items: [{ ...increase(a.list, a.group).items[0] }],
    });
    expect((await call("GET", `/${body.id}`)).body).toEqual(body);
    // Another key reads the same request, not written by it.
    expect((await call("GET", `/${body.id}`, undefined, APPROVER)).body).toEqual({
      ...body,
      writtenByCaller: false,
    });
  });

  it("400 naming every unknown pricelist, product, group and record; nothing created", async () => {
    const a = await exampleA();
    const res = await call("POST", "", {
      title: "Unknown things",
      items: [
        setItem(999_999, [{ productCode: a.p1, amount: 1 }]),
        setItem(a.list, [
          { productCode: a.p1, amount: 1 },
          { productCode: "NO-SUCH-P", amount: 1 },
        ]),
        {
          kind: "ADJUST_PRICES",
          pricelistId: a.list,
          productCodes: ["NO-SUCH-Q"],
          productGroupCodes: ["NO-SUCH-G"],
          adjustmentBp: 100,
        },
        { kind: "ACTIVATE", target: { kind: "promotion", id: 999_999 } },
      ],
    });
    expect(expectProblem(res, 400, "VALIDATION_FAILED").errors).toEqual([
      { path: "body.items.0.pricelistId", message: "unknown pricelist 999999" },
      { path: "body.items.1.rows.1.productCode", message: "unknown product NO-SUCH-P" },
      { path: "body.items.2.productCodes.0", message: "unknown product NO-SUCH-Q" },
      { path: "body.items.2.productGroupCodes.0", message: "unknown product group NO-SUCH-G" },
      { path: "body.items.3.target.id", message: "unknown promotion 999999" },
    ]);
  });

  it("400 on the shape: no items, an unknown kind, a past effectiveAt, a record named twice, a repeated row", async () => {
    const a = await exampleA();
    expect(issuePaths(await call("POST", "", { title: "x", items: [] }))).toEqual(["body.items"]);
    const kind = await call("POST", "", { title: "x", items: [{ kind: "DELETE_ALL" }] });
    expect(expectProblem(kind, 400, "VALIDATION_FAILED").errors![0]).toMatchObject({
      path: "body.items.0.kind",
      message: "must have kind SET_PRICES, ADJUST_PRICES, ACTIVATE or DEACTIVATE",
    });
    const past = await call("POST", "", setRequest(a.list, a.p1, "2020-01-01"));
    expect(expectProblem(past, 400, "VALIDATION_FAILED").errors).toEqual([
      { path: "body.effectiveAt", message: "must not be in the past" },
    ]);
    const target = { kind: "promotion", id: 1 };
    const twice = await call("POST", "", {
      title: "x",
      items: [
        { kind: "ACTIVATE", target },
        { kind: "DEACTIVATE", target },
      ],
    });
    expect(issuePaths(twice)).toEqual(["body.items.1.target"]);
    const repeated = await call("POST", "", {
      title: "x",
      items: [
        setItem(a.list, [
          { productCode: a.p1, amount: 1 },
          { productCode: a.p1, amount: 2 },
        ]),
      ],
    });
    expect(issuePaths(repeated)).toEqual(["body.items.0.rows.1"]);
  });

  it("PATCH changes a DRAFT only (409 INVALID_TRANSITION after submit); 404 and 400 on the id", async () => {
    const a = await exampleA();
    const body = await draft(setRequest(a.list, a.p1));
    const patched = await call("PATCH", `/${body.id}`, {
      title: "Renamed",
      effectiveAt: "2027-02-01",
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      title: "Renamed",
      effectiveAt: "2027-02-01T00:00:00.000Z",
    });
    expect(patched.body.items).toEqual(body.items);
    await call("POST", `/${body.id}/submit`);
    const refused = await call("PATCH", `/${body.id}`, { title: "Again" });
    expect(expectProblem(refused, 409, "INVALID_TRANSITION").detail).toBe(
      `change request ${body.id} is PENDING_APPROVAL; update is allowed only when it is DRAFT`,
    );
    expectProblem(await call("GET", "/999999"), 404, "NOT_FOUND");
    expect(issuePaths(await call("GET", "/abc"))).toEqual(["path.id"]);
  });

  it("lists without items, newest first, filtered by status and sorted by effectiveAt", async () => {
    const a = await exampleA();
    const first = await draft(setRequest(a.list, a.p1, "2027-03-01"));
    const second = await draft(setRequest(a.list, a.p1, "2027-02-01"));
    const all = await call("GET", "?filter.status=DRAFT&limit=100");
    expect(all.status).toBe(200);
    const ids = all.body.data.map((r: any) => r.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    expect(all.body.data[0]).not.toHaveProperty("items");
    expect(all.body.data.find((r: any) => r.id === first.id).itemCount).toBe(1);
    const byDate = await call("GET", "?filter.status=DRAFT&sortBy=effectiveAt:ASC&limit=100");
    const dated = byDate.body.data.map((r: any) => r.id);
    expect(dated.indexOf(second.id)).toBeLessThan(dated.indexOf(first.id));
    const none = await call("GET", "?filter.status=REJECTED&limit=100");
    expect(none.body.data.every((r: any) => r.status === "REJECTED")).toBe(true);
  });
});

describe("transitions and their errors", () => {
  beforeEach(() => setPolicy(null, null));

  it("an action in another status is 409 INVALID_TRANSITION naming the status and the action", async () => {
    const a = await exampleA();
    const body = await draft(setRequest(a.list, a.p1));
    for (const action of ["approve", "cancel"]) {
      const res = await call("POST", `/${body.id}/${action}`, undefined, APPROVER);
      expect(expectProblem(res, 409, "INVALID_TRANSITION").detail).toContain(
        `change request ${body.id} is DRAFT; ${action} is allowed only when it is`,
      );
    }
    const reject = await call("POST", `/${body.id}/reject`, { reason: "no" }, APPROVER);
    expectProblem(reject, 409, "INVALID_TRANSITION");
    expect((await call("POST", `/${body.id}/submit`)).body.status).toBe("PENDING_APPROVAL");
    const again = await call("POST", `/${body.id}/submit`);
    expect(expectProblem(again, 409, "INVALID_TRANSITION").detail).toBe(
      `change request ${body.id} is PENDING_APPROVAL; submit is allowed only when it is DRAFT`,
    );
  });

  it("every action a status does not allow is 409 INVALID_TRANSITION and changes nothing; 404 for an unknown request", async () => {
    const a = await exampleA();
    const inStatus: Record<ChangeRequestStatus, number> = {
      DRAFT: (await draft(setRequest(a.list, a.p1))).id,
      PENDING_APPROVAL: (await draft(setRequest(a.list, a.p1))).id,
      APPLIED: (await draft(setRequest(a.list, a.p1))).id,
      REJECTED: (await draft(setRequest(a.list, a.p1))).id,
      CANCELLED: (await draft(setRequest(a.list, a.p1))).id,
    };
    for (const status of ["PENDING_APPROVAL", "APPLIED", "REJECTED"] as const) {
      await call("POST", `/${inStatus[status]}/submit`);
    }
    await call("POST", `/${inStatus.APPLIED}/approve`, undefined, APPROVER);
    await call("POST", `/${inStatus.REJECTED}/reject`, { reason: "No" }, APPROVER);
    await call("POST", `/${inStatus.CANCELLED}/withdraw`);
    const send = (action: ChangeRequestAction, id: number) =>
      action === "update"
        ? call("PATCH", `/${id}`, { title: "Edited" }, APPROVER)
        : call(
            "POST",
            `/${id}/${action}`,
            action === "reject" ? { reason: "No" } : undefined,
            APPROVER,
          );
    const statuses = Object.keys(inStatus) as ChangeRequestStatus[];
    let refused = 0;
    for (const status of statuses) {
      const id = inStatus[status];
      expect((await call("GET", `/${id}`)).body.status).toBe(status);
      for (const [action, allowed] of Object.entries(CHANGE_REQUEST_ACTIONS) as [
        ChangeRequestAction,
        readonly ChangeRequestStatus[],
      ][]) {
        if (allowed.includes(status)) continue;
        const res = await send(action, id);
        expect(expectProblem(res, 409, "INVALID_TRANSITION").detail).toBe(
          `change request ${id} is ${status}; ${action} is allowed only when it is ${allowed.join(" or ")}`,
        );
        refused += 1;
      }
      expect((await call("GET", `/${id}`)).body.status).toBe(status);
    }
    // 5 statuses × 6 actions, less the 7 (status, action) pairs allowed.
    expect(refused).toBe(23);
    for (const action of Object.keys(CHANGE_REQUEST_ACTIONS) as ChangeRequestAction[]) {
      const res = await send(action, 999_999_999);
      expect(expectProblem(res, 404, "NOT_FOUND").detail).toBe(
        "change request 999999999 not found",
      );
    }
    expect(expectProblem(await call("GET", "/999999999"), 404, "NOT_FOUND").detail).toBe(
      "change request 999999999 not found",
    );
  });

  it("reject needs a reason and ends it REJECTED; withdraw cancels a DRAFT or a pending one", async () => {
    const a = await exampleA();
    const one = await draft(setRequest(a.list, a.p1));
    await call("POST", `/${one.id}/submit`);
    expect(issuePaths(await call("POST", `/${one.id}/reject`, { reason: "  " }, APPROVER))).toEqual(
      ["body.reason"],
    );
    const rejected = await call("POST", `/${one.id}/reject`, { reason: "Too early" }, APPROVER);
    expect(rejected.body).toMatchObject({
      status: "REJECTED",
      rejectedBy: "writer-2",
      rejectionReason: "Too early",
    });
    expectProblem(await call("POST", `/${one.id}/withdraw`), 409, "INVALID_TRANSITION");
    const two = await draft(setRequest(a.list, a.p1));
    expect((await call("POST", `/${two.id}/withdraw`)).body.status).toBe("CANCELLED");
    const three = await draft(setRequest(a.list, a.p1));
    await call("POST", `/${three.id}/submit`);
    expect((await call("POST", `/${three.id}/withdraw`)).body.status).toBe("CANCELLED");
    // Nothing was ever written to the prices.
    expect(await rows(a.list)).toEqual([
      [a.p1, 1, 500, null, null],
      [a.p2, 1, 1000, null, null],
      [a.p2, 10, 900, null, null],
    ]);
  });

  it("403 SELF_APPROVAL for the author and for any key that changed it", async () => {
    const a = await exampleA();
    const body = await draft(setRequest(a.list, a.p1));
    // writer-2 edits it: writer-2 may no longer approve it either.
    await call("PATCH", `/${body.id}`, { title: "Edited" }, APPROVER);
    await call("POST", `/${body.id}/submit`);
    for (const key of [AUTHOR, APPROVER]) {
      // Each answer tells the key, before it tries, that it wrote the request.
      const read = await call("GET", `/${body.id}`, undefined, key);
      expect(read.body).toMatchObject({ writers: ["writer-1", "writer-2"], writtenByCaller: true });
      const listed = await call("GET", `?filter.status=PENDING_APPROVAL&limit=100`, undefined, key);
      expect(listed.body.data.find((r: { id: number }) => r.id === body.id)).toMatchObject({
        writtenByCaller: true,
      });
      const res = await call("POST", `/${body.id}/approve`, undefined, key);
      expect(expectProblem(res, 403, "SELF_APPROVAL").detail).toBe(
        `change request ${body.id} was written by ${key.replace("test-", "").replace("-key", "")}; an admin key of another owner must approve it`,
      );
    }
    const other = await call("GET", `/${body.id}`, undefined, "test-writer-key-3");
    expect(other.body.writtenByCaller).toBe(false);
    const third = await call("POST", `/${body.id}/approve`, undefined, "test-writer-key-3");
    expect(third.body).toMatchObject({ status: "APPLIED", approvedBy: "writer-3" });
  });

  it("409 STALE_CHANGE_REQUEST when a touched price changed after the submit: back to DRAFT", async () => {
    const a = await exampleA();
    const body = await draft(increase(a.list, a.group));
    await call("POST", `/${body.id}/submit`);
    await api("PUT", `/v1/api/pricelist/${a.list}/prices`, {
      body: { prices: [{ productCode: a.p1, amount: 510 }] },
    });
    const stale = await call("POST", `/${body.id}/approve`, undefined, APPROVER);
    expectProblem(stale, 409, "STALE_CHANGE_REQUEST");
    const now = (await call("GET", `/${body.id}`)).body;
    expect(now).toMatchObject({ status: "DRAFT", impact: null, submittedAt: null });
    expect(await rows(a.list, "?at=2027-06-01")).toEqual([
      [a.p1, 1, 510, null, null],
      [a.p2, 1, 1000, null, null],
      [a.p2, 10, 900, null, null],
    ]);
    // Submitted again, it sees the new price: 510 → 529 (+373 bp).
    const again = await call("POST", `/${body.id}/submit`);
    expect(again.body.impact.maxRaiseBp).toBe(390);
    const approved = await call("POST", `/${body.id}/approve`, undefined, APPROVER);
    expect(approved.body.status).toBe("APPLIED");
    expect((await rows(a.list, "?at=2027-06-01"))[0]).toEqual([a.p1, 1, 529, NEW_YEAR, null]);
  });

  it("409 STALE_CHANGE_REQUEST when a record it activates changed after the submit", async () => {
    const promotion = await createPromotion({ channelCodes: [(await createChannel()).code] });
    const body = await draft({
      title: "Promotion on",
      effectiveAt: "2027-03-01",
      items: [{ kind: "ACTIVATE", target: { kind: "promotion", id: promotion.id } }],
    });
    await call("POST", `/${body.id}/submit`);
    await api("PATCH", `/v1/api/promotion/${promotion.id}`, { body: { name: "Renamed" } });
    const stale = await call("POST", `/${body.id}/approve`, undefined, APPROVER);
    expectProblem(stale, 409, "STALE_CHANGE_REQUEST");
    expect((await call("GET", `/${body.id}`)).body.status).toBe("DRAFT");
  });

  it("409 EFFECTIVE_IN_PAST at submit (stays DRAFT) and at approve (back to DRAFT)", async () => {
    const a = await exampleA();
    const soon = () => new Date(Date.now() + 1500).toISOString();
    const atSubmit = await draft(setRequest(a.list, a.p1, soon()));
    const pending = await draft(setRequest(a.list, a.p1, soon()));
    await call("POST", `/${pending.id}/submit`);
    await sleep(1600);
    const late = await call("POST", `/${atSubmit.id}/submit`);
    expect(expectProblem(late, 409, "EFFECTIVE_IN_PAST").detail).toContain("has passed");
    expect((await call("GET", `/${atSubmit.id}`)).body.status).toBe("DRAFT");
    const lateApproval = await call("POST", `/${pending.id}/approve`, undefined, APPROVER);
    expectProblem(lateApproval, 409, "EFFECTIVE_IN_PAST");
    expect((await call("GET", `/${pending.id}`)).body.status).toBe("DRAFT");
    // PATCHed to a new date, it goes through.
    await call("PATCH", `/${pending.id}`, { effectiveAt: "2027-05-01" });
    await call("POST", `/${pending.id}/submit`);
    const approved = await call("POST", `/${pending.id}/approve`, undefined, APPROVER);
    expect(approved.body.status).toBe("APPLIED");
  });

  it("429 TOO_MANY_SIMULATIONS at submit while a simulation of the same key runs; stays DRAFT", async () => {
    const a = await exampleA();
    const body = await draft(increase(a.list, a.group));
    // A simulation whose answer is not read yet holds its key's place (docs/simulation.md §9).
    const running = await exports.default.fetch(
      new Request("http://pricing.test/v1/api/simulations/prices", {
        method: "POST",
        headers: { "x-webhook-signature": AUTHOR, "content-type": "application/json" },
        body: JSON.stringify({
          channelCode: a.channel,
          customers: { anonymous: true },
          products: { codes: [a.p1, a.p2] },
          changes: { prices: [{ pricelistId: a.list, productCode: a.p1, amount: 600 }] },
        }),
      }),
    );
    expect(running.status).toBe(200);
    const refused = await call("POST", `/${body.id}/submit`);
    expect(expectProblem(refused, 429, "TOO_MANY_SIMULATIONS").detail).toContain("API key");
    expect(refused.headers.get("retry-after")).toBe("5");
    expect((await call("GET", `/${body.id}`)).body).toMatchObject({
      status: "DRAFT",
      impact: null,
    });
    // Another key is held up too: one simulation at a time per isolate (docs/simulation.md §9);
    // once the answer is read, the author's submit runs.
    const other = await call("POST", `/${body.id}/submit`, undefined, APPROVER);
    await running.text();
    expect(expectProblem(other, 429, "TOO_MANY_SIMULATIONS").detail).toContain("server instance");
    expect((await call("POST", `/${body.id}/submit`)).status).toBe(200);
  });

  it("400 at submit naming an item that cannot take effect: ARCHIVED list, record already ACTIVE", async () => {
    const a = await exampleA();
    const archived = (await createPricelist()).id;
    // Records of a channel of their own: they price nowhere another test looks.
    const active = await createPromotion({
      status: "ACTIVE",
      channelCodes: [(await createChannel()).code],
    });
    const body = await draft({
      title: "Cannot",
      effectiveAt: "2027-01-01",
      items: [
        setItem(archived, [{ productCode: a.p1, amount: 1 }]),
        { kind: "ACTIVATE", target: { kind: "promotion", id: active.id } },
      ],
    });
    await archivePricelist(archived);
    const res = await call("POST", `/${body.id}/submit`);
    expect(expectProblem(res, 400, "VALIDATION_FAILED").errors).toEqual([
      {
        path: "items.0.pricelistId",
        message: `pricelist ${archived} is ARCHIVED and can no longer be edited`,
      },
      {
        path: "items.1.target",
        message: `promotion ${active.id} is ACTIVE already; only a DRAFT or INACTIVE record can be activated`,
      },
    ]);
    expect((await call("GET", `/${body.id}`)).body.status).toBe("DRAFT");
  });
});

/** A request's staged rows and its attempts not applied (docs/api/change-requests.md §17.7). */
async function staging(id: number) {
  const count = async (table: string) =>
    (await env.DB.prepare(`select count(*) as n from ${table} where change_request_id = ?`)
      .bind(id)
      .first<{ n: number }>())!.n;
  return {
    rows: await count("change_request_writes"),
    attempts: await count("change_request_attempts"),
  };
}

/** The attempt whose staged rows request `id` applied (`change_requests.applied_attempt`). */
const appliedAttempt = async (id: number) =>
  (await env.DB.prepare("select applied_attempt as attempt from change_requests where id = ?")
    .bind(id)
    .first<{ attempt: number }>())!.attempt;

/** One run of the per-minute Cron Trigger at `scheduledTime`. */
const tick = (scheduledTime: number) =>
  worker.scheduled(createScheduledController({ scheduledTime, cron: "* * * * *" }), env);

/**
 * An approve of request `id` whose first attempt is left dead, as a Worker that died between its
 * staging and its batch leaves one: its staging makes its batch stale (once), and its clean-up
 * cannot delete its rows until `release` (they stay, with its attempt's row). The approve's
 * answer and the dead attempt.
 */
async function approveAfterADeadAttempt(id: number) {
  await env.DB.batch([
    env.DB.prepare(`CREATE TABLE test_dead_${id} (attempt INTEGER)`),
    env.DB.prepare(
      `CREATE TRIGGER test_stale_once_${id} AFTER INSERT ON change_request_writes
         WHEN NEW.change_request_id = ${id} AND NOT EXISTS (SELECT 1 FROM test_dead_${id})
         BEGIN
           INSERT INTO test_dead_${id} VALUES (NEW.attempt);
           UPDATE change_requests SET updated_at = updated_at + 1 WHERE id = ${id};
         END`,
    ),
    env.DB.prepare(
      `CREATE TRIGGER test_keep_${id} BEFORE DELETE ON change_request_writes
         WHEN OLD.attempt IN (SELECT attempt FROM test_dead_${id})
         BEGIN SELECT RAISE(ABORT, 'kept by the test'); END`,
    ),
  ]);
  let approved;
  try {
    approved = await call("POST", `/${id}/approve`, undefined, APPROVER);
  } finally {
    await env.DB.exec(`DROP TRIGGER test_stale_once_${id}`);
  }
  const dead = (await env.DB.prepare(`SELECT attempt FROM test_dead_${id}`).first<{
    attempt: number;
  }>())!.attempt;
  const release = () =>
    env.DB.batch([
      env.DB.prepare(`DROP TRIGGER test_keep_${id}`),
      env.DB.prepare(`DROP TABLE test_dead_${id}`),
    ]);
  return { approved, dead, release };
}

/**
 * Worked example A's increase submitted, PENDING_APPROVAL under the policy null/null of "apply and
 * cancel", with its list's rows before.
 */
async function pendingIncrease() {
  const a = await exampleA();
  const body = await draft(increase(a.list, a.group));
  await call("POST", `/${body.id}/submit`);
  return { a, body, before: await rows(a.list) };
}

/**
 * Request `id` of `pendingIncrease` after an approve that failed: its list's rows as `before`,
 * still PENDING_APPROVAL, and nothing of the attempt left staged (docs/api/change-requests.md §17.7).
 */
async function expectNothingApplied(id: number, list: number, before: unknown) {
  expect(await rows(list)).toEqual(before);
  expect((await call("GET", `/${id}`)).body).toMatchObject({
    status: "PENDING_APPROVAL",
    approvedBy: null,
    appliedAt: null,
  });
  expect(await staging(id)).toEqual({ rows: 0, attempts: 0 });
}

describe("apply and cancel", () => {
  beforeEach(() => setPolicy(null, null));

  it("SET_PRICES rows from effectiveAt; ACTIVATE and DEACTIVATE move the windows; cancel restores it all", async () => {
    const a = await exampleA();
    const own = (await createChannel()).code;
    const promotion = await createPromotion({ validTo: "2027-12-01", channelCodes: [own] });
    const condition = await createTradeCondition({
      status: "ACTIVE",
      scope: "CHANNEL",
      channelCodes: [own],
      validFrom: "2026-01-01",
    });
    const body = await draft({
      title: "March",
      effectiveAt: "2027-03-01T00:00:00Z",
      items: [
        setItem(a.list, [
          { productCode: a.p1, amount: 550 },
          { productCode: a.p2, minQuantity: 10, amount: 880 },
        ]),
        { kind: "ACTIVATE", target: { kind: "promotion", id: promotion.id } },
        { kind: "DEACTIVATE", target: { kind: "tradeCondition", id: condition.id } },
      ],
    });
    await call("POST", `/${body.id}/submit`);
    const applied = await call("POST", `/${body.id}/approve`, undefined, APPROVER);
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    const MARCH = "2027-03-01T00:00:00.000Z";
    expect(await rows(a.list)).toEqual([
      [a.p1, 1, 500, null, MARCH],
      [a.p1, 1, 550, MARCH, null],
      [a.p2, 1, 1000, null, null],
      [a.p2, 10, 900, null, MARCH],
      [a.p2, 10, 880, MARCH, null],
    ]);
    const promo = (await api("GET", `/v1/api/promotion/${promotion.id}`)).body;
    expect(promo).toMatchObject({
      status: "ACTIVE",
      validFrom: MARCH,
      validTo: "2027-12-01T00:00:00.000Z",
    });
    const tc = (await api("GET", `/v1/api/trade-conditions/${condition.id}`)).body;
    expect(tc).toMatchObject({ status: "ACTIVE", validTo: MARCH });

    const cancelled = await call("POST", `/${body.id}/cancel`);
    expect(cancelled.body.status).toBe("CANCELLED");
    expect(await rows(a.list)).toEqual([
      [a.p1, 1, 500, null, null],
      [a.p2, 1, 1000, null, null],
      [a.p2, 10, 900, null, null],
    ]);
    expect((await api("GET", `/v1/api/promotion/${promotion.id}`)).body).toMatchObject({
      status: "DRAFT",
      validFrom: null,
    });
    expect((await api("GET", `/v1/api/trade-conditions/${condition.id}`)).body).toMatchObject({
      status: "ACTIVE",
      validTo: null,
    });
    expectProblem(await call("POST", `/${body.id}/cancel`), 409, "INVALID_TRANSITION");
  });

  it("a row starting at effectiveAt is replaced; cancel gives it back its amount and its end", async () => {
    const a = await exampleA();
    const MAY = "2027-05-01T00:00:00.000Z";
    const JUNE = "2027-06-01T00:00:00.000Z";
    const scheduled = await api("PUT", `/v1/api/pricelist/${a.list}/prices`, {
      body: { prices: [{ productCode: a.p1, amount: 700, validFrom: MAY, validTo: JUNE }] },
    });
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);
    const before = await rows(a.list);
    const body = await draft(setRequest(a.list, a.p1, MAY));
    await call("POST", `/${body.id}/submit`);
    await call("POST", `/${body.id}/approve`, undefined, APPROVER);
    // Replaced, not cut (docs/pricing-rules.md §17 rule 1): the May row takes 600 and, having
    // no end of its own and no row after it, runs on.
    expect(before.filter((r) => r[0] === a.p1)).toEqual([
      [a.p1, 1, 500, null, MAY],
      [a.p1, 1, 700, MAY, JUNE],
    ]);
    expect((await rows(a.list)).filter((r) => r[0] === a.p1)).toEqual([
      [a.p1, 1, 500, null, MAY],
      [a.p1, 1, 600, MAY, null],
    ]);
    expect((await call("POST", `/${body.id}/cancel`)).body.status).toBe("CANCELLED");
    expect(await rows(a.list)).toEqual(before);
  });

  it("price units (docs/pricing-rules.md §20): a row per 1,000 is adjusted per 1,000; cancel gives the unit back", async () => {
    const a = await exampleA();
    const units = async () =>
      (await api("GET", `/v1/api/pricelist/${a.list}/prices`, { key: KEYS.read })).body.data
        .filter((r: any) => r.productCode === a.p1)
        .map((r: any) => [r.amount, r.priceUnit, r.validFrom]);
    const perThousand = await api("PUT", `/v1/api/pricelist/${a.list}/prices`, {
      body: { prices: [{ productCode: a.p1, amount: 1250, priceUnit: 1000 }] },
    });
    expect(perThousand.status, JSON.stringify(perThousand.body)).toBe(200);
    const body = await draft(increase(a.list, a.group));
    await call("POST", `/${body.id}/submit`);
    expect((await call("POST", `/${body.id}/approve`, undefined, APPROVER)).body.status).toBe(
      "APPLIED",
    );
    // 1250 + 3 % = 1287.5 → 1288, up to …9: 1289, still the price of 1,000 pieces.
    expect(await units()).toEqual([
      [1250, 1000, null],
      [1289, 1000, "2027-01-01T00:00:00.000Z"],
    ]);
    const priced = await api("POST", "/v1/api/prices/resolve", {
      key: KEYS.read,
      body: {
        channelCode: a.channel,
        at: "2027-01-02T00:00:00Z",
        lines: [{ productCode: a.p1, quantity: 2000 }],
      },
    });
    expect(priced.body.lines[0]).toMatchObject({ priceUnit: 1000, lineAmount: 2578 });
    expect((await call("POST", `/${body.id}/cancel`)).body.status).toBe("CANCELLED");
    expect(await units()).toEqual([[1250, 1000, null]]);
  });

  it("the apply is one batch: a statement that fails in it leaves nothing written", async () => {
    const { a, body, before } = await pendingIncrease();
    const auditBefore = (await api("GET", "/v1/api/audit?limit=1")).body.meta.totalItems;
    // P-2's new row (1039) is the last row the batch inserts, after the cuts (from the rows
    // staged before the batch) and P-1's new row: a trigger refuses it.
    await env.DB.exec(
      "CREATE TRIGGER test_refuse_1039 BEFORE INSERT ON pricelist_prices WHEN NEW.amount = 1039 BEGIN SELECT RAISE(ABORT, 'refused by the test'); END",
    );
    try {
      const failed = await call("POST", `/${body.id}/approve`, undefined, APPROVER);
      expect(failed.status).toBe(500);
    } finally {
      await env.DB.exec("DROP TRIGGER test_refuse_1039");
    }
    // The failed attempt removed what it staged.
    await expectNothingApplied(body.id, a.list, before);
    expect((await api("GET", "/v1/api/audit?limit=1")).body.meta.totalItems).toBe(auditBefore);
    // Nothing stands in the way afterwards.
    const approved = await call("POST", `/${body.id}/approve`, undefined, APPROVER);
    expect(approved.body.status).toBe("APPLIED");
    expect(await rows(a.list)).toHaveLength(6);
  });

  it("an approve whose guard goes stale after its staging writes nothing, leaves no staged rows, stays PENDING", async () => {
    const { a, body, before } = await pendingIncrease();
    // Every staging statement changes the request behind the approve's back, between its read and
    // its batch (as a concurrent withdraw or reject would): each attempt's batch finds it stale.
    await env.DB.exec(
      `CREATE TRIGGER test_stale_${body.id} AFTER INSERT ON change_request_writes WHEN NEW.change_request_id = ${body.id} BEGIN UPDATE change_requests SET updated_at = updated_at + 1 WHERE id = ${body.id}; END`,
    );
    try {
      const res = await call("POST", `/${body.id}/approve`, undefined, APPROVER);
      expectProblem(res, 409, "CONCURRENT_UPDATE");
    } finally {
      await env.DB.exec(`DROP TRIGGER test_stale_${body.id}`);
    }
    await expectNothingApplied(body.id, a.list, before);
  });

  it("a failed attempt's rows left behind: the next attempt applies, the Cron sweeps the dead one, cancel restores exactly", async () => {
    const { a, body, before } = await pendingIncrease();
    const { approved, dead, release } = await approveAfterADeadAttempt(body.id);
    await release();
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.status).toBe("APPLIED");
    const applied = await appliedAttempt(body.id);
    expect(applied).toBeGreaterThan(dead);
    // Both attempts staged the same six rows (three cut, three new); only the dead one's row of
    // change_request_attempts is left (the batch removed the applied one's).
    const byAttempt = async () =>
      (
        await env.DB.prepare(
          "select attempt, count(*) as n from change_request_writes where change_request_id = ? group by attempt order by attempt",
        )
          .bind(body.id)
          .all<{ attempt: number; n: number }>()
      ).results;
    expect(await byAttempt()).toEqual([
      { attempt: dead, n: 6 },
      { attempt: applied, n: 6 },
    ]);
    expect(await staging(body.id)).toEqual({ rows: 12, attempts: 1 });
    const after = await rows(a.list);
    expect(after).toHaveLength(6);

    // A tick within STAGED_ATTEMPT_TTL_MS of the attempt keeps it (it might still be running);
    // one after it sweeps the dead attempt and keeps the applied one.
    await tick(Date.now());
    expect(await staging(body.id)).toEqual({ rows: 12, attempts: 1 });
    await tick(Date.now() + 11 * 60_000);
    expect(await byAttempt()).toEqual([{ attempt: applied, n: 6 }]);
    expect(await staging(body.id)).toEqual({ rows: 6, attempts: 0 });
    expect(await rows(a.list)).toEqual(after);

    // The cancel restores exactly what the applied attempt wrote.
    const cancelled = await call("POST", `/${body.id}/cancel`);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.status).toBe("CANCELLED");
    expect(await rows(a.list)).toEqual(before);
    expect(await staging(body.id)).toEqual({ rows: 0, attempts: 0 });
  });

  it("a cancel after a failed attempt and a successful one restores exactly, leaving the dead rows to the sweep", async () => {
    const { a, body, before } = await pendingIncrease();
    const { approved, release } = await approveAfterADeadAttempt(body.id);
    try {
      expect(approved.body.status).toBe("APPLIED");
      // The dead attempt's staged rows (its after values are the applied one's) are still there
      // when the cancel runs: it reads, restores and removes only the applied attempt's.
      expect(await staging(body.id)).toEqual({ rows: 12, attempts: 1 });
      const cancelled = await call("POST", `/${body.id}/cancel`);
      expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
      expect(await rows(a.list)).toEqual(before);
      expect(await staging(body.id)).toEqual({ rows: 6, attempts: 1 });
    } finally {
      await release();
    }
    await tick(Date.now() + 11 * 60_000);
    expect(await staging(body.id)).toEqual({ rows: 0, attempts: 0 });
    expect(await rows(a.list)).toEqual(before);
  });

  it("an attempt swept before its batch (as if it outlived STAGED_ATTEMPT_TTL_MS) fails its guard; the approve starts again", async () => {
    const { a, body, before } = await pendingIncrease();
    // The first attempt's row goes as soon as it starts, as the Cron's sweep would remove it:
    // its staging inserts nothing, and its batch's guard finds the attempt gone.
    await env.DB.batch([
      env.DB.prepare(`CREATE TABLE test_swept_${body.id} (attempt INTEGER)`),
      env.DB.prepare(
        `CREATE TRIGGER test_sweep_${body.id} AFTER INSERT ON change_request_attempts
         WHEN NEW.change_request_id = ${body.id} AND NOT EXISTS (SELECT 1 FROM test_swept_${body.id})
         BEGIN
           INSERT INTO test_swept_${body.id} VALUES (NEW.id);
           DELETE FROM change_request_attempts WHERE id = NEW.id;
         END`,
      ),
    ]);
    let approved;
    try {
      approved = await call("POST", `/${body.id}/approve`, undefined, APPROVER);
    } finally {
      await env.DB.exec(`DROP TRIGGER test_sweep_${body.id}`);
    }
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const swept = (await env.DB.prepare(`SELECT attempt FROM test_swept_${body.id}`).first<{
      attempt: number;
    }>())!.attempt;
    await env.DB.exec(`DROP TABLE test_swept_${body.id}`);
    expect(await appliedAttempt(body.id)).toBeGreaterThan(swept);
    // Written once, from the second attempt's rows; the first one staged none.
    expect(await rows(a.list)).toHaveLength(6);
    expect(await staging(body.id)).toEqual({ rows: 6, attempts: 0 });
    expect((await call("POST", `/${body.id}/cancel`)).body.status).toBe("CANCELLED");
    expect(await rows(a.list)).toEqual(before);
  });

  it("a discard that comes after its attempt applied (a sweep that read it as dead before the batch) leaves the applied rows: cancel restores them", async () => {
    const { a, body, before } = await pendingIncrease();
    expect((await call("POST", `/${body.id}/approve`, undefined, APPROVER)).body.status).toBe(
      "APPLIED",
    );
    // The sweep's discard of the attempt it listed, run after the attempt's batch applied it (or
    // the clean-up of a batch that committed but answered with an error).
    const attempt = await appliedAttempt(body.id);
    await discardAttempt(createDb(env.DB, new DbMeter()), { changeRequestId: body.id, attempt });
    expect(await staging(body.id)).toEqual({ rows: 6, attempts: 0 });
    expect((await call("POST", `/${body.id}/cancel`)).body.status).toBe("CANCELLED");
    expect(await rows(a.list)).toEqual(before);
  });

  it("a request applied before migration 0031 (its rows under attempt 0, no appliedAttempt) is cancelled exactly", async () => {
    const { a, body, before } = await pendingIncrease();
    await call("POST", `/${body.id}/approve`, undefined, APPROVER);
    // As migration 0031 leaves a request applied before it.
    await env.DB.batch([
      env.DB.prepare(
        "update change_request_writes set attempt = 0 where change_request_id = ?",
      ).bind(body.id),
      env.DB.prepare("update change_requests set applied_attempt = null where id = ?").bind(
        body.id,
      ),
    ]);
    expect((await call("POST", `/${body.id}/cancel`)).body.status).toBe("CANCELLED");
    expect(await rows(a.list)).toEqual(before);
    expect(await staging(body.id)).toEqual({ rows: 0, attempts: 0 });
  });

  it("two approves at once, and an approve racing a withdraw: one wins, the other's attempt leaves nothing", async () => {
    const a = await exampleA();
    const before = await rows(a.list);
    const first = await draft(increase(a.list, a.group));
    await call("POST", `/${first.id}/submit`);
    const approves = await Promise.all([
      call("POST", `/${first.id}/approve`, undefined, APPROVER),
      call("POST", `/${first.id}/approve`, undefined, "test-writer-key-3"),
    ]);
    // The loser is refused: its attempt's batch found the request APPLIED (409), or its impact
    // waited for the winner's simulation (429 TOO_MANY_SIMULATIONS).
    const statuses = approves.map((r) => r.status).sort();
    expect(statuses[0]).toBe(200);
    expect([409, 429]).toContain(statuses[1]);
    expect(await rows(a.list)).toHaveLength(6);
    expect(await staging(first.id)).toEqual({ rows: 6, attempts: 0 });
    expect((await call("POST", `/${first.id}/cancel`)).body.status).toBe("CANCELLED");
    expect(await rows(a.list)).toEqual(before);

    const second = await draft(increase(a.list, a.group));
    await call("POST", `/${second.id}/submit`);
    const [approve, withdraw] = await Promise.all([
      call("POST", `/${second.id}/approve`, undefined, APPROVER),
      call("POST", `/${second.id}/withdraw`),
    ]);
    const status = (await call("GET", `/${second.id}`)).body.status;
    if (status === "APPLIED") {
      expect([approve.status, withdraw.status]).toEqual([200, 409]);
      expect(await rows(a.list)).toHaveLength(6);
      expect(await staging(second.id)).toEqual({ rows: 6, attempts: 0 });
    } else {
      expect(status).toBe("CANCELLED");
      expect([approve.status, withdraw.status]).toEqual([409, 200]);
      expect(await rows(a.list)).toEqual(before);
      expect(await staging(second.id)).toEqual({ rows: 0, attempts: 0 });
    }
  });

  it("cancel is refused (409, nothing restored) when a row it wrote was changed since", async () => {
    const a = await exampleA();
    const body = await draft(setRequest(a.list, a.p1, "2027-04-01"));
    await call("POST", `/${body.id}/submit`);
    await call("POST", `/${body.id}/approve`, undefined, APPROVER);
    await api("PUT", `/v1/api/pricelist/${a.list}/prices`, {
      body: { prices: [{ productCode: a.p1, amount: 650, validFrom: "2027-04-01" }] },
    });
    const res = await call("POST", `/${body.id}/cancel`);
    expect(expectProblem(res, 409, "CONFLICT").detail).toContain("nothing was restored");
    expect((await call("GET", `/${body.id}`)).body.status).toBe("APPLIED");
  });

  it("without effectiveAt it applies now; cancel is then 409 ALREADY_EFFECTIVE", async () => {
    const a = await exampleA();
    await setPolicy(10_000, 10_000);
    const body = await draft(setRequest(a.list, a.p1, null));
    const submitted = await call("POST", `/${body.id}/submit`);
    expect(submitted.body).toMatchObject({
      status: "APPLIED",
      approvedBy: "policy",
      effectiveAt: null,
    });
    const now = await resolve(a.channel, new Date().toISOString(), [
      { productCode: a.p1, quantity: 1 },
    ]);
    expect(now.lines[0].finalUnitAmount).toBe(600);
    const res = await call("POST", `/${body.id}/cancel`);
    expect(expectProblem(res, 409, "ALREADY_EFFECTIVE").detail).toContain(
      "can no longer be cancelled",
    );
  });

  it("the audit trail names the author and the approver, on the request and on the rows written", async () => {
    const a = await exampleA();
    const body = await draft(increase(a.list, a.group));
    await call("POST", `/${body.id}/submit`);
    await call("POST", `/${body.id}/approve`, undefined, APPROVER);
    const trail = await api(
      "GET",
      `/v1/api/audit?filter.entity=changeRequest&filter.entityId=${body.id}&sortBy=id:ASC`,
    );
    expect(trail.body.data.map((e: any) => [e.keyName, e.operation, e.action])).toEqual([
      ["writer-1", "createChangeRequest", "INSERT"],
      ["writer-1", "submitChangeRequest", "UPDATE"],
      ["writer-2", "approveChangeRequest", "UPDATE"],
    ]);
    // The request's own entries: its author where it was created, its approver where approved
    // (an UPDATE shows the fields it changed).
    expect(trail.body.data[0].after).toMatchObject({ author: "writer-1", status: "DRAFT" });
    const approval = trail.body.data[2];
    expect(approval.after).toMatchObject({ approvedBy: "writer-2", status: "APPLIED" });
    const written = await api(
      "GET",
      `/v1/api/audit?filter.requestId=${approval.requestId}&filter.entity=pricelistPrice`,
    );
    expect(written.body.meta.totalItems).toBe(6);
    expect(new Set(written.body.data.map((e: any) => e.keyName))).toEqual(new Set(["writer-2"]));
  });
});

describe("the approval policy", () => {
  it("is null/null by default, set by PUT, 400 on a bad limit", async () => {
    await setPolicy(null, null);
    expect((await call("GET", "/policy")).body).toMatchObject({
      autoApproveMaxRaiseBp: null,
      autoApproveMaxCutBp: null,
      proposal: null,
    });
    const bad = await call("PUT", "/policy", {
      autoApproveMaxRaiseBp: -1,
      autoApproveMaxCutBp: 1.5,
    });
    expect(issuePaths(bad)).toEqual(["body.autoApproveMaxRaiseBp", "body.autoApproveMaxCutBp"]);
    await setPolicy(250, 0);
    expect((await call("GET", "/policy")).body).toMatchObject({
      autoApproveMaxRaiseBp: 250,
      autoApproveMaxCutBp: 0,
      setBy: "writer-1",
      approvedBy: "writer-9",
      proposal: null,
    });
    await setPolicy(null, null);
  });

  it(
    "the impact covers 10 channels and 1,000 products by code; what it leaves out is counted and is never approved by the policy",
    { timeout: 60_000 },
    async () => {
      const list = (await createPricelist({ status: "ACTIVE" })).id as number;
      const prefix = uid("IMP");
      const channels = Array.from(
        { length: 11 },
        (_, i) => `${prefix}-${String(i).padStart(2, "0")}`,
      );
      for (const code of channels) {
        await createChannel({ code });
        await setPrimaryPricelist(code, list);
      }
      const products = Array.from(
        { length: 1001 },
        (_, i) => `${prefix}-P${String(i).padStart(4, "0")}`,
      );
      for (const chunk of [products.slice(0, 1000), products.slice(1000)]) {
        const put = await api("PUT", "/v1/api/product", {
          body: { products: chunk.map((code) => ({ code, name: code })) },
        });
        expect(put.status, JSON.stringify(put.body)).toBe(200);
      }
      await setPolicy(10_000, 10_000);
      const body = await draft({
        title: "Wide",
        effectiveAt: "2027-01-01",
        items: [
          setItem(
            list,
            products.map((productCode) => ({ productCode, amount: 100 })),
          ),
        ],
      });
      const submitted = await call("POST", `/${body.id}/submit`);
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
      // New prices only (no price before): the pairs change, but have no ratio.
      expect(submitted.body).toMatchObject({
        status: "PENDING_APPROVAL",
        impact: {
          channelCodes: channels.slice(0, 10),
          channelsOmitted: 1,
          productsOmitted: 1,
          pricesCompared: 10 * 1000,
          pricesChanged: 10 * 1000,
          maxRaiseBp: 0,
          maxCutBp: 0,
          totalBefore: 0,
          totalAfter: 0,
          distribution: [],
        },
      });
      await setPolicy(null, null);
    },
  );

  it("one limit alone approves nothing; a cut beyond its limit waits for approval", async () => {
    const a = await exampleA();
    await setPolicy(10_000, null);
    const one = await draft(setRequest(a.list, a.p1));
    expect((await call("POST", `/${one.id}/submit`)).body.status).toBe("PENDING_APPROVAL");
    await setPolicy(10_000, 0);
    const cut = await draft({
      title: "Cut",
      effectiveAt: "2027-01-01",
      items: [setItem(a.list, [{ productCode: a.p2, amount: 990 }])],
    });
    const submitted = await call("POST", `/${cut.id}/submit`);
    expect(submitted.body).toMatchObject({ status: "PENDING_APPROVAL" });
    expect(submitted.body.impact).toMatchObject({ maxRaiseBp: 0, maxCutBp: 100 });
    await setPolicy(null, null);
  });
});

describe("go-live: the Cron Trigger and the price caches", () => {
  beforeEach(() => setPolicy(10_000, 10_000));

  async function effectiveEntries(id: number, after: number) {
    const res = await api("GET", `/v1/api/changes?after=${after}&limit=1000`);
    return (res.body.data as any[]).filter(
      (c) => c.entity === "changeRequest" && c.action === "EFFECTIVE" && c.key.id === id,
    );
  }

  it("records change-request.effective once, within the tick after effectiveAt, and delivers it", async () => {
    const a = await exampleA();
    const path = `/hooks/${uid("cr")}`;
    await created("/v1/api/webhooks", { url: `${RECEIVER}${path}`, events: ["changeRequests"] });
    const start = await head();
    const effectiveAt = Date.parse("2027-01-01T00:00:00Z");
    const body = await draft(increase(a.list, a.group));
    expect((await call("POST", `/${body.id}/submit`)).body.status).toBe("APPLIED");
    await tick(effectiveAt - 60_000);
    expect(await effectiveEntries(body.id, start)).toEqual([]);
    // Two runs at once, and one more a minute later: one entry.
    await Promise.all([tick(effectiveAt + 30_000), tick(effectiveAt + 30_000)]);
    await tick(effectiveAt + 60_000);
    const entries = await effectiveEntries(body.id, start);
    expect(entries).toEqual([
      {
        cursor: expect.any(Number),
        at: expect.any(String),
        event: "changeRequests",
        entity: "changeRequest",
        key: { id: body.id },
        action: "EFFECTIVE",
        operation: "recordChangeRequestEffective",
        requestId: `change-request-${body.id}-effective`,
        affects: { productGroupCodes: [a.group], pricelistIds: [a.list] },
      },
    ]);
    // Once announced as effective it can no longer be cancelled (its kept rows are gone).
    const late = await call("POST", `/${body.id}/cancel`);
    expect(expectProblem(late, 409, "ALREADY_EFFECTIVE").detail).toBe(
      `change request ${body.id} took effect at ${NEW_YEAR}; it can no longer be cancelled (write a new one to undo it)`,
    );
    expect((await call("GET", `/${body.id}`)).body.status).toBe("APPLIED");
    expect(await rows(a.list)).toHaveLength(6);
    const batches = await until(`the effective entry at ${path}`, async () => {
      const taken = (await receivedAt(path)).filter((r) => r.answered === 200);
      const changes = taken.flatMap((r) => (JSON.parse(r.body) as Delivery).changes);
      return changes.some((c) => c.cursor === entries[0].cursor) ? changes : undefined;
    });
    expect(batches.filter((c) => c.cursor === entries[0].cursor)).toHaveLength(1);
    expect(new Set(batches.map((c) => c.event))).toEqual(new Set(["changeRequests"]));
  });

  it(
    "a lookup's max-age just before effectiveAt is the seconds left; its ETag changes at it",
    {
      timeout: 30_000,
    },
    async () => {
      const a = await exampleA();
      // Far enough ahead for the submit (which simulates, twice with a cumulative base) to finish
      // before it, even on a busy machine.
      const effectiveAt = Date.now() + 10_000;
      const body = await draft(setRequest(a.list, a.p1, new Date(effectiveAt).toISOString()));
      expect((await call("POST", `/${body.id}/submit`)).body.status).toBe("APPLIED");
      const lookup = (headers: Record<string, string> = {}) =>
        api("GET", `/v1/api/prices?channel=${a.channel}&product=${a.p1}`, {
          key: KEYS.read,
          headers,
        });
      const sent = Date.now();
      const before = await lookup();
      const answered = Date.now();
      expect(before.body.lines[0].finalUnitAmount).toBe(500);
      expect(before.body.validUntil).toBe(new Date(effectiveAt).toISOString());
      const maxAge = Number(
        /^private, max-age=(\d+)$/.exec(before.headers.get("cache-control")!)![1],
      );
      expect(maxAge).toBeGreaterThanOrEqual(Math.floor((effectiveAt - answered) / 1000));
      expect(maxAge).toBeLessThanOrEqual(Math.floor((effectiveAt - sent) / 1000));
      const tag = before.headers.get("etag")!;
      expect((await lookup({ "if-none-match": tag })).status).toBe(304);
      await sleep(Math.max(0, effectiveAt - Date.now()) + 50);
      const after = await lookup({ "if-none-match": tag });
      expect(after.status).toBe(200);
      expect(after.headers.get("etag")).not.toBe(tag);
      expect(after.body.lines[0].finalUnitAmount).toBe(600);
    },
  );
});

describe("read keys", () => {
  it("are refused on every route, GET included", async () => {
    const routes = [
      ["GET", ""],
      ["POST", ""],
      ["GET", "/policy"],
      ["PUT", "/policy"],
      ["POST", "/policy/approve"],
      ["GET", "/1"],
      ["PATCH", "/1"],
      ...["submit", "approve", "reject", "withdraw", "cancel"].map((a) => ["POST", `/1/${a}`]),
    ];
    for (const [method, path] of routes) {
      const res = await call(method!, path!, method === "GET" ? undefined : {}, KEYS.read);
      expect(expectProblem(res, 403, "FORBIDDEN").detail).toContain("admin key");
    }
  });
});
