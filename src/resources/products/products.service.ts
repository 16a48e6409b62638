import { deleteUnlessNamed } from "../../db/blockers";
import { FOREIGN_KEY } from "../../db/outcomes";
import { BulkPlan, upsertInBulk } from "../../db/bulk-plan";
import type { Db } from "../../db/client";
import { invalid, notFound, type FieldIssue } from "../../core/errors";
import { optimistically, patchOf } from "../../db/optimistic";
import {
  createProduct as insertProduct,
  deleteProduct,
  productFacts,
  productWrites,
  readForUpdate,
  readProductBlockers,
  updateProduct as writeProduct,
  type ProductFacts,
  type ProductRecord,
  type ProductRow,
} from "./products.repo";
import { productRefs } from "./products.list";
import {
  ANY_QUANTITY,
  type ProductCreate,
  type ProductUpdate,
  type ProductUpsert,
} from "./products.schemas";

export const missingProduct = (code: string) => notFound(`product ${code} not found`);

type QuantityRule = Pick<ProductRow, "minOrderQuantity" | "maxOrderQuantity">;

/**
 * The quantity rule of the whole record (docs/api/relations.md §5.9): a maximum below the minimum
 * would allow no quantity at all. The issue names the field the body set: on a PATCH that lowers
 * only the maximum, the maximum; that raises only the minimum, the minimum.
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

/** One statement, or two when the body names records by code (their lookups first). */
export async function createProduct(db: Db, input: ProductCreate) {
  const own = productRefs.withoutRefs(input);
  const refs = await productRefs.resolveNamed(db, input);
  const issues = [...quantityIssues(own, own), ...refs.issues];
  if (issues.length) throw invalid(issues);
  const row = await insertProduct(db, { ...own, ...refs.ids });
  if (row === FOREIGN_KEY) throw invalid(productRefs.gone(input));
  return { ...row, ...productRefs.codesOf(input) };
}

/**
 * One read loads the product and resolves the records the body names by code; the merged record
 * is checked; one statement writes under the version read. `undefined` when the product does not
 * exist.
 */
export const updateProduct = (db: Db, code: string, input: ProductUpdate) =>
  optimistically(`product ${code}`, async () => {
    const patch = patchOf(input);
    const own = productRefs.withoutRefs(patch);
    const { current, refs } = await readForUpdate(db, code, patch);
    if (!current) return undefined;
    const issues = [...quantityIssues({ ...current, ...own }, own), ...refs.issues];
    if (issues.length) throw invalid(issues);
    const row = await writeProduct(db, current, { ...own, ...refs.ids });
    if (row === FOREIGN_KEY) throw invalid(productRefs.gone(patch));
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
 * Every row under the rules of create and update: what it names by code exists, the quantity
 * rule holds. A row's record is the stored product with the fields the row names (a new product
 * starts from the defaults).
 */
function judgeProducts(rows: ProductUpsert[], facts: ProductFacts) {
  const stored = new Map(facts.stored.map((product) => [product.code, product]));
  const refsOf = productRefs.judge(facts);
  const plan = new BulkPlan<ProductRecord, ProductRecord>("products");
  rows.forEach((row, i) => {
    const current = stored.get(row.code);
    const base = current ?? { ...ANY_QUANTITY, ...productRefs.nulls };
    const record = { ...base, ...patchOf(productRefs.withoutRefs(row)) };
    const refs = refsOf(row, base, plan.at(i));
    plan.issues.push(...quantityIssues(record, row, plan.at(i)), ...refs.issues);
    if (!refs.issues.length) plan.add(current, { ...record, ...refs.ids });
  });
  return plan;
}

/**
 * `PUT /v1/api/product`: 1-1000 products by code, all or nothing, in two round trips (a read of
 * the facts, a write of what changes). Rows that change nothing are not written.
 */
export function upsertProducts(db: Db, rows: ProductUpsert[]) {
  return upsertInBulk<ProductFacts>(db, "the products", productFacts(rows), (facts) => {
    const plan = judgeProducts(rows, facts);
    return { plan, writes: () => productWrites(db, plan.created, plan.updated) };
  });
}
