import { count, is } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import * as schema from "../../db/schema";
import { auditLog } from "../../db/schema";
import { defineList, readPage, type ListRequest } from "../../list";
import type { Db } from "../../lib/db";
import { iso } from "../../lib/schemas";

/** Derived state and the audit itself; every other table is audited (scripts/audit-triggers.mjs). */
const NOT_AUDITED = new Set(["pricing_version", "row_counts", "audit_log", "audit_context"]);

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
  },
});

type AuditRow = typeof auditLog.$inferSelect;
type Fields = Record<string, unknown>;

const parse = (text: string | null) => (text === null ? null : (JSON.parse(text) as Fields));

/** An UPDATE shows only what changed; the stored rows are whole. */
function changes(before: Fields, after: Fields) {
  const changed = Object.keys(after).filter(
    (key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]),
  );
  return {
    before: Object.fromEntries(changed.map((key) => [key, before[key]])),
    after: Object.fromEntries(changed.map((key) => [key, after[key]])),
  };
}

export function toAuditEntry(row: AuditRow) {
  const before = parse(row.before);
  const after = parse(row.after);
  return {
    id: row.id,
    at: iso(row.at),
    requestId: row.requestId,
    keyName: row.keyName,
    operation: row.operation,
    method: row.method,
    path: row.path,
    entity: row.entity,
    entityKey: JSON.parse(row.entityKey) as Record<string, number | string>,
    action: row.action,
    ...(before && after ? changes(before, after) : { before, after }),
  };
}

export const listAuditEntries = (db: Db, list: ListRequest) =>
  readPage(
    db,
    db
      .select()
      .from(auditLog)
      .where(list.where)
      .orderBy(...list.orderBy)
      .limit(list.limit)
      .offset(list.offset),
    db.select({ n: count() }).from(auditLog).where(list.where),
  );
