import { defineList, itemField } from "../../list";
import { LINT_CODES, LINT_SEVERITIES } from "../../pricing/vocabulary";

/**
 * The findings are computed, not stored: the list is paged in memory (list/memory.ts), severity
 * and code sort in their vocabulary's order, and ties keep the linter's canonical order.
 */
export const lintList = defineList({
  fields: {
    severity: {
      column: itemField("severity"),
      type: LINT_SEVERITIES,
      sortable: true,
      filter: ["$in", "$not"],
    },
    code: { column: itemField("code"), type: LINT_CODES, sortable: true, filter: ["$in", "$not"] },
  },
  defaultSortBy: [
    ["severity", "ASC"],
    ["code", "ASC"],
  ],
});
