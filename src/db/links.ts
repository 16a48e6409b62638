import { and, eq, getTableColumns, inArray, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "../lib/db";

/**
 * Bulk assignment and unassignment by code, shared by every relation endpoint.
 *
 * A link table joins an owner (the record in the path) to targets named by code in the body.
 * Each call is ONE db.batch — the codes are resolved and the links written in the same atomic
 * round trip — and the code list travels as one JSON parameter (json_each), so 1000 codes stay
 * far under D1's 100-bound-parameter limit.
 */
export interface LinkSpec {
  table: SQLiteTable;
  /** The link table's Drizzle property names for the owner id and the target id. */
  ownerKey: string;
  targetKey: string;
  target: { table: SQLiteTable; id: SQLiteColumn; code: SQLiteColumn };
}

/** The target side of a link: a table addressed by its unique `code`. */
export const coded = <T extends SQLiteTable & { id: SQLiteColumn; code: SQLiteColumn }>(
  table: T,
) => ({
  table,
  id: table.id,
  code: table.code,
});

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

export const inCodes = (column: SQLiteColumn, codes: string[]): SQL =>
  sql`${column} in (select value from json_each(${JSON.stringify(codes)}))`;

const col = (spec: LinkSpec, key: string) =>
  (spec.table as unknown as Record<string, SQLiteColumn>)[key]!;

const resolve = (db: Db, { target }: LinkSpec, codes: string[]) =>
  db
    .select({ id: target.id, code: target.code })
    .from(target.table)
    .where(inCodes(target.code, codes));

/** INSERT … SELECT lists the table's columns in table order, so the selection must follow it. */
function linkSelection(spec: LinkSpec, ownerId: number) {
  const values: Record<string, SQL.Aliased | SQLiteColumn> = {
    [spec.ownerKey]: sql`${ownerId}`.as(spec.ownerKey),
    [spec.targetKey]: spec.target.id,
  };
  return Object.fromEntries(
    Object.keys(getTableColumns(spec.table))
      .filter((key) => key in values)
      .map((key) => [key, values[key]!]),
  );
}

/** `assigned`: newly linked; `skipped`: every other code (already linked or unknown); `notFound`: the unknown ones. */
export async function assignByCodes(
  db: Db,
  spec: LinkSpec,
  ownerId: number,
  codes: string[],
  /** Re-checked inside the write: links are only inserted while it holds (the owner's state). */
  guard?: SQL,
) {
  const { target } = spec;
  const [found, inserted] = await db.batch([
    resolve(db, spec, codes),
    db
      .insert(spec.table)
      .select(
        db
          .select(linkSelection(spec, ownerId))
          .from(target.table)
          .where(and(inCodes(target.code, codes), guard)) as never,
      )
      .onConflictDoNothing()
      .returning({ id: col(spec, spec.targetKey) }),
  ]);
  const codeOf = new Map(found.map((row) => [row.id, row.code]));
  const known = new Set(codeOf.values());
  const assigned = new Set(inserted.map((row) => codeOf.get(row.id as number)));
  return {
    assigned: codes.filter((code) => assigned.has(code)),
    skipped: codes.filter((code) => !assigned.has(code)),
    notFound: codes.filter((code) => !known.has(code)),
  };
}

/** `unassigned`: every code that exists (linked or not, so a repeat is harmless); `notFound`: the rest. */
export async function unassignByCodes(db: Db, spec: LinkSpec, ownerId: number, codes: string[]) {
  const { target } = spec;
  const [found] = await db.batch([
    resolve(db, spec, codes),
    db
      .delete(spec.table)
      .where(
        and(
          eq(col(spec, spec.ownerKey), ownerId),
          inArray(
            col(spec, spec.targetKey),
            db.select({ id: target.id }).from(target.table).where(inCodes(target.code, codes)),
          ),
        ),
      ),
  ]);
  const known = new Set(found.map((row) => row.code));
  return {
    unassigned: codes.filter((code) => known.has(code)),
    notFound: codes.filter((code) => !known.has(code)),
  };
}
