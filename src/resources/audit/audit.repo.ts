import { count } from "drizzle-orm";
import { auditLog } from "../../db/schema";
import { readPage, type ListRequest } from "../../list";
import type { Db } from "../../db/client";
import { iso } from "../../core/schemas";

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
    correlationId: row.correlationId,
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
