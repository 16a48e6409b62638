import { beforeAll, describe, expect, it } from "vitest";
import { seedExampleF } from "../../scripts/lib/demo-quotes.mjs";
import { WORKED_EXAMPLE_F as EXAMPLE_F } from "../../scripts/lib/worked-examples.mjs";
import { api, expectProblem, KEYS, SALES_KEYS } from "../shared/helpers";
import { act, ok } from "../shared/quote-calls";

/**
 * Worked example F of docs/pricing-rules.md §27, the quote parts (docs/quotes.md): a rep's quote
 * priced and judged by the engine, the approval by authority, the buyer's renegotiation, the
 * envelope of the approved revision and the tiers of worse prices, every number as documented.
 */

const { quoted, quantity, honoured } = EXAMPLE_F;
const { channel, customer, product } = EXAMPLE_F.codes;

const call = (method: string, path: string, body: unknown, key: string) =>
  api(method, path, { body, key });

const in90Days = () => new Date(Date.now() + 90 * 86_400_000).toISOString();

beforeAll(async () => {
  await seedExampleF(call, KEYS.admin);
});

const rep1 = SALES_KEYS["rep-1"];

async function createQuote(unitAmount: number, key: string = rep1) {
  const res = await api("POST", "/v1/api/quotes", {
    key,
    body: {
      customerCode: customer,
      channelCode: channel,
      validTo: in90Days(),
      lines: [{ productCode: product, quantity, unitAmount }],
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

describe("worked example F: a negotiated price (docs/pricing-rules.md §27)", () => {
  it("prices and judges rep-1's quote at 350: cut 1049, margin 1428, line 21000, MANAGER", async () => {
    const quote = await createQuote(quoted.first.unitAmount);
    expect(quote).toMatchObject({
      status: "DRAFT",
      revision: 1,
      customerCode: customer,
      channelCode: channel,
      currency: "EUR",
      mode: "ONCE",
      lock: "FIXED",
      author: "rep-1",
      totalAmount: quoted.first.lineAmount,
      requiredTier: null,
    });
    // A sales key sees the margin but no cost (docs/quotes.md §2).
    expect(quote.lines).toEqual([
      {
        productCode: product,
        quantity,
        regularUnitAmount: EXAMPLE_F.prices.sales,
        priceUnit: 1,
        floorUnitAmount: EXAMPLE_F.prices.floor,
        quotedUnitAmount: quoted.first.unitAmount,
        lineAmount: quoted.first.lineAmount,
        cutBp: quoted.first.cutBp,
        marginBp: quoted.first.marginBp,
        adjustments: [],
      },
    ]);

    const submitted = await ok(quote.id, "submit", rep1);
    expect(submitted).toMatchObject({ status: "PENDING_APPROVAL", requiredTier: "MANAGER" });

    expectProblem(await act(quote.id, "approve", rep1), 403, "SELF_APPROVAL");
    const notApprover = expectProblem(
      await act(quote.id, "approve", SALES_KEYS["rep-2"]),
      403,
      "NOT_AN_APPROVER",
    );
    expect(notApprover.detail).toContain("MANAGER");
    const approved = await ok(quote.id, "approve", SALES_KEYS.manager);
    expect(approved).toMatchObject({ status: "APPROVED", approvedBy: "manager" });
    expect(approved.revisions).toEqual([
      expect.objectContaining({ revision: 1, approvedBy: "manager", totalAmount: 21000 }),
    ]);

    await ok(quote.id, "send", rep1);
    const declined = await ok(quote.id, "decline", KEYS.read, {
      reason: "too expensive",
      renegotiate: true,
    });
    expect(declined).toMatchObject({ status: "RENEGOTIATING", declineReason: "too expensive" });

    // Revision 2 at 360: no worse than revision 1 → APPROVED by the envelope.
    const revised = await api("PATCH", `/v1/api/quotes/${quote.id}`, {
      key: rep1,
      body: { lines: [{ productCode: product, quantity, unitAmount: quoted.envelope.unitAmount }] },
    });
    expect(revised.status, JSON.stringify(revised.body)).toBe(200);
    expect(revised.body).toMatchObject({ status: "DRAFT", revision: 2, approvedBy: null });
    expect(revised.body.lines[0]).toMatchObject({
      cutBp: quoted.envelope.cutBp,
      marginBp: quoted.envelope.marginBp,
      lineAmount: quoted.envelope.lineAmount,
    });
    const enveloped = await ok(quote.id, "submit", rep1);
    expect(enveloped).toMatchObject({
      status: "APPROVED",
      approvedBy: "envelope",
      revision: 2,
      requiredTier: null,
    });
    expect(enveloped.revisions.map((r: any) => [r.revision, r.approvedBy])).toEqual([
      [1, "manager"],
      [2, "envelope"],
    ]);

    await ok(quote.id, "send", rep1);
    const accepted = await ok(quote.id, "accept", KEYS.read);
    expect(accepted.status).toBe("ACCEPTED");
    expect(accepted.acceptedAt).not.toBeNull();
  });

  /** A quote through revision 1 (approved by the manager) to RENEGOTIATING. */
  async function renegotiating() {
    const quote = await createQuote(quoted.first.unitAmount);
    await ok(quote.id, "submit", rep1);
    await ok(quote.id, "approve", SALES_KEYS.manager);
    await ok(quote.id, "send", rep1);
    await ok(quote.id, "decline", KEYS.read, { renegotiate: true });
    return quote.id as number;
  }

  const revise = (id: number, unitAmount: number) =>
    api("PATCH", `/v1/api/quotes/${id}`, {
      key: rep1,
      body: { lines: [{ productCode: product, quantity, unitAmount }] },
    });

  it("revision 2 at 340 → 1305 / 1176, MANAGER; at 330 → 1561 / 909, DIRECTOR", async () => {
    for (const variant of [quoted.manager, quoted.director]) {
      const id = await renegotiating();
      const revised = await revise(id, variant.unitAmount);
      expect(revised.status, JSON.stringify(revised.body)).toBe(200);
      expect(revised.body.lines[0]).toMatchObject({
        cutBp: variant.cutBp,
        marginBp: variant.marginBp,
      });
      const submitted = await ok(id, "submit", rep1);
      expect(submitted).toMatchObject({
        status: "PENDING_APPROVAL",
        revision: 2,
        requiredTier: variant.tier,
      });
    }
  });

  it("revision 2 at 310 → 422 BELOW_FLOOR at lines.0.unitAmount, nothing written", async () => {
    const id = await renegotiating();
    const before = await api("GET", `/v1/api/quotes/${id}`, { key: rep1 });
    const res = await revise(id, quoted.belowFloor.unitAmount);
    const problem = expectProblem(res, 422, "BELOW_FLOOR");
    expect(problem.errors).toEqual([
      { path: "body.lines.0.unitAmount", message: "is below the floor of 320" },
    ]);
    const after = await api("GET", `/v1/api/quotes/${id}`, { key: rep1 });
    expect(after.body).toEqual(before.body);
    expect(after.body.status).toBe("RENEGOTIATING");
  });

  it("the read key sees no marginBp, cost or floor; rep-1 sees marginBp but no cost; admin both", async () => {
    const quote = await createQuote(quoted.first.unitAmount);
    const line = async (key: string) =>
      (await api("GET", `/v1/api/quotes/${quote.id}`, { key })).body.lines[0];
    const read = await line(KEYS.read);
    expect(read).not.toHaveProperty("marginBp");
    expect(read).not.toHaveProperty("costUnitAmount");
    // The floor is the seller's own limit (it may derive from cost): not the buyer's to see.
    expect(read).not.toHaveProperty("floorUnitAmount");
    const rep = await line(rep1);
    expect(rep.marginBp).toBe(quoted.first.marginBp);
    expect(rep).not.toHaveProperty("costUnitAmount");
    const admin = await line(KEYS.admin);
    expect(admin).toMatchObject({ marginBp: quoted.first.marginBp, costUnitAmount: 300 });
  });
});

describe("worked example F honoured end to end, every step through the API (docs/quotes-honouring.md)", () => {
  /** A quote of rep-1 at 360 (MANAGER approves), sent and accepted by the storefront's read key. */
  async function acceptedAt360(mode: "ONCE" | "AGREEMENT", customerCode = customer) {
    const res = await api("POST", "/v1/api/quotes", {
      key: rep1,
      body: {
        customerCode,
        channelCode: channel,
        validTo: in90Days(),
        mode,
        lines: [{ productCode: product, quantity, unitAmount: quoted.envelope.unitAmount }],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.id as number;
    await ok(id, "submit", rep1);
    await ok(id, "approve", SALES_KEYS.manager);
    await ok(id, "send", rep1);
    expect(await ok(id, "accept", KEYS.read)).toMatchObject({ status: "ACCEPTED", mode });
    return id;
  }

  it("ONCE: resolve with quoteId answers 360 for P-B × 60 (source QUOTE), 391 at 50; redeemed → 409", async () => {
    const id = await acceptedAt360("ONCE");
    const resolve = () =>
      api("POST", "/v1/api/prices/resolve", {
        key: KEYS.read,
        body: {
          channelCode: channel,
          customerCode: customer,
          quoteId: id,
          lines: [{ productCode: product, quantity }],
        },
      });
    const res = await resolve();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.lines[0]).toMatchObject({
      finalUnitAmount: honoured.once.finalUnitAmount,
      lineAmount: honoured.once.lineAmount,
      source: { kind: "QUOTE", quoteId: id },
    });
    expect(await ok(id, "redeem", KEYS.read, { orderRef: "SO-F-1" })).toMatchObject({
      status: "REDEEMED",
      orderRef: "SO-F-1",
    });
    await expectProblem(await resolve(), 409, "QUOTE_REDEEMED");
  });

  it("AGREEMENT: accepting it through the API prices K-1's P-B × 5 at 360 without naming it; anonymous 391", async () => {
    const path = `/v1/api/prices?channel=${channel}&product=${product}&quantity=${honoured.agreement.quantity}`;
    const before = await api("GET", `${path}&customer=${customer}`, { key: KEYS.read });
    expect(before.status).toBe(200);
    await acceptedAt360("AGREEMENT");
    const after = await api("GET", `${path}&customer=${customer}`, { key: KEYS.read });
    expect(after.body.lines[0]).toMatchObject({
      finalUnitAmount: honoured.agreement.finalUnitAmount,
      source: { kind: "QUOTE" },
    });
    expect(after.headers.get("etag")).not.toBe(before.headers.get("etag"));
    const anonymous = await api("GET", path, { key: KEYS.read });
    expect(anonymous.body.lines[0]).toMatchObject({
      finalUnitAmount: honoured.agreement.anonymous,
    });
  });
});
