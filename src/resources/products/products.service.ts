import { deleteUnlessNamed } from "../../db/blockers";
import { FOREIGN_KEY } from "../../db/outcomes";
import { BulkPlan, upsertInBulk } from "../../db/bulk-plan";
import type { Db } from "../../db/client";
import { invalid, notFound, type FieldIssue } from "../../lib/core/errors";
import { optimistically, patchOf } from "../../db/optimistic";
import {
  createProduct as insertProduct,
  deleteProduct,
  findProductGroupId,
  productFacts,
  productWrites,
  readForUpdate,
  readProductBlockers,
  updateProduct as writeProduct,
  type ProductFacts,
  type ProductRecord,
  type ProductRow,
} from "./products.repo";
import {
  ANY_QUANTITY,
  type ProductCreate,
  type ProductUpdate,
  type ProductUpsert,
} from "./products.schemas";

export const missingProduct = (code: string) => notFound(`product ${code} not found`);

const unknownGroup = (code: string, at = "body"): FieldIssue => ({
  path: `${at}.productGroupCode`,
  message: `unknown product group ${code}`,
});

type QuantityRule = Pick<ProductRow, "minOrderQuantity" | "maxOrderQuantity">;

/**
 * The quantity rule of the whole record (docs/api.md §5.9): a maximum below the minimum would
 * allow no quantity at all. The issue names the field the body set: on a PATCH that lowers only
 * the maximum, the maximum; that raises only the minimum, the minimum.
 */
function quantityIssues(
  rule: QuantityRule,
  body: Partial<QuantityRule>,
  at = "body",
): FieldIssue[] {
  const { minOrderQuantity: min, maxOrderQuantity: max } = rule;
  if (max === null || max >= min) return [];
  if (body.maxOrderQuantity === undefined) {
    return [{ path: `${at}.minOrderQuantity`, message: `must be ≤ maxOrderQuantity (${max})` }];
  }
  return [{ path: `${at}.maxOrderQuantity`, message: `must be ≥ minOrderQuantity (${min})` }];
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

/**
 * A row's record: the stored product with the fields the row names (a new product starts from
 * the defaults), the group resolved; `undefined` group id when the row names an unknown group.
 */
function recordOf(
  row: ProductUpsert,
  current: ProductRecord | undefined,
  groups: Map<string, number>,
) {
  const { productGroupCode, ...own } = row;
  const base = current ?? { ...ANY_QUANTITY, productGroupId: null };
  const productGroupId =
    productGroupCode === undefined
      ? base.productGroupId
      : productGroupCode === null
        ? null
        : groups.get(productGroupCode);
  return { ...base, ...patchOf(own), productGroupId };
}

/** Every row under the rules of create and update: the group exists, the quantity rule holds. */
function judgeProducts(rows: ProductUpsert[], facts: ProductFacts) {
  const stored = new Map(facts.stored.map((product) => [product.code, product]));
  const groups = new Map(facts.groups.map((group) => [group.code, group.id]));
  const plan = new BulkPlan<ProductRecord, ProductRecord>("products");
  rows.forEach((row, i) => {
    const current = stored.get(row.code);
    const { productGroupId, ...record } = recordOf(row, current, groups);
    plan.issues.push(...quantityIssues(record, row, plan.at(i)));
    if (productGroupId === undefined)
      plan.issues.push(unknownGroup(row.productGroupCode!, plan.at(i)));
    else plan.add(current, { ...record, productGroupId });
  });
  return plan;
}

/**
 * `PUT /v1/api/product`: 1-1000 products by code, all or nothing, in two round trips (a read of
 * the facts, a write of what changes). Rows that change nothing are not written.
 */
export function upsertProducts(db: Db, rows: ProductUpsert[]) {
  const codes = rows.map((row) => row.code);
  const groupCodes = rows.flatMap((row) => (row.productGroupCode ? [row.productGroupCode] : []));
  return upsertInBulk<ProductFacts>(
    db,
    "the products",
    productFacts(codes, groupCodes),
    (facts) => {
      const plan = judgeProducts(rows, facts);
      return { plan, writes: () => productWrites(db, plan.created, plan.updated) };
    },
  );
}
