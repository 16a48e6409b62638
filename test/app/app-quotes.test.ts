import { describe, expect, it } from "vitest";
import {
  type Quote,
  type QuoteForm,
  emptyQuoteForm,
  extremesOf,
  formOf,
  offerOf,
  previewLine,
  priceOf,
  quoteBodyOf,
  tierOf,
} from "../../app/src/quotes/quote";
import { WORKED_EXAMPLE_F as EXAMPLE_F } from "../../scripts/lib/worked-examples.mjs";

/**
 * The Quotes page's logic (app/src/quotes/quote.ts, docs/app.md §13) against worked example F
 * (docs/pricing-rules.md §27): what the page sends for its form, each line as the rep types the
 * quoted price, the tier a quote needs and why, and which actions a key is offered. The page in a
 * browser: test/browser/app-quotes.mjs.
 */

const NOW = Date.parse("2027-01-10T09:00:00Z");
const { prices, quantity, policy, quoted } = EXAMPLE_F;

/** Revision 1 of example F as the API answers a sales key: P-B × 60 at 350. */
const saved: Quote = {
  id: 7,
  status: "DRAFT",
  revision: 1,
  customerCode: "K-1",
  channelCode: "WEB",
  currency: "EUR",
  mode: "ONCE",
  lock: "FIXED",
  validTo: "2027-03-31T23:59:00.000Z",
  totalAmount: 21000,
  requiredTier: null,
  author: "rep-1",
  writers: ["rep-1"],
  writtenByCaller: true,
  submittedAt: null,
  approvedBy: null,
  approvedAt: null,
  rejectedBy: null,
  rejectionReason: null,
  sentAt: null,
  acceptedAt: null,
  declinedAt: null,
  declineReason: null,
  withdrawnAt: null,
  redeemedAt: null,
  orderRef: null,
  pricedAt: "2027-01-10T09:00:00.000Z",
  createdAt: "2027-01-10T09:00:00.000Z",
  updatedAt: "2027-01-10T09:00:00.000Z",
  lines: [
    {
      productCode: "P-B",
      quantity,
      regularUnitAmount: prices.sales,
      priceUnit: 1,
      floorUnitAmount: prices.floor,
      quotedUnitAmount: quoted.first.unitAmount,
      lineAmount: quoted.first.lineAmount,
      cutBp: quoted.first.cutBp,
      marginBp: quoted.first.marginBp,
      adjustments: [],
    },
  ],
  revisions: [],
};

const resolved = { status: "OK", regularUnitAmount: 391, priceUnit: 1, costUnitAmount: null };
const line = (price: string) => ({ productCode: "P-B", quantity: "60", price });

describe("the form as the API's body", () => {
  const form: QuoteForm = {
    ...emptyQuoteForm(NOW),
    customerCode: " K-1 ",
    channelCode: "WEB",
    validTo: "2027-03-31 23:59",
    lines: [line("3.50"), { productCode: "", quantity: "1", price: "" }],
  };

  it("example F's quote: prices typed in the currency become minor units exactly", () => {
    expect(quoteBodyOf(form, "EUR", NOW)).toEqual({
      ok: true,
      body: {
        customerCode: "K-1",
        channelCode: "WEB",
        validTo: "2027-03-31T23:59:00Z",
        mode: "ONCE",
        lock: "FIXED",
        lines: [{ productCode: "P-B", quantity: 60, unitAmount: 350 }],
      },
    });
    expect(priceOf("3,50", "EUR")).toEqual({ ok: true, value: 350 });
    expect(priceOf("350", "JPY")).toEqual({ ok: true, value: 350 });
    expect(priceOf("", "EUR")).toEqual({ ok: true, value: undefined });
    expect(priceOf("3.505", "EUR").ok).toBe(false);
  });

  it("every problem, naming the field or the line", () => {
    const bad = quoteBodyOf(
      {
        ...form,
        customerCode: "",
        validTo: "2027-01-01 00:00",
        lines: [line("3.50"), line("3.60"), { productCode: "P-C", quantity: "0", price: "" }],
      },
      "EUR",
      NOW,
    );
    expect(bad).toEqual({
      ok: false,
      problems: [
        "Customer: type the buyer's code.",
        "Valid to: must lie in the future.",
        "Line 2: P-B is on the quote already.",
        "Line 3: the quantity must be a whole number from 1.",
      ],
    });
    expect(quoteBodyOf({ ...form, lines: [line("3.50")] }, null, NOW)).toEqual({
      ok: false,
      problems: ["Line 1: the price is read once the line is priced."],
    });
  });

  it("a saved quote is its form again (the regular price typed as empty)", () => {
    expect(formOf(saved).lines).toEqual([line("3.50")]);
    const atRegular = { ...saved.lines[0]!, quotedUnitAmount: 391 };
    expect(formOf({ ...saved, lines: [atRegular] }).lines).toEqual([line("")]);
  });
});

describe("a line as the rep types the quoted price", () => {
  it("the saved line: the engine's regular price, floor, cut and margin", () => {
    const p = previewLine(line("3.50"), saved.lines[0], resolved, "EUR");
    expect(p).toMatchObject({ regular: 391, floor: 320, quoted: 350, cutBp: 1049 });
    expect(p).toMatchObject({ marginBp: 1428, marginFrom: "engine", changed: false });
  });

  it("another price: the cut at once, rounded up as the engine does; the margin on save", () => {
    for (const q of [quoted.envelope, quoted.manager, quoted.director]) {
      const typed = `${Math.floor(q.unitAmount / 100)}.${String(q.unitAmount % 100).padStart(2, "0")}`;
      const p = previewLine(line(typed), saved.lines[0], resolved, "EUR");
      expect(p).toMatchObject({ cutBp: q.cutBp, marginFrom: "save", changed: true });
    }
  });

  it("with the cost (admin keys), the margin at once, rounded down as the engine does", () => {
    const withCost = { ...resolved, costUnitAmount: prices.cost };
    for (const q of [quoted.envelope, quoted.manager, quoted.director]) {
      const p = previewLine(line(String(q.unitAmount / 100)), saved.lines[0], withCost, "EUR");
      expect(p).toMatchObject({ cutBp: q.cutBp, marginBp: q.marginBp, marginFrom: "cost" });
    }
  });

  it("below the floor, an unreadable price, a line not priced, another quantity", () => {
    expect(previewLine(line("3.10"), saved.lines[0], resolved, "EUR").belowFloor).toBe(true);
    expect(previewLine(line("3.1x"), saved.lines[0], resolved, "EUR").error).toMatch(
      /^the quoted price /,
    );
    const unknown = { ...resolved, status: "UNKNOWN_PRODUCT", regularUnitAmount: null };
    expect(previewLine(line(""), undefined, unknown, "EUR").error).toBe(
      "not priced: UNKNOWN_PRODUCT",
    );
    const fifty = previewLine({ ...line("3.50"), quantity: "50" }, saved.lines[0], resolved, "EUR");
    expect(fifty).toMatchObject({ floorKnown: false, floor: null, cutBp: 1049, changed: true });
  });
});

describe("the tier a quote needs, and why", () => {
  const judged = (q: { cutBp: number; marginBp: number }) => [
    { productCode: "P-B", cutBp: q.cutBp, marginBp: q.marginBp },
  ];

  it("350: MANAGER, beyond auto-approval and REP on cut and margin", () => {
    const answer = tierOf(judged(quoted.first), policy);
    expect(answer).toMatchObject({ kind: "TIER", tier: "MANAGER", approvers: ["manager"] });
    expect(answer.checks.map((c) => [c.name, c.exceeded])).toEqual([
      [
        "auto-approval",
        [
          {
            productCode: "P-B",
            cutBp: 1049,
            maxCutBp: 200,
            marginBp: 1428,
            minMarginBp: 2500,
            overCut: true,
            underMargin: true,
          },
        ],
      ],
      [
        "REP",
        [
          {
            productCode: "P-B",
            cutBp: 1049,
            maxCutBp: 500,
            marginBp: 1428,
            minMarginBp: 2000,
            overCut: true,
            underMargin: true,
          },
        ],
      ],
    ]);
  });

  it("330: DIRECTOR; a cut of 1 %: auto-approved; beyond every tier: none", () => {
    expect(tierOf(judged(quoted.director), policy)).toMatchObject({ tier: "DIRECTOR" });
    expect(tierOf(judged({ cutBp: 100, marginBp: 3000 }), policy).kind).toBe("AUTO");
    expect(tierOf(judged({ cutBp: 3001, marginBp: 100 }), policy).kind).toBe("NONE");
  });

  it("without the policy (sales keys): the deepest cut and the thinnest margin", () => {
    const lines = [
      { productCode: "P-A", cutBp: 300, marginBp: 900 },
      { productCode: "P-B", cutBp: 1049, marginBp: 1428 },
      { productCode: "P-C", cutBp: 0, marginBp: null },
    ];
    expect(extremesOf(lines)).toEqual({
      deepest: lines[1],
      thinnest: lines[0],
      noMargin: ["P-C"],
    });
  });
});

describe("the actions a key is offered, and why the others are absent", () => {
  const pending = { ...saved, status: "PENDING_APPROVAL" as const };

  it("the author: submit a draft; no approve of its own quote, and why", () => {
    expect(offerOf(saved, { name: "rep-1", role: "sales" }).offered).toEqual([
      "submit",
      "withdraw",
    ]);
    const own = offerOf(pending, { name: "rep-1", role: "sales" });
    expect(own.offered).toEqual(["withdraw"]);
    expect(own.absent[0]).toMatch(
      /^You cannot approve or reject it: you wrote it \(written by rep-1\)/,
    );
    expect(own.absent[1]).toBe(
      "Not in status PENDING_APPROVAL: submit (a draft is submitted); send (an approved quote is sent).",
    );
  });

  it("a key of an owner that wrote nothing: approve and reject; the API judges the tier", () => {
    for (const me of [
      { name: "manager", role: "sales" as const },
      { name: "dev-admin-key", role: "admin" as const },
    ]) {
      const other = { ...pending, writtenByCaller: false };
      expect(offerOf(other, me).offered).toEqual(["approve", "reject", "withdraw"]);
    }
    expect(
      offerOf({ ...saved, status: "APPROVED" }, { name: "rep-1", role: "sales" }),
    ).toMatchObject({
      offered: ["send", "withdraw"],
    });
  });

  it("a read key: none, with why; an expired quote: none, with why", () => {
    const read = offerOf(pending, { name: "dev-read-key", role: "read" });
    expect(read.offered).toEqual([]);
    expect(read.absent[0]).toMatch(/^A read key sees quotes but does not write them/);
    const expired = offerOf({ ...saved, status: "EXPIRED" }, { name: "rep-1", role: "sales" });
    expect(expired).toEqual({
      offered: [],
      absent: [
        "It expired at 2027-03-31 23:59 UTC: the API refuses every action on it (QUOTE_EXPIRED).",
      ],
    });
  });
});
