import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { seedExampleF } from "../../scripts/lib/demo-quotes.mjs";
import { WORKED_EXAMPLE_F as EXAMPLE_F } from "../../scripts/lib/worked-examples.mjs";
import { api, expectProblem, issuePaths, KEYS, SALES_KEYS } from "../shared/helpers";
import { act, ok } from "../shared/quote-calls";

/**
 * The quote's contract beyond worked example F (docs/quotes.md): who may do what (the sales
 * role), bad input answered with a problem naming the field and nothing written, every status
 * refusing what it does not allow, expiry, auto-approval, NO_APPROVAL_TIER, STALE_QUOTE, retries
 * with Idempotency-Key and the audit trail of every transition.
 */

const { channel, customer, product } = EXAMPLE_F.codes;
const rep1 = SALES_KEYS["rep-1"];
const manager = SALES_KEYS.manager;
const DAY = 86_400_000;
const ids = { sales: 0, cost: 0, floor: 0 };

const call = (method: string, path: string, body: unknown, key: string) =>
  api(method, path, { body, key });

beforeAll(async () => {
  Object.assign(ids, await seedExampleF(call, KEYS.admin));
  // P-FREE: no floor and no cost (any cut, margin null); P-RICH: cost 100 (auto-approval);
  // P-STALE: its price moves under a pending quote; P-NONE: no price at all.
  for (const code of ["P-FREE", "P-RICH", "P-STALE", "P-NONE"]) {
    expect((await call("POST", "/v1/api/product", { code, name: code }, KEYS.admin)).status).toBe(
      201,
    );
  }
  const prices = [
    { productCode: "P-FREE", amount: 1000 },
    { productCode: "P-RICH", amount: 1000 },
    { productCode: "P-STALE", amount: 500 },
  ];
  expect(
    (await call("PUT", `/v1/api/pricelist/${ids.sales}/prices`, { prices }, KEYS.admin)).status,
  ).toBe(200);
  const cost = [{ productCode: "P-RICH", amount: 100 }];
  expect(
    (await call("PUT", `/v1/api/pricelist/${ids.cost}/prices`, { prices: cost }, KEYS.admin))
      .status,
  ).toBe(200);
  await call("POST", "/v1/api/customer", { code: "K-OUT", name: "not in WEB" }, KEYS.admin);
});

const body = (lines: unknown[], extra: Record<string, unknown> = {}) => ({
  customerCode: customer,
  channelCode: channel,
  validTo: new Date(Date.now() + 30 * DAY).toISOString(),
  lines,
  ...extra,
});

const line = (unitAmount?: number, productCode = product, quantity = 60) => ({
  productCode,
  quantity,
  ...(unitAmount === undefined ? {} : { unitAmount }),
});

async function create(lines: unknown[], extra: Record<string, unknown> = {}, key = rep1) {
  const res = await api("POST", "/v1/api/quotes", { key, body: body(lines, extra) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; [k: string]: any };
}

const count = async () =>
  (await api("GET", "/v1/api/quotes?limit=1", { key: KEYS.admin })).body.meta.totalItems as number;

describe("the sales role (docs/quotes.md §1)", () => {
  it("writes quotes, reads like a read key, and every other write is 403", async () => {
    const me = await api("GET", "/v1/api/me", { key: rep1 });
    expect(me.body).toEqual({ name: "rep-1", owner: "rep-1", role: "sales" });
    const refused = [
      ["POST", "/v1/api/product", { code: "P-X", name: "x" }],
      ["PATCH", `/v1/api/pricelist/${ids.sales}`, { name: "renamed" }],
      ["PUT", "/v1/api/quotes/policy", EXAMPLE_F.policy],
      ["POST", "/v1/api/change-requests", { title: "t", effectiveAt: null, items: [] }],
    ] as const;
    for (const [method, path, payload] of refused) {
      expectProblem(await api(method, path, { key: rep1, body: payload }), 403, "FORBIDDEN");
    }
    for (const path of ["/v1/api/quotes/policy", "/v1/api/audit", "/v1/api/change-requests"]) {
      expectProblem(await api("GET", path, { key: rep1 }), 403, "FORBIDDEN");
    }
    expect((await api("GET", "/v1/api/product?limit=5", { key: rep1 })).status).toBe(200);
    const costLists = await api("GET", "/v1/api/pricelist?filter.kind=COST", { key: rep1 });
    expect(costLists.body.data).toEqual([]);
  });

  it("a sales key's accept, decline and redeem are 403; a read key's create, submit, send 403", async () => {
    const quote = await create([line(360)]);
    for (const action of ["accept", "decline", "redeem"]) {
      const payload =
        action === "redeem" ? { orderRef: "SO-1" } : action === "decline" ? {} : undefined;
      const problem = expectProblem(await act(quote.id, action, rep1, payload), 403, "FORBIDDEN");
      expect(problem.detail).toContain("a sales key cannot");
    }
    expectProblem(
      await api("POST", "/v1/api/quotes", { key: KEYS.read, body: body([line(360)]) }),
      403,
      "FORBIDDEN",
    );
    for (const action of ["submit", "approve", "send", "withdraw"]) {
      expectProblem(await act(quote.id, action, KEYS.read), 403, "FORBIDDEN");
    }
    expectProblem(
      await api("PATCH", `/v1/api/quotes/${quote.id}`, { key: KEYS.read, body: {} }),
      403,
      "FORBIDDEN",
    );
    expect((await api("GET", `/v1/api/quotes/${quote.id}`, { key: KEYS.read })).status).toBe(200);
  });
});

describe("bad input: a problem naming the field, nothing written (docs/quotes.md §2)", () => {
  it("unknown and duplicate products, 101 lines, non-integer and negative amounts → 400", async () => {
    const before = await count();
    const cases: [unknown[], string[]][] = [
      [[line(350, "P-GHOST")], ["body.lines.0.productCode"]],
      [[line(350), line(351)], ["body.lines.1.productCode"]],
      [Array.from({ length: 101 }, () => line(350)), ["body.lines"]],
      [[line(350.5)], ["body.lines.0.unitAmount"]],
      [[line(-1)], ["body.lines.0.unitAmount"]],
      [[line(350, product, 0)], ["body.lines.0.quantity"]],
      [[line(350, product, 2.5)], ["body.lines.0.quantity"]],
      [[], ["body.lines"]],
    ];
    for (const [lines, paths] of cases) {
      const res = await api("POST", "/v1/api/quotes", { key: rep1, body: body(lines) });
      expect(issuePaths(res), JSON.stringify(lines).slice(0, 80)).toEqual(paths);
    }
    const unknownCustomer = await api("POST", "/v1/api/quotes", {
      key: rep1,
      body: body([line(350)], { customerCode: "K-GHOST", channelCode: "NO-SUCH" }),
    });
    expect(issuePaths(unknownCustomer)).toEqual(["body.customerCode", "body.channelCode"]);
    expect(await count()).toBe(before);
  });

  it("validTo in the past or more than 366 days ahead → 422 naming body.validTo", async () => {
    const before = await count();
    for (const validTo of [
      new Date(Date.now() - 1000).toISOString(),
      new Date(Date.now() + 367 * DAY).toISOString(),
    ]) {
      const res = await api("POST", "/v1/api/quotes", {
        key: rep1,
        body: body([line(350)], { validTo }),
      });
      const problem = expectProblem(res, 422, "VALID_TO_OUT_OF_RANGE");
      expect(problem.errors?.map((e) => e.path)).toEqual(["body.validTo"]);
    }
    expect(await count()).toBe(before);
  });

  it("a line without a price → 422 LINE_NOT_PRICED naming it; a customer outside the channel → 409", async () => {
    const before = await count();
    const res = await api("POST", "/v1/api/quotes", {
      key: rep1,
      body: body([line(350), line(100, "P-NONE", 5)]),
    });
    const problem = expectProblem(res, 422, "LINE_NOT_PRICED");
    expect(problem.errors).toEqual([
      { path: "body.lines.1", message: `is NO_PRICE for ${customer} in ${channel}` },
    ]);
    const outside = await api("POST", "/v1/api/quotes", {
      key: rep1,
      body: body([line(350)], { customerCode: "K-OUT" }),
    });
    expectProblem(outside, 409, "CUSTOMER_NOT_IN_CHANNEL");
    expect(await count()).toBe(before);
  });

  it("an unknown quote is 404; a malformed id 400", async () => {
    expectProblem(await api("GET", "/v1/api/quotes/987654", { key: rep1 }), 404, "NOT_FOUND");
    expectProblem(await act(987654, "submit", rep1), 404, "NOT_FOUND");
    expect(issuePaths(await api("GET", "/v1/api/quotes/abc", { key: rep1 }))).toEqual(["path.id"]);
  });
});

describe("statuses and actions (docs/quotes.md §3)", () => {
  it("an action in another status → 409 INVALID_TRANSITION naming status and action", async () => {
    const quote = await create([line(350)]);
    const send = expectProblem(await act(quote.id, "send", rep1), 409, "INVALID_TRANSITION");
    expect(send.detail).toBe(
      `quote ${quote.id} is DRAFT; send is allowed only when it is APPROVED`,
    );
    expectProblem(await act(quote.id, "accept", KEYS.read), 409, "INVALID_TRANSITION");
    await ok(quote.id, "submit", rep1);
    const patch = await api("PATCH", `/v1/api/quotes/${quote.id}`, { key: rep1, body: {} });
    expect(expectProblem(patch, 409, "INVALID_TRANSITION").detail).toContain(
      "is PENDING_APPROVAL; update is allowed only when it is DRAFT or RENEGOTIATING",
    );
    const rejected = await ok(quote.id, "reject", manager, { reason: "too deep" });
    expect(rejected).toMatchObject({
      status: "DRAFT",
      rejectedBy: "manager",
      rejectionReason: "too deep",
      requiredTier: null,
    });
    await ok(quote.id, "withdraw", rep1);
    expectProblem(await act(quote.id, "withdraw", rep1), 409, "INVALID_TRANSITION");
  });

  it("a declined quote is DECLINED; redeem once, again → 409 QUOTE_REDEEMED; an AGREEMENT is not redeemed", async () => {
    const sent = async (extra: Record<string, unknown> = {}) => {
      const quote = await create([line(350)], extra);
      await ok(quote.id, "submit", rep1);
      await ok(quote.id, "approve", manager);
      await ok(quote.id, "send", rep1);
      return quote.id;
    };
    const declined = await ok(await sent(), "decline", KEYS.read, { reason: "no budget" });
    expect(declined).toMatchObject({ status: "DECLINED", declineReason: "no budget" });

    const once = await sent();
    await ok(once, "accept", KEYS.read);
    const redeemed = await ok(once, "redeem", KEYS.read, { orderRef: "SO-42" });
    expect(redeemed).toMatchObject({ status: "REDEEMED", orderRef: "SO-42" });
    expect(redeemed.redeemedAt).not.toBeNull();
    expectProblem(
      await act(once, "redeem", KEYS.read, { orderRef: "SO-43" }),
      409,
      "QUOTE_REDEEMED",
    );
    expect(issuePaths(await act(once, "redeem", KEYS.read, {}))).toEqual(["body.orderRef"]);

    const agreement = await sent({ mode: "AGREEMENT", lock: "BETTER_OF" });
    const accepted = await ok(agreement, "accept", KEYS.admin);
    expect(accepted).toMatchObject({ status: "ACCEPTED", mode: "AGREEMENT", lock: "BETTER_OF" });
    const refused = expectProblem(
      await act(agreement, "redeem", KEYS.read, { orderRef: "SO-44" }),
      409,
      "INVALID_TRANSITION",
    );
    expect(refused.detail).toContain("AGREEMENT");
  });

  it("past validTo an unanswered quote reads EXPIRED and every action → 409 QUOTE_EXPIRED", async () => {
    const draft = await create([line(350)]);
    const accepted = await create([line(350)]);
    await ok(accepted.id, "submit", rep1);
    await ok(accepted.id, "approve", manager);
    await ok(accepted.id, "send", rep1);
    await ok(accepted.id, "accept", KEYS.read);
    await env.DB.prepare("UPDATE quotes SET valid_to = ? WHERE id IN (?, ?)")
      .bind(Date.now() - 1000, draft.id, accepted.id)
      .run();
    const read = await api("GET", `/v1/api/quotes/${draft.id}`, { key: KEYS.read });
    expect(read.body.status).toBe("EXPIRED");
    for (const action of ["submit", "withdraw"]) {
      expectProblem(await act(draft.id, action, rep1), 409, "QUOTE_EXPIRED");
    }
    const patch = await api("PATCH", `/v1/api/quotes/${draft.id}`, { key: rep1, body: {} });
    expectProblem(patch, 409, "QUOTE_EXPIRED");
    // An ACCEPTED quote stays ACCEPTED past validTo (honouring says when it no longer prices).
    const answered = await api("GET", `/v1/api/quotes/${accepted.id}`, { key: KEYS.read });
    expect(answered.body.status).toBe("ACCEPTED");
    const expired = await api("GET", "/v1/api/quotes?filter.status=EXPIRED&limit=100", {
      key: rep1,
    });
    expect(expired.body.data.map((q: any) => q.id)).toEqual([draft.id]);
    const drafts = await api("GET", "/v1/api/quotes?filter.status=DRAFT&limit=100", { key: rep1 });
    expect(drafts.body.data.map((q: any) => q.id)).not.toContain(draft.id);
  });
});

describe("approval by authority (docs/quotes.md §4)", () => {
  it("within autoApprove → APPROVED by policy at submit", async () => {
    // P-RICH at 990: cut ⌈10 × 10000 / 1000⌉ = 100 ≤ 200, margin ⌊890 × 10000 / 990⌋ = 8989.
    const quote = await create([line(990, "P-RICH", 5)]);
    expect(quote.lines[0]).toMatchObject({ cutBp: 100, marginBp: 8989 });
    const submitted = await ok(quote.id, "submit", rep1);
    expect(submitted).toMatchObject({ status: "APPROVED", approvedBy: "policy" });
  });

  it("regular price quoted, no cut: REP's limits, which rep-1 may not approve and rep-2 may", async () => {
    // 391: cut 0, margin ⌊91 × 10000 / 391⌋ = 2327 < 2500 → REP { 500, 2000 }.
    const quote = await create([line()]);
    expect(quote.lines[0]).toMatchObject({ quotedUnitAmount: 391, cutBp: 0, marginBp: 2327 });
    expect(await ok(quote.id, "submit", rep1)).toMatchObject({ requiredTier: "REP" });
    expectProblem(await act(quote.id, "approve", rep1), 403, "SELF_APPROVAL");
    expect(await ok(quote.id, "approve", SALES_KEYS["rep-2"])).toMatchObject({
      status: "APPROVED",
      approvedBy: "rep-2",
    });
  });

  it("within no tier → 422 NO_APPROVAL_TIER, the quote stays DRAFT; an admin key approves any tier", async () => {
    // P-FREE at 500: cut 5000 > DIRECTOR's 3000.
    const deep = await create([line(500, "P-FREE", 2)]);
    expectProblem(await act(deep.id, "submit", rep1), 422, "NO_APPROVAL_TIER");
    expect((await api("GET", `/v1/api/quotes/${deep.id}`, { key: rep1 })).body.status).toBe(
      "DRAFT",
    );
    // P-FREE at 800: cut 2000, margin null → DIRECTOR (no margin test); admin approves.
    const director = await create([line(800, "P-FREE", 2)]);
    expect(director.lines[0]).toMatchObject({ cutBp: 2000, marginBp: null, floorUnitAmount: null });
    expect(await ok(director.id, "submit", rep1)).toMatchObject({ requiredTier: "DIRECTOR" });
    expectProblem(await act(director.id, "approve", manager), 403, "NOT_AN_APPROVER");
    expect(await ok(director.id, "approve", KEYS.admin)).toMatchObject({
      status: "APPROVED",
      approvedBy: await adminName(),
    });
  });

  it("a regular price that moved since the submit → 409 STALE_QUOTE, DRAFT with the new prices", async () => {
    const quote = await create([line(450, "P-STALE", 10)]);
    expect(await ok(quote.id, "submit", rep1)).toMatchObject({ status: "PENDING_APPROVAL" });
    await call(
      "PUT",
      `/v1/api/pricelist/${ids.sales}/prices`,
      { prices: [{ productCode: "P-STALE", amount: 520 }] },
      KEYS.admin,
    );
    const stale = expectProblem(
      await act(quote.id, "approve", SALES_KEYS.director),
      409,
      "STALE_QUOTE",
    );
    expect(stale.detail).toContain("regular 500 → 520");
    const after = await api("GET", `/v1/api/quotes/${quote.id}`, { key: rep1 });
    expect(after.body).toMatchObject({ status: "DRAFT", requiredTier: null });
    expect(after.body.lines[0]).toMatchObject({ regularUnitAmount: 520, quotedUnitAmount: 450 });
  });

  it("the policy: admin reads and sets it; tier names unique", async () => {
    const policy = await api("GET", "/v1/api/quotes/policy", { key: KEYS.admin });
    expect(policy.body).toMatchObject(EXAMPLE_F.policy);
    const twice = await api("PUT", "/v1/api/quotes/policy", {
      key: KEYS.admin,
      body: { autoApprove: null, tiers: [EXAMPLE_F.policy.tiers[0], EXAMPLE_F.policy.tiers[0]] },
    });
    expect(issuePaths(twice)).toEqual(["body.tiers.1.name"]);
    const six = Array.from({ length: 6 }, (_, i) => ({
      ...EXAMPLE_F.policy.tiers[0],
      name: `T${i}`,
    }));
    expect(
      issuePaths(
        await api("PUT", "/v1/api/quotes/policy", {
          key: KEYS.admin,
          body: { autoApprove: null, tiers: six },
        }),
      ),
    ).toEqual(["body.tiers"]);
    expect((await api("GET", "/v1/api/quotes/policy", { key: KEYS.admin })).body).toMatchObject(
      EXAMPLE_F.policy,
    );
  });
});

async function adminName() {
  return (await api("GET", "/v1/api/me", { key: KEYS.admin })).body.name as string;
}

describe("retries and the trail (docs/quotes.md §6)", () => {
  it("an action with Idempotency-Key happens once and its answer is replayed", async () => {
    const quote = await create([line(350)]);
    const submit = () =>
      api("POST", `/v1/api/quotes/${quote.id}/submit`, {
        key: rep1,
        headers: { "idempotency-key": `submit-${quote.id}` },
      });
    const first = await submit();
    const again = await submit();
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
  });

  it("every transition is in the audit trail with its key name", async () => {
    const quote = await create([line(350)]);
    await ok(quote.id, "submit", rep1);
    await ok(quote.id, "approve", manager);
    await ok(quote.id, "send", SALES_KEYS["rep-2"]);
    await ok(quote.id, "accept", KEYS.read);
    await ok(quote.id, "redeem", KEYS.read, { orderRef: "SO-9" });
    const trail = await api(
      "GET",
      `/v1/api/audit?filter.entity=quote&filter.entityId=${quote.id}&sortBy=id:ASC&limit=100`,
      { key: KEYS.admin },
    );
    expect(trail.status, JSON.stringify(trail.body)).toBe(200);
    const steps = trail.body.data.map((e: any) => [e.action, e.after?.status, e.keyName]);
    expect(steps).toEqual([
      ["INSERT", "DRAFT", "rep-1"],
      ["UPDATE", "PENDING_APPROVAL", "rep-1"],
      ["UPDATE", "APPROVED", "manager"],
      ["UPDATE", "SENT", "rep-2"],
      ["UPDATE", "ACCEPTED", expect.stringMatching(/^read-/)],
      ["UPDATE", "REDEEMED", expect.stringMatching(/^read-/)],
    ]);
  });
});
