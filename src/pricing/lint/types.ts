import type {
  Derivation,
  Instant,
  QuantityRule,
  Rounding,
  TradeConditionCandidate,
  Validity,
} from "../types";
import type { ProductCodes } from "../targeting";
import type {
  LintCode,
  LintRecordKind,
  LintSeverity,
  PricelistKind,
  PricelistScope,
  Status,
} from "../vocabulary";

/**
 * The linter's contract (docs/pricing-lint.md): facts the repository reads in one D1 round
 * trip, findings the rules return. Like the engine, the rules never read the clock (`now` is an
 * input) and never do I/O.
 */

/** A record a finding names: pricelists, conditions and promotions by id, the others by code. */
export type LintRecord =
  | {
      kind: Extract<LintRecordKind, "pricelist" | "tradeCondition" | "promotion" | "quote">;
      id: number;
    }
  | {
      kind: Exclude<LintRecordKind, "pricelist" | "tradeCondition" | "promotion" | "quote">;
      code: string;
    };

export interface Finding {
  code: LintCode;
  severity: LintSeverity;
  /** A sentence naming the records and saying what happens to prices. */
  message: string;
  /** The records the finding is about, the one to fix first. */
  records: LintRecord[];
}

/** Every ACTIVE pricelist, SALES and FLOOR. */
export interface LintPricelist extends Validity {
  id: number;
  status: Status;
  kind: PricelistKind;
  scope: PricelistScope;
  /** Assigned to a channel, a customer group or a customer. */
  assigned: boolean;
  /** A pricelist that is not ARCHIVED derives from it. */
  isBase: boolean;
}

/** Every ACTIVE trade condition, with all its links (not trimmed to a request). */
export type LintCondition = TradeConditionCandidate;

/** Every ACTIVE promotion: what the linter looks at of it. */
export interface LintPromotion extends Validity {
  id: number;
  status: Status;
  productGroupCodes: readonly string[];
}

export interface LintProductGroup {
  code: string;
  parentCode: string | null;
  /** A product has it as its own group (descendants' products not counted). */
  hasOwnProducts: boolean;
}

/**
 * Products the rules need concretely: those a trade condition lists, and one per combination of
 * product group and codes in the dimensions of records a product names one of (`ProductCodes`:
 * its brand, docs/pricing-rules.md §31; each may be none) that some product has. Their group
 * paths come from `productGroups`.
 */
export interface LintProduct extends ProductCodes {
  code: string;
  groupCode: string | null;
}

export interface LintChannel {
  code: string;
  isActive: boolean;
  hasPrimary: boolean;
  /** The customer groups assigned to the channel (G of its members, docs/pricing-rules.md §2). */
  customerGroupCodes: readonly string[];
}

/** A customer a CUSTOMER-scope stackable discount names. */
export interface LintCustomer {
  code: string;
  channelCodes: readonly string[];
  customerGroupCodes: readonly string[];
}

/** An ACTIVE pricelist's own rows for a product start above the product's smallest quantity. */
/** A GRADUATED list's first tier for a product above 1 (docs/pricing-lint.md §18). */
export interface GraduatedFirstTier {
  pricelistId: number;
  productCode: string;
  firstTier: number;
}

export interface FirstTierGap {
  pricelistId: number;
  kind: PricelistKind;
  productCode: string;
  /** Its smallest minQuantity for the product. */
  firstTier: number;
  /** The product's smallest allowed quantity. */
  minOrderQuantity: number;
}

/**
 * A FLOOR row above the channel primary pricelist's row for the same product, where both are
 * the tier for quantities from `quantity` up to (not including) `nextQuantity`.
 */
export interface FloorOverList {
  channelCode: string;
  floorPricelistId: number;
  primaryPricelistId: number;
  productCode: string;
  quantity: number;
  /** The next tier of either list; null: none. */
  nextQuantity: number | null;
  floorAmount: number;
  /** The pieces floorAmount is for (docs/pricing-rules.md §20). */
  floorUnit: number;
  listAmount: number;
  listUnit: number;
  rule: QuantityRule;
}

/**
 * A step of an ACTIVE derived pricelist's chain between two currencies with no rate of the pair
 * in force at `at`: now, or the list's validFrom when it starts later (docs/pricing-lint.md §13).
 */
export interface MissingRate {
  /** The ACTIVE derived list that prices. */
  pricelistId: number;
  /** The step: `derivedId` (in `to`) takes its amounts from `baseId` (in `from`). */
  derivedId: number;
  baseId: number;
  from: string;
  to: string;
  at: Instant;
}

/**
 * A rate of a currency step of an ACTIVE derived SALES list's chain (as in `MissingRate`), in force
 * at `at` or starting later, with what the step derives with and the base's smallest positive
 * own amount in force from now on (docs/pricing-lint.md §16): the rule computes whether the step
 * turns it into 0.
 */
export interface RateStep {
  pricelistId: number;
  derivedId: number;
  baseId: number;
  from: string;
  to: string;
  /** The rate's decimal text and start. */
  rate: string;
  rateFrom: Instant;
  adjustmentBp: number;
  rounding: Rounding | null;
  /** The base's smallest positive own amount, and a product that has it. */
  smallestAmount: number;
  productCode: string;
}

/**
 * Two adjacent tiers (m1, a1 per u1 pieces) < (m2, a2 per u2 pieces) of an ACTIVE SALES list's
 * own rows for a product, in force now, where buying m2 − 1 pieces costs more than buying m2
 * (docs/pricing-lint.md §14); `m3` is the tier after m2 (null: none) and `rule` the product's
 * quantity rule, so the rule judges only quantities a line may ask for.
 */
export interface TierCliff {
  pricelistId: number;
  productCode: string;
  m1: number;
  a1: number;
  u1: number;
  m2: number;
  a2: number;
  u2: number;
  m3: number | null;
  rule: QuantityRule;
}

/**
 * A hole in an ACTIVE pricelist's timeline of a product and tier: no row from `from` (a row's
 * validTo) to `to` (the next row's validFrom), not over yet.
 */
export interface PriceGap {
  pricelistId: number;
  productCode: string;
  minQuantity: number;
  from: Instant;
  to: Instant;
}

/**
 * A row of a channel's ACTIVE SALES or FLOOR list below the channel's cost of the product
 * (docs/pricing-lint.md §15), where both are the tier for quantities from `quantity` up to (not
 * including) `nextQuantity`. The cost row is that of the channel's first ACTIVE COST list, in
 * the list's currency, with a row for the product (priority desc, id asc).
 */
export interface BelowCostRow {
  channelCode: string;
  pricelistId: number;
  kind: PricelistKind;
  costPricelistId: number;
  productCode: string;
  quantity: number;
  nextQuantity: number | null;
  amount: number;
  priceUnit: number;
  costAmount: number;
  costPriceUnit: number;
  rule: QuantityRule;
}

/** An ACTIVE FLOOR list derived from a COST list with a negative adjustment: below cost. */
export interface FloorUnderCost {
  floorPricelistId: number;
  costPricelistId: number;
  adjustmentBp: number;
}

export interface LintFacts {
  now: Instant;
  pricelists: readonly LintPricelist[];
  tradeConditions: readonly LintCondition[];
  promotions: readonly LintPromotion[];
  productGroups: readonly LintProductGroup[];
  products: readonly LintProduct[];
  channels: readonly LintChannel[];
  customers: readonly LintCustomer[];
  firstTierGaps: readonly FirstTierGap[];
  graduatedFirstTiers: readonly GraduatedFirstTier[];
  floorsOverList: readonly FloorOverList[];
  priceGaps: readonly PriceGap[];
  belowCost: readonly BelowCostRow[];
  floorsUnderCost: readonly FloorUnderCost[];
  /** The floor rows that may price the lines of SENT and ACCEPTED quotes (QUOTE_BELOW_FLOOR). */
  quoteFloors: readonly QuoteFloorRow[];
  missingRates: readonly MissingRate[];
  rateSteps: readonly RateStep[];
  tierCliffs: readonly TierCliff[];
}

/**
 * A line of a SENT or ACCEPTED quote not past its validTo, and one ACTIVE FLOOR list of the
 * quote's channel in the quote's currency, in force now, with the row it has for the line's
 * product and quantity in force now (docs/pricing-lint.md §17): its own row (`own`), or, for a
 * list derived from another without own rows for the product, its base's row with the
 * derivation. The rule picks each line's floor as the engine does: the first list by priority
 * desc, id asc that has one.
 */
export interface QuoteFloorRow {
  quoteId: number;
  status: "SENT" | "ACCEPTED";
  channelCode: string;
  customerCode: string;
  productCode: string;
  quantity: number;
  quotedUnitAmount: number;
  quotedPriceUnit: number;
  floorPricelistId: number;
  priority: number;
  own: boolean;
  amount: number;
  priceUnit: number;
  /** Set when the row is the base's (`own` false): how the floor derives from it. */
  derivation: Derivation | null;
}
