import { and, count, eq, getTableColumns, sql, type SQL } from "drizzle-orm";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { blockersOf } from "../../db/blockers";
import {
  pricelistPrices,
  products,
  promotionProducts,
  rowCounts,
  tradeConditionProducts,
} from "../../db/schema";
import { readPage, type ListConfig, type ListRequest } from "../../list";
import type { ListQuery } from "../../list/parse";
import { toOrderBy, toWhere } from "../../list/sql";
import { fromRow, insertRows, updateByCode } from "../../db/bulk";
import { rowsByCode, type FactParts } from "../../db/bulk-facts";
import { unlessForeignKey } from "../../db/outcomes";
import type { RefFacts, RefIds } from "../../db/refs";
import { writeVersioned } from "../../db/writes";
import { isUniqueViolation, type Db } from "../../db/client";
import { conflict } from "../../core/errors";
import { iso } from "../../core/schemas";
import { productList, productRefs } from "./products.list";
import type { ProductCreate, ProductUpdate, ProductUpsert } from "./products.schemas";

/** A product row as read: its columns and, for each foreign key by code, the target's code. */
export type ProductRow = typeof products.$inferSelect &
  Record<(typeof productRefs.fields)[number], string | null>;

const productColumns = { ...getTableColumns(products), ...productRefs.columns };

/** A product as the API shows it: the records it names by code after its name. */
export const toProduct = (row: ProductRow) => ({
  id: row.id,
  code: row.code,
  name: row.name,
  ...productRefs.codesOf(row),
  minOrderQuantity: row.minOrderQuantity,
  orderIncrement: row.orderIncrement,
  maxOrderQuantity: row.maxOrderQuantity,
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

const onProduct = eq(products.id, productsSearch.rowid);

/** The count of the rows `where` keeps, from the index or the table. */
function counted(db: Db, where: SQL | undefined, indexed: boolean) {
  return indexed
    ? db.select({ n: count() }).from(productsSearch).innerJoin(products, onProduct).where(where)
    : db.select({ n: count() }).from(products).where(where);
}

/** The page of the rows `where` keeps, from the index or the table. */
function pageOf(db: Db, list: ListRequest, where: SQL | undefined, indexed: boolean) {
  const from = indexed
    ? db.select(productColumns).from(productsSearch).innerJoin(products, onProduct).$dynamic()
    : db.select(productColumns).from(products).$dynamic();
  return from
    .where(where)
    .orderBy(...(indexed ? toOrderBy(indexedOrder, list.query) : list.orderBy))
    .limit(list.limit)
    .offset(list.offset);
}

export function listProducts(db: Db, list: ListRequest) {
  const match = searchMatch(list.query);
  if (!match) {
    return readPage(
      db,
      pageOf(db, list, list.where, false),
      list.where
        ? counted(db, list.where, false)
        : // The whole catalogue: its size is kept by triggers (migration 0003), not counted.
          db.select({ n: rowCounts.n }).from(rowCounts).where(eq(rowCounts.tableName, "products")),
    );
  }
  // Conditions other than the search (the group filter) still apply, after the MATCH.
  const where = and(match, toWhere(productList.config, { ...list.query, search: undefined }));
  return readPage(
    db,
    pageOf(db, list, where, true),
    // With the search alone, the index counts the matches without reading a product row.
    list.query.filters.length
      ? counted(db, where, true)
      : db.select({ n: count() }).from(productsSearch).where(match),
  );
}

const selectProduct = (db: Db) => db.select(productColumns).from(products);

export const findProduct = (db: Db, code: string) =>
  selectProduct(db).where(eq(products.code, code)).get();

const duplicate = (err: unknown, code: string | undefined) =>
  isUniqueViolation(err) ? conflict(`product code ${code} already exists`) : err;

/** The product's columns as a write stores them: the foreign keys by id. */
export type ProductValues = Omit<ProductCreate, (typeof productRefs.fields)[number]> &
  RefIds<typeof productRefs.refs>;

/** One statement; FOREIGN_KEY when the group was deleted after the read that resolved it. */
export async function createProduct(db: Db, values: ProductValues) {
  try {
    return await unlessForeignKey(() => db.insert(products).values(values).returning().get());
  } catch (err) {
    throw duplicate(err, values.code);
  }
}

/** One round trip: the stored product and the ids of the records the body names by code. */
export async function readForUpdate(db: Db, code: string, input: ProductUpdate) {
  const [[current], ...found] = await db.batch([
    selectProduct(db).where(eq(products.code, code)),
    ...productRefs.lookups(db, input),
  ]);
  return { current, refs: productRefs.resolve(input, found) };
}

/**
 * Writes over the version the checks judged (db/writes.ts): CHANGED if another write came
 * first, FOREIGN_KEY if the group was deleted meanwhile.
 */
export async function updateProduct(db: Db, current: ProductRow, set: Partial<ProductValues>) {
  try {
    return await writeVersioned<ProductRow>(db, products, current, {
      set,
      readBack: selectProduct(db).where(eq(products.id, current.id)),
    });
  } catch (err) {
    throw duplicate(err, set.code);
  }
}

/** Prices, trade conditions and promotions restrict: FOREIGN_KEY while one still names it. */
export const deleteProduct = (db: Db, code: string) =>
  unlessForeignKey(() =>
    db.delete(products).where(eq(products.code, code)).returning({ id: products.id }).get(),
  );

/** What names a product and so keeps it from being deleted; pricelists by their price rows. */
export const readProductBlockers = blockersOf(products, [
  {
    kind: "pricelist",
    noun: "pricelist",
    column: pricelistPrices.productId,
    shown: pricelistPrices.pricelistId,
  },
  {
    kind: "tradeCondition",
    noun: "trade condition",
    column: tradeConditionProducts.productId,
    shown: tradeConditionProducts.tradeConditionId,
  },
  {
    kind: "promotion",
    noun: "promotion",
    column: promotionProducts.productId,
    shown: promotionProducts.promotionId,
  },
]);

// ---- bulk upserts by code (docs/api/relations.md §5.12) ----

/** A product as a bulk upsert judges and writes it: its own columns, the foreign keys by id. */
const {
  id: _id,
  createdAt: _created,
  updatedAt: _updated,
  ...recordColumns
} = getTableColumns(products);
export type ProductRecord = Omit<typeof products.$inferSelect, "id" | "createdAt" | "updatedAt">;

/** What a bulk upsert is judged on: the stored products of its codes, and what its rows name by code. */
export type ProductFacts = { stored: ProductRecord[] } & RefFacts<typeof productRefs.refs>;

export const productFacts = (rows: ProductUpsert[]): FactParts => ({
  stored: rowsByCode(
    products,
    recordColumns,
    rows.map((row) => row.code),
  ),
  ...productRefs.facts(rows),
});

/** The inserts of the new products and the updates of the changed ones, a statement per chunk. */
export const productWrites = (db: Db, created: ProductRecord[], updated: ProductRecord[]) => [
  ...insertRows(db, products, created),
  ...updateByCode(db, products, updated, fromRow(Object.keys(recordColumns))),
];
