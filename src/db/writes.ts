import { and, eq, getTableColumns, is, SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "./client";
import { CHANGED, nextUpdatedAt } from "./optimistic";
import { FOREIGN_KEY, unlessForeignKey } from "./outcomes";

type Versioned = SQLiteTable & { id: SQLiteColumn; updatedAt: SQLiteColumn };

/*
 * The two writes of a record with links (trade conditions, promotions, pricelists): create and
 * version-guarded update, each ONE batch, D1's unit of atomicity.
 */

/**
 * The record, its links and the record read back. D1 runs a batch as one serialized transaction,
 * so the newest id is the row inserted just before; `links` and `readBack` get it as SQL.
 * FOREIGN_KEY when a linked row was deleted after the read that resolved its code.
 */
export async function insertLinked<Row>(
  db: Db,
  table: Versioned,
  values: Record<string, unknown>,
  links: (id: SQL) => BatchItem<"sqlite">[],
  readBack: (id: SQL) => BatchItem<"sqlite">,
): Promise<Row | typeof FOREIGN_KEY> {
  const newId = sql`(select max(${table.id}) from ${table})`;
  const statements = [db.insert(table).values(values as never), ...links(newId), readBack(newId)];
  const results = await unlessForeignKey(() => db.batch(statements as [BatchItem<"sqlite">]));
  return results === FOREIGN_KEY ? results : (results.at(-1) as Row[])[0]!;
}

export interface VersionedWrite {
  /** The record's changed columns (updatedAt is set here). */
  set: Record<string, unknown>;
  /** Link statements, given the guard they must carry (see `links.replaces`). */
  links?: (guard: SQL) => BatchItem<"sqlite">[];
  /** A further condition the write needs, re-checked inside the batch. */
  guard?: SQL;
  /** Reads the record back; its row is the answer. */
  readBack: BatchItem<"sqlite">;
}

/**
 * The write half of an optimistic update (db/optimistic.ts), as ONE batch: the link statements,
 * then the record's UPDATE, every statement guarded by the version (updatedAt) the checks
 * judged, then the record read back. A concurrent write that got in first turns the whole batch
 * into a no-op, answered as CHANGED; a named row deleted meanwhile fails it as FOREIGN_KEY.
 */
export async function writeVersioned<Row>(
  db: Db,
  table: Versioned,
  current: { id: number; updatedAt: number },
  write: VersionedWrite,
): Promise<Row | typeof CHANGED | typeof FOREIGN_KEY> {
  const unchanged = and(
    sql`exists (select 1 from ${table} where ${table.id} = ${current.id}
      and ${table.updatedAt} = ${current.updatedAt})`,
    write.guard,
  )!;
  const update = db
    .update(table)
    .set({ ...write.set, updatedAt: nextUpdatedAt(current.updatedAt) } as never)
    .where(and(eq(table.id, current.id), unchanged))
    .returning({ id: table.id });
  // The UPDATE comes last, so the statements before it still see the version they are guarded by.
  const statements = [...(write.links?.(unchanged) ?? []), update, write.readBack];
  const results = await unlessForeignKey(() => db.batch(statements as [BatchItem<"sqlite">]));
  if (results === FOREIGN_KEY) return FOREIGN_KEY;
  const [updated, readBack] = results.slice(-2) as [unknown[], Row[]];
  return updated.length ? readBack[0]! : CHANGED;
}

/** A column's value for an INSERT … SELECT: the given one, else its default, else NULL. */
export function columnValue(column: SQLiteColumn, given: unknown): SQL {
  if (given !== undefined) return sql`${sql.param(given, column)}`;
  if (column.defaultFn) return sql`${sql.param(column.defaultFn(), column)}`;
  if (is(column.default, SQL)) return column.default;
  if (column.default !== undefined) return sql`${sql.param(column.default, column)}`;
  return sql`null`;
}

/**
 * One row inserted only while `guard` holds, judged by the INSERT itself (INSERT … SELECT …
 * WHERE guard), so a rule checked by an earlier read is checked again against the data the
 * write finds. Absent columns take their defaults; an absent key is assigned by SQLite. The
 * statement inserts nothing when the guard fails: the caller reads back and judges again.
 */
export function insertWhere(
  db: Db,
  table: SQLiteTable,
  values: Record<string, unknown>,
  guard: SQL,
) {
  // In the table's column order, under the columns' names: Drizzle checks both.
  const row = Object.fromEntries(
    Object.entries(getTableColumns(table)).map(([key, column]) => [
      key,
      sql`${columnValue(column, values[key])}`.as(column.name),
    ]),
  );
  return db.insert(table).select(
    db
      .select(row)
      .from(sql`(select 1)`)
      .where(guard) as never,
  );
}

/**
 * A link row written while `guard` holds (`insertWhere`), unless it exists: whether it was
 * written (false: already there, or the guard failed; the caller judges again); FOREIGN_KEY when
 * a row it names was deleted after the check.
 */
export const linkWhere = (
  db: Db,
  table: SQLiteTable,
  values: Record<string, unknown>,
  guard: SQL,
) =>
  unlessForeignKey(
    async () =>
      (await insertWhere(db, table, values, guard).onConflictDoNothing().returning()).length > 0,
  );
