import { and, eq, getTableColumns, inArray, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { getTableConfig, type SQLiteColumn, type SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "./client";
import { CHANGED } from "./optimistic";
import { inJsonList } from "./json-list";

/**
 * Linked records, declared once per entity and written by one implementation.
 *
 * A link table joins an owner (a trade condition, a channel, …) either to records named by code
 * (`codeLink`: products, channels, customers, customer groups) or to rows that belong to the
 * owner alone (`rowsLink`: a condition's scales). An entity lists its link tables once with
 * `defineLinks`; the select of the linked codes, the lookups that resolve codes to ids, the
 * inserts and the replacements are derived from that list, and so are the bulk assign and
 * unassign by code. Code lists travel as one JSON parameter (json_each), so 1000 codes stay far
 * under D1's 100-bound-parameter limit.
 */

/** A table whose rows are addressed by a unique code. */
export interface CodedTable {
  table: SQLiteTable;
  id: SQLiteColumn;
  code: SQLiteColumn;
}

type Coded = SQLiteTable & { id: SQLiteColumn; code: SQLiteColumn };

/** A link table from an owner to records named by code; `noun` names one target in messages. */
export interface CodeLink {
  kind: "codes";
  table: SQLiteTable;
  owner: SQLiteColumn;
  target: SQLiteColumn;
  to: CodedTable;
  noun: string;
}

/** Rows that belong to the owner alone, stored as given: API field name → column. */
export interface RowsLink {
  kind: "rows";
  table: SQLiteTable;
  owner: SQLiteColumn;
  fields: Record<string, SQLiteColumn>;
}

export type Link = CodeLink | RowsLink;

/** `owner` and `target` are the link table's columns holding the two ids. */
export const codeLink = (
  owner: SQLiteColumn,
  target: SQLiteColumn,
  to: Coded,
  noun: string,
): CodeLink => ({
  kind: "codes",
  table: owner.table as SQLiteTable,
  owner,
  target,
  to: { table: to, id: to.id, code: to.code },
  noun,
});

export const rowsLink = (owner: SQLiteColumn, fields: Record<string, SQLiteColumn>): RowsLink => ({
  kind: "rows",
  table: owner.table as SQLiteTable,
  owner,
  fields,
});

const tableName = (table: SQLiteTable) => getTableConfig(table).name;

/**
 * The codes of the targets linked to an outer row, as a JSON array: a correlated subquery, so a
 * record and its links come back in one statement and a list page stays one round trip.
 * `owner` is the outer row's id column as SQL text (`"promotions.id"`); `only` narrows the codes.
 */
export const linkedCodes = (
  link: string,
  ownerFk: string,
  owner: string,
  targetFk: string,
  target: string,
  only?: SQL,
): SQL<string> =>
  sql<string>`(select json_group_array(t.code) from ${sql.raw(link)} l join ${sql.raw(target)} t
    on t.id = l.${sql.raw(targetFk)} where l.${sql.raw(ownerFk)} = ${sql.raw(owner)}${only ? sql` and ${only}` : sql``})`;

/** The JSON array a link contributes to its owner's select (codes, or rows as API objects). */
function linkedJson(link: Link, owner: SQLiteColumn): SQL<string> {
  const outer = `${tableName(owner.table as SQLiteTable)}.${owner.name}`;
  if (link.kind === "codes") {
    const { table, to } = link;
    return linkedCodes(
      tableName(table),
      link.owner.name,
      outer,
      link.target.name,
      tableName(to.table),
    );
  }
  const pairs = Object.entries(link.fields).map(([key, column]) => `'${key}', r.${column.name}`);
  return sql<string>`(select json_group_array(json_object(${sql.raw(pairs.join(", "))}))
    from ${sql.raw(tableName(link.table))} r where r.${sql.raw(link.owner.name)} = ${sql.raw(outer)})`;
}

/**
 * The owners linked to a target whose row meets `condition` (on `link.to`'s columns), as
 * `ownerId IN (…)`: the link table is entered from the target's side, by its key. Lists filter
 * by linked codes with it (customers by group code) and read-outs list a record's linked owners.
 */
export const linkedTo = (link: CodeLink, ownerId: SQLiteColumn, condition: SQL): SQL =>
  sql`${ownerId} in (select ${link.owner} from ${link.table} join ${link.to.table}
    on ${link.to.id} = ${link.target} where ${condition})`;

/** The one "code IN the JSON list" condition. */
export const inCodes = (column: SQLiteColumn, codes: readonly string[]): SQL =>
  inJsonList(column, codes);

/** `select id, code` of the named targets that exist. */
export const lookupCodes = (db: Db, to: CodedTable, codes: readonly string[]) =>
  db.select({ id: to.id, code: to.code }).from(to.table).where(inCodes(to.code, codes));

type Selected = SQL.Aliased | SQLiteColumn;

/**
 * A link row for INSERT … SELECT: the values by column, in the table's column order (Drizzle
 * checks it), with NULL for the integer key, which SQLite then assigns.
 */
function linkRow(table: SQLiteTable, values: Map<SQLiteColumn, Selected>) {
  return Object.fromEntries(
    Object.entries(getTableColumns(table)).map(([key, column]) => {
      const value = values.get(column);
      if (value) return [key, value];
      if (!column.primary) throw new Error(`link ${tableName(table)}: no value for ${column.name}`);
      return [key, sql`null`.as(column.name)];
    }),
  );
}

const asColumn = (value: SQL, column: SQLiteColumn) => sql`${value}`.as(column.name);

/** INSERT … SELECT of the owner's links from a JSON list (ids, or rows), while `guard` holds. */
function insertLinks(db: Db, link: Link, owner: SQL, items: unknown[], guard: SQL) {
  const values = new Map<SQLiteColumn, Selected>([[link.owner, asColumn(owner, link.owner)]]);
  if (link.kind === "codes") values.set(link.target, asColumn(sql`value`, link.target));
  else {
    for (const [key, column] of Object.entries(link.fields)) {
      values.set(column, asColumn(sql`json_extract(value, ${"$." + key})`, column));
    }
  }
  return db.insert(link.table).select(
    db
      .select(linkRow(link.table, values))
      .from(sql`json_each(${JSON.stringify(items)})`)
      .where(guard) as never,
  );
}

/** Codes a body named that name no record, by the API field that named them. */
export interface UnknownCodes {
  field: string;
  noun: string;
  codes: string[];
}

type Found = { id: number; code: string }[];
type Statement = ReturnType<typeof lookupCodes>;

type Values<F extends string> = Partial<Record<F, unknown[]>>;

/**
 * An entity's link tables, keyed by the API field that carries them (`productCodes`, `scales`).
 * `values` hold ids for code links and rows for row links: what `resolve` makes of a body.
 */
export class LinkSet<L extends Record<string, Link>> {
  /** Each link as a JSON array column of the owner's select. */
  readonly columns: Record<keyof L & string, SQL<string>>;
  private readonly fields: (keyof L & string)[];

  constructor(
    owner: SQLiteColumn,
    readonly links: L,
  ) {
    this.fields = Object.keys(links);
    this.columns = Object.fromEntries(
      this.fields.map((field) => [field, linkedJson(links[field]!, owner)]),
    ) as Record<keyof L & string, SQL<string>>;
  }

  /** The fields a body sets (maybe to an empty list), in declaration order. */
  private present(values: Values<keyof L & string>, kind?: Link["kind"]) {
    return this.fields.filter(
      (field) => values[field] !== undefined && (!kind || this.links[field]!.kind === kind),
    );
  }

  /** Whether a body names any code; if not, nothing needs looking up. */
  namesCodes(input: Values<keyof L & string>) {
    return this.present(input, "codes").some((field) => input[field]!.length);
  }

  /** `select id, code` of the codes of each code link the body sets, to run in one batch. */
  lookups(db: Db, input: Values<keyof L & string>) {
    return this.present(input, "codes").map((field) =>
      lookupCodes(db, (this.links[field] as CodeLink).to, input[field] as string[]),
    );
  }

  /** The body's links as values to write, and the codes it named that name nothing. */
  resolve(input: Values<keyof L & string>, lookedUp: readonly unknown[][]) {
    const found = lookedUp as readonly Found[];
    const coded = this.present(input, "codes");
    const values: Values<keyof L & string> = {};
    const unknown: UnknownCodes[] = [];
    for (const field of this.present(input)) {
      const link = this.links[field]!;
      if (link.kind === "rows") {
        values[field] = input[field];
        continue;
      }
      const rows = found[coded.indexOf(field)] ?? [];
      const known = new Set(rows.map((row) => row.code));
      const codes = (input[field] as string[]).filter((code) => !known.has(code));
      if (codes.length) unknown.push({ field, noun: link.noun, codes });
      values[field] = rows.map((row) => row.id);
    }
    return { values, unknown };
  }

  /** `lookups` and `resolve` in one round trip, or none when the body names no code. */
  async resolveNamed(db: Db, input: Values<keyof L & string>) {
    const statements = this.lookups(db, input);
    const found = this.namesCodes(input) ? await db.batch(statements as [Statement]) : [];
    return this.resolve(input, found);
  }

  /** Inserts of the given links of owner `id` (an SQL expression inside the batch). */
  inserts(db: Db, id: SQL, values: Values<keyof L & string>, guard = sql`true`) {
    return this.present(values)
      .filter((field) => values[field]!.length)
      .map((field) => insertLinks(db, this.links[field]!, id, values[field]!, guard));
  }

  /** Replaces the given links of owner `id`: the deletes, then the inserts. */
  replaces(db: Db, id: number, values: Values<keyof L & string>, guard = sql`true`) {
    const deletes = this.present(values).map((field) => {
      const link = this.links[field]!;
      return db.delete(link.table).where(and(eq(link.owner, id), guard));
    });
    return [...deletes, ...this.inserts(db, sql`${id}`, values, guard)] as BatchItem<"sqlite">[];
  }

  /** The body without its link fields: the record's own columns. */
  withoutLinks<T extends object>(input: T) {
    const own = Object.entries(input).filter(([key]) => !(key in this.links));
    return Object.fromEntries(own) as Omit<T, keyof L>;
  }
}

/** An entity's link tables, declared once: adding a link is one line here. */
export const defineLinks = <L extends Record<string, Link>>(owner: SQLiteColumn, links: L) =>
  new LinkSet(owner, links);

/** `assigned`: newly linked; `skipped`: every other code (already linked or unknown); `notFound`: the unknown ones. */
export async function assignByCodes(
  db: Db,
  link: CodeLink,
  ownerId: number,
  codes: string[],
  /** Re-checked inside the write: links are only inserted while it holds (the owner's state). */
  guard?: SQL,
) {
  const { to } = link;
  const row = new Map<SQLiteColumn, Selected>([
    [link.owner, asColumn(sql`${ownerId}`, link.owner)],
    [link.target, to.id],
  ]);
  const [found, inserted] = await db.batch([
    lookupCodes(db, to, codes),
    db
      .insert(link.table)
      .select(
        db
          .select(linkRow(link.table, row))
          .from(to.table)
          .where(and(inCodes(to.code, codes), guard)) as never,
      )
      .onConflictDoNothing()
      .returning({ id: link.target }),
  ]);
  const codeOf = new Map(found.map((r) => [r.id, r.code]));
  const known = new Set(codeOf.values());
  const assigned = new Set(inserted.map((r) => codeOf.get(r.id as number)));
  return {
    assigned: codes.filter((code) => assigned.has(code)),
    skipped: codes.filter((code) => !assigned.has(code)),
    notFound: codes.filter((code) => !known.has(code)),
  };
}

interface Unassigned {
  unassigned: string[];
  notFound: string[];
}

/**
 * `unassigned`: every code that exists (linked or not, so a repeat is harmless); `notFound`: the
 * rest. With a guard (the owner's state) the delete is written only while it holds, read again in
 * the batch: CHANGED when it failed (nothing deleted; the caller judges again).
 */
export async function unassignByCodes(
  db: Db,
  link: CodeLink,
  ownerId: number,
  codes: string[],
): Promise<Unassigned>;
export async function unassignByCodes(
  db: Db,
  link: CodeLink,
  ownerId: number,
  codes: string[],
  guard: SQL,
): Promise<Unassigned | typeof CHANGED>;
export async function unassignByCodes(
  db: Db,
  link: CodeLink,
  ownerId: number,
  codes: string[],
  guard = sql`1`,
) {
  const { to } = link;
  const [found, , [held]] = await db.batch([
    lookupCodes(db, to, codes),
    db
      .delete(link.table)
      .where(
        and(
          eq(link.owner, ownerId),
          inArray(
            link.target,
            db.select({ id: to.id }).from(to.table).where(inCodes(to.code, codes)),
          ),
          guard,
        ),
      ),
    db.select({ held: guard }).from(sql`(select 1)`),
  ]);
  if (!held?.held) return CHANGED;
  const known = new Set(found.map((row) => row.code));
  return {
    unassigned: codes.filter((code) => known.has(code)),
    notFound: codes.filter((code) => !known.has(code)),
  };
}

/** A linked-codes column (JSON text from json_group_array) as a sorted list. */
export const codesFrom = (json: string) => (JSON.parse(json) as string[]).sort();
