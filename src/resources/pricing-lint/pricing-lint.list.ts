import { defineList, itemField } from "../../list";
import type { Finding } from "../../pricing/lint";
import { LINT_CODES, LINT_SEVERITIES } from "../../pricing/vocabulary";

/**
 * The findings are computed, not stored: the list is paged in memory (list/memory.ts), severity
 * and code sort in their vocabulary's order, and ties keep the linter's canonical order.
 * `pricelistId` and `productCode` are the sets of pricelists and products a finding names
 * (`filterable`): a filter keeps the findings that name one of its values, `$not` those that name
 * none (docs/pricing-lint.md §12).
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
    pricelistId: { column: itemField("pricelistId"), type: "number", filter: ["$in", "$not"] },
    productCode: { column: itemField("productCode"), type: "text", filter: ["$in", "$not"] },
  },
  defaultSortBy: [
    ["severity", "ASC"],
    ["code", "ASC"],
  ],
});

type Filterable = Finding & { pricelistId: number[]; productCode: string[] };

/** A finding with the sets of records the list filters on. */
export const filterable = (finding: Finding): Filterable => ({
  ...finding,
  pricelistId: finding.records.flatMap((r) => (r.kind === "pricelist" && r.id ? [r.id] : [])),
  productCode: finding.records.flatMap((r) => (r.kind === "product" && r.code ? [r.code] : [])),
});

/** The finding as the API answers it, without the sets. */
export const answered = ({ pricelistId: _p, productCode: _c, ...finding }: Filterable): Finding =>
  finding;
