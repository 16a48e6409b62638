import { deleteUnlessNamed } from "../../db/blockers";
import { BulkPlan, upsertInBulk } from "../../db/bulk-plan";
import type { Db } from "../../db/client";
import { patchOf } from "../../db/optimistic";
import { notFound } from "../../core/errors";
import {
  brandFacts,
  brandWrites,
  deleteBrand,
  readBrandBlockers,
  type BrandRecord,
} from "./brands.repo";
import type { BrandUpsert } from "./brands.schemas";

export const missingBrand = (code: string) => notFound(`brand ${code} not found`);

/** 409 IN_USE while a product, a trade condition or a promotion names it. */
export const removeBrand = (db: Db, code: string) =>
  deleteUnlessNamed({
    label: `brand ${code}`,
    remove: () => deleteBrand(db, code),
    read: () => readBrandBlockers(db, code),
    missing: () => missingBrand(code),
  });

/**
 * `PUT /v1/api/brand`: 1-1000 brands by code, all or nothing, in two round trips; a brand has no
 * rules beyond its body's, so only what changes is decided here.
 */
export function upsertBrands(db: Db, rows: BrandUpsert[]) {
  return upsertInBulk<{ stored: BrandRecord[] }>(
    db,
    "the brands",
    brandFacts(rows.map((row) => row.code)),
    (read) => {
      const stored = new Map(read.stored.map((brand) => [brand.code, brand]));
      const plan = new BulkPlan<BrandRecord, BrandRecord>("brands");
      for (const row of rows) {
        const current = stored.get(row.code);
        plan.add(current, { ...current, ...patchOf(row) } as BrandRecord);
      }
      return { plan, writes: () => brandWrites(db, plan.created, plan.updated) };
    },
  );
}
