import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { assignPricelistToChannel, createPricelist, setPrimaryPricelist } from "../factories";
import { api, expectProblem, KEYS, roundTrips } from "../shared/helpers";
import { acceptQuote, insertQuote as insertRow, type QuoteRow } from "../shared/quote-rows";
import { ok } from "../shared/worked-example";
import { WORKED_EXAMPLE_F } from "../../scripts/lib/worked-examples.mjs";

/**
 * Honouring quotes (docs/pricing-rules.md §28, docs/quotes-honouring.md), worked example F's
 * honouring parts through the HTTP API: channel WEB (EUR), customer K-1 in it, primary PL-1 with
 * P-B 1+: 391, a COST list (300) and a FLOOR list (320) on WEB. The quotes are written straight
 * into D1 with the schema's columns (the quote resource writes them in production); an
 * AGREEMENT is accepted as the accept action does: its guarded UPDATE with the statements of
 * `agreementAcceptedWrites` in one batch, with an audit context.
 */

const { prices, honoured } = WORKED_EXAMPLE_F;
/** Revision 2's quoted price, accepted: 360. */
const QUOTED = WORKED_EXAMPLE_F.quoted.envelope.unitAmount;
const { once, mismatch, betterOf, agreement: asAgreement } = honoured;

const DAY = 86_400_000;
const NOW = Date.now();
const VALID_TO = NOW + 30 * DAY;
let pl1 = 0;
let floorId = 0;

/** A quote of K-1 in WEB, P-B × 60 at 360 unless told (test/shared/quote-rows.ts). */
const insertQuote = (q: Partial<QuoteRow> & { status: string }) =>
  insertRow({
    channelCode: "WEB",
    customerCode: "K-1",
    products: ["P-B"],
    ...q,
    validTo: q.validTo ?? VALID_TO,
  });

const accept = acceptQuote;

const resolve = (body: Record<string, unknown>, key: string = KEYS.read) =>
  api("POST", "/v1/api/prices/resolve", { body: { channelCode: "WEB", ...body }, key });

const lineOf = (res: { body: any }, code: string, quantity?: number) =>
  res.body.lines.find(
    (l: any) => l.productCode === code && (quantity === undefined || l.quantity === quantity),
  );

const lookup = (query: string, key: string = KEYS.read, headers: Record<string, string> = {}) =>
  api("GET", `/v1/api/prices?channel=WEB&${query}`, { key, headers });

beforeAll(async () => {
  await ok("POST", "/v1/api/channel", { code: "WEB", name: "Web" });
  for (const code of ["P-B", "P-D"]) await ok("POST", "/v1/api/product", { code, name: code });
  for (const code of ["K-1", "K-2", "K-3"]) {
    await ok("POST", "/v1/api/customer", { code, name: code, channelCodes: ["WEB"] });
  }
  const pl = await createPricelist({ name: "PL-1", status: "ACTIVE" });
  pl1 = pl.id;
  await ok("PUT", `/v1/api/pricelist/${pl.id}/prices`, {
    prices: [
      { productCode: "P-B", amount: prices.sales },
      { productCode: "P-D", amount: 1000 },
    ],
  });
  await assignPricelistToChannel("WEB", pl.id);
  await setPrimaryPricelist("WEB", pl.id);
  const cost = await createPricelist({ name: "CO-WEB", kind: "COST", status: "ACTIVE" });
  await ok("PUT", `/v1/api/pricelist/${cost.id}/prices`, {
    prices: [{ productCode: "P-B", amount: prices.cost }],
  });
  await assignPricelistToChannel("WEB", cost.id);
  const floor = await createPricelist({ name: "FL-WEB", kind: "FLOOR", status: "ACTIVE" });
  await ok("PUT", `/v1/api/pricelist/${floor.id}/prices`, {
    prices: [{ productCode: "P-B", amount: prices.floor }],
  });
  await assignPricelistToChannel("WEB", floor.id);
  floorId = floor.id;
});

describe("ONCE quotes named on resolve (docs/pricing-rules.md §28.1)", () => {
  it("prices P-B × 60 from the accepted quote (360, line 21600, source QUOTE) and P-B × 50 as usual", async () => {
    const quoteId = await insertQuote({ status: "ACCEPTED" });
    const res = await resolve({
      customerCode: "K-1",
      quoteId,
      explain: true,
      lines: [
        { productCode: "P-B", quantity: once.quantity },
        { productCode: "P-B", quantity: mismatch.quantity },
      ],
    });
    expect(res.status).toBe(200);
    const quoted = lineOf(res, "P-B", once.quantity);
    expect(quoted).toMatchObject({
      status: "OK",
      finalUnitAmount: once.finalUnitAmount,
      lineAmount: once.lineAmount,
      regularUnitAmount: prices.sales,
      adjustments: [],
      priceBreak: null,
      source: {
        level: "CHANNEL_PRIMARY",
        pricelistId: pl1,
        baseUnitAmount: once.finalUnitAmount,
        kind: "QUOTE",
        quoteId,
        revision: honoured.revision,
      },
    });
    expect(quoted.explain.quotes).toEqual([
      {
        quoteId,
        revision: 2,
        mode: "ONCE",
        lock: "FIXED",
        outcome: "APPLIED",
        quantity: once.quantity,
        quotedUnitAmount: QUOTED,
        priceUnit: 1,
        usualUnitAmount: prices.sales,
        validTo: new Date(VALID_TO).toISOString(),
      },
    ]);
    const usual = lineOf(res, "P-B", mismatch.quantity);
    expect(usual).toMatchObject({
      finalUnitAmount: mismatch.finalUnitAmount,
      lineAmount: mismatch.lineAmount,
    });
    expect(usual.source.kind).toBeUndefined();
    expect(usual.explain.quotes).toMatchObject([
      {
        quoteId,
        outcome: "QUOTE_QUANTITY_MISMATCH",
        quantity: once.quantity,
        usualUnitAmount: prices.sales,
      },
    ]);
    expect(res.body.totalAmount).toBe(once.lineAmount + mismatch.lineAmount);
    // A read key sees no cost and no margin, in the line or its explain.
    const text = JSON.stringify(res.body);
    for (const field of ["marginBp", "costUnitAmount", "marginAmount", "costs"]) {
      expect(text).not.toContain(`"${field}"`);
    }
  });

  it("gives an admin key the margin on the quoted price (360 against cost 300, §26 half up)", async () => {
    const quoteId = await insertQuote({ status: "ACCEPTED" });
    const res = await resolve(
      { customerCode: "K-1", quoteId, lines: [{ productCode: "P-B", quantity: 60 }] },
      KEYS.admin,
    );
    expect(res.status).toBe(200);
    expect(lineOf(res, "P-B")).toMatchObject({
      finalUnitAmount: 360,
      costUnitAmount: 300,
      marginAmount: 60,
      // The answer's margin rounds half up (docs/pricing-rules.md §26); the quote's own, down.
      marginBp: 1667,
    });
  });

  it("answers 409 QUOTE_REDEEMED once the quote is redeemed", async () => {
    const quoteId = await insertQuote({ status: "ACCEPTED" });
    const body = { customerCode: "K-1", quoteId, lines: [{ productCode: "P-B", quantity: 60 }] };
    expect((await resolve(body)).status).toBe(200);
    await env.DB.prepare(
      "update quotes set status = 'REDEEMED', redeemed_at = ?, order_ref = 'SO-1' where id = ?",
    )
      .bind(Date.now(), quoteId)
      .run();
    const res = await resolve(body);
    expectProblem(res, 409, "QUOTE_REDEEMED");
    expect(res.body.detail).toBe(`quote ${quoteId} has been redeemed`);
  });

  it("refuses another customer, anonymous or another channel (409 QUOTE_MISMATCH)", async () => {
    const quoteId = await insertQuote({ status: "ACCEPTED" });
    const lines = [{ productCode: "P-B", quantity: 60 }];
    const other = await resolve({ customerCode: "K-2", quoteId, lines });
    expectProblem(other, 409, "QUOTE_MISMATCH");
    expect(other.body.detail).toBe(
      `quote ${quoteId} is for customer K-1 in channel WEB, not for customer K-2 in channel WEB`,
    );
    expectProblem(await resolve({ quoteId, lines }), 409, "QUOTE_MISMATCH");
  });

  it("refuses a quote that is not ACCEPTED (409 QUOTE_NOT_ACCEPTED) or past validTo (409 QUOTE_EXPIRED)", async () => {
    const lines = [{ productCode: "P-B", quantity: 60 }];
    const sent = await insertQuote({ status: "SENT" });
    const notAccepted = await resolve({ customerCode: "K-1", quoteId: sent, lines });
    expectProblem(notAccepted, 409, "QUOTE_NOT_ACCEPTED");
    expect(notAccepted.body.detail).toBe(`quote ${sent} is SENT, not ACCEPTED`);
    const expired = await insertQuote({ status: "ACCEPTED", validTo: NOW - DAY });
    expectProblem(
      await resolve({ customerCode: "K-1", quoteId: expired, lines }),
      409,
      "QUOTE_EXPIRED",
    );
    // A moment after validTo, asked for with `at`, is past it too; one before it does not revive it.
    const live = await insertQuote({ status: "ACCEPTED" });
    const late = new Date(VALID_TO + DAY).toISOString();
    expectProblem(
      await resolve({ customerCode: "K-1", quoteId: live, at: late, lines }),
      409,
      "QUOTE_EXPIRED",
    );
    const early = new Date(NOW - 3 * DAY).toISOString();
    expectProblem(
      await resolve({ customerCode: "K-1", quoteId: expired, at: early, lines }),
      409,
      "QUOTE_EXPIRED",
    );
  });

  it("answers 404 for an unknown quote and 400 naming body.quoteId for a bad one", async () => {
    const lines = [{ productCode: "P-B", quantity: 60 }];
    const missing = await resolve({ customerCode: "K-1", quoteId: 999_999, lines });
    expectProblem(missing, 404, "NOT_FOUND");
    expect(missing.body.detail).toBe("quote 999999 not found");
    const bad = await resolve({ customerCode: "K-1", quoteId: 0, lines });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => e.path)).toEqual(["body.quoteId"]);
  });

  it("costs one D1 read more than the same resolve without the quote, never a round trip in line", async () => {
    const quoteId = await insertQuote({ status: "ACCEPTED" });
    const body = { customerCode: "K-1", lines: [{ productCode: "P-B", quantity: 60 }] };
    await resolve(body);
    const plain = await resolve(body);
    const named = await resolve({ ...body, quoteId });
    expect(named.status).toBe(200);
    expect(roundTrips(named)).toBe(roundTrips(plain) + 1);
  });

  it("BETTER_OF takes the lower of the quoted and the usual price; FIXED keeps the quoted one", async () => {
    const better = await insertQuote({ status: "ACCEPTED", lock: "BETTER_OF" });
    const fixed = await insertQuote({ status: "ACCEPTED", lock: "FIXED" });
    const lines = [{ productCode: "P-B", quantity: 60 }];
    const before = await resolve({ customerCode: "K-1", quoteId: better, lines, explain: true });
    expect(lineOf(before, "P-B")).toMatchObject({ finalUnitAmount: QUOTED, adjustments: [] });
    expect(lineOf(before, "P-B").explain.quotes[0].outcome).toBe("APPLIED");
    // P-B 1+ becomes 345 (the FLOOR list goes below it first, so the floor does not lift it).
    await ok("PUT", `/v1/api/pricelist/${floorId}/prices`, {
      prices: [{ productCode: "P-B", amount: 300 }],
    });
    await ok("PUT", `/v1/api/pricelist/${pl1}/prices`, {
      prices: [
        { productCode: "P-B", amount: betterOf.salesAmount },
        { productCode: "P-D", amount: 1000 },
      ],
    });
    try {
      const res = await resolve({ customerCode: "K-1", quoteId: better, lines, explain: true });
      const line = lineOf(res, "P-B");
      expect(line).toMatchObject({
        finalUnitAmount: betterOf.finalUnitAmount,
        lineAmount: betterOf.finalUnitAmount * once.quantity,
        source: { kind: "QUOTE", quoteId: better, baseUnitAmount: betterOf.finalUnitAmount },
      });
      expect(line.explain.quotes[0]).toMatchObject({
        outcome: "USUAL_PRICE_WON",
        quotedUnitAmount: QUOTED,
        usualUnitAmount: betterOf.salesAmount,
      });
      const asFixed = await resolve({ customerCode: "K-1", quoteId: fixed, lines });
      expect(lineOf(asFixed, "P-B")).toMatchObject({
        finalUnitAmount: once.finalUnitAmount,
        lineAmount: once.lineAmount,
      });
    } finally {
      await ok("PUT", `/v1/api/pricelist/${pl1}/prices`, {
        prices: [
          { productCode: "P-B", amount: prices.sales },
          { productCode: "P-D", amount: 1000 },
        ],
      });
      await ok("PUT", `/v1/api/pricelist/${floorId}/prices`, {
        prices: [{ productCode: "P-B", amount: prices.floor }],
      });
    }
  });
});

describe("AGREEMENT quotes, honoured without naming them (docs/pricing-rules.md §28.2)", () => {
  let agreement = 0;
  let acceptedAt = 0;

  beforeAll(async () => {
    // K-3's agreement, so the ONCE cases above (K-1) stay apart from it.
    agreement = await insertQuote({
      status: "SENT",
      mode: "AGREEMENT",
      customerCode: "K-3",
      products: ["P-B"],
    });
  });

  it("prices nothing while SENT; once accepted, K-3's P-B × 5 in WEB is 360, anonymous 391", async () => {
    await lookup("customer=K-3&product=P-B&quantity=5"); // warms the caches
    const sent = await lookup("customer=K-3&product=P-B&quantity=5");
    expect(sent.body.lines[0].finalUnitAmount).toBe(prices.sales);
    const tag = sent.headers.get("etag")!;
    acceptedAt = await accept(agreement);
    const res = await lookup("customer=K-3&product=P-B&quantity=5", KEYS.read, {
      "if-none-match": tag,
    });
    // The accept moved the data version: the cached answer's tag no longer matches.
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).not.toBe(tag);
    expect(res.body.lines[0]).toMatchObject({
      finalUnitAmount: asAgreement.finalUnitAmount,
      lineAmount: asAgreement.lineAmount,
      adjustments: [],
      source: { kind: "QUOTE", quoteId: agreement, revision: honoured.revision },
    });
    expect(res.body.validUntil).toBe(new Date(VALID_TO).toISOString());
    const resolved = await resolve({
      customerCode: "K-3",
      lines: [{ productCode: "P-B", quantity: 5 }],
    });
    expect(lineOf(resolved, "P-B")).toMatchObject({
      finalUnitAmount: asAgreement.finalUnitAmount,
      lineAmount: asAgreement.lineAmount,
    });
    const anonymous = await lookup("product=P-B&quantity=5");
    expect(anonymous.body.lines[0].finalUnitAmount).toBe(asAgreement.anonymous);
    const other = await lookup("customer=K-2&product=P-B&quantity=5");
    expect(other.body.lines[0].finalUnitAmount).toBe(391);
  });

  it("holds at any quantity, and not before its acceptance nor from its validTo on (`at`)", async () => {
    const at = (ms: number) => encodeURIComponent(new Date(ms).toISOString());
    const within = await lookup(`customer=K-3&product=P-B&quantity=500&at=${at(acceptedAt + 1)}`);
    expect(within.body.lines[0].finalUnitAmount).toBe(360);
    const before = await lookup(`customer=K-3&product=P-B&quantity=5&at=${at(acceptedAt - 1)}`);
    expect(before.body.lines[0].finalUnitAmount).toBe(391);
    expect(before.body.validUntil).toBe(new Date(acceptedAt).toISOString());
    const after = await resolve({
      customerCode: "K-3",
      at: new Date(VALID_TO).toISOString(),
      explain: true,
      lines: [{ productCode: "P-B", quantity: 5 }],
    });
    const line = lineOf(after, "P-B");
    expect(line.finalUnitAmount).toBe(391);
    expect(line.explain.quotes).toMatchObject([{ quoteId: agreement, outcome: "OUT_OF_WINDOW" }]);
    // A product the agreement does not name is priced as usual, with no quote in its explain.
    const unnamed = await resolve({
      customerCode: "K-3",
      explain: true,
      lines: [{ productCode: "P-D", quantity: 1 }],
    });
    expect(lineOf(unnamed, "P-D")).toMatchObject({ finalUnitAmount: 1000 });
    expect(lineOf(unnamed, "P-D").explain.quotes).toEqual([]);
  });

  it("stays ONE D1 round trip warm, with the agreements read beside the customer", async () => {
    const query = "customer=K-3&product=P-B&quantity=5";
    await lookup(query);
    const warm = await lookup(query);
    expect(warm.body.lines[0].finalUnitAmount).toBe(360);
    expect(roundTrips(warm)).toBe(1);
    expect(warm.headers.get("server-timing")).toContain('ctx;desc="hit"');
    const resolved = await resolve({
      customerCode: "K-3",
      lines: [{ productCode: "P-B", quantity: 5 }],
    });
    expect(roundTrips(resolved)).toBe(1);
  });

  it("writes one change-feed entry naming the customer, the channel and the products", async () => {
    const res = await api("GET", "/v1/api/changes?limit=100&filter.event=quotes", {
      key: KEYS.admin,
    });
    expect(res.status).toBe(200);
    const effective = res.body.data.filter((c: any) => c.action === "EFFECTIVE");
    expect(effective).toHaveLength(1);
    expect(effective[0]).toMatchObject({
      event: "quotes",
      entity: "quote",
      key: { id: agreement },
      operation: "acceptQuote",
      affects: { productCodes: ["P-B"], channelCodes: ["WEB"], customerCodes: ["K-3"] },
    });
  });

  it("writes nothing when the accept's UPDATE lost (the quote was not SENT any more)", async () => {
    const withdrawn = await insertQuote({
      status: "WITHDRAWN",
      mode: "AGREEMENT",
      customerCode: "K-3",
      acceptedAt: null,
    });
    const version = () =>
      env.DB.prepare("select version, seen_version from pricing_version where id = 1").first();
    const beforeVersion = await version();
    const entries = () =>
      env.DB.prepare(
        "select count(*) as n from audit_log where action = 'EFFECTIVE' and entity = 'quote'",
      ).first<{ n: number }>();
    const beforeEntries = await entries();
    await accept(withdrawn);
    expect(await version()).toEqual(beforeVersion);
    expect(await entries()).toEqual(beforeEntries);
  });
});

describe("QUOTE_BELOW_FLOOR in the linter (docs/pricing-lint.md §17)", () => {
  const findingsFor = async (quoteId: number) => {
    const res = await api("GET", "/v1/api/pricing/lint?limit=100&filter.code=QUOTE_BELOW_FLOOR");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.filter((f: any) =>
      f.records.some((r: any) => r.kind === "quote" && r.id === quoteId),
    );
  };

  it("names a SENT or ACCEPTED quote whose price is now below the floor of its line, no other", async () => {
    const accepted = await insertQuote({ status: "ACCEPTED" });
    const sent = await insertQuote({ status: "SENT" });
    const redeemed = await insertQuote({ status: "REDEEMED" });
    const above = await insertQuote({ status: "ACCEPTED", quoted: 380 });
    const expired = await insertQuote({ status: "ACCEPTED", validTo: NOW - DAY });
    for (const id of [accepted, sent]) expect(await findingsFor(id)).toEqual([]);
    // The floor rises above the quoted 360 (a cost rose since the quote was priced).
    await ok("PUT", `/v1/api/pricelist/${floorId}/prices`, {
      prices: [{ productCode: "P-B", amount: 370 }],
    });
    try {
      expect(await findingsFor(accepted)).toEqual([
        {
          code: "QUOTE_BELOW_FLOOR",
          severity: "WARNING",
          message:
            `ACCEPTED quote ${accepted} of customer K-1 quotes 360 for product P-B × 60, below ` +
            `its floor 370 in channel WEB (FLOOR pricelist ${floorId}): honouring it sells ` +
            "below the floor, which no floor prevents",
          records: [
            { kind: "quote", id: accepted },
            { kind: "product", code: "P-B" },
            { kind: "pricelist", id: floorId },
            { kind: "channel", code: "WEB" },
          ],
        },
      ]);
      expect(await findingsFor(sent)).toHaveLength(1);
      for (const id of [redeemed, above, expired]) expect(await findingsFor(id)).toEqual([]);
      // Honouring it all the same: no floor changes a quoted amount.
      const res = await resolve({
        customerCode: "K-1",
        quoteId: accepted,
        lines: [{ productCode: "P-B", quantity: 60 }],
      });
      expect(lineOf(res, "P-B").finalUnitAmount).toBe(360);
    } finally {
      await ok("PUT", `/v1/api/pricelist/${floorId}/prices`, {
        prices: [{ productCode: "P-B", amount: 320 }],
      });
    }
  });
});
