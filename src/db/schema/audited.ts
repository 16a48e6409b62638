/**
 * The tables the generated audit triggers leave out: derived state kept by triggers, the audit
 * itself, and the webhooks' configuration and delivery state (a webhook row holds its signing
 * secret, which a generated entry would copy; migration 0019 records the webhooks' settings by
 * hand-written triggers, without it, src/db/audit.ts SETTINGS_ENTITIES). Every other table of the
 * schema is audited. The one list: the trigger generator (scripts/audit-triggers.mjs) bundles this
 * file, and src/db/audit.ts derives the audited entities from it.
 */
export const NOT_AUDITED: ReadonlySet<string> = new Set([
  "pricing_version",
  "row_counts",
  "audit_log",
  "audit_context",
  "idempotency_keys",
  "webhooks",
  "webhook_deliveries",
]);

/**
 * Link tables whose rows a bulk write may record itself, one entry per owner and action instead
 * of one per row (src/db/bulk.ts `linkPairWrites`, docs/api.md §11): their triggers write
 * nothing while the audit context's `links_summarized` is set (migration 0018). The trigger
 * generator bundles this list too; `linkPairWrites` refuses a link table that is not on it.
 */
export const SUMMARIZED_LINKS: ReadonlySet<string> = new Set([
  "customer_group_members",
  "channel_customers",
]);

/** `customer_group_members` -> `customerGroupMember`: the singular API name of a table. */
export const entityName = (table: string) =>
  table.replace(/s$/, "").replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
