import { sql } from "drizzle-orm";
import { customers, quotes } from "../../db/schema";
import { defineRefs } from "../../db/refs";
import { defineList, refFilters } from "../../list";
import { QUOTE_FINAL_STATUSES, QUOTE_STATUSES } from "../../pricing/vocabulary";

/** The quote's foreign keys by code (db/refs.ts): `customerCode` in reads and the list filter. */
export const quoteRefs = defineRefs(quotes, {
  customerCode: { key: "customerId", to: customers, noun: "customer" },
});

const finals = sql.raw(QUOTE_FINAL_STATUSES.map((status) => `'${status}'`).join(", "));

/**
 * A quote's status as read (docs/quotes.md §3.3): EXPIRED once validTo has passed, unless the
 * buyer answered or it is over. The list filters on it, and the repository reads it.
 */
export const readStatusSql = sql<string>`(case when ${quotes.status} in (${finals})
  or ${quotes.validTo} >= cast(unixepoch('subsec') * 1000 as integer)
  then ${quotes.status} else 'EXPIRED' end)`;

/** GET /v1/api/quotes (docs/list-queries.md §10): newest first by default. */
export const quoteList = defineList({
  fields: {
    id: { column: quotes.id, type: "number", sortable: true },
    validTo: { column: quotes.validTo, type: "datetime", sortable: true },
    createdAt: { column: quotes.createdAt, type: "datetime", sortable: true },
    status: { column: readStatusSql, type: QUOTE_STATUSES, filter: ["$in"] },
    ...refFilters(quoteRefs),
  },
  defaultSortBy: [["id", "DESC"]],
});
