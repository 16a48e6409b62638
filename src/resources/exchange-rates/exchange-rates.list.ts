import { exchangeRates } from "../../db/schema";
import { defineList } from "../../list";

/**
 * GET /v1/api/exchange-rates (docs/list-queries.md §10): a rate table's order by default (pair,
 * then validFrom). The rates have no id in the API: the table's id only breaks ties, so pages
 * never overlap.
 */
export const exchangeRateList = defineList({
  fields: {
    id: { column: exchangeRates.id, type: "number" },
    from: { column: exchangeRates.fromCurrency, type: "text", sortable: true, filter: ["$eq"] },
    to: { column: exchangeRates.toCurrency, type: "text", sortable: true, filter: ["$eq"] },
    validFrom: { column: exchangeRates.validFrom, type: "datetime", sortable: true },
  },
  defaultSortBy: [
    ["from", "ASC"],
    ["to", "ASC"],
    ["validFrom", "ASC"],
  ],
});
