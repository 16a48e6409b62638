import type { components } from "../../../client/pricing-api";
import { decimalToMinor, minorToDecimal } from "../../../scripts/lib/money.mjs";
import { exponentOf } from "../../../src/pricing/currencies";
import {
  type QuoteLimits,
  cutBpOf,
  lineWithin,
  quoteMarginBpOf,
} from "../../../src/pricing/quotes";
import { QUOTE_ACTIONS } from "../../../src/pricing/vocabulary";
import { formatInstant, parseInstant } from "../lib/instant";

/*
 * The Quotes page's logic (docs/app.md §13), without the DOM, so test/app/app-quotes.test.ts holds it
 * against worked example F: the form as an API body, each line as the rep types its price (cut and
 * margin with the engine's own integer functions, src/pricing/quotes.ts), the tier a quote needs
 * and why, and which actions the page offers a key, with why the others are absent.
 */

type Schemas = components["schemas"];
export type Quote = Schemas["Quote"];
export type QuoteLine = Schemas["QuoteLine"];
export type QuoteSummary = Schemas["QuoteSummary"];
export type QuoteStatus = Quote["status"];
export type QuotePolicy = Schemas["QuotePolicy"];
export type QuoteBody = Schemas["QuoteCreate"];
type Role = Schemas["Me"]["role"];

/** Every status of the API's vocabulary, as the page says it. */
export const STATUS_TEXT: Record<QuoteStatus, string> = {
  DRAFT: "Draft",
  PENDING_APPROVAL: "Waiting for approval",
  APPROVED: "Approved",
  SENT: "Sent to the buyer",
  ACCEPTED: "Accepted",
  DECLINED: "Declined",
  RENEGOTIATING: "Renegotiating",
  WITHDRAWN: "Withdrawn",
  REDEEMED: "Redeemed",
  EXPIRED: "Expired",
};

/** The actions of the page (accept, decline and redeem are the buyer's: the storefront's). */
export const PAGE_ACTIONS = ["submit", "approve", "reject", "send", "withdraw"] as const;
export type PageAction = (typeof PAGE_ACTIONS)[number];

const WHEN: Record<PageAction, string> = {
  submit: "a draft is submitted",
  approve: "a quote waiting for approval is approved",
  reject: "a quote waiting for approval is rejected",
  send: "an approved quote is sent",
  withdraw: "a quote is withdrawn until the buyer answers it",
};

export interface Offer {
  /** The actions the page offers this key now. */
  offered: PageAction[];
  /** Why the page offers none or some of them not, one sentence each. */
  absent: string[];
}

/**
 * What the page offers `me` for `quote`: the actions the status allows (the service's own table,
 * QUOTE_ACTIONS), none for a read key or an expired quote, and no approve or reject for a key whose
 * owner wrote it (`writtenByCaller`); with a sentence for each reason something is absent. The API decides all the
 * same: a refusal it gives (NOT_AN_APPROVER, STALE_QUOTE) is shown as it comes.
 */
export function offerOf(
  quote: Pick<Quote, "status" | "writers" | "writtenByCaller" | "validTo">,
  me: { name: string; role: Role },
): Offer {
  if (me.role === "read") {
    return {
      offered: [],
      absent: [
        "A read key sees quotes but does not write them: creating, submitting, approving, " +
          "rejecting, sending and withdrawing need a sales or admin key (the storefront's read " +
          "key answers a sent quote for the buyer through the API).",
      ],
    };
  }
  if (quote.status === "EXPIRED") {
    return {
      offered: [],
      absent: [
        `It expired at ${formatInstant(Date.parse(quote.validTo))} UTC: the API refuses every ` +
          "action on it (QUOTE_EXPIRED).",
      ],
    };
  }
  const allowed = PAGE_ACTIONS.filter((a) =>
    (QUOTE_ACTIONS[a] as readonly string[]).includes(quote.status),
  );
  const absent: string[] = [];
  const self = quote.writtenByCaller;
  const offered = allowed.filter((a) => !(self && (a === "approve" || a === "reject")));
  if (self && allowed.includes("approve")) {
    absent.push(
      `You cannot approve or reject it: you wrote it (written by ${quote.writers.join(", ")}), ` +
        "and a quote is approved by another person (SELF_APPROVAL): an approver of its tier or a " +
        "later one, or an admin key of another owner.",
    );
  }
  const later = PAGE_ACTIONS.filter((a) => !allowed.includes(a));
  if (later.length) {
    absent.push(
      `Not in status ${quote.status}: ${later.map((a) => `${a} (${WHEN[a]})`).join("; ")}.`,
    );
  }
  return { offered, absent };
}

// The form

export interface LineForm {
  productCode: string;
  /** Pieces, as typed */
  quantity: string;
  /** The quoted price in the quote's currency ("3.50"); empty: the regular price */
  price: string;
}

export interface QuoteForm {
  customerCode: string;
  channelCode: string;
  mode: QuoteBody["mode"];
  lock: QuoteBody["lock"];
  /** "2027-03-31 23:59", UTC */
  validTo: string;
  lines: LineForm[];
}

export const emptyLine = (): LineForm => ({ productCode: "", quantity: "1", price: "" });

/** A new quote's form: valid for 30 days, to the end of that day (UTC). */
export function emptyQuoteForm(now: number): QuoteForm {
  const day = formatInstant(now + 30 * 24 * 60 * 60 * 1000).slice(0, 10);
  return {
    customerCode: "",
    channelCode: "",
    mode: "ONCE",
    lock: "FIXED",
    validTo: `${day} 23:59`,
    lines: [emptyLine()],
  };
}

/** An amount in minor units as the price field shows it: 350, "EUR" → "3.50". */
export const minorToField = (amount: number, currency: string): string =>
  minorToDecimal(amount, exponentOf(currency) ?? 2);

/** A quote as its form: the lines' quoted prices typed as they are stored. */
export function formOf(quote: Quote): QuoteForm {
  return {
    customerCode: quote.customerCode,
    channelCode: quote.channelCode,
    mode: quote.mode,
    lock: quote.lock,
    validTo: formatInstant(Date.parse(quote.validTo)),
    lines: quote.lines.map((l) => ({
      productCode: l.productCode,
      quantity: String(l.quantity),
      price:
        l.quotedUnitAmount === l.regularUnitAmount
          ? ""
          : minorToField(l.quotedUnitAmount, quote.currency),
    })),
  };
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** A quoted price typed in `currency` ("3.50", "3,50") in minor units; empty: none (regular). */
export function priceOf(text: string, currency: string): Parsed<number | undefined> {
  const typed = text.trim();
  if (typed === "") return { ok: true, value: undefined };
  const digits = exponentOf(currency) ?? 2;
  const answer = decimalToMinor(typed.replace(/^(\d+),(\d+)$/, "$1.$2"), digits, currency);
  if (!answer.ok) return { ok: false, error: answer.error };
  if (answer.value < 0) return { ok: false, error: "must not be negative" };
  return { ok: true, value: answer.value };
}

const QUANTITY = /^[1-9][0-9]{0,8}$/;

/** The lines that name a product and a whole quantity: what a resolve can price. */
export const pricedLinesOf = (lines: readonly LineForm[]) =>
  lines
    .map((l) => ({ productCode: l.productCode.trim(), quantity: l.quantity.trim() }))
    .filter((l) => l.productCode !== "" && QUANTITY.test(l.quantity))
    .map((l) => ({ productCode: l.productCode, quantity: Number(l.quantity) }));

/**
 * The form as the API's body (create; PATCH takes the same but customer and channel), or every
 * problem of it, each naming its field or line. `currency`: the one prices are typed in (the
 * channel's, as the last resolve or the quote answered it); unknown yet: prices cannot be read.
 */
export function quoteBodyOf(
  form: QuoteForm,
  currency: string | null,
  now: number,
): { ok: true; body: QuoteBody } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  if (form.customerCode.trim() === "") problems.push("Customer: type the buyer's code.");
  if (form.channelCode.trim() === "") problems.push("Channel: choose one.");
  const validTo = parseInstant(form.validTo);
  if (!validTo.ok) problems.push(`Valid to: ${validTo.error}.`);
  else if (validTo.value === undefined) problems.push("Valid to: type until when it holds.");
  else if (Date.parse(validTo.value) <= now) problems.push("Valid to: must lie in the future.");
  const lines: QuoteBody["lines"] = [];
  const seen = new Set<string>();
  form.lines.forEach((line, i) => {
    const n = i + 1;
    const productCode = line.productCode.trim();
    if (productCode === "" && line.price.trim() === "") return; // an empty row
    if (productCode === "") return void problems.push(`Line ${n}: type a product code.`);
    if (seen.has(productCode)) {
      return void problems.push(`Line ${n}: ${productCode} is on the quote already.`);
    }
    seen.add(productCode);
    if (!QUANTITY.test(line.quantity.trim())) {
      return void problems.push(`Line ${n}: the quantity must be a whole number from 1.`);
    }
    let unitAmount: number | undefined;
    if (line.price.trim() !== "") {
      if (currency === null) {
        return void problems.push(`Line ${n}: the price is read once the line is priced.`);
      }
      const price = priceOf(line.price, currency);
      if (!price.ok) return void problems.push(`Line ${n}: the quoted price ${price.error}.`);
      unitAmount = price.value;
    }
    lines.push({
      productCode,
      quantity: Number(line.quantity.trim()),
      ...(unitAmount === undefined ? {} : { unitAmount }),
    });
  });
  if (lines.length === 0 && problems.length === 0) problems.push("Lines: add a product.");
  if (problems.length || !validTo.ok || validTo.value === undefined) return { ok: false, problems };
  return {
    ok: true,
    body: {
      customerCode: form.customerCode.trim(),
      channelCode: form.channelCode.trim(),
      validTo: validTo.value,
      mode: form.mode,
      lock: form.lock,
      lines,
    },
  };
}

// A line as the rep types its price

/** What a resolve answered for a line (no write): the regular price, its unit, its status. */
export interface Resolved {
  status: string;
  regularUnitAmount: number | null;
  priceUnit: number | null;
  /** Admin keys only: the line's cost */
  costUnitAmount: number | null;
}

export interface LinePreview {
  regular: number | null;
  floor: number | null;
  /** The quoted price: typed, else the regular one; null when unreadable or not priced yet */
  quoted: number | null;
  cutBp: number | null;
  marginBp: number | null;
  /**
   * Where the margin comes from: `engine` (the saved line, as the API judged it), `cost` (worked
   * out here from the line's cost: admin keys), `save` (a sales key sees no cost: the engine prices
   * it when the quote is saved), `none` (no price yet).
   */
  marginFrom: "engine" | "cost" | "save" | "none";
  /** The floor is the saved line's, known only once the line was saved at this quantity */
  floorKnown: boolean;
  belowFloor: boolean;
  error: string | null;
  /** The line differs from the saved quote: Save prices it with the engine */
  changed: boolean;
}

/**
 * One line while the rep types: the regular price from the latest resolve (else the saved
 * line's), the floor and engine margin of the saved line when product and quantity are still
 * those, and the cut of the typed price, worked out at once with the engine's own function
 * (rounded up). A typed price the saved line already holds shows the engine's margin; another
 * shows the margin from the cost when the key sees costs, else "on save".
 */
export function previewLine(
  line: LineForm,
  saved: QuoteLine | undefined,
  resolved: Resolved | undefined,
  currency: string | null,
): LinePreview {
  const quantity = Number(line.quantity.trim());
  const same =
    saved !== undefined &&
    saved.productCode === line.productCode.trim() &&
    saved.quantity === quantity;
  const base = same ? saved : undefined;
  const regular = resolved?.regularUnitAmount ?? base?.regularUnitAmount ?? null;
  const floor = base?.floorUnitAmount ?? null;
  let quoted: number | null = regular;
  let error: string | null = null;
  if (line.price.trim() !== "") {
    if (currency === null) {
      quoted = null;
    } else {
      const price = priceOf(line.price, currency);
      quoted = price.ok ? (price.value ?? regular) : null;
      if (!price.ok) error = `the quoted price ${price.error}`;
    }
  }
  if (resolved && resolved.status !== "OK") error = `not priced: ${resolved.status}`;
  const cutBp = regular !== null && quoted !== null ? cutBpOf(regular, quoted) : null;
  const changed =
    base === undefined ||
    quoted !== base.quotedUnitAmount ||
    (resolved?.regularUnitAmount != null && resolved.regularUnitAmount !== base.regularUnitAmount);
  let marginBp: number | null = null;
  let marginFrom: LinePreview["marginFrom"] = "none";
  const cost = resolved?.costUnitAmount ?? base?.costUnitAmount ?? null;
  if (base && quoted === base.quotedUnitAmount && !changed) {
    marginBp = base.marginBp ?? null;
    marginFrom = "engine";
  } else if (quoted !== null && cost !== null) {
    marginBp = quoteMarginBpOf(quoted, cost);
    marginFrom = "cost";
  } else if (quoted !== null) {
    marginFrom = "save";
  }
  return {
    regular,
    floor,
    quoted,
    cutBp,
    marginBp,
    marginFrom,
    floorKnown: base !== undefined,
    belowFloor: floor !== null && quoted !== null && quoted < floor,
    error,
    changed,
  };
}

// The tier a quote needs, and why

export interface Exceeded {
  productCode: string;
  /** "cut 10.49% over 5%" style facts, in basis points for the caller to format */
  cutBp: number;
  maxCutBp: number;
  marginBp: number | null;
  minMarginBp: number | null;
  overCut: boolean;
  underMargin: boolean;
}

/** Limits (auto-approval or a tier) and the lines that are not within them. */
export interface LimitCheck {
  name: string;
  limits: QuoteLimits;
  exceeded: Exceeded[];
}

export interface JudgedQuoteLine {
  productCode: string;
  cutBp: number;
  marginBp: number | null;
}

const exceededOf = (lines: readonly JudgedQuoteLine[], limits: QuoteLimits): Exceeded[] =>
  lines
    .filter((line) => !lineWithin({ productId: 0, ...line }, limits))
    .map((line) => ({
      productCode: line.productCode,
      cutBp: line.cutBp,
      maxCutBp: limits.maxCutBp,
      marginBp: line.marginBp,
      minMarginBp: limits.minMarginBp,
      overCut: line.cutBp > limits.maxCutBp,
      underMargin:
        limits.minMarginBp !== null &&
        (line.marginBp === null || line.marginBp < limits.minMarginBp),
    }));

export type TierAnswer =
  | { kind: "AUTO"; checks: LimitCheck[] }
  | { kind: "TIER"; tier: string; approvers: string[]; checks: LimitCheck[] }
  | { kind: "NONE"; checks: LimitCheck[] };

/**
 * The tier the lines need under `policy`, as a submit decides it (docs/quotes.md §4, without the
 * envelope of an approved revision, which the API applies on submit): within auto-approval; else
 * the first tier they are within; else none. `checks`: the limits passed over on the way (auto-
 * approval, then each lower tier) with the lines that exceed each: the why.
 */
export function tierOf(lines: readonly JudgedQuoteLine[], policy: QuotePolicy): TierAnswer {
  const checks: LimitCheck[] = [];
  if (policy.autoApprove) {
    const exceeded = exceededOf(lines, policy.autoApprove);
    if (exceeded.length === 0) return { kind: "AUTO", checks };
    checks.push({ name: "auto-approval", limits: policy.autoApprove, exceeded });
  }
  for (const tier of policy.tiers) {
    const exceeded = exceededOf(lines, tier);
    if (exceeded.length === 0) {
      return { kind: "TIER", tier: tier.name, approvers: tier.approvers, checks };
    }
    checks.push({ name: tier.name, limits: tier, exceeded });
  }
  return { kind: "NONE", checks };
}

/** The deepest cut and the thinnest margin among the lines: what a tier is about. */
export function extremesOf(lines: readonly JudgedQuoteLine[]) {
  const deepest = [...lines].sort((a, b) => b.cutBp - a.cutBp)[0];
  const withMargin = lines.filter((l) => l.marginBp !== null);
  const thinnest = [...withMargin].sort((a, b) => a.marginBp! - b.marginBp!)[0];
  const noMargin = lines.filter((l) => l.marginBp === null).map((l) => l.productCode);
  return { deepest, thinnest, noMargin };
}
