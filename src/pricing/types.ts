import type {
  AdjustmentKind,
  ChannelRoundingMode,
  ConditionOutcome,
  ConditionScope,
  ConditionType,
  DiscountType,
  FloorOutcome,
  LineStatus,
  PricelistLevel,
  PricelistOutcome,
  PromotionOutcome,
  PromotionStacking,
  RankKey,
  RoundingMode,
  ScaleBasis,
  Status,
  ThresholdBasis,
} from "./vocabulary";

/**
 * The contract of the price engine (`resolvePrices`), the only thing the D1 loader and the HTTP
 * layer need to know about it. Conventions:
 *
 * - Instants are epoch milliseconds (UTC), as stored in D1. The engine never reads the clock:
 *   `at` is an input and is echoed back as an ISO string.
 * - Money is an integer in minor units of `currency` (EUR cents, JPY yen, KWD fils). The engine
 *   looks at a currency's number of decimals only to convert a derived list's amounts from its
 *   base's currency (docs/pricing-rules.md §19). Percentages are integer basis points (1250 =
 *   12.5 %). An amount is the price of `priceUnit` pieces (default 1, §20).
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

export interface PriceRow extends Validity {
  productCode: string;
  /** ≥ 1; the row with the largest minQuantity ≤ q prices a line of q. */
  minQuantity: number;
  /** The price of `priceUnit` pieces. */
  amount: number;
  /** 1–10,000 pieces (docs/pricing-rules.md §20); absent: 1. */
  priceUnit?: number;
}

/**
 * An exchange rate (docs/api.md §16.2): `from` → `to` holds from `validFrom` until the next
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

export interface TradeConditionCandidate extends Validity {
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
   * Product reach: with neither productCodes nor productGroupCodes, every product; otherwise the
   * listed products and every product in a listed group or one of its descendants.
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

export interface PromotionCandidate extends Validity {
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
  /** Product reach as for trade conditions: neither list = every product. */
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

/** What the engine needs to know of a requested product that exists. */
export interface ProductFacts {
  /** Its own group first, then each parent up to the root; [] when it is in no group. */
  groupPath: readonly string[];
  /** A quantity q is allowed when q ≥ min, (q − min) mod increment = 0 and q ≤ max. ≥ 1. */
  minOrderQuantity: number;
  /** ≥ 1. */
  orderIncrement: number;
  /** null: no maximum. */
  maxOrderQuantity: number | null;
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
   * true (admin keys, docs/api.md §19): the answer carries each line's cost, margin, accruals
   * and pocket price, and the order's cost and margin (docs/pricing-rules.md §26). Absent or
   * false: none of those fields exists in the answer, and `costs` and ACCRUAL conditions are
   * ignored, in explain too.
   */
  margin?: boolean;
  /** The channel's COST pricelists (read with `margin` only); absent: none. */
  costs?: readonly CostPricelist[];
  tradeConditions: readonly TradeConditionCandidate[];
  promotions: readonly PromotionCandidate[];
  lines: readonly PriceLineRequest[];
}

// ---------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------

export interface Tier {
  minQuantity: number;
  /** The price of `priceUnit` pieces. */
  amount: number;
  priceUnit: number;
}

/** The rate a derived tier was converted at (docs/pricing-rules.md §19). */
export interface ExchangeRateUsed {
  from: string;
  to: string;
  /** Decimal text, as stored. */
  rate: string;
  /** ISO 8601: where the rate starts to hold. */
  validFrom: string;
}

/** The base list's tier a derived tier was computed from (the immediate base of the chain). */
export interface DerivedFrom {
  pricelistId: number;
  /** The base tier's amount, in the base's currency, per the tier's price unit. */
  unitAmount: number;
  /** The rate of the base's currency to the list's; null when both are in one currency. */
  exchangeRate: ExchangeRateUsed | null;
}

export interface PriceSource {
  level: PricelistLevel;
  pricelistId: number;
  tierMinQuantity: number;
  baseUnitAmount: number;
  /** Set when the tier came from the pricelist's base (it has no own rows for the product). */
  derivedFrom: DerivedFrom | null;
}

/** The product's quantity rule, on every line of a known product. */
export interface QuantityRule {
  minimum: number;
  increment: number;
  maximum: number | null;
}

/** The nearest allowed quantities below and above a refused one (null where there is none). */
export interface SuggestedQuantities {
  below: number | null;
  above: number | null;
}

/**
 * Buying more costs no more (docs/pricing-rules.md §22): the smallest allowed quantity above the
 * line's that reaches a higher tier of its base list, and what the line costs then.
 */
export interface PriceBreak {
  quantity: number;
  lineAmount: number;
}

/**
 * One step from `source.baseUnitAmount` to `finalUnitAmount`, in applied order, so that
 * `baseUnitAmount + Σ amount = finalUnitAmount` always holds.
 */
export interface Adjustment {
  kind: AdjustmentKind;
  /** Trade condition id, promotion id for PROMOTION, FLOOR pricelist id for FLOOR. */
  id: number;
  /** The trade condition's scope; null for PROMOTION and FLOOR. */
  scope: ConditionScope | null;
  /** 1–12 (see `rungOf`), for this line; null for PROMOTION and FLOOR. */
  rung: number | null;
  /** The basis points used (after scales) for a percentage; null for absolute values. */
  valueBp: number | null;
  /**
   * Signed change of the unit amount in minor units: negative = saving (DISCOUNT, PROMOTION, a
   * NET_PRICE below the running amount), positive = charge (SURCHARGE, a NET_PRICE above it,
   * FLOOR).
   */
  amount: number;
}

export interface LinePrice {
  productCode: string;
  quantity: number;
  status: LineStatus;
  /** Per `priceUnit` pieces, as every unit amount of the line. */
  finalUnitAmount: number | null;
  /** round(finalUnitAmount × quantity / priceUnit) in the channel's rounding mode. */
  lineAmount: number | null;
  /** What this customer normally pays: base after trade conditions and the floor, before promotions. */
  regularUnitAmount: number | null;
  /** The same lookup on the two channel levels only; null when they have no price. */
  listUnitAmount: number | null;
  currency: string;
  /** The pieces every unit amount is for: the base row's (docs/pricing-rules.md §20); null without a base. */
  priceUnit: number | null;
  /** From the base pricelist. */
  taxInclusive: boolean | null;
  source: PriceSource | null;
  adjustments: Adjustment[];
  /** All rows of the base pricelist for the product (derived ones too), minQuantity ascending. */
  tiers: Tier[];
  /** null only for UNKNOWN_PRODUCT. */
  quantityRule: QuantityRule | null;
  /** Set only on QUANTITY_NOT_ALLOWED lines. */
  suggestedQuantities: SuggestedQuantities | null;
  /** OK lines only: when buying up to the next tier costs no more; else null. */
  priceBreak: PriceBreak | null;
  /**
   * With `margin` only (admin keys; docs/pricing-rules.md §26), on every line (null or [] when
   * not priced): the cost per `priceUnit` pieces (null: no cost), finalUnitAmount − cost, the
   * margin in basis points of the final amount, the accruals that reach the line, the pocket
   * price (final − Σ accruals) and its margin in basis points.
   */
  costUnitAmount?: number | null;
  marginAmount?: number | null;
  marginBp?: number | null;
  accruals?: Accrual[];
  pocketUnitAmount?: number | null;
  pocketMarginBp?: number | null;
  /** Present (non-null) only when the request asked for `explain`. */
  explain: LineExplain | null;
}

/** An ACCRUAL trade condition that reaches a line, and what it accrues per `priceUnit` pieces. */
export interface Accrual {
  id: number;
  /** ≥ 0; the accruals of a line never take its pocket price below 0. */
  amount: number;
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
  /**
   * With `margin` only (docs/pricing-rules.md §26): Σ round(costUnitAmount × quantity /
   * priceUnit) and pricedTotalAmount − that, over the OK lines; null when an OK line has no cost
   * (or a sum passes 2^53 − 1).
   */
  costAmount?: number | null;
  marginAmount?: number | null;
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
  /**
   * The tier this pricelist has for the line, when it has one: also when NOT_ACTIVE or
   * OUT_OF_WINDOW stopped it (what it would have priced), never in another currency.
   */
  tierMinQuantity: number | null;
  amount: number | null;
  /** The pieces that tier's amount is for. */
  priceUnit: number | null;
  /** This entry gave `listUnitAmount`. */
  usedForListPrice: boolean;
  /** When that tier was derived from the list's base. */
  derivedFrom: DerivedFrom | null;
}

export interface ConditionExplain {
  id: number;
  name: string;
  type: ConditionType;
  scope: ConditionScope;
  /** For this line: where the condition reaches the product (its listed rung when it does not). */
  rung: number;
  /** Parent steps from the product's group to the listed group that reaches it; else null. */
  distance: number | null;
  stackable: boolean;
  priority: number;
  outcome: ConditionOutcome;
  decidedBy: RankKey | null;
  discountType: DiscountType;
  /** The pieces an ABSOLUTE value or a NET_PRICE is for (the condition's own). */
  priceUnit: number;
  scaleBasis: ScaleBasis;
  /** The basis value its scale rows were compared with; null without scales or not evaluated. */
  basisValue: number | null;
  /**
   * The value used for this line (scale row or `value`); null when no scale row applies. Stopped
   * by a check before that (NOT_ACTIVE … OUT_OF_WINDOW): its configured `value`.
   */
  value: number | null;
  /**
   * Its signed effect on the unit amount at its step; for an ACCRUAL the amount it accrues (≥ 0,
   * as in the line's `accruals`); null when not evaluated.
   */
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
  /** The pieces an ABSOLUTE value is for (the promotion's own). */
  priceUnit: number;
  /** Its adjustment amount (−saving on base for BEST_OF, on regular for ON_TOP); null when not evaluated. */
  amount: number | null;
  /** regularUnitAmount − the final amount it would give (≥ 0): what ranks promotions. */
  saving: number | null;
  /** Its threshold and the sum it was compared with (null when it has none or was not summed). */
  threshold: ThresholdExplain | null;
}

export interface ThresholdExplain {
  basis: ThresholdBasis;
  minimum: number;
  /** Σ over the request's eligible lines it reaches (quantities, or regular × quantity). */
  sum: number;
}

/** A FLOOR pricelist of the channel, for one line (docs/pricing-rules.md §14). */
export interface FloorExplain {
  pricelistId: number;
  name: string;
  priority: number;
  outcome: FloorOutcome;
  decidedBy: RankKey | null;
  tierMinQuantity: number | null;
  /** Its unit amount for the line, when it has one (as for a pricelist, also when stopped). */
  amount: number | null;
  /** The pieces that amount is for. */
  priceUnit: number | null;
  /**
   * USED: min(amount in the line's price unit (rounded up), baseUnitAmount), the amount
   * adjustments may not go below; else null.
   */
  effectiveAmount: number | null;
  /** USED: what it added after the trade conditions (0 when nothing); else null. */
  regularAdjustment: number | null;
  /** USED: what it added after the promotion (0 when nothing); else null. */
  finalAdjustment: number | null;
}

/**
 * Every candidate the loader passed, for this line. Order: pricelists by level (most specific
 * first), then priority desc, id asc; conditions by type in applied order (NET_PRICE, DISCOUNT,
 * SURCHARGE), then rung, priority desc, id asc; promotions and floors by priority desc, id asc.
 */
export interface LineExplain {
  pricelists: PricelistExplain[];
  tradeConditions: ConditionExplain[];
  promotions: PromotionExplain[];
  floors: FloorExplain[];
  /** With `margin` only: the channel's COST lists for the line (docs/pricing-rules.md §23). */
  costs?: CostExplain[];
}

/** A COST pricelist of the channel, for one line (docs/pricing-rules.md §23). */
export interface CostExplain {
  pricelistId: number;
  name: string;
  priority: number;
  outcome: FloorOutcome;
  decidedBy: RankKey | null;
  tierMinQuantity: number | null;
  /** Its unit amount for the line, when it has one (as for a pricelist, also when stopped). */
  amount: number | null;
  /** The pieces that amount is for. */
  priceUnit: number | null;
  /** USED: the cost per the line's price unit (half up), the line's costUnitAmount; else null. */
  costUnitAmount: number | null;
}
