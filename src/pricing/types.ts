import type {
  AdjustmentKind,
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
  QuoteLock,
  QuoteMode,
  QuoteOutcome,
  RankKey,
  ScaleBasis,
  ThresholdBasis,
  TierMode,
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

export type {
  Instant,
  Validity,
  PriceRow,
  ExchangeRate,
  Rounding,
  Derivation,
  PricelistCandidate,
  PriceBase,
  CostPricelist,
  FloorPricelist,
  Scale,
  TradeConditionCandidate,
  PromotionCandidate,
  Threshold,
  ProductFacts,
  PriceLineRequest,
  QuoteLineTerms,
  QuoteTerms,
  PriceRequest,
} from "./request";

// ---------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------

export interface Tier {
  minQuantity: number;
  /** The price of `priceUnit` pieces. */
  amount: number;
  priceUnit: number;
}

/** A row of the base list as the answer's `tiers` show it: with its flat amount (§29). */
export interface ListTier extends Tier {
  /** A GRADUATED list's charge for reaching the row's band; 0 on VOLUME lists. */
  flatAmount: number;
}

/**
 * One band of a GRADUATED line's lot (docs/pricing-rules.md §29): its own first and last piece
 * (null: no end), the pieces of the line's quantity in it, its row's amount, price unit and flat
 * amount, and what it adds: round_half_up(quantity × unitAmount / priceUnit) + flatAmount.
 */
export interface Band {
  fromQuantity: number;
  toQuantity: number | null;
  quantity: number;
  unitAmount: number;
  priceUnit: number;
  flatAmount: number;
  amount: number;
}

/**
 * One rung of the buyer's tier ladder (docs/pricing-rules.md §30): a tier of the line's base list,
 * the smallest allowed quantity from it, and the line priced for this buyer at that quantity.
 */
export interface LadderEntry {
  minQuantity: number;
  quantity: number;
  finalUnitAmount: number;
  priceUnit: number;
  lineAmount: number;
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
  /**
   * The base row's amount; on a line a quote priced (`kind` QUOTE, its outcome APPLIED) the
   * quoted amount, so that baseUnitAmount + Σ adjustments = finalUnitAmount still holds.
   */
  baseUnitAmount: number;
  /**
   * Set when the tier came from the pricelist's base (it has no own rows for the product); for a
   * GRADUATED line, that of the tier its quantity reaches.
   */
  derivedFrom: DerivedFrom | null;
  /** How the base list's tiers price the line (docs/pricing-rules.md §29). */
  tierMode: TierMode;
  /** GRADUATED: the bands of the lot, whose amounts add up to baseUnitAmount; VOLUME: null. */
  bands: Band[] | null;
  /**
   * Only on a line a quote priced (docs/pricing-rules.md §28): QUOTE, the quote and its
   * revision. The fields above then name the pricelist that gave the line its price unit and
   * tax inclusion.
   */
  kind?: "QUOTE";
  quoteId?: number;
  revision?: number;
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
  /**
   * Trade condition id, promotion id for PROMOTION, FLOOR pricelist id for FLOOR; null for a
   * FLOOR derived from cost in an answer to a key that does not see costs (docs/api/access.md §18).
   */
  id: number | null;
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
  tiers: ListTier[];
  /** null only for UNKNOWN_PRODUCT. */
  quantityRule: QuantityRule | null;
  /** Set only on QUANTITY_NOT_ALLOWED lines. */
  suggestedQuantities: SuggestedQuantities | null;
  /** OK lines only: when buying up to the next tier costs no more; else null. Never GRADUATED. */
  priceBreak: PriceBreak | null;
  /**
   * Only when the request asked for `ladder` (docs/pricing-rules.md §30): on OK lines each tier
   * of the base list priced for this buyer; null on the other lines.
   */
  ladder?: LadderEntry[] | null;
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
  /**
   * Only when the request carries quotes (docs/pricing-rules.md §28): every quote naming the
   * line's product, in rank order, and what it did.
   */
  quotes?: QuoteExplain[];
}

/** A quote naming the line's product, for one line (docs/pricing-rules.md §28.3). */
export interface QuoteExplain {
  quoteId: number;
  revision: number;
  mode: QuoteMode;
  lock: QuoteLock;
  outcome: QuoteOutcome;
  /** The quantity the quote line names (a ONCE quote prices that quantity only). */
  quantity: number;
  /** The quoted amount per the line's price unit (half up); null when it cannot be exact. */
  quotedUnitAmount: number | null;
  /** The pieces both unit amounts are for: the line's price unit. */
  priceUnit: number;
  /** The line's final amount without the quote; null when the line is not priced as usual. */
  usualUnitAmount: number | null;
  /** ISO 8601: the quote holds until then. */
  validTo: string;
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
