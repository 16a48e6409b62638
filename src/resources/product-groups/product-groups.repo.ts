import { count, eq, getTableColumns, sql, type SQL } from "drizzle-orm";
import { blockersOf } from "../../db/blockers";
import { idOf, insertRows, rowField, updateByCode } from "../../db/bulk";
import { factRows, type FactParts } from "../../db/bulk-facts";
import { inJsonList } from "../../db/json-list";
import { unlessForeignKey } from "../../db/outcomes";
import { insertWhere } from "../../db/writes";
import {
  productGroups,
  products,
  promotionProductGroups,
  tradeConditionProductGroups,
} from "../../db/schema";
import { readPage, type ListRequest } from "../../list";
import { isUniqueViolation, type Db } from "../../db/client";
import { conflict } from "../../core/errors";
import { iso } from "../../core/schemas";
import { parentGroups } from "./product-groups.list";

/*
 * Product groups form a forest. The checks that keep it one (no cycle, at most 8 levels) read the
 * branch with recursive CTEs, bounded so that even a damaged table cannot make them loop; the
 * writes repeat the checks inside their own statement (see `fitsInForest`).
 */

/** Deeper than any allowed branch: the bound of every recursion here. */
const RECURSION_BOUND = 16;

// Aliased: D1 answers rows keyed by column name, and the parent's `code` would overwrite the group's.
const groupColumns = {
  ...getTableColumns(productGroups),
  parentCode: sql<string | null>`${parentGroups.code}`.as("parent_code"),
};

const selectGroups = (db: Db) =>
  db
    .select(groupColumns)
    .from(productGroups)
    .leftJoin(parentGroups, eq(parentGroups.id, productGroups.parentId));

export type ProductGroupRow = typeof productGroups.$inferSelect & { parentCode: string | null };

export const toProductGroup = (row: ProductGroupRow) => ({
  id: row.id,
  code: row.code,
  name: row.name,
  parentCode: row.parentCode,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});

export function listProductGroups(db: Db, list: ListRequest) {
  return readPage(
    db,
    selectGroups(db)
      .where(list.where)
      .orderBy(...list.orderBy)
      .limit(list.limit)
      .offset(list.offset),
    db
      .select({ n: count() })
      .from(productGroups)
      .leftJoin(parentGroups, eq(parentGroups.id, productGroups.parentId))
      .where(list.where),
  );
}

export const findProductGroup = (db: Db, code: string) =>
  selectGroups(db).where(eq(productGroups.code, code)).get();

/** A group and the groups above it, nearest first (the group itself first). */
export interface Ancestor {
  id: number;
  code: string;
}

/** The group named `code` and its ancestors, as a JSON array of `{ id, code }`, nearest first. */
const ancestorsJson = (code: string) => sql<string>`(with recursive up(id, code, parent_id, n) as (
    select id, code, parent_id, 1 from product_groups where code = ${code}
    union all
    select g.id, g.code, g.parent_id, up.n + 1 from product_groups g join up on g.id = up.parent_id
    where up.n < ${RECURSION_BOUND})
  select json_group_array(json_object('id', id, 'code', code)) from (select id, code from up order by n))`;

/**
 * The longest way down from the group named `code`: `{ depth, path }`, depth 0 for a leaf, path
 * the codes from the deepest descendant up to the group (`D → C → G`).
 */
const deepestJson = (code: string) => sql<string>`(with recursive down(id, depth, path) as (
    select id, 0, code from product_groups where code = ${code}
    union all
    select g.id, down.depth + 1, g.code || ${" → "} || down.path
    from product_groups g join down on g.parent_id = down.id
    where down.depth < ${RECURSION_BOUND})
  select json_object('depth', depth, 'path', path) from down order by depth desc, id limit 1)`;

/** What placing a group under a parent is judged on. */
export interface Placement {
  /** The group being changed; undefined on create, or when it does not exist. */
  current?: ProductGroupRow;
  /** Levels below the group (0: a leaf, or a new group) and the codes from its deepest descendant up. */
  below: { depth: number; path: string };
  /** The parent and its ancestors, nearest first; undefined when no parent is named or it is unknown. */
  parentChain?: Ancestor[];
}

/**
 * One round trip: the group being changed (when `code` is given) with its deepest branch, and
 * the named parent with its ancestors.
 */
export async function readPlacement(
  db: Db,
  code: string | undefined,
  parentCode: string | null | undefined,
): Promise<Placement> {
  const [[current], [parent]] = await db.batch([
    db
      .select({ ...groupColumns, below: deepestJson(code ?? "") })
      .from(productGroups)
      .leftJoin(parentGroups, eq(parentGroups.id, productGroups.parentId))
      .where(eq(productGroups.code, code ?? ""))
      .limit(code === undefined ? 0 : 1),
    db
      .select({ chain: ancestorsJson(parentCode ?? "") })
      .from(productGroups)
      .where(eq(productGroups.code, parentCode ?? ""))
      .limit(parentCode ? 1 : 0),
  ]);
  const { below, ...row } = current ?? { below: undefined };
  return {
    current: current && (row as ProductGroupRow),
    below: below ? (JSON.parse(below) as Placement["below"]) : { depth: 0, path: code ?? "" },
    parentChain: parent && (JSON.parse(parent.chain) as Ancestor[]),
  };
}

/** The ids from the group `id` upwards (itself first), as a recursive CTE body. */
const upFrom = (id: number) => sql`with recursive up(id, n) as (
    select ${id}, 1
    union all
    select g.parent_id, up.n + 1 from product_groups g join up on g.id = up.id
    where g.parent_id is not null and up.n < ${RECURSION_BOUND})`;

/** The levels of the subtree of group `id` (1: a leaf), as a scalar subquery. */
const levelsOf = (id: number) => sql`(with recursive down(id, n) as (
    select ${id}, 1
    union all
    select g.id, down.n + 1 from product_groups g join down on g.parent_id = down.id
    where down.n < ${RECURSION_BOUND})
  select max(n) from down)`;

/**
 * The placement rule re-checked inside the write, against the data as the write finds it: a
 * concurrent move between the read that judged and this write cannot make a cycle or a deep
 * branch. `self` is the group being moved (null for a new one). The rule's owner is the service;
 * this is its SQL form.
 */
function fitsInForest(self: number | null, parentId: number, maxLevels: number): SQL {
  const levels = self === null ? sql`1` : levelsOf(self);
  const noCycle =
    self === null
      ? sql`1`
      : sql`not exists (${upFrom(parentId)} select 1 from up where id = ${self})`;
  return sql`(${noCycle} and (${upFrom(parentId)} select max(n) from up) + ${levels} <= ${maxLevels})`;
}

const duplicate = (err: unknown, code: string | undefined) =>
  isUniqueViolation(err) ? conflict(`product group code ${code} already exists`) : err;

/** What a write is given: the group's own columns, the parent resolved to its id. */
export interface GroupValues {
  code?: string;
  name?: string;
  parentId?: number | null;
}

/**
 * Inserts the group, guarded by the placement rule when it has a parent. Returns the row read
 * back, undefined when the guard refused (the caller judges again), FOREIGN_KEY when the parent
 * was deleted meanwhile.
 */
export async function insertProductGroup(db: Db, values: Required<GroupValues>, maxLevels: number) {
  const { code, name, parentId } = values;
  const guard = parentId === null ? sql`1` : fitsInForest(null, parentId, maxLevels);
  const insert = insertWhere(db, productGroups, { code, name, parentId }, guard);
  try {
    return await unlessForeignKey(async () => {
      const [inserted, [row]] = await db.batch([
        insert.returning({ id: productGroups.id }),
        selectGroups(db).where(eq(productGroups.code, code)),
      ]);
      return inserted.length ? row : undefined;
    });
  } catch (err) {
    throw duplicate(err, code);
  }
}

/**
 * Updates the group `id`, guarded by the placement rule when its parent changes. Returns the row
 * read back, undefined when nothing was updated (gone, or the guard refused: the caller judges
 * again), FOREIGN_KEY when the parent was deleted meanwhile.
 */
export async function writeProductGroup(
  db: Db,
  id: number,
  values: GroupValues,
  maxLevels: number,
) {
  const guard =
    typeof values.parentId === "number" ? fitsInForest(id, values.parentId, maxLevels) : sql`1`;
  const update = db
    .update(productGroups)
    .set({ ...values, updatedAt: Date.now() })
    .where(sql`${productGroups.id} = ${id} and ${guard}`)
    .returning({ id: productGroups.id });
  try {
    return await unlessForeignKey(async () => {
      const [updated, [row]] = await db.batch([
        update,
        selectGroups(db).where(eq(productGroups.id, id)),
      ]);
      return updated.length ? row : undefined;
    });
  } catch (err) {
    throw duplicate(err, values.code);
  }
}

/** Products, child groups, conditions and promotions restrict: FOREIGN_KEY while one names it. */
export const deleteProductGroup = (db: Db, code: string) =>
  unlessForeignKey(() =>
    db
      .delete(productGroups)
      .where(eq(productGroups.code, code))
      .returning({ id: productGroups.id })
      .get(),
  );

/** What names a group and so keeps it from being deleted. */
export const readProductGroupBlockers = blockersOf(productGroups, [
  { kind: "product", noun: "product", column: products.productGroupId, shown: products.code },
  {
    kind: "productGroup",
    noun: "child group",
    column: productGroups.parentId,
    shown: productGroups.code,
  },
  {
    kind: "tradeCondition",
    noun: "trade condition",
    column: tradeConditionProductGroups.productGroupId,
    shown: tradeConditionProductGroups.tradeConditionId,
  },
  {
    kind: "promotion",
    noun: "promotion",
    column: promotionProductGroups.productGroupId,
    shown: promotionProductGroups.promotionId,
  },
]);

// ---- bulk upserts by code (docs/api/relations.md §5.12) ----

/** A stored group as a bulk upsert judges the forest. */
export interface ForestNode {
  id: number;
  code: string;
  name: string;
  parentId: number | null;
}

/**
 * What a bulk upsert is judged on: the part of the forest it can change or depend on, the groups
 * of the body's codes and of the parents it names with all their ancestors, and all the
 * descendants of the body's groups. The recursions use UNION, which visits each group once, so
 * even a damaged table with a cycle cannot make them loop.
 */
export function forestFacts(codes: string[], parentCodes: string[]): FactParts {
  const part = sql`with recursive
    up(id) as (select id from product_groups where ${inJsonList(sql`code`, [...codes, ...parentCodes])}
      union select g.parent_id from product_groups g join up on g.id = up.id
      where g.parent_id is not null),
    down(id) as (select id from product_groups where ${inJsonList(sql`code`, codes)}
      union select g.id from product_groups g join down on g.parent_id = down.id)
    select id from up union select id from down`;
  const { id, code, name, parentId } = productGroups;
  return { groups: factRows(productGroups, { id, code, name, parentId }, sql`${id} in (${part})`) };
}

/** A group as a bulk upsert writes it: its parent by code, so a parent of the same body is found. */
export interface GroupRecord {
  code: string;
  name: string;
  parentCode: string | null;
}

const coded = { table: productGroups, id: productGroups.id, code: productGroups.code };

/**
 * The new groups (under their stored parent, or none yet), then one UPDATE placing every other
 * row (`placed`): the changed groups, and the new ones whose parent is new too, which exists by
 * then.
 */
export const productGroupWrites = (
  db: Db,
  created: (Omit<GroupRecord, "parentCode"> & { parentId: number | null })[],
  placed: GroupRecord[],
) => [
  ...insertRows(db, productGroups, created),
  ...updateByCode(db, productGroups, placed, {
    name: rowField("name"),
    parentId: idOf(coded, rowField("parentCode")),
  }),
];
