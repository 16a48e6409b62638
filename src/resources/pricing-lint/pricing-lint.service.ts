import type { Db } from "../../db/client";
import { lintPricingRules } from "../../pricing/lint";
import { loadLintFacts } from "./pricing-lint.repo";

/** Every finding at `now`, in the linter's canonical order (docs/pricing-lint.md). */
export const lintPricing = async (db: Db, now: number) =>
  lintPricingRules(await loadLintFacts(db, now));
