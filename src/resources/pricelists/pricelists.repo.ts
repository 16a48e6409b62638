import { and, count, eq, sql, type SQL } from "drizzle-orm";
import { codeLink, defineLinks } from "../../db/links";
import { FOREIGN_KEY, unlessForeignKey } from "../../db/outcomes";
import {
  customerColumns,
  ownerJoin,
  pricelistColumns,
  selectPricelist,
  type PricelistRow,
} from "../../db/reads";
import {
  customerGroupPricelists,
  customerGroups,
  customers,
  pricelistPrices,
  pricelists,
  products,
} from "../../db/schema";
import { writeVersioned } from "../../db/writes";
import { readPage, type ListRequest } from "../../list";
import { isForeignKeyViolation, type Db } from "../../lib/db";
import { iso, isoOrNull } from "../../lib/schemas";
import {
  type IndividualPricelistCreate,
  type PriceUpsertRow,
  type PricelistCreate,
  type PricelistUpdate,
} from "./pricelists.schemas";

export type { PricelistRow };

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

export const findPricelist = async (db: Db, id: number): Promise<PricelistRow | undefined> =>
  (await selectPricelist(db, id))[0];

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

/** FOREIGN_KEY when the customer was deleted after its check. */
export const createIndividualPricelist = (
  db: Db,
  customerId: number,
  { customerCode, ...input }: IndividualPricelistCreate,
) =>
  unlessForeignKey(async (): Promise<PricelistRow> => {
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
  });

/** Writes over the version the checks judged; CHANGED if another request wrote or deleted first. */
export const updatePricelist = (db: Db, current: PricelistRow, input: PricelistUpdate) =>
  writeVersioned<PricelistRow>(db, pricelists, current, {
    set: input,
    readBack: selectPricelist(db, current.id),
  });

export const findPricelistId = async (db: Db, id: number) =>
  (await db.select({ id: pricelists.id }).from(pricelists).where(eq(pricelists.id, id)).get())?.id;

/**
 * The pricelist's links, assigned and unassigned by code: customer groups (counterpart of seed
 * endpoint 7), and price rows by product code, so a bulk delete of prices is an unassign.
 */
export const pricelistLinks = defineLinks(pricelists.id, {
  customerGroupCodes: codeLink(
    customerGroupPricelists.pricelistId,
    customerGroupPricelists.customerGroupId,
    customerGroups,
    "customer group",
  ),
  productCodes: codeLink(
    pricelistPrices.pricelistId,
    pricelistPrices.productId,
    products,
    "product",
  ),
});

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

/** A price write that found a product deleted after the check that resolved its code. */
export const PRODUCT_GONE = Symbol("product gone");

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
 * A row already at its amount is not rewritten, so re-sending an unchanged sheet writes nothing:
 * no audit entry, no new pricing version (price ETags stay valid). Returns the number of rows of
 * the body (all now stored with their amounts), FOREIGN_KEY if the pricelist vanished meanwhile,
 * or PRODUCT_GONE if a product did.
 */
export async function upsertPrices(db: Db, id: number, prices: PriceUpsertRow[]) {
  const rows = sql`json_each(${JSON.stringify(prices)}) as "row"`;
  const field = (name: string) => sql`json_extract("row"."value", ${"$." + name})`;
  try {
    await db
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
        setWhere: sql`${pricelistPrices.amount} is not excluded.amount`,
      })
      .run();
    return prices.length;
  } catch (err) {
    if (isForeignKeyViolation(err)) return FOREIGN_KEY;
    if (isNotNullViolation(err)) return PRODUCT_GONE;
    throw err;
  }
}
