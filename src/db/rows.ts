import { fillPlaceholders, sql, type Query, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { compileSql, rawBatch, type Db } from "./client";

/**
 * Typed rows for the price loader's raw SQL. Drizzle cannot write its one-round-trip batch, and a
 * raw row is a bag of `unknown`: a renamed column or a typo in an alias would reach the engine as
 * `undefined` and price silently wrong. So each statement declares its SELECT list once, as
 * fields (the SQL of the value, most often a Drizzle column, and a decoder); the list is rendered
 * from that declaration with the field's name as alias, and every row is decoded by the same
 * declaration. A value that is missing or of the wrong type throws, naming the column.
 */

export type Row = Record<string, unknown>;

/** Checks one raw value and returns it typed; `column` names it in the error. */
type Decode<T> = (value: unknown, column: string) => T;

export interface Field<T> {
  source: SQL | SQLiteColumn;
  decode: Decode<T>;
}

function fail(column: string, expected: string, value: unknown): never {
  const found = value === undefined ? "missing" : JSON.stringify(value);
  throw new Error(`price loader: column ${column} is ${found}, expected ${expected}`);
}

// Decoders: each checks one raw value and returns it typed.

const asInt: Decode<number> = (v, c) =>
  Number.isSafeInteger(v) ? (v as number) : fail(c, "an integer", v);
const asText: Decode<string> = (v, c) => (typeof v === "string" ? v : fail(c, "text", v));
// SQLite has no booleans: flags and EXISTS come back as 0 or 1.
const asFlag: Decode<boolean> = (v, c) => (v === 0 || v === 1 ? v === 1 : fail(c, "0 or 1", v));

const orNull =
  <T>(decode: Decode<T>): Decode<T | null> =>
  (v, c) =>
    v === null ? null : decode(v, c);

/** A value of the vocabulary (src/pricing/vocabulary.ts). */
export const asMember =
  <const V extends readonly string[]>(values: V): Decode<V[number]> =>
  (v, c) =>
    values.includes(v as string) ? (v as V[number]) : fail(c, values.join(" | "), v);

/**
 * `decode(value, column)`, naming the inner place (`scales[2].value`) only when it fails: most
 * rows are valid, and writing a name for every item of every row cost more than decoding them.
 */
function inner<T>(decode: Decode<T>, value: unknown, column: string, place: () => string): T {
  try {
    return decode(value, column);
  } catch {
    return decode(value, place());
  }
}

/** A JSON object (json_object) with an integer under each of `keys`. */
export const asIntRecord =
  <K extends string>(...keys: K[]): Decode<Record<K, number>> =>
  (v, c) => {
    if (typeof v !== "object" || v === null) return fail(c, "a JSON object", v);
    const record = {} as Record<K, number>;
    for (const k of keys) record[k] = inner(asInt, (v as Row)[k], c, () => `${c}.${k}`);
    return record;
  };

const KINDS = { int: asInt, text: asText } as const;
type Kind = keyof typeof KINDS;
type KindOf<K extends Kind> = K extends "int" ? number : string;

/** A JSON object (json_object) with, under each key of `shape`, an integer or a text. */
export const asRecord =
  <const S extends Record<string, Kind>>(shape: S): Decode<{ [K in keyof S]: KindOf<S[K]> }> =>
  (v, c) => {
    if (typeof v !== "object" || v === null) return fail(c, "a JSON object", v);
    const record = {} as Record<string, unknown>;
    for (const [k, kind] of Object.entries(shape)) {
      record[k] = inner(KINDS[kind] as Decode<unknown>, (v as Row)[k], c, () => `${c}.${k}`);
    }
    return record as { [K in keyof S]: KindOf<S[K]> };
  };

/** A JSON array (json_group_array), each item checked by `item`. */
const asJsonArray =
  <T>(item: Decode<T>): Decode<T[]> =>
  (v, c) => {
    const parsed: unknown = JSON.parse(asText(v, c));
    if (!Array.isArray(parsed)) return fail(c, "a JSON array", v);
    return parsed.map((entry, i) => inner(item, entry, c, () => `${c}[${i}]`));
  };

// Fields: the SQL of a result column and its decoder.

type Source = SQL | SQLiteColumn;
const field =
  <T>(decode: Decode<T>) =>
  (source: Source): Field<T> => ({ source, decode });

export const int = field(asInt);
export const text = field(asText);
export const flag = field(asFlag);
export const nullableInt = field(orNull(asInt));
export const nullableText = field(orNull(asText));
export const member = <const V extends readonly string[]>(values: V, source: Source) =>
  field(asMember(values))(source);
export const nullableMember = <const V extends readonly string[]>(values: V, source: Source) =>
  field(orNull(asMember(values)))(source);
export const jsonArray = <T>(item: Decode<T>, source: Source) => field(asJsonArray(item))(source);
/** The codes of a `linkedCodes` subquery. */
export const codes = (source: Source) => jsonArray(asText, source);

export type Fields = Record<string, Field<unknown>>;
export type Decoded<F extends Fields> = { [K in keyof F]: F[K] extends Field<infer T> ? T : never };

export interface Selection<F extends Fields> {
  /** `source AS "name", ...`: the SELECT list, each field under its own name. */
  list: SQL;
  decode: (row: Row) => Decoded<F>;
}

/** The SELECT list of a statement and the decoder of its rows, from one declaration. */
export function select<F extends Fields>(fields: F): Selection<F> {
  const names = Object.keys(fields);
  const decoders = names.map((name) => fields[name]!.decode);
  return {
    list: sql.join(
      names.map((name) => sql`${fields[name]!.source} as ${sql.identifier(name)}`),
      sql`, `,
    ),
    // In place: D1 answers each row as a fresh object holding exactly the selected columns, in
    // this order, so checking and converting its values leaves it the decoded row (a copy of
    // every row of a 500-line batch cost more than the checks).
    decode: (row) => {
      for (let i = 0; i < names.length; i++) {
        const name = names[i]!;
        const value = row[name];
        const decoded = decoders[i]!(value, name);
        if (decoded !== value) row[name] = decoded;
      }
      return row as Decoded<F>;
    },
  };
}

/** A statement of the batch, compiled (its values placeholders until bound), and its decoder. */
export interface Statement<T> {
  query: Query;
  decode: (row: Row) => T;
}

/**
 * `[with …] select <columns> <rest>`, compiled once and decoded by the columns' own declaration;
 * `ctes` is a WITH clause the statement's subqueries read.
 */
export const statement = <F extends Fields>(
  columns: Selection<F>,
  rest: SQL,
  ctes?: SQL,
): Statement<Decoded<F>> => ({
  query: compileSql(
    ctes ? sql`${ctes} select ${columns.list} ${rest}` : sql`select ${columns.list} ${rest}`,
  ),
  decode: columns.decode,
});

/** The statements with their placeholders (`sql.placeholder(name)`) bound to `values[name]`. */
export function bindStatements<const S extends readonly Statement<unknown>[]>(
  statements: S,
  values: Record<string, unknown>,
): S {
  return statements.map((s) => ({
    query: { sql: s.query.sql, params: fillPlaceholders(s.query.params, values) },
    decode: s.decode,
  })) as unknown as S;
}

/** The decoded row of a statement. */
export type RowOf<S> = S extends Statement<infer T> ? T : never;

/** A batch's statements; null: a statement this request does not need, answered as no rows. */
type Batch = readonly (Statement<unknown> | null)[];

type RowsOf<S extends Batch> = {
  [K in keyof S]: S[K] extends Statement<infer T> | null ? T[] : never;
};

/** Runs the statements as ONE D1 batch (one round trip) and decodes every row. */
export async function decodedBatch<const S extends Batch>(
  db: Db,
  statements: S,
): Promise<RowsOf<S>> {
  const sent = statements.filter((s) => s !== null);
  const results = await rawBatch<Row[][]>(
    db,
    sent.map((s) => s.query),
  );
  let next = 0;
  return statements.map((s) => (s ? results[next++]!.map(s.decode) : [])) as RowsOf<S>;
}
