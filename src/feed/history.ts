import type { AuditAction } from "../pricing/vocabulary";

/** A row as the audit trail stores it: the whole row in API form (camelCase). */
export type Fields = Record<string, unknown>;

/** An audit entry as the feed reads it, rows parsed. */
export interface Entry {
  id: number;
  at: number;
  requestId: string;
  operation: string;
  entity: string;
  entityKey: Record<string, number | string>;
  action: AuditAction;
  before: Fields | null;
  after: Fields | null;
}

/** Rows of some entities at one moment: entity → row key → row. */
export type Tables = Map<string, Map<string, Fields>>;

/** The key a tracked entity's row is filed under; undefined for entities not tracked. */
export type KeyOf = (entity: string, row: Fields) => string | undefined;

const copy = (tables: Tables): Tables =>
  new Map([...tables].map(([entity, rows]) => [entity, new Map(rows)]));

/** Takes one entry back: the row it wrote goes, the row it replaced returns. */
function undo(tables: Tables, entry: Entry, keyOf: KeyOf) {
  const row = entry.after ?? entry.before;
  if (!row || keyOf(entry.entity, row) === undefined) return;
  let rows = tables.get(entry.entity);
  if (!rows) tables.set(entry.entity, (rows = new Map()));
  if (entry.after) rows.delete(keyOf(entry.entity, entry.after)!);
  if (entry.before) rows.set(keyOf(entry.entity, entry.before)!, entry.before);
}

/**
 * The tracked rows as they were just after each point (an audit id; `n` = after entry n
 * committed), from the rows as they are now and every later entry of them: each entry after a
 * point is undone, newest first. D1 runs a write batch as one serialized transaction, so ids are
 * commit order and this walks back exactly through what happened. `later` must hold every
 * entry of the tracked rows after the smallest point.
 */
export function statesAt(
  now: Tables,
  later: readonly Entry[],
  points: readonly number[],
  keyOf: KeyOf,
): Map<number, Tables> {
  const entries = [...later].sort((a, b) => b.id - a.id);
  const wanted = [...new Set(points)].sort((a, b) => b - a);
  const states = new Map<number, Tables>();
  const tables = copy(now);
  let next = 0;
  for (const point of wanted) {
    while (next < entries.length && entries[next]!.id > point)
      undo(tables, entries[next++]!, keyOf);
    states.set(point, copy(tables));
  }
  return states;
}
