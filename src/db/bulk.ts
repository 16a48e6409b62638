import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { factRows } from "./bulk-facts";
import { jsonChunks } from "./chunks";
import type { Db } from "./client";
import { inJsonList } from "./json-list";
import type { CodedTable, CodeLink } from "./links";
import { columnValue } from "./writes";

/*
 * Bulk upserts by code (docs/api.md §5.12), the writes (the facts they are judged on and the
 * guard are in db/bulk-facts.ts). Rows travel as JSON parameters (json_each), cut into chunks of
 * at most MAX_JSON_BYTES (db/chunks.ts): a body of 1000 rows binds a handful of parameters, far
 * under D1's 100, and no parameter comes near D1's 2 MB limit on a string, whatever the rows
 * hold. Each function gives one statement per chunk; the caller puts them all into its one batch.
 */

/** A row of `json_each(rows)`, named so it cannot clash with a table's own columns (json_each has an id). */
const ROW = sql.raw(`"row"`);

/** The JSON rows (one chunk's text) as a table: one `"row"."value"` per row. */
const rowsOf = (json: string) => sql`json_each(${json}) as ${ROW}`;

/** A field of the current row of `rowsOf`. */
export const rowField = (key: string) => sql`json_extract(${ROW}."value", ${"$." + key})`;

/**
 * INSERT … SELECT of `rows` (objects keyed by the table's field names, all with the same keys)
 * over json_each: one statement per chunk of rows, none for no rows. `set` gives a column as an
 * expression of the row instead; absent columns take their defaults.
 */
export function insertRows(
  db: Db,
  table: SQLiteTable,
  rows: readonly object[],
  set: Record<string, SQL> = {},
): BatchItem<"sqlite">[] {
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
  return jsonChunks(rows).map((json) =>
    db.insert(table).select(
      db
        .select(row)
        .from(rowsOf(json))
        // The WHERE keeps SQLite from reading a later ON CONFLICT as a join constraint.
        .where(sql`true`) as never,
    ),
  );
}

type Coded = SQLiteTable & { code: SQLiteColumn; updatedAt: SQLiteColumn };

/**
 * UPDATE … FROM json_each of `rows`, matched by code, one statement per chunk: `set` says what
 * each column becomes (a `rowField` of the row, or any expression of it). updatedAt moves
 * forward, as every update's.
 */
export function updateByCode(
  db: Db,
  table: Coded,
  rows: readonly { code: string }[],
  set: Record<string, SQL>,
): BatchItem<"sqlite">[] {
  const updatedAt = sql`max(cast(unixepoch('subsec') * 1000 as integer), ${table.updatedAt} + 1)`;
  return jsonChunks(rows).map((json) =>
    db
      .update(table)
      .set({ ...set, updatedAt } as never)
      .from(rowsOf(json))
      .where(sql`${table.code} = ${rowField("code")}`),
  );
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

/** An owner's stored links as `linkFacts` gives them: its id and its targets' ids. */
export type OwnerLinks = [owner: number, targets: number[]];

/**
 * The stored links of the owners with the given codes, as facts (db/bulk-facts.ts), by id, which
 * keeps them small: `links`, one `OwnerLinks` per owner that has any (some 8 bytes a link, so
 * one owner's row stays under D1's 2 MB up to about 250,000 links); `targets`, the id and code of
 * every target they name or `named` names (when it exists).
 */
export function linkFacts(
  link: CodeLink,
  owner: CodedTable,
  ownerCodes: readonly string[],
  named: readonly string[],
) {
  const owned = sql`${link.table} join ${owner.table} on ${owner.id} = ${link.owner}`;
  const ofOwners = inJsonList(owner.code, ownerCodes);
  const { to } = link;
  return {
    links: sql`select json_array(${link.owner}, json(json_group_array(${link.target}
      order by ${link.target}))) as fact from ${owned} where ${ofOwners} group by ${link.owner}`,
    targets: factRows(
      to.table,
      { id: to.id, code: to.code },
      sql`${inJsonList(to.code, named)} or ${to.id} in (select ${link.target} from ${owned} where ${ofOwners})`,
    ),
  };
}

/**
 * The link rows of many owners at once, as differences: the deletes of `remove` and the inserts
 * of `add`, a statement per chunk, every record resolved by code inside the statement (so an
 * owner inserted earlier in the same batch is found).
 */
export function linkPairWrites(
  db: Db,
  link: CodeLink,
  owner: CodedTable,
  changes: { remove: CodePair[]; add: CodePair[] },
): BatchItem<"sqlite">[] {
  if (!changes.remove.length && !changes.add.length) return [];
  const ownerId = idOf(owner, rowField("owner"));
  const targetId = idOf(link.to, rowField("target"));
  const deletes = jsonChunks(changes.remove).map((json) =>
    db.delete(link.table).where(
      sql`(${link.owner}, ${link.target}) in (select ${ownerId}, ${targetId}
        from ${rowsOf(json)})`,
    ),
  );
  const set = {
    [keyOf(link.table, link.owner)]: ownerId,
    [keyOf(link.table, link.target)]: targetId,
  };
  return [...deletes, ...insertRows(db, link.table, changes.add, set)];
}
