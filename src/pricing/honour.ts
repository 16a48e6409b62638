import { AmountOutOfRange } from "./money";
import { descending } from "./rank";
import type { Instant, QuoteLineTerms, QuoteTerms } from "./request";
import type { QuoteExplain } from "./types";
import { inUnit } from "./units";
import type { EdgeTracker } from "./validity";
import type { QuoteOutcome } from "./vocabulary";

/*
 * Step 7 of docs/pricing-rules.md §15 and §28: a quote replaces (FIXED) or caps (BETTER_OF) the
 * final amount of a line its terms reach, after every trade condition, promotion and floor, so
 * none of them changes a quoted amount. A ONCE quote (the one the request named, checked by the
 * caller) reaches a line of its product at exactly its quantity; an AGREEMENT quote every line of
 * its products at any quantity from its acceptance until its validTo. Pure and integer-only.
 */

interface Candidate {
  quote: QuoteTerms;
  line: QuoteLineTerms;
}

/** The request's quotes by product, each product's ranked (`rankOf`). */
export interface QuoteStep {
  at: Instant;
  /** The request carries quotes: every line's explain then lists the quotes of its product. */
  any: boolean;
  byProduct: ReadonlyMap<string, readonly Candidate[]>;
}

/**
 * The ranking of two quotes of one product: the named ONCE quote first, then the agreement
 * accepted last, then the higher id: it ends with the id, so it never ties and never depends
 * on the order the reader passed them in.
 */
const rankOf = (a: Candidate, b: Candidate) =>
  descending(named(a), named(b)) ||
  descending(a.quote.acceptedAt, b.quote.acceptedAt) ||
  descending(a.quote.id, b.quote.id);

const named = (c: Candidate) => (c.quote.mode === "ONCE" ? 1 : 0);

/** Indexes the request's quotes; an agreement's acceptance and validTo bound the answer's validity. */
export function prepareQuotes(
  quotes: readonly QuoteTerms[] | undefined,
  at: Instant,
  edges: EdgeTracker,
): QuoteStep {
  const byProduct = new Map<string, Candidate[]>();
  for (const quote of quotes ?? []) {
    if (quote.mode === "AGREEMENT")
      edges.note({ validFrom: quote.acceptedAt, validTo: quote.validTo });
    for (const line of quote.lines) {
      const list = byProduct.get(line.productCode) ?? [];
      list.push({ quote, line });
      byProduct.set(line.productCode, list);
    }
  }
  for (const list of byProduct.values()) list.sort(rankOf);
  return { at, any: (quotes ?? []).length > 0, byProduct };
}

/** What the quote step decided for one line. */
export interface Honouring {
  /** The quote that prices the line (its outcome APPLIED or USUAL_PRICE_WON); undefined: none. */
  winner: { quote: QuoteTerms; unitAmount: number; won: "QUOTE" | "USUAL" } | undefined;
  /** Every quote of the product, in rank order, for explain. */
  notes: QuoteExplain[];
}

/** The quoted amount per the line's price unit (half up, §20); null when it cannot be exact. */
function quotedIn(line: QuoteLineTerms, priceUnit: number): number | null {
  try {
    return inUnit(line.quotedUnitAmount, line.priceUnit, priceUnit);
  } catch (error) {
    if (!(error instanceof AmountOutOfRange)) throw error;
    return null;
  }
}

/** Why a candidate cannot price the line, before ranking; null when it can. */
function refusal(step: QuoteStep, c: Candidate, quantity: number, usual: number | null) {
  if (c.quote.mode === "ONCE" && c.line.quantity !== quantity) return "QUOTE_QUANTITY_MISMATCH";
  const { acceptedAt, validTo } = c.quote;
  if (c.quote.mode === "AGREEMENT" && !(acceptedAt <= step.at && step.at < validTo)) {
    return "OUT_OF_WINDOW";
  }
  return usual === null ? "NOT_ELIGIBLE" : null;
}

/**
 * Step 7 for a line of `productCode` × `quantity` whose unit amounts are per `priceUnit` pieces
 * and whose usual final amount is `usual` (null: the line is not priced as usual).
 */
export function honour(
  step: QuoteStep,
  productCode: string,
  quantity: number,
  priceUnit: number,
  usual: number | null,
): Honouring {
  let winner: Honouring["winner"];
  const notes: QuoteExplain[] = [];
  for (const c of step.byProduct.get(productCode) ?? []) {
    const unitAmount = quotedIn(c.line, priceUnit);
    let outcome: QuoteOutcome =
      refusal(step, c, quantity, usual) ?? (unitAmount === null ? "NOT_ELIGIBLE" : "APPLIED");
    if (outcome === "APPLIED" && winner) outcome = "LOWER_RANK";
    else if (outcome === "APPLIED") {
      const won = c.quote.lock === "BETTER_OF" && unitAmount! > usual! ? "USUAL" : "QUOTE";
      if (won === "USUAL") outcome = "USUAL_PRICE_WON";
      winner = { quote: c.quote, unitAmount: unitAmount!, won };
    }
    notes.push(noteOf(c, outcome, unitAmount, priceUnit, usual));
  }
  return { winner, notes };
}

const noteOf = (
  { quote, line }: Candidate,
  outcome: QuoteOutcome,
  unitAmount: number | null,
  priceUnit: number,
  usual: number | null,
): QuoteExplain => ({
  quoteId: quote.id,
  revision: quote.revision,
  mode: quote.mode,
  lock: quote.lock,
  outcome,
  quantity: line.quantity,
  quotedUnitAmount: unitAmount,
  priceUnit,
  usualUnitAmount: usual,
  validTo: new Date(quote.validTo).toISOString(),
});
