import { deleteUnlessNamed } from "../../db/blockers";
import { FOREIGN_KEY } from "../../db/outcomes";
import type { Db } from "../../lib/db";
import { invalid, notFound, type FieldIssue } from "../../lib/errors";
import { optimistically, patchOf } from "../../lib/optimistic";
import {
  createProduct as insertProduct,
  deleteProduct,
  findProductGroupId,
  readForUpdate,
  readProductBlockers,
  updateProduct as writeProduct,
  type ProductRow,
} from "./products.repo";
import type { ProductCreate, ProductUpdate } from "./products.schemas";

export const missingProduct = (code: string) => notFound(`product ${code} not found`);

const unknownGroup = (code: string): FieldIssue => ({
  path: "body.productGroupCode",
  message: `unknown product group ${code}`,
});

type QuantityRule = Pick<ProductRow, "minOrderQuantity" | "maxOrderQuantity">;

/**
 * The quantity rule of the whole record (docs/api.md §5.9): a maximum below the minimum would
 * allow no quantity at all. The issue names the field the body set: on a PATCH that lowers only
 * the maximum, the maximum; that raises only the minimum, the minimum.
 */
function quantityIssues(rule: QuantityRule, body: Partial<QuantityRule>): FieldIssue[] {
  const { minOrderQuantity: min, maxOrderQuantity: max } = rule;
  if (max === null || max >= min) return [];
  if (body.maxOrderQuantity === undefined) {
    return [{ path: "body.minOrderQuantity", message: `must be ≤ maxOrderQuantity (${max})` }];
  }
  return [{ path: "body.maxOrderQuantity", message: `must be ≥ minOrderQuantity (${min})` }];
}

/** One statement, or two when the body names a group (its lookup first). */
export async function createProduct(db: Db, input: ProductCreate) {
  const { productGroupCode = null, ...own } = input;
  const productGroupId =
    productGroupCode === null ? null : await findProductGroupId(db, productGroupCode);
  const issues = quantityIssues(own, own);
  if (productGroupId === undefined) issues.push(unknownGroup(productGroupCode!));
  if (issues.length) throw invalid(issues);
  const row = await insertProduct(db, { ...own, productGroupId: productGroupId! });
  if (row === FOREIGN_KEY) throw invalid([unknownGroup(productGroupCode!)]);
  return { ...row, productGroupCode };
}

/**
 * One read loads the product and resolves the group it names; the merged record is checked; one
 * statement writes under the version read. `undefined` when the product does not exist.
 */
export const updateProduct = (db: Db, code: string, input: ProductUpdate) =>
  optimistically(`product ${code}`, async () => {
    const { productGroupCode, ...own } = patchOf(input);
    const { current, groupId } = await readForUpdate(db, code, productGroupCode);
    if (!current) return undefined;
    const issues = quantityIssues({ ...current, ...own }, own);
    if (productGroupCode && groupId === undefined) issues.push(unknownGroup(productGroupCode));
    if (issues.length) throw invalid(issues);
    const set = productGroupCode === undefined ? own : { ...own, productGroupId: groupId ?? null };
    const row = await writeProduct(db, current, set);
    if (row === FOREIGN_KEY) throw invalid([unknownGroup(productGroupCode!)]);
    return row;
  });

export const removeProduct = (db: Db, code: string) =>
  deleteUnlessNamed({
    label: `product ${code}`,
    remove: () => deleteProduct(db, code),
    read: () => readProductBlockers(db, code),
    missing: () => missingProduct(code),
  });
