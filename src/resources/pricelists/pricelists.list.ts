import { sql } from "drizzle-orm";
import { ALWAYS, pricelistPrices, pricelists, products } from "../../db/schema";
import { PRICELIST_KINDS, PRICELIST_SCOPES, STATUSES } from "../../pricing/vocabulary";
import { defineList } from "../../list";

/**
 * GET /v1/api/pricelist: the pricelists themselves, and a customer group's (a channel's adds its
 * mark). Searching `name` is this service's extension of the seed's list (docs/list-queries.md
 * §10).
 */
export const pricelistsList = defineList({
  fields: {
    id: { column: pricelists.id, type: "number", sortable: true },
    name: { column: pricelists.name, type: "text", sortable: true, searchable: true },
    scope: { column: pricelists.scope, type: PRICELIST_SCOPES, filter: ["$eq", "$not"] },
    status: { column: pricelists.status, type: STATUSES, filter: ["$eq"] },
    // A read key filtering on COST gets an empty page: the lists it may not see are left out
    // before the filter applies (docs/api/access.md §18).
    kind: { column: pricelists.kind, type: PRICELIST_KINDS, filter: ["$eq"] },
  },
});

/**
 * GET /v1/api/pricelist/{id}/prices: the price rows of one pricelist. A price row has no id of
 * its own. The list engine needs one to break ties stably, so the row's rowid serves
 * internally; it never reaches the items.
 */
export const pricelistPricesList = defineList({
  fields: {
    id: { column: sql`${pricelistPrices}.rowid`, type: "number" },
    productCode: { column: products.code, type: "text", sortable: true, filter: ["$eq"] },
    minQuantity: { column: pricelistPrices.minQuantity, type: "number", sortable: true },
    // From always first: a row's start, "always" as the smallest.
    validFrom: {
      column: sql`coalesce(${pricelistPrices.validFrom}, ${ALWAYS})`,
      type: "number",
      sortable: true,
    },
  },
  defaultSortBy: [
    ["productCode", "ASC"],
    ["minQuantity", "ASC"],
    ["validFrom", "ASC"],
  ],
});
