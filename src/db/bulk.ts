import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { errorMentions, type Db } from "./client";
import { inJsonList } from "./json-list";
import type { CodedTable, CodeLink } from "./links";
import { columnValue } from "./writes";

/*
 * Bulk upserts by code (docs/api.md §5.12), the SQL half. A bulk write is judged on ONE read of
 * its facts, a scalar JSON text the resource builds (its stored rows for the body's codes, the
 * records the body names), and written in ONE batch whose first statement reads the same facts
 * again and fails the whole batch when they differ. D1 has no transaction spanning the read and
 * the write, so this is how a concurrent change between the two is noticed: the caller judges
 * again (db/optimistic.ts). Rows travel as one JSON parameter (json_each), so a body of 1000
 * rows binds a handful of parameters, far under D1's 100.
 */

/** A row of `json_each(rows)`, named so it cannot clash with a table's own columns (json_each has an id). */
const ROW = sql.raw(`"row"`);

/** The JSON rows as a table: one `"row"."value"` per row. */
export const rowsOf = (rows: readonly unknown[]) =>
  sql`json_each(${JSON.stringify(rows)}) as ${ROW}`;

/** A field of the current row of `rowsOf`. */
export const rowField = (key: string) => sql`json_extract(${ROW}."value", ${"$." + key})`;

/** Up to every row of `from` where `where` holds, as a JSON array of objects, ordered (so a re-read compares equal). */
export function jsonRows(
  from: SQLiteTable,
  fields: Record<string, SQLiteColumn | SQL>,
  where: SQL,
  orderBy: SQLiteColumn,
): SQL<string> {
  const keys = Object.keys(fields);
  const selected = sql.join(
    keys.map((key) => sql`${fields[key]} as ${sql.identifier(key)}`),
    sql`, `,
  );
  const pairs = sql.join(
    keys.map((key) => sql`${key}, ${sql.identifier(key)}`),
    sql`, `,
  );
  return sql<string>`json((select json_group_array(json_object(${pairs}))
    from (select ${selected} from ${from} where ${where} order by ${orderBy})))`;
}

/** The rows of a coded table whose code is one of `codes`, as `jsonRows` gives them. */
export const rowsByCode = (
  table: SQLiteTable & { code: SQLiteColumn },
  fields: Record<string, SQLiteColumn | SQL>,
  codes: readonly string[],
) => jsonRows(table, fields, inJsonList(table.code, codes), table.code);

/** The facts text and its parsed value, in one round trip. */
export async function readFacts<T>(db: Db, facts: SQL<string>) {
  const [row] = await db.select({ facts }).from(sql`(select 1)`);
  const text = row!.facts;
  return { text, value: JSON.parse(text) as T };
}

const STALE = "stale bulk facts";

/** A write batch that found other facts than the ones it was judged on; nothing was written. */
export const STALE_FACTS = Symbol("stale facts");

/**
 * Runs `writes` as one batch, after a statement that fails the batch unless `facts` still read
 * `text`. SQLite raises errors only in triggers; a malformed JSON path is an error any statement
 * can raise, and its message carries the marker.
 */
export async function writeJudged(
  db: Db,
  facts: SQL<string>,
  text: string,
  writes: BatchItem<"sqlite">[],
): Promise<typeof STALE_FACTS | undefined> {
  const guard = db
    .select({
      unchanged: sql`json_extract('{}', case when ${facts} is ${text} then '$' else ${STALE} end)`,
    })
    .from(sql`(select 1)`);
  try {
    await db.batch([guard, ...writes]);
    return undefined;
  } catch (err) {
    if (errorMentions(err, STALE)) return STALE_FACTS;
    throw err;
  }
}

/**
 * INSERT … SELECT of `rows` (objects keyed by the table's field names, all with the same keys)
 * over json_each: one statement whatever their number. `set` gives a column as an expression of
 * the row instead; absent columns take their defaults.
 */
export function insertRows(
  db: Db,
  table: SQLiteTable,
  rows: readonly object[],
  set: Record<string, SQL> = {},
) {
  const given = new Set(Object.keys(rows[0] ?? {}));
  const value = (key: string, column: SQLiteColumn) =>
    set[key] ?? (given.has(key) ? rowField(key) : columnValue(column, undefined));
  // In the table's column order, under the columns' names: Drizzle checks both.
  const row = Object.fromEntries(
    Object.entries(getTableColumns(table)).map(([key, column]) => [
      key,
      sql`${value(key, column)}`.as(column.name),
    ]),
  );
  return db.insert(table).select(
    db
      .select(row)
      .from(rowsOf(rows))
      // The WHERE keeps SQLite from reading a later ON CONFLICT as a join constraint.
      .where(sql`true`) as never,
  );
}

type Coded = SQLiteTable & { code: SQLiteColumn; updatedAt: SQLiteColumn };

/**
 * UPDATE … FROM json_each of `rows`, matched by code: `set` says what each column becomes (a
 * `rowField` of the row, or any expression of it). updatedAt moves forward, as every update's.
 */
export function updateByCode(
  db: Db,
  table: Coded,
  rows: readonly { code: string }[],
  set: Record<string, SQL>,
) {
  const updatedAt = sql`max(cast(unixepoch('subsec') * 1000 as integer), ${table.updatedAt} + 1)`;
  return db
    .update(table)
    .set({ ...set, updatedAt } as never)
    .from(rowsOf(rows))
    .where(sql`${table.code} = ${rowField("code")}`);
}

/** `set` of `updateByCode` that copies each named field of the row. */
export const fromRow = (keys: readonly string[]) =>
  Object.fromEntries(keys.map((key) => [key, rowField(key)]));

/** The id of the record of a coded table whose code is `code` (an expression of the row). */
export const idOf = (to: CodedTable, code: SQL) =>
  sql`(select ${to.id} from ${to.table} where ${to.code} = ${code})`;

/** A link row named by codes: the owner's and the target's. */
export interface CodePair {
  owner: string;
  target: string;
}

/** The field name of `column` in its table. */
const keyOf = (table: SQLiteTable, column: SQLiteColumn) =>
  Object.entries(getTableColumns(table)).find(([, c]) => c === column)![0];

/**
 * The link rows of many owners at once, as differences: the deletes of `remove` and the inserts
 * of `add`, one statement each, every record resolved by code inside the statement (so an owner
 * inserted earlier in the same batch is found).
 */
export function linkPairWrites(
  db: Db,
  link: CodeLink,
  owner: CodedTable,
  changes: { remove: CodePair[]; add: CodePair[] },
): BatchItem<"sqlite">[] {
  const ownerId = idOf(owner, rowField("owner"));
  const targetId = idOf(link.to, rowField("target"));
  const writes: BatchItem<"sqlite">[] = [];
  if (changes.remove.length) {
    writes.push(
      db.delete(link.table).where(
        sql`(${link.owner}, ${link.target}) in (select ${ownerId}, ${targetId}
          from ${rowsOf(changes.remove)})`,
      ),
    );
  }
  if (changes.add.length) {
    const set = {
      [keyOf(link.table, link.owner)]: ownerId,
      [keyOf(link.table, link.target)]: targetId,
    };
    writes.push(insertRows(db, link.table, changes.add, set));
  }
  return writes;
}
