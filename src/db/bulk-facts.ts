import { sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { chunkBySize, utf8Bytes } from "./chunks";
import { errorMentions, rawBatch, type Db } from "./client";
import { inJsonList } from "./json-list";

/*
 * What a bulk upsert is judged on (docs/api/relations.md §5.12), and the guard that notices when it
 * changed. The facts are rows, each a small JSON object (a stored record, a record the body
 * names, a link), in named parts, read in ONE round trip in a fixed order. D1 has no transaction
 * spanning that read and the write, so the write batch first reads the same rows again and fails
 * as a whole when they differ; the caller then judges again (db/optimistic.ts). The comparison
 * binds the rows as read: cut into chunks of at most MAX_JSON_BYTES (db/chunks.ts), one guard
 * statement each, so however many rows the facts have, no text reaches D1's 2 MB limit.
 */

/** The facts of a bulk write: per part, a query of one column `fact` holding a JSON value. */
export type FactParts = Record<string, SQL>;

/** The rows of `from` where `where` holds, each as the JSON object of `fields`. */
export function factRows(
  from: SQLiteTable | SQL,
  fields: Record<string, SQLiteColumn | SQL>,
  where: SQL,
): SQL {
  // The keys are the code's own names, written as literals: a guard repeats the query per chunk.
  const pairs = sql.join(
    Object.entries(fields).map(([key, value]) => sql`${sql.raw(`'${key}'`)}, ${value}`),
    sql`, `,
  );
  return sql`select json_object(${pairs}) as fact from ${from} where ${where}`;
}

/** The rows of a coded table whose code is one of `codes`, as `factRows` gives them. */
export const rowsByCode = (
  table: SQLiteTable & { code: SQLiteColumn },
  fields: Record<string, SQLiteColumn | SQL>,
  codes: readonly string[],
) => factRows(table, fields, inJsonList(table.code, codes));

/**
 * Every part's rows as (part, fact), in one order the read and the guards share; a part goes by
 * its index, so the guards compare a digit per row, not a name.
 */
function factsQuery(parts: FactParts): SQL {
  const union = sql.join(
    Object.values(parts).map(
      (query, i) => sql`select ${sql.raw(String(i))} as part, fact from (${query})`,
    ),
    sql` union all `,
  );
  return sql`select part, fact from (${union}) order by part, fact`;
}

interface FactRow {
  part: number;
  fact: string;
}

/** The facts as read: the rows (for the guard) and, per part, the parsed objects (for the judge). */
export interface ReadFacts<F> {
  query: SQL;
  rows: FactRow[];
  value: F;
}

/** One round trip: every part's rows. */
export async function readFacts<F>(db: Db, parts: FactParts): Promise<ReadFacts<F>> {
  const query = factsQuery(parts);
  const [raw] = await rawBatch<[Record<string, unknown>[]]>(db, [query]);
  const names = Object.keys(parts);
  const lists = names.map((): unknown[] => []);
  const rows = raw.map((row) => ({ part: Number(row.part), fact: String(row.fact) }));
  for (const row of rows) lists[row.part]!.push(JSON.parse(row.fact));
  return { query, rows, value: Object.fromEntries(names.map((name, i) => [name, lists[i]])) as F };
}

const STALE = "stale bulk facts";

/** A write batch that found other facts than the ones it was judged on; nothing was written. */
export const STALE_FACTS = Symbol("stale facts");

// Control characters JSON never leaves unescaped, so the joined text splits back unambiguously.
const PART_MARK = "\u001f";
const ROW_MARK = "\u001e";

/**
 * Statements that fail the batch unless the facts still read `read.rows`: one per chunk of rows,
 * each comparing the rows at its offset, and one more, so a row added behind the last chunk is
 * noticed too (`staleUnless`).
 */
function guards(db: Db, read: ReadFacts<unknown>): BatchItem<"sqlite">[] {
  const texts = read.rows.map((row) => `${row.part}${PART_MARK}${row.fact}`);
  const chunks = chunkBySize(texts, (text) => utf8Bytes(text) + 1);
  if (!chunks.length) chunks.push([]);
  let offset = 0;
  return chunks.map((chunk, i) => {
    const limit = chunk.length + (i === chunks.length - 1 ? 1 : 0);
    const now = sql`(select coalesce(group_concat(part || char(31) || fact, char(30)
      order by part, fact), '') from (${read.query} limit ${limit} offset ${offset}))`;
    offset += chunk.length;
    return staleUnless(db, sql`${now} is ${chunk.join(ROW_MARK)}`);
  });
}

/**
 * A statement that fails its batch (`writeJudged` answers STALE_FACTS) unless `holds` (an SQL
 * condition) is true when it runs: SQLite raises errors only in triggers; a malformed JSON path
 * is an error any statement can raise, and its message carries the marker.
 */
export const staleUnless = (db: Db, holds: SQL): BatchItem<"sqlite"> =>
  db
    .select({ holds: sql`json_extract('{}', case when ${holds} then '$' else ${STALE} end)` })
    .from(sql`(select 1)`);

/** Runs `writes` as one batch, after the guards of the facts they were judged on. */
export async function writeJudged(
  db: Db,
  read: ReadFacts<unknown>,
  writes: BatchItem<"sqlite">[],
): Promise<typeof STALE_FACTS | undefined> {
  try {
    await db.batch([...guards(db, read), ...writes] as [BatchItem<"sqlite">]);
    return undefined;
  } catch (err) {
    if (errorMentions(err, STALE)) return STALE_FACTS;
    throw err;
  }
}

/**
 * Facts that are ONE scalar JSON text (`facts`, a small one: records' states, a digest of rows),
 * read as `text` by the caller, maybe beside other statements of its round trip: the guard of
 * `writeJudged` for them, as if `readFacts` had read them as one part of one row. `value` is the
 * parsed text.
 */
export function scalarFacts<F>(facts: SQL<string>, text: string): ReadFacts<F> & { text: string } {
  const query = factsQuery({ facts: sql`select ${facts} as fact` });
  return { query, rows: [{ part: 0, fact: text }], value: JSON.parse(text) as F, text };
}

/** One round trip: the scalar facts' text, guarded as `scalarFacts` says. */
export async function readScalarFacts<F>(db: Db, facts: SQL<string>) {
  const [row] = await db.select({ facts }).from(sql`(select 1)`);
  return scalarFacts<F>(facts, row!.facts);
}
