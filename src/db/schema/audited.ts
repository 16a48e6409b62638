/**
 * The tables that are not audited: derived state kept by triggers, the audit itself, and the
 * webhooks' configuration and delivery state (a webhook row holds its signing secret, which an
 * entry would copy), and the price rows a change request wrote, kept for its cancel (each row it
 * wrote has its own entry). Every other table of the schema is audited. The one list: the trigger
 * generator (scripts/audit-triggers.mjs) bundles this file, and src/db/audit.ts derives the
 * audited entities from it.
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
]);

/** `customer_group_members` -> `customerGroupMember`: the singular API name of a table. */
export const entityName = (table: string) =>
  table.replace(/s$/, "").replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
