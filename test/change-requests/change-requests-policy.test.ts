import { beforeEach, describe, expect, it } from "vitest";
import {
  createChannel,
  createIndividualPricelist,
  createPricelist,
  createProduct,
  createTradeCondition,
  setPricelistStatus,
  setPrimaryPricelist,
} from "../factories";
import { api, expectProblem, KEYS, uid } from "../shared/helpers";

/**
 * What the approval policy judges (docs/api/change-requests.md §17.3, §17.4) and what makes an
 * approval stale (§17.5), through the real Worker: each case is one a red team walked past the
 * policy `{ autoApproveMaxRaiseBp: 500, autoApproveMaxCutBp: 0 }` with (issue 28, items 1–4 and 7).
 */

const AUTHOR = KEYS.admin;
const APPROVER = "test-writer-key-2";
const POLICY_APPROVER = "test-writer-key-9";
const NEW_YEAR = "2030-01-01T00:00:00.000Z";
const base = "/v1/api/change-requests";
const slow = { timeout: 120_000 };

const call = (method: string, path: string, body?: unknown, key: string = AUTHOR) =>
  api(method, `${base}${path}`, { body, key });

/**
 * Sets the policy; a loosening is approved by a key of another owner (docs/api/change-requests.md
 * §17.4).
 */
async function setPolicy(autoApproveMaxRaiseBp: number | null, autoApproveMaxCutBp: number | null) {
  const limits = { autoApproveMaxRaiseBp, autoApproveMaxCutBp };
  const res = await call("PUT", "/policy", limits);
  expect([200, 202], JSON.stringify(res.body)).toContain(res.status);
  if (res.status === 202) {
    const approved = await call("POST", "/policy/approve", limits, POLICY_APPROVER);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  }
}

async function ok(method: string, path: string, body?: unknown) {
  const res = await api(method, path, { body });
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res.body;
}

/** A request of `items` from `effectiveAt`, created and submitted; the submit's answer. */
async function submit(items: object[], effectiveAt: string | null = NEW_YEAR) {
  const created = await call("POST", "", { title: "Change", effectiveAt, items });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const submitted = await call("POST", `/${created.body.id}/submit`);
  expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
  return submitted.body;
}

/** A channel whose primary list is an ACTIVE EUR list with `prices`; its products' codes. */
async function priced(prices: (code: string) => object[], products = 1) {
  const codes: string[] = [];
  for (let i = 0; i < products; i += 1) codes.push((await createProduct()).code);
  const list = (await createPricelist({ status: "ACTIVE" })).id as number;
  const channel = (await createChannel()).code as string;
  await setPrimaryPricelist(channel, list);
  await ok("PUT", `/v1/api/pricelist/${list}/prices`, { prices: codes.flatMap(prices) });
  return { codes, list, channel };
}

const adjust = (list: number, codes: string[], adjustmentBp: number) => ({
  kind: "ADJUST_PRICES",
  pricelistId: list,
  productCodes: codes,
  adjustmentBp,
});

beforeEach(() => setPolicy(500, 0));

describe("salami: a request is judged with the requests it stacks with (§17.4)", () => {
  it(
    "the second +400 bp on the same prices is +816 bp cumulative: it waits for an approver",
    slow,
    async () => {
      const { codes, list } = await priced((productCode) => [{ productCode, amount: 10_000 }]);
      const first = await submit([adjust(list, codes, 400)]);
      expect(first).toMatchObject({
        status: "APPLIED",
        approvedBy: "policy",
        impact: {
          maxRaiseBp: 400,
          cumulative: { since: null, requestIds: [], maxRaiseBp: 400, pricesChanged: 1 },
        },
      });
      // Applied, not in force before 2030: the second one adds to it on that date.
      const second = await submit([adjust(list, codes, 400)]);
      expect(second).toMatchObject({
        status: "PENDING_APPROVAL",
        approvedBy: null,
        impact: {
          maxRaiseBp: 400,
          totalBefore: 10_400,
          totalAfter: 10_816,
          cumulative: {
            since: NEW_YEAR,
            requestIds: [first.id],
            pendingRequestIds: [],
            pricesChanged: 1,
            maxRaiseBp: 816,
            maxCutBp: 0,
            totalBefore: 10_000,
            totalAfter: 10_816,
          },
        },
      });
      // A third on the same list while the second waits: never the policy's, whatever its size.
      const third = await submit([adjust(list, codes, 1)]);
      expect(third).toMatchObject({
        status: "PENDING_APPROVAL",
        impact: { cumulative: { requestIds: [first.id], pendingRequestIds: [second.id] } },
      });
    },
  );

  it(
    "requests in force at once count when the same key applied them in the last 24 h",
    slow,
    async () => {
      const { codes, list } = await priced((productCode) => [{ productCode, amount: 10_000 }]);
      const first = await submit([adjust(list, codes, 400)], null);
      expect(first).toMatchObject({ status: "APPLIED", approvedBy: "policy" });
      const second = await submit([adjust(list, codes, 400)], null);
      expect(second.status).toBe("PENDING_APPROVAL");
      expect(second.impact.maxRaiseBp).toBe(400);
      expect(second.impact.cumulative).toMatchObject({
        since: first.approvedAt,
        maxRaiseBp: 816,
        totalBefore: 10_000,
        totalAfter: 10_816,
      });
      expect(second.impact.cumulative.requestIds).toContain(first.id);
    },
  );
});

describe("tiers: every tier a request touches is priced (§17.3)", () => {
  it("+900 % on the 10+ tier alone is a +90000 bp raise at quantity 10", slow, async () => {
    const { codes, list } = await priced((productCode) => [
      { productCode, amount: 10_000 },
      { productCode, minQuantity: 10, amount: 9000 },
    ]);
    const body = await submit([
      {
        kind: "SET_PRICES",
        pricelistId: list,
        rows: [{ productCode: codes[0], minQuantity: 10, amount: 90_000 }],
      },
    ]);
    expect(body).toMatchObject({
      status: "PENDING_APPROVAL",
      impact: {
        quantities: [1, 10],
        pricesCompared: 2,
        pricesChanged: 1,
        maxRaiseBp: 90_000,
        totalBefore: 19_000,
        totalAfter: 100_000,
        quantitiesOmitted: 0,
      },
    });
  });
});

describe("prices that vanish or appear are never the policy's (§17.3, §17.4)", () => {
  it(
    "DEACTIVATE of a channel's primary list: 4 prices vanish, the request waits",
    slow,
    async () => {
      const { list } = await priced((productCode) => [{ productCode, amount: 1000 }], 4);
      const body = await submit([{ kind: "DEACTIVATE", target: { kind: "pricelist", id: list } }]);
      expect(body).toMatchObject({
        status: "PENDING_APPROVAL",
        impact: {
          pricesCompared: 4,
          pricesChanged: 4,
          pricesVanished: 4,
          pricesAppeared: 0,
          maxRaiseBp: 0,
          maxCutBp: 0,
          cumulative: { pricesVanished: 4 },
        },
      });
    },
  );

  it("a price for a product that had none appears: the request waits", slow, async () => {
    const { list } = await priced((productCode) => [{ productCode, amount: 1000 }]);
    const fresh = (await createProduct()).code as string;
    const body = await submit([
      { kind: "SET_PRICES", pricelistId: list, rows: [{ productCode: fresh, amount: 1000 }] },
    ]);
    expect(body).toMatchObject({
      status: "PENDING_APPROVAL",
      impact: { pricesChanged: 1, pricesAppeared: 1, pricesVanished: 0, maxRaiseBp: 0 },
    });
  });
});

describe("customers past the first 100 of a channel are priced (§17.3)", () => {
  it(
    "+9,900 % on the INDIVIDUAL list of the 102nd customer: every customer priced, the request waits",
    slow,
    async () => {
      const { codes, channel } = await priced((productCode) => [{ productCode, amount: 100 }]);
      const prefix = uid("CUST");
      const customers = Array.from(
        { length: 102 },
        (_, i) => `${prefix}-${String(i).padStart(3, "0")}`,
      );
      await ok("PUT", "/v1/api/customer", {
        customers: customers.map((code) => ({ code, name: code, channelCodes: [channel] })),
      });
      const last = customers.at(-1)!;
      const own = (await createIndividualPricelist(last)).id as number;
      await setPricelistStatus(own, "ACTIVE");
      await ok("PUT", `/v1/api/pricelist/${own}/prices`, {
        prices: [{ productCode: codes[0], amount: 100 }],
      });
      const body = await submit([
        { kind: "SET_PRICES", pricelistId: own, rows: [{ productCode: codes[0], amount: 10_000 }] },
      ]);
      expect(body).toMatchObject({
        status: "PENDING_APPROVAL",
        impact: {
          channelCodes: [channel],
          pricesCompared: 103,
          pricesChanged: 1,
          maxRaiseBp: 990_000,
          customersOmitted: 0,
        },
      });
    },
  );
});

describe("stale: anything the impact depended on (§17.5)", () => {
  /** A USD channel whose primary list derives from an EUR list at the EUR→USD rate. */
  async function converted() {
    const product = (await createProduct()).code as string;
    const eur = (await createPricelist({ status: "ACTIVE" })).id as number;
    await ok("PUT", `/v1/api/pricelist/${eur}/prices`, {
      prices: [{ productCode: product, amount: 2000 }],
    });
    const usd = (
      await createPricelist({
        status: "ACTIVE",
        currency: "USD",
        derivation: { basePricelistId: eur, adjustmentBp: 0 },
      })
    ).id as number;
    const channel = (await createChannel()).code as string;
    await setPrimaryPricelist(channel, usd);
    const rate = (value: string) =>
      ok("PUT", "/v1/api/exchange-rates", {
        rates: [{ from: "EUR", to: "USD", rate: value, validFrom: "2029-06-01T00:00:00Z" }],
      });
    await rate("1.05");
    return { product, eur, channel, rate };
  }

  it(
    "the EUR→USD rate changed after the submit: approve is 409 STALE_CHANGE_REQUEST, back to DRAFT",
    slow,
    async () => {
      await setPolicy(null, null);
      const c = await converted();
      const body = await submit([adjust(c.eur, [c.product], 500)]);
      expect(body).toMatchObject({
        status: "PENDING_APPROVAL",
        impact: { channelCodes: [c.channel], totalBefore: 2100, totalAfter: 2205 },
      });
      await c.rate("1.10");
      const approved = await call("POST", `/${body.id}/approve`, undefined, APPROVER);
      expectProblem(approved, 409, "STALE_CHANGE_REQUEST");
      expect(approved.body.detail).toMatch(/a rate/);
      const after = await call("GET", `/${body.id}`);
      expect(after.body).toMatchObject({ status: "DRAFT", impact: null });
      // Submitted again: the impact of today's rate, and nothing changed since: approved.
      const again = await call("POST", `/${body.id}/submit`);
      expect(again.body.impact).toMatchObject({ totalBefore: 2200, totalAfter: 2310 });
      const second = await call("POST", `/${body.id}/approve`, undefined, APPROVER);
      expect(second.status, JSON.stringify(second.body)).toBe(200);
      expect(second.body).toMatchObject({ status: "APPLIED", approvedBy: "writer-2" });
    },
  );

  it("a trade condition of its channel created after the submit makes it stale", slow, async () => {
    await setPolicy(null, null);
    const { codes, list, channel } = await priced((productCode) => [{ productCode, amount: 1000 }]);
    const body = await submit([adjust(list, codes, 300)]);
    expect(body.status).toBe("PENDING_APPROVAL");
    await createTradeCondition({ status: "ACTIVE", channelCodes: [channel], value: 1000 });
    const approved = await call("POST", `/${body.id}/approve`, undefined, APPROVER);
    expectProblem(approved, 409, "STALE_CHANGE_REQUEST");
    expect((await call("GET", `/${body.id}`)).body.status).toBe("DRAFT");
  });
});
