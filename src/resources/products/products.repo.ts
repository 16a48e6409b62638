import { count, eq } from "drizzle-orm";
import { products } from "../../db/schema";
import { defineList, readPage, type ListRequest } from "../../list";
import { isForeignKeyViolation, isUniqueViolation, type Db } from "../../lib/db";
import { conflict } from "../../lib/errors";
import { iso } from "../../lib/schemas";
import type { ProductCreate, ProductUpdate } from "./products.schemas";

type ProductRow = typeof products.$inferSelect;

export const toProduct = (row: ProductRow) => ({
  id: row.id,
  code: row.code,
  name: row.name,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});

export const productList = defineList({
  fields: {
    id: { column: products.id, type: "number", sortable: true },
    code: { column: products.code, type: "text", searchable: true },
  },
  selectable: ["id", "code", "name", "createdAt", "updatedAt"],
});

export function listProducts(db: Db, list: ListRequest) {
  return readPage(
    db,
    db
      .select()
      .from(products)
      .where(list.where)
      .orderBy(...list.orderBy)
      .limit(list.limit)
      .offset(list.offset),
    db.select({ n: count() }).from(products).where(list.where),
  );
}

export const findProduct = (db: Db, code: string) =>
  db.select().from(products).where(eq(products.code, code)).get();

const duplicate = (err: unknown, code: string | undefined) =>
  isUniqueViolation(err) ? conflict(`product code ${code} already exists`) : err;

export async function createProduct(db: Db, input: ProductCreate) {
  try {
    return await db.insert(products).values(input).returning().get();
  } catch (err) {
    throw duplicate(err, input.code);
  }
}

export async function updateProduct(db: Db, code: string, input: ProductUpdate) {
  try {
    return await db
      .update(products)
      .set({ ...input, updatedAt: Date.now() })
      .where(eq(products.code, code))
      .returning()
      .get();
  } catch (err) {
    throw duplicate(err, input.code);
  }
}

export async function deleteProduct(db: Db, code: string) {
  try {
    return await db
      .delete(products)
      .where(eq(products.code, code))
      .returning({ id: products.id })
      .get();
  } catch (err) {
    if (!isForeignKeyViolation(err)) throw err;
    throw conflict(
      `product ${code} still has prices or is named by a trade condition or promotion`,
    );
  }
}
