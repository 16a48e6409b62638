/**
 * The publish simulation's pure part (docs/simulation.md): the change set as an overlay on the
 * loaded records, the comparison of each line before and after it, and the run over every buyer
 * and product in steps.
 */
export {
  applyChangeSet,
  type ChangeSet,
  type PricingRecords,
  type RecordIds,
  type TierChange,
} from "./overlay";
export {
  comparePrices,
  PRODUCTS_PER_STEP,
  type BuyerReach,
  type PairObserver,
  type SimulationInput,
  type SimulationResult,
} from "./run";
export {
  bucketsOf,
  changedAspects,
  compareLines,
  differenceOf,
  FirstInOrder,
  changeOf,
  MarginTotals,
  percentBucket,
  rowOrder,
  sameJson,
  sortRows,
  summarize,
  SUMMARY_TOP,
  SummaryTally,
  type CustomerChanges,
  type DistributionBucket,
  type MarginSummary,
  type PriceChangeItem,
  type PriceChangeRow,
  type PriceChangeSummary,
} from "./compare";
