import type { NamedQuote } from "../../db/pricing/quote-terms";
import { conflict, notFound } from "../../core/errors";
import type { QuoteTerms } from "../../pricing";

/**
 * Whether a resolve may honour the quote it names (docs/pricing-rules.md §28.1), checked in this
 * order, the first failing one answered: no such quote → 404 NOT_FOUND (read keys may read every
 * quote, so its existence is no secret); another customer or channel → 409 QUOTE_MISMATCH;
 * REDEEMED → 409 QUOTE_REDEEMED; past its validTo (at the request's moment or now, whichever is
 * later: a past `at` does not revive it) → 409 QUOTE_EXPIRED; not ACCEPTED → 409
 * QUOTE_NOT_ACCEPTED. The terms to honour when it may.
 */
export function honourable(
  quoteId: number,
  quote: NamedQuote | undefined,
  request: { channelCode: string; customerCode: string | null; at: number; now: number },
): QuoteTerms {
  if (!quote) throw notFound(`quote ${quoteId} not found`);
  const { customerCode, channelCode, status, terms } = quote;
  if (customerCode !== request.customerCode || channelCode !== request.channelCode) {
    const whom = request.customerCode === null ? "anonymous" : `customer ${request.customerCode}`;
    throw conflict(
      `quote ${quoteId} is for customer ${customerCode} in channel ${channelCode}, not for ${whom} in channel ${request.channelCode}`,
      "QUOTE_MISMATCH",
    );
  }
  if (status === "REDEEMED") {
    throw conflict(`quote ${quoteId} has been redeemed`, "QUOTE_REDEEMED");
  }
  if (terms.validTo <= Math.max(request.at, request.now)) {
    const until = new Date(terms.validTo).toISOString();
    throw conflict(`quote ${quoteId} expired at ${until}`, "QUOTE_EXPIRED");
  }
  if (status !== "ACCEPTED") {
    throw conflict(`quote ${quoteId} is ${status}, not ACCEPTED`, "QUOTE_NOT_ACCEPTED");
  }
  return terms;
}

/**
 * The quotes a lookup honours: the customer's agreements, and the quote the request named unless
 * it is one of them (an agreement named is honoured as an agreement, in its window).
 */
export const quotesOf = (agreements: readonly QuoteTerms[], named: QuoteTerms | undefined) =>
  named && named.mode === "ONCE" ? [...agreements, named] : [...agreements];
