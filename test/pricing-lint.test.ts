import { beforeAll, describe, expect, it } from "vitest";
import {
  assignPricelistToChannel,
  createChannel,
  createCustomer,
  createCustomerGroup,
  createPricelist,
  createProduct,
  createProductGroup,
  createPromotion,
  createTradeCondition,
  setPrimaryPricelist,
} from "./factories";
import { api, expectProblem, issuePaths, KEYS, roundTrips } from "./helpers";

/**
 * GET /v1/api/pricing/lint (docs/pricing-lint.md): each finding with data that triggers it and
 * data that does not. The findings are global and the storage is shared by the file, so every
 * test's records live in a channel of their own, and assertions look only at the findings that
 * name the test's records.
 */

interface Ref {
  kind: string;
  id?: number;
  code?: string;
}

interface Finding {
  code: string;
  severity: string;
  message: string;
  records: Ref[];
}

const PATH = "/v1/api/pricing/lint";

async function findings(code: string): Promise<Finding[]> {
  const res = await api("GET", `${PATH}?limit=100&filter.code=${code}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.meta.totalItems).toBeLessThanOrEqual(100);
  return res.body.data;
}

const sameRecord = (a: Ref, b: Ref) => a.kind === b.kind && a.id === b.id && a.code === b.code;

/** The findings of `code` that name `record`. */
const naming = async (code: string, record: Ref) =>
  (await findings(code)).filter((f) => f.records.some((r) => sameRecord(r, record)));

const tc = (row: { id: number }): Ref => ({ kind: "tradeCondition", id: row.id });
const pl = (row: { id: number }): Ref => ({ kind: "pricelist", id: row.id });

async function ok(method: string, path: string, body?: unknown) {
  const res = await api(method, path, { body });
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

const putPrices = (id: number, prices: unknown[]) =>
  ok("PUT", `/v1/api/pricelist/${id}/prices`, { prices });

/** An ACTIVE condition in the test's own channel, so no other test's condition meets it. */
const condition = (channel: { code: string }, overrides: Record<string, unknown> = {}) =>
  createTradeCondition({ status: "ACTIVE", channelCodes: [channel.code], ...overrides });

async function groupCondition(
  channel: { code: string },
  groups: string[],
  overrides: Record<string, unknown> = {},
) {
  const row = await condition(channel, { scope: "CUSTOMER_GROUP", ...overrides });
  await ok("POST", `/v1/api/trade-conditions/${row.id}/customer-groups`, {
    customerGroupCodes: groups,
  });
  return row;
}

/** A channel of its own with an ACTIVE primary pricelist (so it has no finding of its own). */
async function channelWithPrimary() {
  const channel = await createChannel();
  const primary = await createPricelist({ status: "ACTIVE" });
  await setPrimaryPricelist(channel.code, primary.id);
  return { channel, primary };
}

describe("GET /v1/api/pricing/lint: the list", () => {
  beforeAll(async () => {
    await createChannel(); // CHANNEL_WITHOUT_PRIMARY: ERROR
    await createTradeCondition({ status: "ACTIVE", validFrom: "2020-01-01", validTo: "2021-01-01" });
  });

  it("answers a list envelope, ERROR first, then by code, in one D1 round trip", async () => {
    const res = await api("GET", PATH);
    expect(res.status).toBe(200);
    expect(roundTrips(res)).toBe(1);
    expect(res.body.meta).toMatchObject({
      itemsPerPage: 20,
      currentPage: 1,
      sortBy: [
        ["severity", "ASC"],
        ["code", "ASC"],
      ],
    });
    expect(res.body.links.current).toBe(
      `http://pricing.test${PATH}?page=1&limit=20&sortBy=severity:ASC&sortBy=code:ASC`,
    );
    const severities = res.body.data.map((f: Finding) => f.severity);
    expect(severities[0]).toBe("ERROR");
    expect(severities).toEqual(
      [...severities].sort(
        (a, b) => ["ERROR", "WARNING", "INFO"].indexOf(a) - ["ERROR", "WARNING", "INFO"].indexOf(b),
      ),
    );
  });

  it("filters by severity and code, sorts and pages", async () => {
    const info = await api("GET", `${PATH}?filter.severity=INFO`);
    expect(info.body.data.length).toBeGreaterThan(0);
    expect(info.body.data.every((f: Finding) => f.severity === "INFO")).toBe(true);

    const notInfo = await api("GET", `${PATH}?filter.severity=$not:INFO&limit=100`);
    expect(notInfo.body.data.some((f: Finding) => f.severity === "INFO")).toBe(false);
    const all = await api("GET", `${PATH}?limit=100`);
    expect(notInfo.body.meta.totalItems + info.body.meta.totalItems).toBe(
      all.body.meta.totalItems,
    );

    const two = await api(
      "GET",
      `${PATH}?filter.code=$in:CHANNEL_WITHOUT_PRIMARY,EXPIRED_BUT_ACTIVE&sortBy=code:DESC`,
    );
    const codes = two.body.data.map((f: Finding) => f.code);
    expect(codes[0]).toBe("EXPIRED_BUT_ACTIVE");
    expect(codes.at(-1)).toBe("CHANNEL_WITHOUT_PRIMARY");

    const page = await api("GET", `${PATH}?limit=1&page=2`);
    expect(page.body.data).toEqual([all.body.data[1]]);
    expect(page.body.meta).toMatchObject({ itemsPerPage: 1, currentPage: 2 });
    expect(page.body.links.previous).toContain("page=1&limit=1");
  });

  it("refuses an unknown code, sort or operator with a 400 naming the parameter", async () => {
    const res = await api("GET", `${PATH}?filter.code=NOPE&sortBy=message:ASC&filter.severity=$gt:INFO`);
    const body = expectProblem(res, 400, "VALIDATION_FAILED");
    expect(issuePaths(res)).toEqual(["query.sortBy", "query.filter.code", "query.filter.severity"]);
    expect(body.errors![1]!.message).toContain("must be one of CHANNEL_WITHOUT_PRIMARY");
  });

  it("is for admin keys only", async () => {
    const read = expectProblem(await api("GET", PATH, { key: KEYS.read }), 403, "FORBIDDEN");
    expect(read.detail).toBe("a read key cannot lint the pricing rules; use an admin key");
    expectProblem(await api("GET", PATH, { key: null }), 401, "UNAUTHORIZED");
  });
});
