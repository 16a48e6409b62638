/**
 * The tables the generated audit triggers leave out: derived state kept by triggers, the audit
 * itself, and the webhooks' configuration and delivery state (a webhook row holds its signing
 * secret, which a generated entry would copy; migration 0019 records the webhooks' settings by
 * hand-written triggers, without it, src/db/audit.ts SETTINGS_ENTITIES), and the price rows a
 * change request wrote, kept for its cancel (each row it wrote has its own entry), with the
 * attempts that staged them. Every other
 * table of the schema is audited. The one list: the trigger generator
 * (scripts/audit-triggers.mjs) bundles this file, and src/db/audit.ts derives the audited
 * entities from it.
 */
export const NOT_AUDITED: ReadonlySet<string> = new Set([
  "pricing_version",
  "row_counts",
  "audit_log",
  "audit_context",
  "idempotency_keys",
  "webhooks",
  "webhook_deliveries",
  "change_request_writes",
  "change_request_attempts",
]);

/**
 * Audited tables that are not pricing data themselves, so without the pricing_version triggers
 * (migration 0003): a change request prices nothing; the price rows it writes do, and move the
 * version (docs/api/change-requests.md §17). test/prices/edge-read-path.test.ts holds every other
 * audited table to them.
 */
export const UNVERSIONED: ReadonlySet<string> = new Set([
  "change_requests",
  "change_request_items",
  "change_request_policy",
  // Quotes price nothing until honoured; honouring reads them itself (docs/quotes.md §7).
  "quotes",
  "quote_lines",
  "quote_revisions",
  "quote_policy",
]);

/**
 * Link tables whose rows a bulk write may record itself, one entry per owner and action instead
 * of one per row (src/db/bulk.ts `linkPairWrites`, docs/api/feed-and-webhooks.md §11): their
 * triggers write nothing while the audit context's `links_summarized` is set (migration 0018). The
 * trigger generator bundles this list too; `linkPairWrites` refuses a link table that is not on it.
 */
export const SUMMARIZED_LINKS: ReadonlySet<string> = new Set([
  "customer_group_members",
  "channel_customers",
]);

/** `customer_group_members` -> `customerGroupMember`: the singular API name of a table. */
export const entityName = (table: string) =>
  table.replace(/s$/, "").replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
