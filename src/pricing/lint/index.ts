import { LINT_CODES, LINT_SEVERITIES } from "../vocabulary";
import { recordKey } from "./common";
import { neverWins, tieById } from "./ranking";
import {
  channelsWithoutPrimary,
  emptyGroupsTargeted,
  expiredButActive,
  missingExchangeRates,
  ratesRoundingToZero,
  unreachablePricelists,
} from "./records";
import { quotesBelowFloor } from "./quotes";
import { stackablesToZero } from "./stacking";
import {
  belowCost,
  floorsAboveList,
  graduatedFirstTiers,
  noFirstTier,
  priceGaps,
  tierCliffs,
} from "./tiers";
import type { Finding, LintFacts } from "./types";

export type * from "./types";

const RULES = [
  channelsWithoutPrimary,
  stackablesToZero,
  missingExchangeRates,
  ratesRoundingToZero,
  neverWins,
  tieById,
  floorsAboveList,
  noFirstTier,
  priceGaps,
  tierCliffs,
  graduatedFirstTiers,
  unreachablePricelists,
  emptyGroupsTargeted,
  expiredButActive,
  belowCost,
  quotesBelowFloor,
];

function compareRecords(a: Finding, b: Finding): number {
  const keys = (f: Finding) => f.records.map(recordKey).join(" ");
  const [x, y] = [keys(a), keys(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Every finding of the pricing-rules linter (docs/pricing-lint.md), in the canonical order:
 * severity (ERROR first), code (vocabulary order), then the records they name. Pure: the same
 * facts give the same findings in the same order.
 */
export function lintPricingRules(facts: LintFacts): Finding[] {
  return RULES.flatMap((rule) => rule(facts)).sort(
    (a, b) =>
      LINT_SEVERITIES.indexOf(a.severity) - LINT_SEVERITIES.indexOf(b.severity) ||
      LINT_CODES.indexOf(a.code) - LINT_CODES.indexOf(b.code) ||
      compareRecords(a, b),
  );
}
