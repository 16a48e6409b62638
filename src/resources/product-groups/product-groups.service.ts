import { deleteUnlessNamed } from "../../db/blockers";
import { FOREIGN_KEY } from "../../db/outcomes";
import type { Db } from "../../lib/db";
import { badRequest, conflict, notFound } from "../../lib/errors";
import { CHANGED, optimistically } from "../../lib/optimistic";
import {
  deleteProductGroup,
  insertProductGroup,
  readPlacement,
  readProductGroupBlockers,
  writeProductGroup,
  type Placement,
} from "./product-groups.repo";
import type { ProductGroupCreate, ProductGroupUpdate } from "./product-groups.schemas";

/** A branch (a root, its descendants down to the deepest leaf) has at most this many levels. */
export const MAX_GROUP_LEVELS = 8;

export const missingProductGroup = (code: string) => notFound(`product group ${code} not found`);
const label = (code: string) => `product group ${code}`;

const unknownParent = (code: string) =>
  badRequest(`product group ${code} not found`, [
    { path: "body.parentCode", message: `unknown product group ${code}` },
  ]);

/**
 * The placement rule (docs/api.md §5.7): the parent exists (400), the group is not its own
 * ancestor (409 naming the cycle), and the branch through it, from the root above the parent to
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
