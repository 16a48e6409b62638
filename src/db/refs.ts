import { eq, getTableColumns, isNull, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { FieldIssue } from "../core/errors";
import { rowsByCode, type FactParts } from "./bulk-facts";
import type { Db } from "./client";

/*
 * Foreign keys by code, declared once per entity (docs/api/resources.md §2). A product stores its
 * group's id (`productGroupId`) while the API reads, filters and writes the group's code
 * (`productGroupCode`); one entry of `defineRefs` says so, and the rest is derived from it:
 *
 * - reads: `columns`, the target's code as a column of the owner's select;
 * - lists: `filter`, what `filter.productGroupCode=X` (and `$null`) means (`refFilters` of src/list);
 * - create and update: `lookups` and `resolve`, the codes a body names as ids, looked up in the
 *   round trip that reads what decides the write; an unknown code is a 400 naming it, and `gone`
 *   words the same 400 when the foreign key refuses a target deleted after that read;
 * - bulk upserts: `facts`, the named targets as parts of the facts a bulk write is judged on
 *   (db/bulk-facts.ts), and `judge`, each row's ids from them.
 *
 * `db/links.ts` is the same idea for link tables (many targets per record).
 */

type Coded = SQLiteTable & { id: SQLiteColumn; code: SQLiteColumn };

/** One foreign key by code of an owner table T. */
export interface RefDeclaration<T extends SQLiteTable> {
  /** The owner's field holding the target's id: "productGroupId". */
  key: keyof T["_"]["columns"] & string;
  /** The table the key points at; the API names its rows by code. */
  to: Coded;
  /** One target in messages: "product group" (→ "unknown product group X"). */
  noun: string;
}

export type Declared<T extends SQLiteTable> = Record<string, RefDeclaration<T>>;

/** The codes a body names, by ref field: absent = not named, null = none. */
export type NamedCodes<R> = { [F in keyof R]?: string | null };

/** The ids of the refs a body names, by the owner's key fields (`productGroupId`). */
export type RefIds<R extends Record<string, { key: string }>> = {
  [F in keyof R as R[F]["key"]]?: number | null;
};

/** The targets a bulk body names, by ref field: `{ id, code }` of each that exists (a fact part each). */
export type RefFacts<R> = Record<keyof R & string, { id: number; code: string }[]>;

const snake = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A code that names no target, as the issue on the field that named it. */
const unknown = (at: string, field: string, noun: string, code: string): FieldIssue => ({
  path: `${at}.${field}`,
  message: `unknown ${noun} ${code}`,
});

export class RefSet<T extends SQLiteTable, R extends Declared<T>> {
  /** Each target's code as a column of the owner's select, under the ref's field name. */
  readonly columns: { [F in keyof R]: SQL.Aliased<string | null> };
  readonly fields: (keyof R & string)[];
  private readonly keys: Record<keyof R & string, SQLiteColumn>;

  constructor(
    owner: T,
    readonly refs: R,
  ) {
    this.fields = Object.keys(refs);
    const columns = getTableColumns(owner) as Record<string, SQLiteColumn>;
    this.keys = Object.fromEntries(
      this.fields.map((field) => [field, columns[refs[field]!.key]!]),
    ) as Record<keyof R & string, SQLiteColumn>;
    // A scalar subquery, not a join: SQLite evaluates it only for the rows a page returns, while
    // a joined table is read for every row an OFFSET skips. Aliased, since D1 answers rows keyed
    // by column name and the target's `code` would overwrite the owner's.
    this.columns = Object.fromEntries(
      this.fields.map((field) => {
        const { to } = refs[field]!;
        return [
          field,
          sql<
            string | null
          >`(select ${to.code} from ${to} where ${to.id} = ${this.keys[field]})`.as(snake(field)),
        ];
      }),
    ) as { [F in keyof R]: SQL.Aliased<string | null> };
  }

  /**
   * The list filter of ref `field` (`filter.<field>`): `match` is the comparison on the target's
   * code, `$null` asks for the owners without a target. One code is `key = (subquery)`, so SQLite
   * starts from the target's unique code and walks the owner's index on the key in order.
   */
  filter(field: keyof R & string, match: SQL, op: string): SQL {
    const key = this.keys[field];
    if (op === "$null") return isNull(key);
    const { to } = this.refs[field]!;
    const ids = sql`select ${to.id} from ${to} where ${match}`;
    return op === "$in" ? sql`${key} in (${ids})` : sql`${key} = (${ids})`;
  }

  /** The ref fields a body names with a code (not absent, not null), in declaration order. */
  private named(input: NamedCodes<R>) {
    return this.fields.filter((field) => typeof input[field] === "string");
  }

  /** `select id` of each target the body names, as statements to batch with the read. */
  lookups(db: Db, input: NamedCodes<R>) {
    return this.named(input).map((field) => {
      const { to } = this.refs[field]!;
      return db.select({ id: to.id }).from(to).where(eq(to.code, input[field]!)).limit(1);
    });
  }

  /**
   * The ids of the refs a body names, over `base` (the stored ids; none for a new record): a
   * code gives `idOf` its target's id, null none; a code `idOf` does not know is an issue at `at`.
   */
  private idsOf(
    input: NamedCodes<R>,
    idOf: (field: keyof R & string, code: string) => number | undefined,
    base: Partial<Record<string, number | null>>,
    at: string,
  ) {
    const ids: Record<string, number | null | undefined> = {};
    const issues: FieldIssue[] = [];
    for (const field of this.fields) {
      const code = input[field];
      const { key, noun } = this.refs[field]!;
      if (code === undefined) {
        if (key in base) ids[key] = base[key];
        continue;
      }
      const id = code === null ? null : idOf(field, code);
      if (id === undefined) issues.push(unknown(at, field, noun, code!));
      else ids[key] = id;
    }
    return { ids: ids as RefIds<R>, issues };
  }

  /** The ids of what the body names (`found`: the answers of `lookups`), and its unknown codes. */
  resolve(input: NamedCodes<R>, found: readonly unknown[][], at = "body") {
    const named = this.named(input);
    const rows = found as readonly { id: number }[][];
    return this.idsOf(input, (field) => rows[named.indexOf(field)]?.[0]?.id, {}, at);
  }

  /** `lookups` and `resolve` in one round trip, or none when the body names no code. */
  async resolveNamed(db: Db, input: NamedCodes<R>, at = "body") {
    const statements = this.lookups(db, input);
    const found = statements.length
      ? await db.batch(statements as [(typeof statements)[number]])
      : [];
    return this.resolve(input, found, at);
  }

  /** The 400 of a write the foreign key refused: a target the body named was deleted meanwhile. */
  gone(input: NamedCodes<R>, at = "body"): FieldIssue[] {
    return this.named(input).map((field) =>
      unknown(at, field, this.refs[field]!.noun, input[field]!),
    );
  }

  /** Every ref key set to null: a new record's ids before its body names any. */
  get nulls() {
    return Object.fromEntries(this.fields.map((field) => [this.refs[field]!.key, null])) as {
      [F in keyof R as R[F]["key"]]: null;
    };
  }

  /** The codes of a body or a row read (null for an absent one), by ref field, in declaration order. */
  codesOf(input: NamedCodes<R>) {
    return Object.fromEntries(this.fields.map((field) => [field, input[field] ?? null])) as {
      [F in keyof R]: string | null;
    };
  }

  /** The body without its ref fields: the record's own columns. */
  withoutRefs<I extends object>(input: I) {
    return Object.fromEntries(Object.entries(input).filter(([key]) => !(key in this.refs))) as Omit<
      I,
      keyof R
    >;
  }

  /** The targets the rows of a bulk body name, as parts of its facts (db/bulk-facts.ts), by ref field. */
  facts(rows: readonly NamedCodes<R>[]): FactParts {
    return Object.fromEntries(
      this.fields.map((field) => {
        const { to } = this.refs[field]!;
        const codes = rows.flatMap((row) => (typeof row[field] === "string" ? [row[field]] : []));
        return [field, rowsByCode(to, { id: to.id, code: to.code }, codes)];
      }),
    );
  }

  /**
   * A bulk row's ids, judged on the facts: a named code gives its target's id, null none, and an
   * absent field keeps the stored record's id (`base`); an unknown code is an issue at `at`.
   */
  judge(facts: RefFacts<R>) {
    const byCode = Object.fromEntries(
      this.fields.map((field) => [field, new Map(facts[field].map((t) => [t.code, t.id]))]),
    );
    return (row: NamedCodes<R>, base: object, at: string) =>
      this.idsOf(
        row,
        (field, code) => byCode[field]!.get(code),
        base as Record<string, number>,
        at,
      );
  }
}

/** An entity's foreign keys by code, declared once: adding one (a product's `brandCode`) is one line. */
export const defineRefs = <T extends SQLiteTable, const R extends Declared<T>>(owner: T, refs: R) =>
  new RefSet(owner, refs);
