import { beforeAll, describe, expect, it } from "vitest";
import {
  WORKED_EXAMPLE_G as G,
  WORKED_EXAMPLE_H as H,
} from "../../scripts/lib/worked-examples.mjs";
import { api, created, expectProblem, issuePaths, roundTrips, uid } from "../shared/helpers";

/**
 * The buyer's tier ladder through the real Worker (docs/pricing-rules.md §30): worked example H
 * exactly (its figures and example G's tiers in scripts/lib/worked-examples.mjs, which the engine
 * tests read too), through POST /v1/api/prices/resolve (`ladder: true`) and GET /v1/api/prices
 * (`ladder=true`), in one D1 round trip; and `ladder` that is not a boolean.
 */

async function ok(method: string, path: string, body?: unknown) {
  const res = await api(method, path, { body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${JSON.stringify(res.body)}`);
  return res.body;
}

const product = async (body: Record<string, unknown> = {}) =>
  (await created("/v1/api/product", { code: uid("P"), name: "Product", ...body })).code as string;

async function channelWith(tierMode: "VOLUME" | "GRADUATED", productCode: string) {
  const pl = await created("/v1/api/pricelist", {
    name: uid("PL-G"),
    currency: "EUR",
    status: "ACTIVE",
    tierMode,
  });
  await ok("PUT", `/v1/api/pricelist/${pl.id}/prices`, {
    prices: G.tiers.map(({ minQuantity, amount }) => ({ productCode, minQuantity, amount })),
  });
  const code = (await created("/v1/api/channel", { code: uid("H"), name: "Ladder" }))
    .code as string;
  await ok("PUT", `/v1/api/channel/${code}/pricelist/primary`, { pricelistId: pl.id });
  return code;
}

const fivePercent = (code: string, productCodes: string[]) =>
  created("/v1/api/trade-conditions", {
    name: uid("5 %"),
    scope: "CHANNEL",
    channelCodes: [code],
    status: "ACTIVE",
    type: "DISCOUNT",
    discountType: "PERCENTAGE",
    value: H.discountBp,
    productCodes,
  });

const VOLUME_LADDER = H.volume;

describe("worked example H (docs/pricing-rules.md §30)", () => {
  const h = { volume: "", graduated: "", boxed: "", p: "", pg: "", box: "" };

  beforeAll(async () => {
    [h.p, h.pg, h.box] = [
      await product(),
      await product(),
      await product({
        minOrderQuantity: H.boxed.minOrderQuantity,
        orderIncrement: H.boxed.orderIncrement,
      }),
    ];
    h.volume = await channelWith("VOLUME", h.p);
    await fivePercent(h.volume, [h.p]);
    h.graduated = await channelWith("GRADUATED", h.pg);
    h.boxed = await channelWith("VOLUME", h.box);
    await fivePercent(h.boxed, [h.box]);
  });

  it("VOLUME with the 5 % discount, at any quantity: 95, 85, 76", async () => {
    for (const quantity of [1, 12, 60]) {
      const res = await api("POST", "/v1/api/prices/resolve", {
        body: { channelCode: h.volume, ladder: true, lines: [{ productCode: h.p, quantity }] },
      });
      expect(res.status).toBe(200);
      expect(res.body.lines[0].ladder).toEqual(VOLUME_LADDER);
      // No extra D1 round trip for the ladder.
      expect(roundTrips(res)).toBe(1);
    }
  });

  it("GRADUATED without a discount: {1, 1, 100}, {10, 10, 990}, {50, 50, 4580}", async () => {
    const res = await api(
      "GET",
      `/v1/api/prices?channel=${h.graduated}&product=${h.pg}&quantity=3&ladder=true`,
    );
    expect(res.status).toBe(200);
    expect(res.body.lines[0].ladder).toEqual(H.graduated);
  });

  it("a quantity rule min 5, increment 5: the first entry is {1, 5, 95, 1, 475}", async () => {
    const res = await api(
      "GET",
      `/v1/api/prices?channel=${h.boxed}&product=${h.box}&quantity=20&ladder=true`,
    );
    expect(res.body.lines[0].ladder[0]).toEqual(H.boxed.first);
  });

  it("every entry equals the line resolved alone at its quantity", async () => {
    for (const { quantity, finalUnitAmount, lineAmount } of VOLUME_LADDER) {
      const res = await api("POST", "/v1/api/prices/resolve", {
        body: { channelCode: h.volume, lines: [{ productCode: h.p, quantity }] },
      });
      expect(res.body.lines[0]).toMatchObject({ finalUnitAmount, lineAmount });
    }
  });

  it("without ladder no line has the field; lines that are not OK get null", async () => {
    const plain = await api("POST", "/v1/api/prices/resolve", {
      body: { channelCode: h.volume, lines: [{ productCode: h.p, quantity: 1 }] },
    });
    expect("ladder" in plain.body.lines[0]).toBe(false);
    const mixed = await api("POST", "/v1/api/prices/resolve", {
      body: {
        channelCode: h.volume,
        ladder: true,
        lines: [
          { productCode: h.p, quantity: 1 },
          { productCode: uid("NOPE"), quantity: 1 },
        ],
      },
    });
    expect(mixed.body.lines.map((l: { ladder: unknown }) => l.ladder === null)).toEqual([
      false,
      true,
    ]);
  });

  it("the ladder has an ETag of its own", async () => {
    const path = `/v1/api/prices?channel=${h.volume}&product=${h.p}&at=2030-01-01T00:00:00Z`;
    const [without, withLadder] = [await api("GET", path), await api("GET", `${path}&ladder=true`)];
    expect(without.headers.get("etag")).not.toBe(withLadder.headers.get("etag"));
  });

  it("ladder that is not a boolean → 400 naming it", async () => {
    for (const ladder of ["yes", 1, null]) {
      const res = await api("POST", "/v1/api/prices/resolve", {
        body: { channelCode: h.volume, ladder, lines: [{ productCode: h.p, quantity: 1 }] },
      });
      expectProblem(res, 400, "VALIDATION_FAILED");
      expect(issuePaths(res)).toEqual(["body.ladder"]);
    }
    const get = await api("GET", `/v1/api/prices?channel=${h.volume}&product=${h.p}&ladder=1`);
    expectProblem(get, 400, "VALIDATION_FAILED");
    expect(issuePaths(get)).toEqual(["query.ladder"]);
  });
});
