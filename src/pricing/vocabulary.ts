/**
 * The service's vocabulary: every enumerated value of the domain, once, as an `as const` array
 * and its type. Drizzle columns (`text(name, { enum })`), the zod API schemas (`z.enum`), the list
 * filters and the engine all take these arrays, so a new value is one line here. It lives in
 * src/pricing because the engine imports nothing outside its folder; everything else imports it.
 *
 * The order of each array is the order `/doc` lists the values in; where the engine needs
 * another order (conditions in applied order) it says so itself.
 */

/** The lifecycle of pricelists, trade conditions and promotions (transitions: lib/status). */
export const STATUSES = ["DRAFT", "ACTIVE", "INACTIVE", "ARCHIVED"] as const;
export type Status = (typeof STATUSES)[number];

/** What a record may be created as; the other statuses are reached by transitions. */
export const CREATE_STATUSES = ["DRAFT", "ACTIVE"] as const satisfies readonly Status[];

/** GENERAL: assignable to channels, groups and customers. INDIVIDUAL: owned by one customer. */
export const PRICELIST_SCOPES = ["GENERAL", "INDIVIDUAL"] as const;
export type PricelistScope = (typeof PRICELIST_SCOPES)[number];

/** Where a pricelist reaches a price request, most specific first (the order of step 1). */
export const PRICELIST_LEVELS = [
  "INDIVIDUAL", // the customer's own INDIVIDUAL pricelists
  "CUSTOMER", // GENERAL pricelists assigned to the customer
  "CUSTOMER_GROUP", // pricelists assigned to a group in G
  "CHANNEL_PRIMARY", // the channel's primary pricelist
  "CHANNEL", // the channel's other pricelists
] as const;
export type PricelistLevel = (typeof PRICELIST_LEVELS)[number];

/**
 * SALES: prices in step 1. FLOOR: minimum unit prices of a channel (docs/pricing-rules.md §14).
 * COST: what a product costs in a channel, for the margin admin keys see (§23); never a price.
 */
export const PRICELIST_KINDS = ["SALES", "FLOOR", "COST"] as const;
export type PricelistKind = (typeof PRICELIST_KINDS)[number];

/**
 * How a SALES pricelist's quantity tiers price a line (docs/pricing-rules.md §29). VOLUME: the
 * whole quantity at the amount of the tier it reaches. GRADUATED: the pieces are cut into bands
 * at the tiers' minimum quantities, each band priced at its own tier (plus its flat amount), and
 * the line is priced as one lot.
 */
export const TIER_MODES = ["VOLUME", "GRADUATED"] as const;
export type TierMode = (typeof TIER_MODES)[number];

/** How a derived pricelist's transformed amount is brought to a price ending. */
export const ROUNDING_MODES = ["NEAREST", "UP", "DOWN"] as const;
export type RoundingMode = (typeof ROUNDING_MODES)[number];

/**
 * How a channel rounds the amounts it computes (docs/pricing-rules.md §21): percentage
 * adjustments (on their magnitude) and `lineAmount`. HALF_UP: a half goes away from zero (the
 * default); HALF_EVEN: a half goes to the even neighbour; DOWN: toward zero; UP: away from zero.
 * A list's own amounts (derivation, exchange) are always rounded half up.
 */
export const CHANNEL_ROUNDING_MODES = ["HALF_UP", "HALF_EVEN", "DOWN", "UP"] as const;
export type ChannelRoundingMode = (typeof CHANNEL_ROUNDING_MODES)[number];

/** What a trade condition's scale rows are compared with. */
export const SCALE_BASES = ["LINE_QUANTITY", "ORDER_QUANTITY", "ORDER_VALUE"] as const;
export type ScaleBasis = (typeof SCALE_BASES)[number];

/** What a promotion's threshold is compared with, summed over the lines it reaches. */
export const THRESHOLD_BASES = ["QUANTITY", "VALUE"] as const;
export type ThresholdBasis = (typeof THRESHOLD_BASES)[number];

/** Whom a trade condition targets. */
export const CONDITION_SCOPES = ["GLOBAL", "CHANNEL", "CUSTOMER_GROUP", "CUSTOMER"] as const;
export type ConditionScope = (typeof CONDITION_SCOPES)[number];

/** The scopes in the ladder's order, most specific first: how a condition reaches a customer. */
export const CONDITION_SCOPE_LADDER = [
  "CUSTOMER",
  "CUSTOMER_GROUP",
  "CHANNEL",
  "GLOBAL",
] as const satisfies readonly ConditionScope[];

/**
 * NET_PRICE replaces the unit price; the engine applies them NET_PRICE, DISCOUNT, SURCHARGE.
 * ACCRUAL: an off-invoice rebate the customer earns; it never changes what the customer pays,
 * only the pocket price admin keys see (docs/pricing-rules.md §25).
 */
export const CONDITION_TYPES = ["DISCOUNT", "SURCHARGE", "NET_PRICE", "ACCRUAL"] as const;
export type ConditionType = (typeof CONDITION_TYPES)[number];

/** PERCENTAGE: basis points. ABSOLUTE: minor units of the record's currency. */
export const DISCOUNT_TYPES = ["PERCENTAGE", "ABSOLUTE"] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

/** BEST_OF: the better of promotion and regular price. ON_TOP: applies to the regular price. */
export const PROMOTION_STACKINGS = ["BEST_OF", "ON_TOP"] as const;
export type PromotionStacking = (typeof PROMOTION_STACKINGS)[number];

/**
 * What happened to a row, in an audit entry. EFFECTIVE: a change request's `effectiveAt` passed
 * (recorded once by the scheduled job, docs/api/change-requests.md §17.6); the others are the row's
 * own writes.
 */
export const AUDIT_ACTIONS = ["INSERT", "UPDATE", "DELETE", "EFFECTIVE"] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** The kinds of change a webhook subscribes to: each audited entity belongs to one (src/feed). */
export const CHANGE_EVENTS = [
  "prices",
  "pricelists",
  "tradeConditions",
  "promotions",
  "products",
  "productGroups",
  "brands",
  "channels",
  "customers",
  "customerGroups",
  "exchangeRates",
  "changeRequests",
  "quotes",
] as const;
export type ChangeEvent = (typeof CHANGE_EVENTS)[number];

/** One delivery attempt of a webhook: answered 2xx, failed, or not sent (the URL was refused). */
export const DELIVERY_OUTCOMES = ["DELIVERED", "FAILED", "REFUSED"] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];

/**
 * A change request's lifecycle (docs/api/change-requests.md §17.2): DRAFT → PENDING_APPROVAL →
 * APPLIED, or REJECTED, or CANCELLED (withdrawn before, cancelled after approval).
 */
export const CHANGE_REQUEST_STATUSES = [
  "DRAFT",
  "PENDING_APPROVAL",
  "APPLIED",
  "REJECTED",
  "CANCELLED",
] as const;
export type ChangeRequestStatus = (typeof CHANGE_REQUEST_STATUSES)[number];

/**
 * What may be done to a change request in which status (docs/api/change-requests.md §17.2): the one
 * table, read by the service (any other action is 409 INVALID_TRANSITION) and by the back office,
 * which offers only these (app/src/changes/lifecycle.ts). `update` is PATCH.
 */
export const CHANGE_REQUEST_ACTIONS = {
  update: ["DRAFT"],
  submit: ["DRAFT"],
  approve: ["PENDING_APPROVAL"],
  reject: ["PENDING_APPROVAL"],
  withdraw: ["DRAFT", "PENDING_APPROVAL"],
  cancel: ["APPLIED"],
} as const satisfies Record<string, readonly ChangeRequestStatus[]>;
export type ChangeRequestAction = keyof typeof CHANGE_REQUEST_ACTIONS;

/**
 * What an item of a change request does at its `effectiveAt` (docs/api/change-requests.md §17.1).
 */
export const CHANGE_REQUEST_ITEM_KINDS = [
  "SET_PRICES",
  "ADJUST_PRICES",
  "ACTIVATE",
  "DEACTIVATE",
] as const;
export type ChangeRequestItemKind = (typeof CHANGE_REQUEST_ITEM_KINDS)[number];

/** The records an ACTIVATE or DEACTIVATE item names. */
export const CHANGE_REQUEST_TARGET_KINDS = ["pricelist", "tradeCondition", "promotion"] as const;
export type ChangeRequestTargetKind = (typeof CHANGE_REQUEST_TARGET_KINDS)[number];

/**
 * A quote's lifecycle (docs/quotes.md §3): DRAFT → PENDING_APPROVAL → APPROVED → SENT →
 * ACCEPTED → REDEEMED, or back to DRAFT (rejected, stale), DECLINED, RENEGOTIATING (declined
 * with renegotiation: a PATCH makes it DRAFT again with the next revision) or WITHDRAWN. These
 * are the stored statuses; EXPIRED is only read (QUOTE_STATUSES).
 */
export const QUOTE_STORED_STATUSES = [
  "DRAFT",
  "PENDING_APPROVAL",
  "APPROVED",
  "SENT",
  "ACCEPTED",
  "DECLINED",
  "RENEGOTIATING",
  "WITHDRAWN",
  "REDEEMED",
] as const;
export type QuoteStoredStatus = (typeof QUOTE_STORED_STATUSES)[number];

/**
 * A quote's status as read: a stored status, or EXPIRED for a quote past its `validTo` that is
 * not ACCEPTED, DECLINED, WITHDRAWN or REDEEMED (docs/quotes.md §3.3).
 */
export const QUOTE_STATUSES = [...QUOTE_STORED_STATUSES, "EXPIRED"] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];

/** The stored statuses that never read as EXPIRED: the buyer answered, or the quote is over. */
export const QUOTE_FINAL_STATUSES = [
  "ACCEPTED",
  "DECLINED",
  "WITHDRAWN",
  "REDEEMED",
] as const satisfies readonly QuoteStoredStatus[];

/**
 * What may be done to a quote in which stored status (docs/quotes.md §3): the one table the
 * service reads (any other action is 409 INVALID_TRANSITION naming status and action). `update`
 * is PATCH. A quote that reads EXPIRED refuses every action (409 QUOTE_EXPIRED).
 */
export const QUOTE_ACTIONS = {
  update: ["DRAFT", "RENEGOTIATING"],
  submit: ["DRAFT"],
  approve: ["PENDING_APPROVAL"],
  reject: ["PENDING_APPROVAL"],
  send: ["APPROVED"],
  accept: ["SENT"],
  decline: ["SENT"],
  withdraw: ["DRAFT", "PENDING_APPROVAL", "APPROVED", "SENT", "RENEGOTIATING"],
  redeem: ["ACCEPTED"],
} as const satisfies Record<string, readonly QuoteStoredStatus[]>;
export type QuoteAction = keyof typeof QUOTE_ACTIONS;

/**
 * ONCE: priced by naming the quote in one order, then redeemed. AGREEMENT: honoured in every
 * lookup of its customer in its channel from acceptance until `validTo`.
 */
export const QUOTE_MODES = ["ONCE", "AGREEMENT"] as const;
export type QuoteMode = (typeof QUOTE_MODES)[number];

/** FIXED: the quoted amount is the price. BETTER_OF: the lower of it and the usual price. */
export const QUOTE_LOCKS = ["FIXED", "BETTER_OF"] as const;
export type QuoteLock = (typeof QUOTE_LOCKS)[number];

/**
 * Where a priced line's amount comes from (docs/pricing-rules.md §28): QUOTE when a quote priced
 * it (`source.kind`, with `quoteId` and `revision`); a line priced from its pricelist has no
 * `kind`, as before quotes existed.
 */
export const PRICE_SOURCE_KINDS = ["QUOTE"] as const;
export type PriceSourceKind = (typeof PRICE_SOURCE_KINDS)[number];

/** Records that can stand in the way of a delete, as a 409 IN_USE names them (docs/api/errors-and-limits.md §7.2). */
export const BLOCKER_KINDS = [
  "product",
  "productGroup",
  "pricelist",
  "tradeCondition",
  "promotion",
] as const;
export type BlockerKind = (typeof BLOCKER_KINDS)[number];

// ---------------------------------------------------------------------------------------------
// The price answer (stable: clients may switch on these strings)
// ---------------------------------------------------------------------------------------------

/**
 * OK: priced. NO_PRICE: no level has a price for the product at that quantity.
 * UNKNOWN_PRODUCT: no such product. OUT_OF_RANGE: an amount of the line would exceed
 * 2^53 − 1 minor units (cannot be represented exactly in JSON). QUANTITY_NOT_ALLOWED: the
 * product's quantity rule (minimum, increment, maximum) does not allow the quantity; the line
 * carries `suggestedQuantities`.
 */
export const LINE_STATUSES = [
  "OK",
  "NO_PRICE",
  "UNKNOWN_PRODUCT",
  "OUT_OF_RANGE",
  "QUANTITY_NOT_ALLOWED",
] as const;
export type LineStatus = (typeof LINE_STATUSES)[number];

/**
 * The step of an adjustment: a trade condition's type, PROMOTION, or FLOOR (an amount raised to
 * the line's effective floor after the trade conditions or after the promotion).
 */
export const ADJUSTMENT_KINDS = [
  "NET_PRICE",
  "DISCOUNT",
  "SURCHARGE",
  "PROMOTION",
  "FLOOR",
] as const;
export type AdjustmentKind = (typeof ADJUSTMENT_KINDS)[number];

/**
 * Which ranking key put a LOWER_RANK record behind the winner: the first key in which they
 * differ. DISTANCE: a trade condition that reaches the product through a group further up the
 * tree than the winner's (group rungs only). PRIORITY: lower priority. VALID_TO: open-ended pricelist behind one with a validTo.
 * AMOUNT: a higher tier amount (pricelists), a higher resulting unit amount (conditions: smaller
 * saving, larger charge, higher net price) or a smaller saving (promotions). ID: higher id.
 */
export const RANK_KEYS = ["DISTANCE", "PRIORITY", "VALID_TO", "AMOUNT", "ID"] as const;
export type RankKey = (typeof RANK_KEYS)[number];

/**
 * Checks are made in this order and the first failing one is reported:
 * NOT_ACTIVE → OTHER_CURRENCY → NO_EXCHANGE_RATE (a derived list whose base has rows for the
 * product in another currency, with no rate of that pair in force) / NO_PRICE_FOR_PRODUCT (no
 * row at all for the product) →
 * OUT_OF_WINDOW → NO_TIER_FOR_QUANTITY (rows exist, all with minQuantity > q) → ROUNDS_TO_ZERO
 * (its tier is derived from a positive amount and came out 0: a rate, an adjustment or an ending
 * rounded it away, docs/pricing-rules.md §19). A pricelist that passes them all has a price; then USED (the base price), LOWER_RANK (same level, ranked behind
 * the winner, see `decidedBy`) or LOWER_LEVEL (a more specific level had a price).
 */
export const PRICELIST_OUTCOMES = [
  "USED",
  "NOT_ACTIVE",
  "OTHER_CURRENCY",
  "NO_EXCHANGE_RATE",
  "NO_PRICE_FOR_PRODUCT",
  "OUT_OF_WINDOW",
  "NO_TIER_FOR_QUANTITY",
  "ROUNDS_TO_ZERO",
  "LOWER_RANK",
  "LOWER_LEVEL",
] as const;
export type PricelistOutcome = (typeof PRICELIST_OUTCOMES)[number];

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
  "NOT_ELIGIBLE",
  "LOWER_RUNG",
  "LOWER_RANK",
  "SWITCHED_OFF_BY_NET_PRICE",
  "NOT_DISCOUNTABLE",
  "SUPERSEDED_BY_PROMOTION",
] as const;
export type ConditionOutcome = (typeof CONDITION_OUTCOMES)[number];

/**
 * Checks, first failing one reported: NOT_ACTIVE → OTHER_CURRENCY (also a VALUE threshold in
 * another currency) → OTHER_CHANNEL → NOT_TARGETED (customerGroupCodes do not meet G) →
 * OTHER_PRODUCT → OUT_OF_WINDOW → THRESHOLD_NOT_REACHED (the sum over the eligible lines it
 * reaches is below its threshold's minimum) → NO_BASE_PRICE / NOT_ELIGIBLE. Candidates then end as
 * APPLIED, LOWER_RANK (see `decidedBy`), SUPERSEDED_BY_REGULAR_PRICE (BEST_OF whose
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
  "THRESHOLD_NOT_REACHED",
  "NO_BASE_PRICE",
  "NOT_ELIGIBLE",
  "LOWER_RANK",
  "SUPERSEDED_BY_REGULAR_PRICE",
  "NO_SAVING",
] as const;
export type PromotionOutcome = (typeof PROMOTION_OUTCOMES)[number];

/**
 * A FLOOR (or, for admin keys, COST) pricelist of the channel, for one line. Checks, first
 * failing one reported: NOT_ACTIVE → OTHER_CURRENCY → NO_EXCHANGE_RATE (a FLOOR derived from a
 * COST list in another currency, no rate in force) / NO_PRICE_FOR_PRODUCT → OUT_OF_WINDOW →
 * NO_TIER_FOR_QUANTITY → NO_BASE_PRICE / NOT_ELIGIBLE (the line has nothing to guard, or no
 * price to compare a cost with). Then USED (the line's floor or cost, first by priority desc,
 * id asc; whether a floor raised an amount is in the entry) or LOWER_RANK.
 */
export const FLOOR_OUTCOMES = [
  "USED",
  "NOT_ACTIVE",
  "OTHER_CURRENCY",
  "NO_EXCHANGE_RATE",
  "NO_PRICE_FOR_PRODUCT",
  "OUT_OF_WINDOW",
  "NO_TIER_FOR_QUANTITY",
  "NO_BASE_PRICE",
  "NOT_ELIGIBLE",
  "LOWER_RANK",
] as const;
export type FloorOutcome = (typeof FLOOR_OUTCOMES)[number];

/**
 * A quote that names the line's product (docs/pricing-rules.md §28.3), checks first failing one
 * reported: QUOTE_QUANTITY_MISMATCH (the ONCE quote the request named has the product at another
 * quantity: the line is priced as usual) → OUT_OF_WINDOW (an AGREEMENT before its acceptance or
 * from its validTo on) → NOT_ELIGIBLE (the line is not priced as usual: unknown quantity rule,
 * no base price, out of range) → LOWER_RANK (another quote of the product ranks first: the named
 * ONCE quote, then the latest accepted agreement, then the higher id). The one left priced the
 * line: APPLIED (its quoted amount is the price: FIXED, or BETTER_OF at or below the usual
 * price) or USUAL_PRICE_WON (BETTER_OF above the usual price: the usual price and its
 * adjustments stand).
 */
export const QUOTE_OUTCOMES = [
  "APPLIED",
  "USUAL_PRICE_WON",
  "QUOTE_QUANTITY_MISMATCH",
  "OUT_OF_WINDOW",
  "NOT_ELIGIBLE",
  "LOWER_RANK",
] as const;
export type QuoteOutcome = (typeof QUOTE_OUTCOMES)[number];

// ---------------------------------------------------------------------------------------------
// The pricing-rules linter (docs/pricing-lint.md): GET /v1/api/pricing/lint
// ---------------------------------------------------------------------------------------------

/** How much a finding matters, most first (the order `severity:ASC` sorts in). */
export const LINT_SEVERITIES = ["ERROR", "WARNING", "INFO"] as const;
export type LintSeverity = (typeof LINT_SEVERITIES)[number];

/** What the linter finds, each explained in docs/pricing-lint.md under its own name. */
export const LINT_CODES = [
  "CHANNEL_WITHOUT_PRIMARY",
  "STACKABLES_TO_ZERO",
  "MISSING_EXCHANGE_RATE",
  "RATE_ROUNDS_TO_ZERO",
  "NEVER_WINS",
  "TIE_BY_ID",
  "FLOOR_ABOVE_LIST",
  "NO_FIRST_TIER",
  "PRICE_GAP",
  "TIER_CLIFF",
  "GRADUATED_FIRST_TIER",
  "UNREACHABLE_PRICELIST",
  "EMPTY_GROUP_TARGETED",
  "EXPIRED_BUT_ACTIVE",
  "BELOW_COST",
  "QUOTE_BELOW_FLOOR",
] as const;
export type LintCode = (typeof LINT_CODES)[number];

/**
 * Each code's severity, fixed so a filter on severity means the same every day. ERROR: requests
 * fail or prices collapse; WARNING: a rule does not do what it says; INFO: housekeeping.
 */
export const LINT_SEVERITY_OF: Record<LintCode, LintSeverity> = {
  CHANNEL_WITHOUT_PRIMARY: "ERROR",
  STACKABLES_TO_ZERO: "ERROR",
  MISSING_EXCHANGE_RATE: "ERROR",
  RATE_ROUNDS_TO_ZERO: "ERROR",
  NEVER_WINS: "WARNING",
  TIE_BY_ID: "WARNING",
  FLOOR_ABOVE_LIST: "WARNING",
  NO_FIRST_TIER: "WARNING",
  PRICE_GAP: "WARNING",
  TIER_CLIFF: "WARNING",
  GRADUATED_FIRST_TIER: "WARNING",
  UNREACHABLE_PRICELIST: "WARNING",
  EMPTY_GROUP_TARGETED: "WARNING",
  EXPIRED_BUT_ACTIVE: "INFO",
  BELOW_COST: "WARNING",
  QUOTE_BELOW_FLOOR: "WARNING",
};

/**
 * The records a finding names: pricelists, trade conditions, promotions and quotes by `id`, the
 * others by `code` (as the API addresses each of them).
 */
export const LINT_RECORD_KINDS = [
  "pricelist",
  "tradeCondition",
  "promotion",
  "quote",
  "product",
  "productGroup",
  "channel",
  "customer",
  "customerGroup",
] as const;
export type LintRecordKind = (typeof LINT_RECORD_KINDS)[number];

// ---------------------------------------------------------------------------------------------
// Publish simulation (docs/simulation.md): POST /v1/api/simulations/prices
// ---------------------------------------------------------------------------------------------

/**
 * What differs between a line before and after a change set (docs/simulation.md §4), in this
 * order. LEVEL: the level of the base price. RUNG: the rungs of the trade conditions applied.
 * BASE: the base price (pricelist, tier, amount, derivation), the tiers shown, the list price or
 * tax inclusion. ADJUSTMENTS: the trade conditions and promotion applied or their amounts. FLOOR:
 * the floor's adjustments. AVAILABILITY: the line's status (priced or not). MARGIN: the cost or
 * the accruals reaching the line, or what they accrue on the same price (docs/simulation.md §4).
 */
export const PRICE_CHANGE_ASPECTS = [
  "LEVEL",
  "RUNG",
  "BASE",
  "ADJUSTMENTS",
  "FLOOR",
  "AVAILABILITY",
  "MARGIN",
] as const;
export type PriceChangeAspect = (typeof PRICE_CHANGE_ASPECTS)[number];
