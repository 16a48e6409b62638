import { count, eq } from "drizzle-orm";
import { blockersOf } from "../../db/blockers";
import { fromRow, insertRows, updateByCode } from "../../db/bulk";
import { rowsByCode, type FactParts } from "../../db/bulk-facts";
import { isUniqueViolation, type Db } from "../../db/client";
import { unlessForeignKey } from "../../db/outcomes";
import { brands, products, promotionBrands, tradeConditionBrands } from "../../db/schema";
import { conflict } from "../../core/errors";
import { iso } from "../../core/schemas";
import { readPage, type ListRequest } from "../../list";
import type { BrandCreate, BrandUpdate } from "./brands.schemas";

export type BrandRow = typeof brands.$inferSelect;

export const toBrand = (row: BrandRow) => ({
  id: row.id,
  code: row.code,
  name: row.name,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});

export function listBrands(db: Db, list: ListRequest) {
  return readPage(
    db,
    db
      .select()
      .from(brands)
      .where(list.where)
      .orderBy(...list.orderBy)
      .limit(list.limit)
      .offset(list.offset),
    db.select({ n: count() }).from(brands).where(list.where),
  );
}

export const findBrand = (db: Db, code: string) =>
  db.select().from(brands).where(eq(brands.code, code)).get();

const duplicate = (err: unknown, code: string | undefined) =>
  isUniqueViolation(err) ? conflict(`brand code ${code} already exists`) : err;

export async function insertBrand(db: Db, input: BrandCreate) {
  try {
    return await db.insert(brands).values(input).returning().get();
  } catch (err) {
    throw duplicate(err, input.code);
  }
}

export async function writeBrand(db: Db, code: string, input: BrandUpdate) {
  try {
    return await db
      .update(brands)
      .set({ ...input, updatedAt: Date.now() })
      .where(eq(brands.code, code))
      .returning()
      .get();
  } catch (err) {
    throw duplicate(err, input.code);
  }
}

/** Products, conditions and promotions restrict: FOREIGN_KEY while one names the brand. */
export const deleteBrand = (db: Db, code: string) =>
  unlessForeignKey(() =>
    db.delete(brands).where(eq(brands.code, code)).returning({ id: brands.id }).get(),
  );

/** What names a brand and so keeps it from being deleted. */
export const readBrandBlockers = blockersOf(brands, [
  { kind: "product", noun: "product", column: products.brandId, shown: products.code },
  {
    kind: "tradeCondition",
    noun: "trade condition",
    column: tradeConditionBrands.brandId,
    shown: tradeConditionBrands.tradeConditionId,
  },
  {
    kind: "promotion",
    noun: "promotion",
    column: promotionBrands.brandId,
    shown: promotionBrands.promotionId,
  },
]);

// ---- bulk upserts by code (docs/api/relations.md §5.12) ----

/** A brand as a bulk upsert judges and writes it. */
export interface BrandRecord {
  code: string;
  name: string;
}

/** What a bulk upsert is judged on: the stored brands of its codes. */
export const brandFacts = (codes: string[]): FactParts => ({
  stored: rowsByCode(brands, { code: brands.code, name: brands.name }, codes),
});

/** The inserts of the new brands and the updates of the changed ones, a statement per chunk. */
export const brandWrites = (db: Db, created: BrandRecord[], updated: BrandRecord[]) => [
  ...insertRows(db, brands, created),
  ...updateByCode(db, brands, updated, fromRow(["name"])),
];
