import { countDistinct, eq, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { BlockerKind } from "../pricing/vocabulary";
import type { Db } from "./client";
import { inUse, MAX_BLOCKERS_SHOWN, type ApiError, type NamedBlocker } from "../core/errors";
import { CHANGED, optimistically } from "./optimistic";
import { FOREIGN_KEY } from "./outcomes";

/*
 * What keeps a record from being deleted, declared once per deletable resource: the rows that
 * name it (a condition's targets, a product's prices, a group's children). A delete is tried first (its foreign keys or its own guard refuse it); only
 * when nothing was deleted are the blockers read, all kinds in one round trip, so the 409
 * (src/core/errors.ts `inUse`) can name them.
 */

/** One kind of record that can stand in the way: the rows whose `column` names the record. */
export interface BlockerSource {
  kind: BlockerKind;
  /** How the sentence names one of them. */
  noun: string;
  /** The column that names the record. */
  column: SQLiteColumn;
  /** What identifies a blocker, on the same table: its code, or its id. */
  shown: SQLiteColumn;
}

/** A table whose rows are addressed by code. */
type Coded = SQLiteTable & { id: SQLiteColumn; code: SQLiteColumn };

/** What the read found: whether the record exists, and the kinds that name it (none empty). */
export interface Blockers {
  exists: boolean;
  blockers: NamedBlocker[];
}

/** The count of distinct blockers of one kind and the first MAX_BLOCKERS_SHOWN of them. */
function ofKind(db: Db, source: BlockerSource, id: SQL) {
  const { column, shown } = source;
  const table = column.table as SQLiteTable;
  return db
    .select({
      n: countDistinct(shown),
      first: sql<string>`(select json_group_array(x) from (select distinct ${shown} as x
        from ${table} where ${column} = ${id} order by x limit ${MAX_BLOCKERS_SHOWN}))`,
    })
    .from(table)
    .where(eq(column, id));
}

function decode(source: BlockerSource, row: { n: number; first: string } | undefined) {
  const first = JSON.parse(row?.first ?? "[]") as (string | number)[];
  const listed =
    typeof first[0] === "number" ? { ids: first as number[] } : { codes: first as string[] };
  return { kind: source.kind, noun: source.noun, count: row?.n ?? 0, ...listed };
}

/** The reader of everything that names a record of `target`, by its code, in one round trip. */
export function blockersOf(target: Coded, sources: readonly BlockerSource[]) {
  return async (db: Db, code: string): Promise<Blockers> => {
    const id = sql`(select ${target.id} from ${target} where ${target.code} = ${code})`;
    const [found, ...kinds] = await db.batch([
      db.select({ id: target.id }).from(target).where(eq(target.code, code)),
      ...sources.map((source) => ofKind(db, source, id)),
    ]);
    const blockers = sources
      .map((source, i) => decode(source, kinds[i]![0] as { n: number; first: string }))
      .filter((blocker) => blocker.count > 0);
    return { exists: found.length > 0, blockers };
  };
}

/** How a service deletes a record that others may name, and words the refusals. */
export interface GuardedDelete {
  /** `customer group G-1`, as the 409 names it. */
  label: string;
  /** A row when it deleted one; undefined or FOREIGN_KEY when it did not. */
  remove: () => Promise<unknown>;
  /** Whether the record exists and what names it (a `blockersOf` reader). */
  read: () => Promise<Blockers>;
  /** The service's 404. */
  missing: () => ApiError;
}

/**
 * Deletes, or throws the service's 404 or the 409 IN_USE naming what stands in the way. The
 * read runs only when nothing was deleted; blockers that let go in between: it tries again.
 */
export async function deleteUnlessNamed({ label, remove, read, missing }: GuardedDelete) {
  const blockers = await optimistically(label, async () => {
    const deleted = await remove();
    if (deleted !== undefined && deleted !== FOREIGN_KEY) return [];
    const found = await read();
    if (!found.exists) throw missing();
    return found.blockers.length ? found.blockers : CHANGED;
  });
  if (blockers.length) throw inUse(label, blockers);
}
