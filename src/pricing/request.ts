import type {
  ChannelRoundingMode,
  ConditionScope,
  ConditionType,
  DiscountType,
  PricelistLevel,
  PromotionStacking,
  QuoteLock,
  QuoteMode,
  RoundingMode,
  ScaleBasis,
  Status,
  ThresholdBasis,
  TierMode,
} from "./vocabulary";
import type { ProductCodes, TargetLists } from "./targeting";

/* The engine's input (its conventions: types.ts). */

export type Instant = number;

export interface Validity {
  validFrom: Instant | null;
  validTo: Instant | null;
}

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

export interface PriceRow extends Validity {
  productCode: string;
  /** ≥ 1; the row with the largest minQuantity ≤ q prices a line of q. */
  minQuantity: number;
  /** The price of `priceUnit` pieces. */
  amount: number;
  /** 1–10,000 pieces (docs/pricing-rules.md §20); absent: 1. */
  priceUnit?: number;
  /** ≥ 0: what reaching the row's band adds to a GRADUATED lot (§29); absent: 0. */
  flatAmount?: number;
}

/**
 * An exchange rate (docs/api/prices.md §16.2): `from` → `to` holds from `validFrom` until the next
 * validFrom of the same pair. `rate` is its decimal text ("0.92"), read exactly
 * (src/pricing/exchange.ts), never as a float. Directional: no inversion, no triangulation.
 */
export interface ExchangeRate {
  from: string;
  to: string;
  rate: string;
  validFrom: Instant;
}

/** How a derived pricelist's amount is brought to a price ending (docs/pricing-rules.md §3.7). */
export interface Rounding {
  mode: RoundingMode;
  /** ≥ 1: prices are k × step + ending (k ≥ 0). */
  step: number;
  /** 0 ≤ ending < step. */
  ending: number;
}

/**
 * A pricelist computed from another one: for a product without own rows, every tier of the base's
 * rows × (10000 + adjustmentBp) / 10000 (half up), then `rounding`; a base in another currency is
 * converted at the rate in force in the same rounding (docs/pricing-rules.md §19). The engine
 * follows at most 3 steps and never a cycle or a missing base (the product then has no rows in
 * this list), whatever the write rules already refuse.
 */
export interface Derivation {
  basePricelistId: number;
  /** −9999 … 100000 basis points. */
  adjustmentBp: number;
  rounding: Rounding | null;
}

export interface PricelistCandidate extends Validity {
  id: number;
  name: string;
  status: Status;
  currency: string;
  priority: number;
  allowsTradeDiscounts: boolean;
  taxInclusive: boolean;
  /** How its tiers price a line (docs/pricing-rules.md §29); absent: VOLUME. */
  tierMode?: TierMode;
  /**
   * Every level at which this pricelist reaches the request (a GENERAL pricelist assigned to the
   * customer and to one of its groups is at CUSTOMER and CUSTOMER_GROUP). The channel's primary
   * pricelist is tagged CHANNEL_PRIMARY only. Entries with the same id are merged.
   */
  levels: readonly PricelistLevel[];
  /**
   * Its OWN rows for (at least) the requested products; rows of other products are ignored. A
   * derived list's own rows for a product override its base for that product.
   */
  prices: readonly PriceRow[];
  /** null: not derived. Its base (and theirs) must be in `PriceRequest.priceBases`. */
  derivation: Derivation | null;
}

/**
 * A pricelist a derivation chain reaches (up to 3 steps from a candidate), whatever its status
 * and window: only its rows (own rows, requested products at least), currency and own derivation
 * are used. A candidate of `pricelists` may be a base too; when an id is in both, this entry's
 * rows are used.
 */
export interface PriceBase {
  id: number;
  currency: string;
  derivation: Derivation | null;
  prices: readonly PriceRow[];
}

/**
 * A COST pricelist assigned to the channel: what each product costs (docs/pricing-rules.md §23).
 * Passed whatever its status, window and currency (the engine checks them, for explain).
 */
export interface CostPricelist extends Validity {
  id: number;
  name: string;
  status: Status;
  currency: string;
  priority: number;
  prices: readonly PriceRow[];
}

/**
 * A FLOOR pricelist assigned to the channel: minimum unit prices (docs/pricing-rules.md §14).
 * Passed whatever its status, window and currency (the engine checks them, for explain). It may
 * derive its rows from a COST list ("never below cost + 10 %", §24): its base must then be in
 * `PriceRequest.priceBases`, and its own rows for a product override the base's.
 */
export interface FloorPricelist extends CostPricelist {
  /** Absent or null: not derived. */
  derivation?: Derivation | null;
}

export interface Scale {
  /** The row with the largest minimum ≤ the condition's scale basis applies. */
  minimum: number;
  /** Replaces the condition's `value` from `minimum` on (same discountType). */
  value: number;
}

export interface TradeConditionCandidate extends Validity, TargetLists {
  id: number;
  name: string;
  scope: ConditionScope;
  status: Status;
  type: ConditionType;
  /** A NET_PRICE is always read as an absolute unit price, whatever this says. */
  discountType: DiscountType;
  /** Basis points for PERCENTAGE, minor units of `currency` per `priceUnit` pieces for ABSOLUTE. */
  value: number;
  currency: string | null;
  /** 1–10,000: the pieces an ABSOLUTE value (and a NET_PRICE) is for; absent: 1 (§20). */
  priceUnit?: number;
  priority: number;
  stackable: boolean;
  /**
   * Product reach (src/pricing/targeting.ts): a list per targeting dimension (`TargetLists`:
   * productCodes, productGroupCodes, brandCodes, …; absent: none); with none of them, every
   * product; otherwise the listed products, every product in a listed group or one of its
   * descendants, and every product of a listed brand.
   */
  productCodes: readonly string[];
  productGroupCodes: readonly string[];
  /** Empty = all channels. */
  channelCodes: readonly string[];
  /**
   * What the scale rows' `minimum` is compared with: the line's quantity, or the sum over the
   * request's eligible lines this condition reaches of their quantities (ORDER_QUANTITY) or of
   * baseUnitAmount × quantity (ORDER_VALUE, which needs `currency` = the request's).
   */
  scaleBasis: ScaleBasis;
  /** Empty = no scales (`value` applies whatever the basis). */
  scales: readonly Scale[];
  /**
   * Targets, as linked in D1; the engine decides whether they reach the request. CUSTOMER scope:
   * the linked customer codes; CUSTOMER_GROUP scope: the linked group codes. Ignored for the other
   * scopes. The loader may trim them to the request's customer and G (it must not drop a match).
   */
  customerCodes: readonly string[];
  customerGroupCodes: readonly string[];
}

export interface PromotionCandidate extends Validity, TargetLists {
  id: number;
  name: string;
  status: Status;
  discountType: DiscountType;
  value: number;
  currency: string | null;
  /** 1–10,000: the pieces an ABSOLUTE value is for; absent: 1 (docs/pricing-rules.md §20). */
  priceUnit?: number;
  priority: number;
  stacking: PromotionStacking;
  /** Product reach as for trade conditions (`TargetLists`): none of the lists = every product. */
  productCodes: readonly string[];
  productGroupCodes: readonly string[];
  /** Empty = all channels / everyone. */
  channelCodes: readonly string[];
  customerGroupCodes: readonly string[];
  /** null: none. Else a candidate only once the reached eligible lines' sum reaches `minimum`. */
  threshold: Threshold | null;
}

/**
 * QUANTITY: Σ quantity; VALUE: Σ regularUnitAmount × quantity (needs the promotion's `currency`
 * = the request's), over the request's eligible lines the promotion reaches.
 */
export interface Threshold {
  basis: ThresholdBasis;
  /** ≥ 1. */
  minimum: number;
}

/**
 * What the engine needs to know of a requested product that exists; with its code in each
 * dimension of records a product names one of (`ProductCodes`, src/pricing/targeting.ts: its
 * `brandCode`, docs/pricing-rules.md §31; absent or null: none).
 */
export interface ProductFacts extends ProductCodes {
  /** Its own group first, then each parent up to the root; [] when it is in no group. */
  groupPath: readonly string[];
  /** A quantity q is allowed when q ≥ min, (q − min) mod increment = 0 and q ≤ max. ≥ 1. */
  minOrderQuantity: number;
  /** ≥ 1. */
  orderIncrement: number;
  /** null: no maximum. */
  maxOrderQuantity: number | null;
}

/** A line of a quote's terms: the product, the quantity quoted, and its price per `priceUnit` pieces. */
export interface QuoteLineTerms {
  productCode: string;
  quantity: number;
  quotedUnitAmount: number;
  /** ≥ 1: the pieces `quotedUnitAmount` is for (the line's price unit when it was quoted). */
  priceUnit: number;
}

/**
 * An ACCEPTED quote the request honours (docs/pricing-rules.md §28): a ONCE quote only when the
 * caller has checked that the request named it and may use it (customer, channel, status,
 * validTo); an AGREEMENT quote of the request's customer in its channel, whatever its window
 * (the engine checks `acceptedAt ≤ at < validTo`, for explain).
 */
export interface QuoteTerms {
  id: number;
  revision: number;
  mode: QuoteMode;
  lock: QuoteLock;
  acceptedAt: Instant;
  validTo: Instant;
  lines: readonly QuoteLineTerms[];
}

export interface PriceLineRequest {
  productCode: string;
  /** A positive integer (the HTTP layer enforces 1–1,000,000). */
  quantity: number;
}

export interface PriceRequest {
  at: Instant;
  /** Already decided by the caller (request, else the channel primary pricelist's). */
  currency: string;
  channel: { code: string };
  /** Absent or null = anonymous pricing: only GLOBAL and CHANNEL conditions, G is empty. */
  customer?: { code: string } | null;
  /** G: the customer's groups that are assigned to the channel. Ignored when anonymous. */
  groupCodes: readonly string[];
  /**
   * The requested products that exist, by code; a line whose product is not here is
   * UNKNOWN_PRODUCT.
   */
  products: ReadonlyMap<string, ProductFacts>;
  explain?: boolean;
  /**
   * true: each OK line carries its buyer's tier ladder (docs/pricing-rules.md §30), every other
   * line `ladder: null`; absent or false: no line has the field.
   */
  ladder?: boolean;
  /**
   * true: each line is an order of its own, so order-level scale bases and thresholds count that
   * line alone (GET /v1/api/prices, which prices each product as a one-line order). Default
   * false: the lines are one order.
   */
  separateOrders?: boolean;
  /**
   * How the channel rounds percentage adjustments and line amounts (docs/pricing-rules.md §21);
   * absent: HALF_UP.
   */
  roundingMode?: ChannelRoundingMode;
  /**
   * The rates a derivation across currencies may need (docs/pricing-rules.md §19), any number of
   * each pair: the engine takes the one in force at `at` (the latest validFrom ≤ at), and the next
   * one ends the answer's validity. Absent: none.
   */
  exchangeRates?: readonly ExchangeRate[];
  /** The SALES pricelists reaching the request at some level (step 1). */
  pricelists: readonly PricelistCandidate[];
  /** Every pricelist a candidate's derivation chain reaches (see PriceBase); [] when none. */
  priceBases: readonly PriceBase[];
  /** The channel's FLOOR pricelists; [] when none. */
  floors: readonly FloorPricelist[];
  /**
   * true (admin keys, docs/api/access.md §18): the answer carries each line's cost, margin,
   * accruals and pocket price, and the order's cost and margin (docs/pricing-rules.md §26). Absent
   * or false: none of those fields exists in the answer, and `costs` is ignored, in explain too.
   */
  margin?: boolean;
  /**
   * The condition types the asking key may not see, its scope's (docs/api/access.md §18: ACCRUAL
   * for read and sales keys): such conditions are left out altogether, explain included, as if
   * they did not exist. Absent: none.
   */
  hiddenConditionTypes?: readonly ConditionType[];
  /** The channel's COST pricelists (read with `margin` only); absent: none. */
  costs?: readonly CostPricelist[];
  tradeConditions: readonly TradeConditionCandidate[];
  promotions: readonly PromotionCandidate[];
  /** The quotes the request honours (step 7, docs/pricing-rules.md §28); absent: none. */
  quotes?: readonly QuoteTerms[];
  lines: readonly PriceLineRequest[];
}
