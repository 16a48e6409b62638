import type { Status } from "../lib/status";

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
 */

export type { Status };
export type Instant = number;

export interface Validity {
  validFrom: Instant | null;
  validTo: Instant | null;
}

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

/** Where a pricelist reaches the request, most specific first (the order of step 1). */
export const PRICELIST_LEVELS = [
  "INDIVIDUAL", // the customer's own INDIVIDUAL pricelists
  "CUSTOMER", // GENERAL pricelists assigned to the customer
  "CUSTOMER_GROUP", // pricelists assigned to a group in G
  "CHANNEL_PRIMARY", // the channel's primary pricelist
  "CHANNEL", // the channel's other pricelists
] as const;
export type PricelistLevel = (typeof PRICELIST_LEVELS)[number];

/** The two levels that make up the public list price (`listUnitAmount`). */
export const CHANNEL_LEVELS: readonly PricelistLevel[] = ["CHANNEL_PRIMARY", "CHANNEL"];

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

export const CONDITION_SCOPES = ["GLOBAL", "CHANNEL", "CUSTOMER_GROUP", "CUSTOMER"] as const;
export type ConditionScope = (typeof CONDITION_SCOPES)[number];
/** In applied order: a net price first (it replaces the amount), charges last. */
export const CONDITION_TYPES = ["NET_PRICE", "DISCOUNT", "SURCHARGE"] as const;
export type ConditionType = (typeof CONDITION_TYPES)[number];
export const DISCOUNT_TYPES = ["PERCENTAGE", "ABSOLUTE"] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];
export const PROMOTION_STACKINGS = ["BEST_OF", "ON_TOP"] as const;
export type PromotionStacking = (typeof PROMOTION_STACKINGS)[number];

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

/**
 * OK: priced. NO_PRICE: no level has a price for the product at that quantity.
 * UNKNOWN_PRODUCT: no such product. OUT_OF_RANGE: an amount of the line would exceed
 * 2^53 − 1 minor units (cannot be represented exactly in JSON).
 */
export const LINE_STATUSES = ["OK", "NO_PRICE", "UNKNOWN_PRODUCT", "OUT_OF_RANGE"] as const;
export type LineStatus = (typeof LINE_STATUSES)[number];

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

export const ADJUSTMENT_KINDS = ["NET_PRICE", "DISCOUNT", "SURCHARGE", "PROMOTION"] as const;
export type AdjustmentKind = (typeof ADJUSTMENT_KINDS)[number];

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
  /** Sum of the OK lines' lineAmount; null only if that sum exceeds 2^53 − 1. */
  totalAmount: number | null;
  /** Earliest validity edge after `at` of every record looked at (ISO), null = none. */
  validUntil: string | null;
  lines: LinePrice[];
}

// ---------------------------------------------------------------------------------------------
// Explain vocabulary (stable: clients may switch on these strings)
// ---------------------------------------------------------------------------------------------

/**
 * Which ranking key put a LOWER_RANK record behind the winner: the first key in which they
 * differ. PRIORITY: lower priority. VALID_TO: open-ended pricelist behind one with a validTo.
 * AMOUNT: a higher tier amount (pricelists), a higher resulting unit amount (conditions: smaller
 * saving, larger charge, higher net price) or a smaller saving (promotions). ID: higher id.
 */
export const RANK_KEYS = ["PRIORITY", "VALID_TO", "AMOUNT", "ID"] as const;
export type RankKey = (typeof RANK_KEYS)[number];

/**
 * Checks are made in this order and the first failing one is reported:
 * NOT_ACTIVE → OTHER_CURRENCY → NO_PRICE_FOR_PRODUCT (no row at all for the product) →
 * OUT_OF_WINDOW → NO_TIER_FOR_QUANTITY (rows exist, all with minQuantity > q). A pricelist that
 * passes them all has a price; then USED (the base price), LOWER_RANK (same level, ranked behind
 * the winner, see `decidedBy`) or LOWER_LEVEL (a more specific level had a price).
 */
export const PRICELIST_OUTCOMES = [
  "USED",
  "NOT_ACTIVE",
  "OTHER_CURRENCY",
  "NO_PRICE_FOR_PRODUCT",
  "OUT_OF_WINDOW",
  "NO_TIER_FOR_QUANTITY",
  "LOWER_RANK",
  "LOWER_LEVEL",
] as const;
export type PricelistOutcome = (typeof PRICELIST_OUTCOMES)[number];

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

/**
 * Checks, first failing one reported: NOT_ACTIVE → OTHER_CURRENCY (ABSOLUTE value in another
 * currency) → OTHER_CHANNEL → NOT_TARGETED (scope does not reach this customer, or anonymous) →
 * OTHER_PRODUCT → OUT_OF_WINDOW → NO_SCALE (scales, none with minQuantity ≤ q) → NO_BASE_PRICE
 * (the line has no base price, nothing to adjust). Candidates then end as APPLIED, LOWER_RUNG
 * (the type's winner came from a more specific rung), LOWER_RANK (same rung, see `decidedBy`),
 * SWITCHED_OFF_BY_NET_PRICE / NOT_DISCOUNTABLE (DISCOUNTs only; the DISCOUNT step did not run),
 * or SUPERSEDED_BY_PROMOTION (a NET_PRICE or DISCOUNT that made the regular price, which a
 * BEST_OF promotion then beat).
 */
export const CONDITION_OUTCOMES = [
  "APPLIED",
  "NOT_ACTIVE",
  "OTHER_CURRENCY",
  "OTHER_CHANNEL",
  "NOT_TARGETED",
  "OTHER_PRODUCT",
  "OUT_OF_WINDOW",
  "NO_SCALE",
  "NO_BASE_PRICE",
  "LOWER_RUNG",
  "LOWER_RANK",
  "SWITCHED_OFF_BY_NET_PRICE",
  "NOT_DISCOUNTABLE",
  "SUPERSEDED_BY_PROMOTION",
] as const;
export type ConditionOutcome = (typeof CONDITION_OUTCOMES)[number];

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

/**
 * Checks, first failing one reported: NOT_ACTIVE → OTHER_CURRENCY → OTHER_CHANNEL → NOT_TARGETED
 * (customerGroupCodes do not meet G) → OTHER_PRODUCT → OUT_OF_WINDOW → NO_BASE_PRICE. Candidates
 * then end as APPLIED, LOWER_RANK (see `decidedBy`), SUPERSEDED_BY_REGULAR_PRICE (BEST_OF whose
 * promotion price is not below the regular price) or NO_SAVING (ON_TOP that saves nothing).
 */
export const PROMOTION_OUTCOMES = [
  "APPLIED",
  "NOT_ACTIVE",
  "OTHER_CURRENCY",
  "OTHER_CHANNEL",
  "NOT_TARGETED",
  "OTHER_PRODUCT",
  "OUT_OF_WINDOW",
  "NO_BASE_PRICE",
  "LOWER_RANK",
  "SUPERSEDED_BY_REGULAR_PRICE",
  "NO_SAVING",
] as const;
export type PromotionOutcome = (typeof PROMOTION_OUTCOMES)[number];

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
