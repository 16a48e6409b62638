import { beforeAll, describe, expect, it } from "vitest";
import { api, KEYS } from "../shared/helpers";
import { seedExampleE, seedWorkedExample } from "../shared/worked-example";

/**
 * A change request's impact reports the margin before and after (docs/api/change-requests.md §17.3)
 * exactly as the publish simulation's summary does for the same change (docs/simulation.md §4):
 * over worked example E's data (docs/pricing-rules.md §26: the COST list on WEB-DE, C-1001's
 * accrual, the FLOOR at cost + 10 %), its window moved past today so that a future effectiveAt
 * prices it.
 */

const EFFECTIVE = "2027-03-01T00:00:00.000Z";
const AUTHOR = "test-writer-key-1";
const ids: Record<string, number> = {};

beforeAll(async () => {
  Object.assign(ids, await seedWorkedExample({ validTo: "2028-01-01" }));
  await seedExampleE(ids, { validTo: "2028-01-01" });
});

/** The tiers the request sets: P-B dearer in PL-100 and PL-200, P-C (no cost) in PL-100. */
const rows = () => [
  { pricelistId: ids["PL-100"], productCode: "P-B", amount: 560 },
  { pricelistId: ids["PL-200"], productCode: "P-B", amount: 460 },
  { pricelistId: ids["PL-100"], productCode: "P-C", amount: 220 },
];

async function submitted() {
  const items = rows().map(({ pricelistId, productCode, amount }) => ({
    kind: "SET_PRICES",
    pricelistId,
    rows: [{ productCode, amount }],
  }));
  const draft = await api("POST", "/v1/api/change-requests", {
    key: AUTHOR,
    body: { title: "P-B and P-C dearer", effectiveAt: EFFECTIVE, items },
  });
  expect(draft.status, JSON.stringify(draft.body)).toBe(201);
  const res = await api("POST", `/v1/api/change-requests/${draft.body.id}/submit`, {
    key: AUTHOR,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe("the impact's margin (docs/api/change-requests.md §17.3)", () => {
  it("is the simulation's summary margin for the same tiers, before and after", async () => {
    const request = await submitted();
    expect(request.impact).toMatchObject({
      at: EFFECTIVE,
      channelCodes: ["WEB-DE"],
      // The anonymous buyer and C-1001 (the one customer of WEB-DE), P-B and P-C.
      pricesCompared: 4,
    });
    const simulation = await api("POST", "/v1/api/simulations/prices", {
      key: KEYS.admin,
      body: {
        channelCode: "WEB-DE",
        at: EFFECTIVE,
        quantity: 1,
        customers: { codes: ["C-1001"], anonymous: true },
        products: { codes: ["P-B", "P-C"] },
        changes: { prices: rows() },
        maxRows: 10,
      },
    });
    expect(simulation.status, JSON.stringify(simulation.body)).toBe(200);
    expect(request.impact.margin).toEqual(simulation.body.summary.margin);
    // By hand (quantity 1, P-B's cost 300; P-C has no cost, so its two lines are left out):
    // the anonymous buyer pays PL-100's 500 less TC-1's 2 % (10) plus TC-4's 25 = 515, after
    // 560 − 11 (11.2) + 25 = 574; C-1001 pays PL-200's 420 less TC-6's 6 % (25.2 → 25, the rung
    // that reaches it first) plus 25 = 420, after 460 − 28 (27.6) + 25 = 457. Margin before:
    // 935 − 600 = 335, 3583 bp (3582.9); after: 1031 − 600 = 431, 4180 bp (4180.4).
    const byBuyer = Object.fromEntries(
      simulation.body.rows
        .filter((r: any) => r.productCode === "P-B")
        .map((r: any) => [
          r.customerCode ?? "anonymous",
          [r.before.lineAmount, r.after.lineAmount],
        ]),
    );
    expect(byBuyer).toEqual({ anonymous: [515, 574], "C-1001": [420, 457] });
    expect(request.impact.margin).toEqual({
      before: {
        lines: 2,
        linesWithoutCost: 2,
        revenueAmount: 935,
        costAmount: 600,
        marginAmount: 335,
        marginBp: 3583,
      },
      after: {
        lines: 2,
        linesWithoutCost: 2,
        revenueAmount: 1031,
        costAmount: 600,
        marginAmount: 431,
        marginBp: 4180,
      },
    });
  });

  it("is the request's, admin-only: a read key gets 403 for it", async () => {
    const request = await submitted();
    const admin = await api("GET", `/v1/api/change-requests/${request.id}`, { key: KEYS.admin });
    expect(admin.status).toBe(200);
    expect(admin.body.impact.margin).toEqual(request.impact.margin);
    for (const path of [`/v1/api/change-requests/${request.id}`, "/v1/api/change-requests"]) {
      const read = await api("GET", path, { key: KEYS.read });
      expect(read.status, path).toBe(403);
      expect(JSON.stringify(read.body)).not.toMatch(/margin|revenueAmount|costAmount/);
    }
  });
});
