import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { getTableConfig, type SQLiteColumn, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { factRows } from "./bulk-facts";
import { jsonChunks } from "./chunks";
import type { Db } from "./client";
import { inJsonList } from "./json-list";
import type { CodedTable, CodeLink } from "./links";
import { auditContext, auditLog } from "./schema";
import { entityName, SUMMARIZED_LINKS } from "./schema/audited";
import { columnValue } from "./writes";

/*
 * Bulk upserts by code (docs/api/relations.md §5.12), the writes (the facts they are judged on and
 * the guard are in db/bulk-facts.ts). Rows travel as JSON parameters (json_each), cut into chunks
 * of at most MAX_JSON_BYTES (db/chunks.ts): a body of 1000 rows binds a handful of parameters, far
 * under D1's 100, and no parameter comes near D1's 2 MB limit on a string, whatever the rows
 * hold. Each function gives one statement per chunk; the caller puts them all into its one batch.
 */

/** A row of `json_each(rows)`, named so it cannot clash with a table's own columns (json_each has an id). */
const ROW = sql.raw(`"row"`);

/** The JSON rows (one chunk's text) as a table: one `"row"."value"` per row. */
export const rowsOf = (json: string) => sql`json_each(${json}) as ${ROW}`;

/** A field of the current row of `rowsOf`. */
export const rowField = (key: string) => sql`json_extract(${ROW}."value", ${"$." + key})`;

/**
 * INSERT … SELECT of `rows` (objects keyed by the table's field names, all with the same keys)
 * over json_each: one statement per chunk of rows, none for no rows. `set` gives a column as an
 * expression of the row instead; absent columns take their defaults. `where`: the rows are
 * inserted only while it holds (checked by the statement itself).
 */
export function insertRows(
  db: Db,
  table: SQLiteTable,
  rows: readonly object[],
  set: Record<string, SQL> = {},
  where: SQL = sql`true`,
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
        // A WHERE keeps SQLite from reading a later ON CONFLICT as a join constraint.
        .where(where) as never,
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
 * of `add`, every record resolved by code inside the statement (so an owner inserted earlier in
 * the same batch is found), and their audit entries, one per owner and action
 * (`linkEntries`). While they run, the audit context tells the link table's triggers that the
 * batch records these rows itself (migration 0018), so they write no entry per row.
 */
export function linkPairWrites(
  db: Db,
  link: CodeLink,
  owner: CodedTable,
  changes: LinkChanges,
): BatchItem<"sqlite">[] {
  if (!changes.remove.length && !changes.add.length) return [];
  const table = getTableConfig(link.table).name;
  if (!SUMMARIZED_LINKS.has(table)) {
    throw new Error(`link ${table}: not in SUMMARIZED_LINKS, its triggers would record every row`);
  }
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
  const summarized = (on: boolean) => db.update(auditContext).set({ linksSummarized: on });
  return [
    summarized(true),
    ...deletes,
    ...insertRows(db, link.table, changes.add, set),
    summarized(false),
    ...linkEntries(db, link, owner, changes),
  ];
}

type LinkChanges = { remove: CodePair[]; add: CodePair[] };

/** The targets of each owner, in the order the owners first appear. */
function targetsByOwner(pairs: readonly CodePair[]) {
  const targets = new Map<string, string[]>();
  for (const { owner, target } of pairs) {
    const list = targets.get(owner);
    if (list) list.push(target);
    else targets.set(owner, [target]);
  }
  return targets;
}

/** Per owner, in the order the owners first appear: the targets it lost, then those it gained. */
function entriesOf(changes: LinkChanges) {
  const removed = targetsByOwner(changes.remove);
  const added = targetsByOwner(changes.add);
  const owners = new Set([...removed.keys(), ...added.keys()]);
  return [...owners].flatMap((owner) => [
    ...(removed.has(owner) ? [{ owner, action: "DELETE", targets: removed.get(owner) }] : []),
    ...(added.has(owner) ? [{ owner, action: "INSERT", targets: added.get(owner) }] : []),
  ]);
}

/** audit_log's columns copied from the context, qualified by hand (json_each has a "path" too). */
const CONTEXT_COLUMNS = Object.fromEntries(
  (["at", "requestId", "correlationId", "keyName", "operation", "method", "path"] as const).map(
    (field) => {
      const { name } = auditContext[field];
      return [field, sql.raw(`"audit_context"."${name}"`).as(name)];
    },
  ),
);

/**
 * The audit entries of the link rows `changes` write (docs/api/feed-and-webhooks.md §11.1): for
 * each owner, a DELETE listing the targets it lost and an INSERT listing those it gained, by id, in
 * the link table's own terms (`customerGroupMember`, key `{ customerId }`, row `{ customerId,
 * customerGroupIds }`), instead of one entry per link row. Written from the plan: the guard of
 * the batch (db/bulk-facts.ts) has made sure the stored links are those the plan was made from.
 */
function linkEntries(
  db: Db,
  link: CodeLink,
  owner: CodedTable,
  changes: LinkChanges,
): BatchItem<"sqlite">[] {
  const { to } = link;
  const ids = sql`json((select json_group_array(${to.id} order by ${to.id}) from ${to.table}
    where ${to.code} in (select value from json_each(${rowField("targets")}))))`;
  const ownerId = sql`${sql.raw(`'${keyOf(link.table, link.owner)}'`)}, ${idOf(owner, rowField("owner"))}`;
  const targets = sql`${sql.raw(`'${keyOf(link.table, link.target)}s'`)}, ${ids}`;
  const row = sql`json_object(${ownerId}, ${targets})`;
  const action = rowField("action");
  // In audit_log's column order, under its column names: Drizzle checks both.
  const entry = {
    id: sql`null`.as("id"),
    ...CONTEXT_COLUMNS,
    entity: sql`${entityName(getTableConfig(link.table).name)}`.as("entity"),
    entityId: sql`null`.as("entity_id"),
    entityCode: sql`null`.as("entity_code"),
    entityKey: sql`json_object(${ownerId})`.as("entity_key"),
    action: sql`${action}`.as("action"),
    before: sql`case when ${action} = 'DELETE' then ${row} end`.as("before"),
    after: sql`case when ${action} = 'INSERT' then ${row} end`.as("after"),
  };
  return jsonChunks(entriesOf(changes)).map((json) =>
    db.insert(auditLog).select(
      db
        .select(entry)
        .from(sql`${auditContext}, ${rowsOf(json)}`)
        .orderBy(sql`${ROW}."key"`) as never,
    ),
  );
}
