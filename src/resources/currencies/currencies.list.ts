import { defineList, itemField } from "../../list";

/**
 * GET /v1/api/currencies: the table of src/pricing/currencies.ts, paged in memory
 * (docs/list-queries.md §12) in code order; filters pick one code or a few
 * (`filter.code=$in:EUR,CHF`) or every currency of an exponent.
 */
export const currencyList = defineList({
  fields: {
    code: { column: itemField("code"), type: "text", sortable: true, filter: ["$in"] },
    exponent: { column: itemField("exponent"), type: "number", sortable: true, filter: ["$in"] },
  },
  defaultSortBy: [["code", "ASC"]],
});
