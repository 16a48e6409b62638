import { and, count, eq, getTableColumns, sql, type SQL } from "drizzle-orm";
import { coded, type LinkSpec } from "../../db/links";
import { customerColumns } from "../customers/customers.repo";
import {
  customerGroupPricelists,
  customerGroups,
  customers,
  pricelistPrices,
  pricelists,
  products,
} from "../../db/schema";
import { readPage, type ListRequest } from "../../list";
import { isForeignKeyViolation, type Db } from "../../lib/db";
import { conflict } from "../../lib/errors";
import { CHANGED, nextUpdatedAt } from "../../lib/optimistic";
import { iso, isoOrNull } from "../../lib/schemas";
import {
  type IndividualPricelistCreate,
  type PriceUpsertRow,
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

/** Undefined when the customer was deleted after its check (a foreign key failure). */
export async function createIndividualPricelist(
  db: Db,
  customerId: number,
  { customerCode, ...input }: IndividualPricelistCreate,
): Promise<PricelistRow | undefined> {
  try {
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
  } catch (err) {
    if (isForeignKeyViolation(err)) return undefined;
    throw err;
  }
}

/** Writes over the version the checks judged; CHANGED if another request wrote or deleted first. */
export async function updatePricelist(db: Db, current: PricelistRow, input: PricelistUpdate) {
  const row = await db
    .update(pricelists)
    .set({ ...input, updatedAt: nextUpdatedAt(current.updatedAt) })
    .where(and(eq(pricelists.id, current.id), eq(pricelists.updatedAt, current.updatedAt)))
    .returning()
    .get();
  return row ? { ...row, customerCode: current.customerCode } : CHANGED;
}

export const findPricelistId = async (db: Db, id: number) =>
  (await db.select({ id: pricelists.id }).from(pricelists).where(eq(pricelists.id, id)).get())?.id;

/** Customer groups assigned to a pricelist (counterpart of seed endpoint 7). */
export const pricelistGroups: LinkSpec = {
  table: customerGroupPricelists,
  ownerKey: "pricelistId",
  targetKey: "customerGroupId",
  target: coded(customerGroups),
};

/** Price rows addressed by product code: bulk delete reuses the unassign machinery. */
export const pricelistProducts: LinkSpec = {
  table: pricelistPrices,
  ownerKey: "pricelistId",
  targetKey: "productId",
  target: coded(products),
};

/**
 * Seed endpoint 16. The WHERE carries every rule, so the happy path is one statement; prices and
 * channel, group and customer assignments go with the row through ON DELETE CASCADE.
 */
export const deleteDraftIndividualPricelist = async (db: Db, id: number) =>
  Boolean(
    await db
      .delete(pricelists)
      .where(
        and(
          eq(pricelists.id, id),
          eq(pricelists.scope, "INDIVIDUAL"),
          eq(pricelists.status, "DRAFT"),
        ),
      )
      .returning({ id: pricelists.id })
      .get(),
  );

// ---- customers of a pricelist (seed endpoint 20) ----

/** Owner of an INDIVIDUAL pricelist, or assigned through customer_pricelists; UNION counts each once. */
const holdsPricelist = (id: number): SQL =>
  sql`${customers.id} in (select customer_id from pricelists where id = ${id}
    union select customer_id from customer_pricelists where pricelist_id = ${id})`;

/** The page, its count and the pricelist's existence in one round trip; undefined if no such pricelist. */
export async function listPricelistCustomers(db: Db, id: number, list: ListRequest) {
  const where = and(holdsPricelist(id), list.where);
  const [rows, counted, found] = await db.batch([
    db
      .select(customerColumns)
      .from(customers)
      .where(where)
      .orderBy(...list.orderBy)
      .limit(list.limit)
      .offset(list.offset),
    db.select({ n: count() }).from(customers).where(where),
    db.select({ id: pricelists.id }).from(pricelists).where(eq(pricelists.id, id)),
  ]);
  return found.length ? { rows, total: counted[0]?.n ?? 0 } : undefined;
}

// ---- prices ----

const priceColumns = {
  productCode: products.code,
  minQuantity: pricelistPrices.minQuantity,
  amount: pricelistPrices.amount,
};

export async function listPrices(db: Db, id: number, list: ListRequest) {
  const where = and(eq(pricelistPrices.pricelistId, id), list.where);
  const [rows, counted, found] = await db.batch([
    db
      .select(priceColumns)
      .from(pricelistPrices)
      .innerJoin(products, eq(products.id, pricelistPrices.productId))
      .where(where)
      .orderBy(...list.orderBy)
      .limit(list.limit)
      .offset(list.offset),
    db
      .select({ n: count() })
      .from(pricelistPrices)
      .innerJoin(products, eq(products.id, pricelistPrices.productId))
      .where(where),
    db.select({ id: pricelists.id }).from(pricelists).where(eq(pricelists.id, id)),
  ]);
  return found.length ? { rows, total: counted[0]?.n ?? 0 } : undefined;
}

/**
 * What decides a price write, in one statement: the pricelist's scope and status, and which of
 * the product codes name no product (the codes travel as one JSON parameter).
 * Undefined if the pricelist does not exist.
 */
export async function checkPriceWrite(db: Db, id: number, productCodes: string[]) {
  const row = await db
    .select({
      status: pricelists.status,
      unknownCodes: sql<string>`(select json_group_array(value) from (select distinct value
        from json_each(${JSON.stringify(productCodes)})
        where value not in (select code from products) order by value))`,
    })
    .from(pricelists)
    .where(eq(pricelists.id, id))
    .get();
  return row && { status: row.status, unknownCodes: JSON.parse(row.unknownCodes) as string[] };
}

function isNotNullViolation(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (String((e as { message?: unknown }).message ?? e).includes("NOT NULL constraint failed"))
      return true;
  }
  return false;
}

/**
 * Upserts every row in ONE statement, so it is atomic by itself: INSERT … SELECT over
 * json_each(rows) with the product resolved by code. A product deleted since the check would
 * leave product_id NULL, which fails the whole statement instead of writing a partial sheet.
 * Returns the number of rows written, or undefined if the pricelist vanished meanwhile.
 */
export async function upsertPrices(db: Db, id: number, prices: PriceUpsertRow[]) {
  const rows = sql`json_each(${JSON.stringify(prices)}) as "row"`;
  const field = (name: string) => sql`json_extract("row"."value", ${"$." + name})`;
  try {
    const written = await db
      .insert(pricelistPrices)
      .select(
        db
          .select({
            pricelistId: sql<number>`${id}`.as("pricelist_id"),
            // Qualified by hand: Drizzle writes columns unqualified here, and json_each has an "id" too.
            productId: sql<number>`(select p.id from products p
              where p.code = ${field("productCode")})`.as("product_id"),
            minQuantity: sql<number>`${field("minQuantity")}`.as("min_quantity"),
            amount: sql<number>`${field("amount")}`.as("amount"),
          })
          .from(rows)
          // The WHERE keeps SQLite from reading ON CONFLICT as a join constraint.
          .where(sql`true`),
      )
      .onConflictDoUpdate({
        target: [
          pricelistPrices.pricelistId,
          pricelistPrices.productId,
          pricelistPrices.minQuantity,
        ],
        set: { amount: sql`excluded.amount` },
      })
      .returning({ productId: pricelistPrices.productId });
    return written.length;
  } catch (err) {
    if (isForeignKeyViolation(err)) return undefined;
    if (isNotNullViolation(err))
      throw conflict(`a product was deleted while the prices were written; nothing was written`);
    throw err;
  }
}
