import { count, eq, getTableColumns } from "drizzle-orm";
import { customers, pricelists } from "../../db/schema";
import { defineList, readPage, type ListRequest } from "../../list";
import type { Db } from "../../lib/db";
import { iso, isoOrNull } from "../../lib/schemas";
import { STATUSES } from "../../lib/status";
import {
  PRICELIST_SCOPES,
  type IndividualPricelistCreate,
  type PricelistCreate,
  type PricelistUpdate,
} from "./pricelists.schemas";

/** Pricelist columns plus the owner's code: select with `.from(pricelists).leftJoin(customers, ownerJoin)`. */
export const pricelistColumns = { ...getTableColumns(pricelists), customerCode: customers.code };
export const ownerJoin = eq(customers.id, pricelists.customerId);

export type PricelistRow = typeof pricelists.$inferSelect & { customerCode: string | null };

export const toPricelist = (row: PricelistRow) => ({
  id: row.id,
  name: row.name,
  scope: row.scope,
  status: row.status,
  currency: row.currency,
  priority: row.priority,
  validFrom: isoOrNull(row.validFrom),
  validTo: isoOrNull(row.validTo),
  taxInclusive: row.taxInclusive,
  allowsTradeDiscounts: row.allowsTradeDiscounts,
  customerCode: row.customerCode,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});

export const pricelistList = defineList({
  fields: {
    id: { column: pricelists.id, type: "number", sortable: true },
    name: { column: pricelists.name, type: "text", sortable: true },
    scope: { column: pricelists.scope, type: PRICELIST_SCOPES, filter: ["$eq", "$not"] },
    status: { column: pricelists.status, type: STATUSES, filter: ["$eq"] },
  },
});

export function listPricelists(db: Db, list: ListRequest) {
  return readPage(
    db,
    db
      .select(pricelistColumns)
      .from(pricelists)
      .leftJoin(customers, ownerJoin)
      .where(list.where)
      .orderBy(...list.orderBy)
      .limit(list.limit)
      .offset(list.offset),
    db.select({ n: count() }).from(pricelists).where(list.where),
  );
}

export const findPricelist = (db: Db, id: number): Promise<PricelistRow | undefined> =>
  db
    .select(pricelistColumns)
    .from(pricelists)
    .leftJoin(customers, ownerJoin)
    .where(eq(pricelists.id, id))
    .get();

export const findCustomerId = async (db: Db, code: string) =>
  (await db.select({ id: customers.id }).from(customers).where(eq(customers.code, code)).get())?.id;

export async function createPricelist(db: Db, input: PricelistCreate): Promise<PricelistRow> {
  const row = await db
    .insert(pricelists)
    .values({
      ...input,
      scope: "GENERAL",
      allowsTradeDiscounts: input.allowsTradeDiscounts ?? true,
    })
    .returning()
    .get();
  return { ...row, customerCode: null };
}

export async function createIndividualPricelist(
  db: Db,
  customerId: number,
  { customerCode, ...input }: IndividualPricelistCreate,
): Promise<PricelistRow> {
  const row = await db
    .insert(pricelists)
    .values({
      ...input,
      scope: "INDIVIDUAL",
      status: "DRAFT",
      customerId,
      allowsTradeDiscounts: input.allowsTradeDiscounts ?? false,
    })
    .returning()
    .get();
  return { ...row, customerCode };
}

export async function updatePricelist(db: Db, current: PricelistRow, input: PricelistUpdate) {
  const row = await db
    .update(pricelists)
    .set({ ...input, updatedAt: Date.now() })
    .where(eq(pricelists.id, current.id))
    .returning()
    .get();
  return row && { ...row, customerCode: current.customerCode };
}
