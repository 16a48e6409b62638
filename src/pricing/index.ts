/**
 * Price resolution (docs/pricing-rules.md) as pure functions: no Hono, no D1, no clock. The loader
 * builds a `PriceRequest` (types.ts documents every field) in one D1 round trip; the
 * handler serialises the `PriceAnswer` as it is.
 */
export {
  prepareOneLineOrders,
  priceOneLineOrders,
  resolvePrices,
  type PreparedOrders,
  type PricingSetup,
} from "./resolve";
export {
  primaryCustomerPricelist,
  rankCustomerPricelists,
  tierFor,
  type OwnPricelist,
} from "./pricelists";
export { rungOf } from "./conditions-index";
export { floorOrder } from "./floors";
export { deriveAmount, MAX_STEPS, roundToEnding } from "./derivation";
export {
  DIMENSIONS,
  listed,
  NAMED_DIMENSIONS,
  namesNoProduct,
  reachOf,
  TARGET_FIELDS,
  type NamedTargetField,
  type ProductCodeField,
  type ProductCodes,
  type Reach,
  type ReachKind,
  type TargetEntity,
  type TargetField,
  type TargetLists,
} from "./targeting";
export { isAllowed, quantityRuleOf, suggestionsFor } from "./quantity";
export { percentOf } from "./money";
export { CURRENCY_EXPONENTS, exponentOf, type Exponent } from "./currencies";
export {
  convert,
  MAX_RATE_DIGITS,
  MAX_RATE_LENGTH,
  parseRate,
  roundHalfUp,
  type Rate,
  type Rational,
} from "./exchange";
export { isInWindow, nextEdge, windowsOverlap } from "./validity";
export * from "./types";
export * from "./vocabulary";
