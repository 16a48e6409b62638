import { and, count, eq, getTableColumns, sql, type SQL } from "drizzle-orm";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { products, rowCounts } from "../../db/schema";
import { readPage, type ListConfig, type ListRequest } from "../../list";
import type { ListQuery } from "../../list/parse";
import { toOrderBy, toWhere } from "../../list/sql";
import { unlessForeignKey } from "../../db/outcomes";
import { isUniqueViolation, type Db } from "../../lib/db";
import { conflict } from "../../lib/errors";
import { iso } from "../../lib/schemas";
import { productList } from "./products.list";
import type { ProductCreate, ProductUpdate } from "./products.schemas";

type ProductRow = typeof products.$inferSelect;

export const toProduct = (row: ProductRow) => ({
  id: row.id,
  code: row.code,
  name: row.name,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});

/**
 * The trigram index of migration 0001 (contentless FTS5 over lower(code), lower(name)). Declared
 * here, not in src/db/schema: drizzle-kit cannot create virtual tables, the migration does.
 */
const productsSearch = sqliteTable("products_search", {
  rowid: integer("rowid").notNull(),
  code: text("code"),
  name: text("name"),
});

/** A trigram needs three characters; shorter terms fall back to the engine's instr scan. */
export const MIN_INDEXED_TERM = 3;

/**
 * The search as an FTS5 MATCH, when the index can answer it exactly: a phrase of the lower()-ed
 * term (quotes doubled, so nothing in it is FTS syntax) restricted to the searchBy columns. The
 * index holds lower()-ed text case-sensitively, so this finds exactly the rows where
 * instr(lower(column), lower(term)) > 0 — the same case folding (SQLite's) on both sides.
 * A NUL would end the FTS expression early; such terms take the scan.
 */
export function searchMatch(query: ListQuery): SQL | undefined {
  const term = query.search;
  if (term === undefined || [...term].length < MIN_INDEXED_TERM || term.includes("\0")) {
    return undefined;
  }
  // searchBy holds validated field names, which are the index's column names.
  const columns = `{${query.searchBy.join(" ")}} : `;
  return sql`${productsSearch} match (${columns} || '"' || replace(lower(${term}), '"', '""') || '"')`;
}

// With the index, id sorts by the index's rowid (= products.id), which FTS5 delivers in order:
// a page of a common term stops after `limit` rows instead of sorting every match.
const indexedOrder: ListConfig = {
  ...productList.config,
  fields: {
    ...productList.config.fields,
    id: { ...productList.config.fields.id!, column: productsSearch.rowid },
  },
};

export function listProducts(db: Db, list: ListRequest) {
  const match = searchMatch(list.query);
  if (!match) {
    return readPage(
      db,
      db
        .select()
        .from(products)
        .where(list.where)
        .orderBy(...list.orderBy)
        .limit(list.limit)
        .offset(list.offset),
      list.where
        ? db.select({ n: count() }).from(products).where(list.where)
        : // The whole catalogue: its size is kept by triggers (migration 0003), not counted.
          db.select({ n: rowCounts.n }).from(rowCounts).where(eq(rowCounts.tableName, "products")),
    );
  }
  // Conditions other than the search (products have none today) still apply, after the MATCH.
  const where = and(match, toWhere(productList.config, { ...list.query, search: undefined }));
  const onProduct = eq(products.id, productsSearch.rowid);
  return readPage(
    db,
    db
      .select(getTableColumns(products))
      .from(productsSearch)
      .innerJoin(products, onProduct)
      .where(where)
      .orderBy(...toOrderBy(indexedOrder, list.query))
      .limit(list.limit)
      .offset(list.offset),
    // With the search alone, the index counts the matches without reading a product row.
    list.query.filters.length
      ? db.select({ n: count() }).from(productsSearch).innerJoin(products, onProduct).where(where)
      : db.select({ n: count() }).from(productsSearch).where(match),
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

/** Prices, trade conditions and promotions restrict: FOREIGN_KEY while one still names it. */
export const deleteProduct = (db: Db, code: string) =>
  unlessForeignKey(() =>
    db.delete(products).where(eq(products.code, code)).returning({ id: products.id }).get(),
  );
