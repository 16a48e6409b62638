import type { Db } from "../../db/client";
import type { PriceContext } from "../../db/pricing/lookup";
import { loadNamedQuote } from "../../db/pricing/quote-terms";
import { readPricingContext, type PricingReadOptions } from "../../db/pricing/reader";
import type { Visibility } from "../../db/visibility";
import { ApiError, conflict, notFound } from "../../core/errors";
import {
  resolvePrices,
  type PriceAnswer,
  type PriceLineRequest,
  type PriceRequest,
} from "../../pricing";
import { honourable, quotesOf } from "./prices.quotes";

/**
 * A cart to price, as a client asked for it (the POST body or the GET query, validated); the
 * engine's own input, with every candidate record, is `PriceRequest`.
 */
export interface CartRequest {
  channelCode: string;
  /** Absent or null: anonymous. */
  customerCode?: string | null;
  currency?: string;
  /** Epoch ms; default now. */
  at?: number;
  explain?: boolean;
  /**
   * What the asking key sees (docs/api/access.md §18, `c.var.scope`): with costs (admin keys)
   * the answer carries cost, margin, accruals and pocket price (docs/pricing-rules.md §26);
   * without, none of them, nor a COST list or an ACCRUAL condition, is even read.
   */
  scope: Visibility;
  /** A quote to honour (POST resolve only, docs/pricing-rules.md §28.1). */
  quoteId?: number;
  /** Each OK line's tier ladder (docs/pricing-rules.md §30). */
  ladder?: boolean;
  lines: PriceLineRequest[];
  /** The line fields to answer (docs/api/prices.md §9, `selectLines`); absent: every one. */
  select?: string[];
  /** Where the request's fields sit, for error paths: "body" or "query". */
  location: "body" | "query";
}

export interface PricedCart {
  answer: PriceAnswer;
  /** The version of the data the answer depends on (for ETags; `PreparedCart.version`). */
  version: number;
  /** Set when D1 stalled and the isolate's data answered: ms since it was last confirmed current. */
  staleMs?: number;
}

/** A cart ready for the engine: its input, and the version of the data its answer depends on. */
export interface PreparedCart {
  request: PriceRequest;
  /**
   * For a key that sees costs the pricing data version it was read at; for a read key the
   * version of what read keys see, which a write of a COST list no floor derives from, or of an
   * accrual, leaves as it was (docs/api/access.md §18, migration 0027): such a write changes no
   * read key's answer, so it changes none of their ETags.
   */
  version: number;
  /** As in PricedCart. */
  staleMs?: number;
}

/**
 * The request context rules of docs/pricing-rules.md §2 and the engine's input: the pricing
 * reader (src/db/pricing/reader.ts `readPricingContext`) called once, one D1 round trip, two when
 * the cached contexts turn out to be of an older data version.
 */
export async function prepareCart(
  db: Db,
  cart: CartRequest,
  options: PricingReadOptions = { cache: true },
): Promise<PreparedCart> {
  const now = Date.now();
  const at = cart.at ?? now;
  const customerCode = cart.customerCode ?? null;
  // The named quote is read beside the lookup, not after it: one read more, no round trip in line.
  const [loaded, named] = await Promise.all([
    readPricingContext(
      db,
      {
        channelCode: cart.channelCode,
        customerCode,
        currency: cart.currency ?? null,
        at,
        explain: cart.explain ?? false,
        scope: cart.scope,
        productCodes: [...new Set(cart.lines.map((line) => line.productCode))],
      },
      options,
    ),
    cart.quoteId === undefined ? undefined : loadNamedQuote(db, cart.quoteId),
  ]);
  const { context } = loaded;
  const currency = assertContext(context, cart, customerCode);
  const terms =
    cart.quoteId === undefined
      ? undefined
      : honourable(cart.quoteId, named, { channelCode: cart.channelCode, customerCode, at, now });
  const request: PriceRequest = {
    at,
    currency,
    channel: { code: cart.channelCode },
    customer: customerCode === null ? null : { code: customerCode },
    groupCodes: context.groupCodes,
    products: context.products,
    explain: cart.explain ?? false,
    ...(cart.ladder ? { ladder: true } : {}),
    // GET /v1/api/prices prices each product as a one-line order (docs/pricing-rules.md §4.4).
    separateOrders: cart.location === "query",
    roundingMode: context.channel!.roundingMode,
    exchangeRates: context.exchangeRates,
    pricelists: context.pricelists,
    priceBases: context.priceBases,
    floors: context.floors,
    margin: cart.scope.costs,
    costs: context.costs,
    hiddenConditionTypes: cart.scope.hiddenConditionTypes,
    tradeConditions: context.tradeConditions,
    promotions: context.promotions,
    quotes: quotesOf(context.agreements, terms),
    lines: cart.lines,
  };
  return {
    request,
    version: cart.scope.costs ? context.version : context.seenVersion,
    staleMs: loaded.ageMs,
  };
}

/** The request context rules of docs/pricing-rules.md §2 over a loaded context; its currency. */
function assertContext(
  context: PriceContext,
  cart: CartRequest,
  customerCode: string | null,
): string {
  if (!context.channel) throw notFound(`channel ${cart.channelCode} not found`);
  if (!context.channel.isActive) {
    throw conflict(`channel ${cart.channelCode} is not active`, "CHANNEL_INACTIVE");
  }
  if (customerCode !== null) {
    // No silent fall-back to anonymous prices: a named customer must exist and buy here.
    if (!context.customer) throw notFound(`customer ${customerCode} not found`);
    if (!context.customer.inChannel) {
      throw conflict(
        `customer ${customerCode} is not assigned to channel ${cart.channelCode}`,
        "CUSTOMER_NOT_IN_CHANNEL",
      );
    }
  }
  if (!context.currency) {
    const message = `channel ${cart.channelCode} has no primary pricelist; name a currency`;
    throw new ApiError(400, "CURRENCY_REQUIRED", message, [
      { path: `${cart.location}.currency`, message: "is required for this channel" },
    ]);
  }
  return context.currency;
}

/** A cart priced: `prepareCart`, then the pure engine. */
export async function priceCart(
  db: Db,
  cart: CartRequest,
  options?: PricingReadOptions,
): Promise<PricedCart> {
  const { request, version, staleMs } = await prepareCart(db, cart, options);
  return { answer: resolvePrices(request), version, staleMs };
}
