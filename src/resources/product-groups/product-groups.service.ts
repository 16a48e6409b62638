import { deleteUnlessNamed } from "../../db/blockers";
import { FOREIGN_KEY } from "../../db/outcomes";
import { BulkPlan, upsertInBulk } from "../../db/bulk-plan";
import type { Db } from "../../db/client";
import { badRequest, conflict, notFound } from "../../core/errors";
import { CHANGED, optimistically } from "../../db/optimistic";
import {
  deleteProductGroup,
  forestFacts,
  insertProductGroup,
  productGroupWrites,
  readPlacement,
  readProductGroupBlockers,
  writeProductGroup,
  type ForestNode,
  type GroupRecord,
  type Placement,
} from "./product-groups.repo";
import type {
  ProductGroupCreate,
  ProductGroupUpdate,
  ProductGroupUpsert,
} from "./product-groups.schemas";

/** A branch (a root, its descendants down to the deepest leaf) has at most this many levels. */
export const MAX_GROUP_LEVELS = 8;

export const missingProductGroup = (code: string) => notFound(`product group ${code} not found`);
const label = (code: string) => `product group ${code}`;

const unknownParent = (code: string) =>
  badRequest(`product group ${code} not found`, [
    { path: "body.parentCode", message: `unknown product group ${code}` },
  ]);

/**
 * The placement rule (docs/api/relations.md §5.7): the parent exists (400), the group is not its
 * own ancestor (409 naming the cycle), and the branch through it, from the root above the parent to
 * the deepest group below it, has at most MAX_GROUP_LEVELS levels (409 naming that branch).
 * Chains are written from the lower group to its parent: `WOOD → SCREWS → FAST`.
 * Returns the parent's id (null for a root).
 */
function placement(code: string, parentCode: string | null, found: Placement): number | null {
  if (parentCode === null) return null;
  const chain = found.parentChain;
  if (!chain) throw unknownParent(parentCode);
  const self = found.current?.id;
  const loop = chain.findIndex((group) => group.id === self);
  if (loop >= 0) {
    const cycle = [code, ...chain.slice(0, loop + 1).map((group) => group.code)];
    throw conflict(
      `${label(code)} cannot have parent ${parentCode}: that makes a cycle ` +
        `${cycle.join(" → ")} (each group → its parent)`,
    );
  }
  const levels = found.below.depth + 1 + chain.length;
  if (levels > MAX_GROUP_LEVELS) {
    const branch = [found.below.path, ...chain.map((group) => group.code)].join(" → ");
    throw conflict(
      `${label(code)} under ${parentCode} makes a branch of ${levels} levels, more than the ` +
        `${MAX_GROUP_LEVELS} allowed: ${branch} (each group → its parent)`,
    );
  }
  return chain[0]!.id;
}

/** One read judges the placement (skipped for a root), one statement writes it under the same rule. */
export const createProductGroup = (db: Db, input: ProductGroupCreate) =>
  optimistically(label(input.code), async () => {
    const parentCode = input.parentCode ?? null;
    const found: Placement = parentCode
      ? await readPlacement(db, undefined, parentCode)
      : { below: { depth: 0, path: input.code } };
    const parentId = placement(input.code, parentCode, found);
    const row = await insertProductGroup(
      db,
      { code: input.code, name: input.name, parentId },
      MAX_GROUP_LEVELS,
    );
    if (row === FOREIGN_KEY) throw unknownParent(parentCode!);
    return row ?? CHANGED;
  });

/** `undefined` when the group does not exist. */
export const updateProductGroup = (db: Db, code: string, input: ProductGroupUpdate) =>
  optimistically(label(code), async () => {
    const { parentCode, ...own } = input;
    const found = await readPlacement(db, code, parentCode);
    if (!found.current) return undefined;
    const values =
      parentCode === undefined ? own : { ...own, parentId: placement(code, parentCode, found) };
    const row = await writeProductGroup(db, found.current.id, values, MAX_GROUP_LEVELS);
    if (row === FOREIGN_KEY) throw unknownParent(parentCode!);
    return row ?? CHANGED;
  });

/** Deletes an unused group in one statement; while something names it, 409 naming what. */
export const removeProductGroup = (db: Db, code: string) =>
  deleteUnlessNamed({
    label: label(code),
    remove: () => deleteProductGroup(db, code),
    read: () => readProductGroupBlockers(db, code),
    missing: () => missingProductGroup(code),
  });

// ---- bulk upserts by code (docs/api/relations.md §5.12) ----

/** Each group's parent by code, in the forest a bulk body makes (the stored part it can reach). */
type Parents = Map<string, string | null>;

const arrows = (codes: string[]) => `${codes.join(" → ")} (each group → its parent)`;

/** The codes from `code` up to its root, itself first; at a cycle, up to the first repeated code. */
function chainUp(parents: Parents, code: string): string[] {
  const chain = [code];
  const seen = new Set(chain);
  for (let next = parents.get(code); next; next = parents.get(next)) {
    chain.push(next);
    if (seen.has(next)) break;
    seen.add(next);
  }
  return chain;
}

/** The longest way down from each group: the codes from its deepest descendant up to it. */
function deepestBelow(parents: Parents) {
  const children = new Map<string, string[]>();
  for (const [code, parent] of parents) {
    if (parent) children.set(parent, [...(children.get(parent) ?? []), code]);
  }
  const memo = new Map<string, string[]>();
  const walk = (code: string, open: Set<string>): string[] => {
    const known = memo.get(code);
    if (known) return known;
    open.add(code);
    let deepest: string[] = [];
    for (const child of children.get(code) ?? []) {
      // A child already on the way down is a cycle: reported on its own, not followed.
      const path = open.has(child) ? [] : walk(child, open);
      if (path.length > deepest.length) deepest = path;
    }
    open.delete(code);
    memo.set(code, [...deepest, code]);
    return memo.get(code)!;
  };
  return (code: string) => walk(code, new Set());
}

/**
 * The placement rule of create and PATCH (docs/api/relations.md §5.7) for a row of a bulk body, in
 * the forest the whole body makes: no cycle, at most MAX_GROUP_LEVELS levels through the group.
 * A 400 on the row rather than the single calls' 409: the body is refused as a whole.
 */
function placementIssue(parents: Parents, below: (code: string) => string[], code: string) {
  const chain = chainUp(parents, code);
  if (chain.length > 1 && chain.at(-1) === code) return `makes a cycle ${arrows(chain)}`;
  const branch = [...below(code), ...chain.slice(1)];
  if (branch.length <= MAX_GROUP_LEVELS) return undefined;
  return (
    `makes a branch of ${branch.length} levels, more than the ${MAX_GROUP_LEVELS} allowed: ` +
    arrows(branch)
  );
}

/** The stored groups as records, and the forest's parents with the body's rows placed. */
function forestOf(rows: ProductGroupUpsert[], groups: ForestNode[]) {
  const codeOf = new Map(groups.map((group) => [group.id, group.code]));
  const stored = new Map(
    groups.map((group): [string, GroupRecord] => [
      group.code,
      { code: group.code, name: group.name, parentCode: codeOf.get(group.parentId!) ?? null },
    ]),
  );
  const parents: Parents = new Map([...stored.values()].map((g) => [g.code, g.parentCode]));
  const records = rows.map(({ code, name, parentCode }): GroupRecord => {
    const kept = stored.get(code)?.parentCode ?? null;
    return { code, name, parentCode: parentCode === undefined ? kept : parentCode };
  });
  for (const record of records) parents.set(record.code, record.parentCode);
  return { stored, parents, records };
}

/** Every row: its parent exists (in the body or stored), and where it moves, the forest stays one. */
function judgeGroups(rows: ProductGroupUpsert[], groups: ForestNode[]) {
  const { stored, parents, records } = forestOf(rows, groups);
  const below = deepestBelow(parents);
  const plan = new BulkPlan<GroupRecord, GroupRecord>("productGroups");
  records.forEach((record, i) => {
    const { code, parentCode } = record;
    const current = stored.get(code);
    if (parentCode !== null && !parents.has(parentCode)) {
      plan.issue(i, "parentCode", `unknown product group ${parentCode}`);
      return;
    }
    const moved = !current || current.parentCode !== parentCode;
    const issue = moved ? placementIssue(parents, below, code) : undefined;
    if (issue) plan.issue(i, "parentCode", issue);
    else plan.add(current, record);
  });
  return { plan, stored };
}

/**
 * `PUT /v1/api/product-group`: 1-1000 groups by code, all or nothing, in two round trips. A
 * parent may be a group of the same body, before or after its children.
 */
export function upsertProductGroups(db: Db, rows: ProductGroupUpsert[]) {
  const parentCodes = rows.flatMap((row) => (row.parentCode ? [row.parentCode] : []));
  const facts = forestFacts(
    rows.map((row) => row.code),
    parentCodes,
  );
  return upsertInBulk<{ groups: ForestNode[] }>(db, "the product groups", facts, (read) => {
    const { plan, stored } = judgeGroups(rows, read.groups);
    const ids = new Map(read.groups.map((group) => [group.code, group.id]));
    // A new group under a stored parent (or none) is inserted in place; under a new one, placed after.
    const underNew = (row: GroupRecord) => row.parentCode !== null && !stored.has(row.parentCode);
    const writes = () =>
      productGroupWrites(
        db,
        plan.created.map(({ code, name, parentCode }) => ({
          code,
          name,
          parentId: ids.get(parentCode ?? "") ?? null,
        })),
        [...plan.updated, ...plan.created.filter(underNew)],
      );
    return { plan, writes };
  });
}
