import type {
  AdjustmentKind,
  ConditionOutcome,
  ConditionScope,
  ConditionType,
  DiscountType,
  LineStatus,
  PricelistLevel,
  PricelistOutcome,
  PromotionOutcome,
  PromotionStacking,
  RankKey,
  Status,
} from "./vocabulary";

/**
 * The contract of the price engine (`resolvePrices`), the only thing the D1 loader and the HTTP
 * layer need to know about it. Conventions:
 *
 * - Instants are epoch milliseconds (UTC), as stored in D1. The engine never reads the clock:
 *   `at` is an input and is echoed back as an ISO string.
 * - Money is an integer in minor units of `currency` (EUR cents, JPY yen, KWD fils); the engine
 *   never looks at the number of decimals. Percentages are integer basis points (1250 = 12.5 %).
 * - Validity windows are half-open `[validFrom, validTo)`, null = open on that side.
 * - The loader passes every record it touched, also non-ACTIVE, out-of-window and other-currency
 *   ones: the engine makes every status, window, currency, channel and targeting check itself,
 *   so `explain` can say why a record lost. Passing too many records is harmless; leaving out one
 *   that could apply is a bug of the loader.
 * - Output objects are built with a fixed key order and every field present (null when it has no
 *   value), so `JSON.stringify` of the same input is byte-identical.
 * - Its enumerations (statuses, levels, outcomes, ...) are the service's vocabulary (vocabulary.ts).
 */

export type Instant = number;

export interface Validity {
  validFrom: Instant | null;
  validTo: Instant | null;
}

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

export interface PriceRow {
  productCode: string;
  /** ≥ 1; the row with the largest minQuantity ≤ q prices a line of q. */
  minQuantity: number;
  amount: number;
}

export interface PricelistCandidate extends Validity {
  id: number;
  name: string;
  status: Status;
  currency: string;
  priority: number;
  allowsTradeDiscounts: boolean;
  taxInclusive: boolean;
  /**
   * Every level at which this pricelist reaches the request (a GENERAL pricelist assigned to the
   * customer and to one of its groups is at CUSTOMER and CUSTOMER_GROUP). The channel's primary
   * pricelist is tagged CHANNEL_PRIMARY only. Entries with the same id are merged.
   */
  levels: readonly PricelistLevel[];
  /** Its rows for (at least) the requested products; rows of other products are ignored. */
  prices: readonly PriceRow[];
}

export interface Scale {
  minQuantity: number;
  /** Replaces the condition's `value` from minQuantity on (same discountType). */
  value: number;
}

export interface TradeConditionCandidate extends Validity {
  id: number;
  name: string;
  scope: ConditionScope;
  status: Status;
  type: ConditionType;
  /** A NET_PRICE is always read as an absolute unit price, whatever this says. */
  discountType: DiscountType;
  /** Basis points for PERCENTAGE, minor units of `currency` per unit for ABSOLUTE. */
  value: number;
  currency: string | null;
  priority: number;
  stackable: boolean;
  /** Empty = all products. */
  productCodes: readonly string[];
  /** Empty = all channels. */
  channelCodes: readonly string[];
  /** Empty = no scales (`value` applies at every quantity). */
  scales: readonly Scale[];
  /**
   * Targets, as linked in D1; the engine decides whether they reach the request. CUSTOMER scope:
   * the linked customer codes; CUSTOMER_GROUP scope: the linked group codes. Ignored for the other
   * scopes. The loader may trim them to the request's customer and G (it must not drop a match).
   */
  customerCodes: readonly string[];
  customerGroupCodes: readonly string[];
}

export interface PromotionCandidate extends Validity {
  id: number;
  name: string;
  status: Status;
  discountType: DiscountType;
  value: number;
  currency: string | null;
  priority: number;
  stacking: PromotionStacking;
  /** Empty = all products / all channels / everyone. */
  productCodes: readonly string[];
  channelCodes: readonly string[];
  customerGroupCodes: readonly string[];
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
  /** Codes of the requested products that exist; any other line is UNKNOWN_PRODUCT. */
  knownProducts: Iterable<string>;
  explain?: boolean;
  pricelists: readonly PricelistCandidate[];
  tradeConditions: readonly TradeConditionCandidate[];
  promotions: readonly PromotionCandidate[];
  lines: readonly PriceLineRequest[];
}

// ---------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------

export interface Tier {
  minQuantity: number;
  amount: number;
}

export interface PriceSource {
  level: PricelistLevel;
  pricelistId: number;
  tierMinQuantity: number;
  baseUnitAmount: number;
}

/**
 * One step from `source.baseUnitAmount` to `finalUnitAmount`, in applied order, so that
 * `baseUnitAmount + Σ amount = finalUnitAmount` always holds.
 */
export interface Adjustment {
  kind: AdjustmentKind;
  /** Trade condition id, or promotion id for PROMOTION. */
  id: number;
  /** The trade condition's scope; null for PROMOTION. */
  scope: ConditionScope | null;
  /** 1–8 (see `rungOf`); null for PROMOTION. */
  rung: number | null;
  /** The basis points used (after scales) for a percentage; null for absolute values. */
  valueBp: number | null;
  /**
   * Signed change of the unit amount in minor units: negative = saving (DISCOUNT, PROMOTION, a
   * NET_PRICE below the running amount), positive = charge (SURCHARGE, a NET_PRICE above it).
   */
  amount: number;
}

export interface LinePrice {
  productCode: string;
  quantity: number;
  status: LineStatus;
  finalUnitAmount: number | null;
  /** finalUnitAmount × quantity. */
  lineAmount: number | null;
  /** What this customer normally pays: base after trade conditions, before promotions. */
  regularUnitAmount: number | null;
  /** The same lookup on the two channel levels only; null when they have no price. */
  listUnitAmount: number | null;
  currency: string;
  /** From the base pricelist. */
  taxInclusive: boolean | null;
  source: PriceSource | null;
  adjustments: Adjustment[];
  /** All rows of the base pricelist for the product, minQuantity ascending. */
  tiers: Tier[];
  /** Present (non-null) only when the request asked for `explain`. */
  explain: LineExplain | null;
}

export interface PriceAnswer {
  channelCode: string;
  customerCode: string | null;
  currency: string;
  /** ISO 8601 UTC. */
  at: string;
  /**
   * The cart's total: `pricedTotalAmount` when every line is OK (`complete`), else null, so a
   * total that leaves a line out is never answered as one.
   */
  totalAmount: number | null;
  /** Σ lineAmount of the OK lines, 0 when none is; null only if that sum exceeds 2^53 − 1. */
  pricedTotalAmount: number | null;
  /** Every line is OK (true for no lines). */
  complete: boolean;
  /** Earliest validity edge after `at` of every record looked at (ISO), null = none. */
  validUntil: string | null;
  lines: LinePrice[];
}

// ---------------------------------------------------------------------------------------------
// Explain (the outcome and rank-key strings are in vocabulary.ts; clients may switch on them)
// ---------------------------------------------------------------------------------------------

export interface PricelistExplain {
  level: PricelistLevel;
  pricelistId: number;
  name: string;
  outcome: PricelistOutcome;
  decidedBy: RankKey | null;
  /** The tier this pricelist has for the line, when it has one. */
  tierMinQuantity: number | null;
  amount: number | null;
  /** This entry gave `listUnitAmount`. */
  usedForListPrice: boolean;
}

export interface ConditionExplain {
  id: number;
  name: string;
  type: ConditionType;
  scope: ConditionScope;
  rung: number;
  stackable: boolean;
  priority: number;
  outcome: ConditionOutcome;
  decidedBy: RankKey | null;
  discountType: DiscountType;
  /** The value used for this quantity (scale row or `value`); null when not evaluated. */
  value: number | null;
  /** Its signed effect on the unit amount at its step; null when not evaluated. */
  amount: number | null;
}

export interface PromotionExplain {
  id: number;
  name: string;
  stacking: PromotionStacking;
  priority: number;
  outcome: PromotionOutcome;
  decidedBy: RankKey | null;
  discountType: DiscountType;
  value: number;
  /** Its adjustment amount (−saving on base for BEST_OF, on regular for ON_TOP); null when not evaluated. */
  amount: number | null;
  /** regularUnitAmount − the final amount it would give (≥ 0): what ranks promotions. */
  saving: number | null;
}

/**
 * Every candidate the loader passed, for this line. Order: pricelists by level (most specific
 * first), then priority desc, id asc; conditions by type in applied order (NET_PRICE, DISCOUNT,
 * SURCHARGE), then rung, priority desc, id asc; promotions by priority desc, id asc.
 */
export interface LineExplain {
  pricelists: PricelistExplain[];
  tradeConditions: ConditionExplain[];
  promotions: PromotionExplain[];
}
