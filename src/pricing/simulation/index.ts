/**
 * The publish simulation's pure part (docs/simulation.md): the change set as an overlay on the
 * loaded records, and the comparison of each line before and after it.
 */
export {
  applyChangeSet,
  type ChangeSet,
  type PricingRecords,
  type RecordIds,
  type TierChange,
} from "./overlay";
export {
  changedAspects,
  compareLines,
  MarginTotals,
  PriceChanges,
  sameJson,
  sortRows,
  summarize,
  SUMMARY_TOP,
  type CustomerChanges,
  type DistributionBucket,
  type MarginSummary,
  type PriceChangeItem,
  type PriceChangeRow,
  type PriceChangeSummary,
} from "./compare";
