import { is } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import * as schema from "../../db/schema";
import { auditLog } from "../../db/schema";
import { defineList } from "../../list";

/**
 * Derived state, the audit itself, and the webhooks' configuration and delivery state (no pricing
 * data; a webhook row holds its secret); every other table is audited (scripts/audit-triggers.mjs).
 */
const NOT_AUDITED = new Set([
  "pricing_version",
  "row_counts",
  "audit_log",
  "audit_context",
  "idempotency_keys",
  "webhooks",
  "webhook_deliveries",
]);

/** `customer_group_members` -> `customerGroupMember`, the same rule as the trigger generator. */
export const entityName = (table: string) =>
  table.replace(/s$/, "").replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

export const AUDITED_TABLES = (Object.values(schema) as unknown[])
  .filter((value): value is SQLiteTable => is(value, SQLiteTable))
  .map((table) => getTableConfig(table).name)
  .filter((name) => !NOT_AUDITED.has(name))
  .sort();

export const AUDIT_ENTITIES = AUDITED_TABLES.map(entityName);

export const auditList = defineList({
  fields: {
    id: { column: auditLog.id, type: "number", sortable: true },
    at: { column: auditLog.at, type: "datetime", sortable: true, filter: ["$gte", "$lte"] },
    entity: { column: auditLog.entity, type: AUDIT_ENTITIES, filter: [] },
    entityId: { column: auditLog.entityId, type: "number", filter: [] },
    entityCode: { column: auditLog.entityCode, type: "text", filter: [] },
    operation: { column: auditLog.operation, type: "text", filter: [] },
    action: { column: auditLog.action, type: auditLog.action.enumValues, filter: [] },
    keyName: { column: auditLog.keyName, type: "text", filter: [] },
    requestId: { column: auditLog.requestId, type: "text", filter: [] },
    correlationId: { column: auditLog.correlationId, type: "text", filter: [] },
  },
});
