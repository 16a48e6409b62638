import type { Db } from "../../lib/db";
import { ApiError, conflict, notFound } from "../../lib/errors";
import { resolvePrices, type PriceAnswer, type PriceLineRequest } from "../../pricing";
import { loadPriceContext } from "./prices.repo";

export interface PriceInput {
  channelCode: string;
  customerCode?: string;
  currency?: string;
  /** Epoch ms; default now. */
  at?: number;
  explain?: boolean;
  lines: PriceLineRequest[];
  /** Where the request's fields sit, for error paths: "body" or "query". */
  location: "body" | "query";
}

export interface PricedRequest {
  answer: PriceAnswer;
  /** The pricing data version the answer was computed from (for ETags). */
  version: number;
}

/** The request context rules of pricing-rules.md, then the pure engine: one D1 round trip. */
export async function priceRequest(db: Db, input: PriceInput): Promise<PricedRequest> {
  const at = input.at ?? Date.now();
  const customerCode = input.customerCode ?? null;
  const context = await loadPriceContext(db, {
    channelCode: input.channelCode,
    customerCode,
    currency: input.currency ?? null,
    at,
    explain: input.explain ?? false,
    productCodes: [...new Set(input.lines.map((line) => line.productCode))],
  });
  if (!context.channel) throw notFound(`channel ${input.channelCode} not found`);
  if (!context.channel.isActive) {
    throw conflict(`channel ${input.channelCode} is not active`, "CHANNEL_INACTIVE");
  }
  if (customerCode !== null) {
    // No silent fall-back to anonymous prices: a named customer must exist and buy here.
    if (!context.customer) throw notFound(`customer ${customerCode} not found`);
    if (!context.customer.inChannel) {
      throw conflict(
        `customer ${customerCode} is not assigned to channel ${input.channelCode}`,
        "CUSTOMER_NOT_IN_CHANNEL",
      );
    }
  }
  if (!context.currency) {
    const message = `channel ${input.channelCode} has no primary pricelist; name a currency`;
    throw new ApiError(400, "CURRENCY_REQUIRED", message, [
      { path: `${input.location}.currency`, message: "is required for this channel" },
    ]);
  }
  const answer = resolvePrices({
    at,
    currency: context.currency,
    channel: { code: input.channelCode },
    customer: customerCode === null ? null : { code: customerCode },
    groupCodes: context.groupCodes,
    knownProducts: context.knownProducts,
    explain: input.explain ?? false,
    pricelists: context.pricelists,
    tradeConditions: context.tradeConditions,
    promotions: context.promotions,
    lines: input.lines,
  });
  return { answer, version: context.version };
}
