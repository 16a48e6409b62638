import { sql } from "drizzle-orm";
import type { PriceRow, ProductFacts } from "../../pricing";
import type { Db } from "../client";
import { bindStatements, decodedBatch, statement } from "../rows";
import { priceColumns, productFacts } from "./columns";
import { productsStatement, versionsOf, versionStatement } from "./lookup";
import { fragments } from "./reach";
import { SEES_NO_COSTS } from "../visibility";

/*
 * A lookup's products when both contexts are cached: the reader knows, in memory, which lists
 * can price (reach.ts `priceListIds`), so it reads only the facts and rows its product cache
 * lacks (product-cache.ts), by code and list id, with the version.
 */

/** What a lookup reads of its products: facts of `factCodes`, rows of `rowCodes` in `listIds`. */
export interface ProductRead {
  factCodes: readonly string[];
  rowCodes: readonly string[];
  listIds: readonly number[];
}

const productRead = {
  rowCodes: sql.placeholder("rowCodes"),
  listIds: sql.placeholder("listIds"),
};

/** The rows of some products in some lists, each by its key (product, list, tier). */
const listRowsStatement = statement(
  priceColumns,
  sql`from pricelist_prices pp join products pr on pr.id = pp.product_id
    where pr.code in (select value from json_each(${productRead.rowCodes}))
      and pp.pricelist_id in (select value from json_each(${productRead.listIds}))`,
);

// The products statement reads no pricelist and no condition: any scope gives the same SQL.
const PRODUCT_PART = [
  versionStatement,
  productsStatement(fragments(false, SEES_NO_COSTS)),
] as const;

/** What `loadProducts` read, all of the data of `version`. */
export interface ProductPart {
  version: number;
  seenVersion: number;
  /** The facts of the `factCodes` that exist; the others are no product. */
  products: Map<string, ProductFacts>;
  /** The rows of `rowCodes` in `listIds`. */
  rows: (PriceRow & { pricelistId: number })[];
}

/** The version, and what `read` asks for: ONE round trip, two statements fewer when nothing is. */
export async function loadProducts(db: Db, read: ProductRead): Promise<ProductPart> {
  const values = {
    productCodes: JSON.stringify(read.factCodes),
    rowCodes: JSON.stringify(read.rowCodes),
    listIds: JSON.stringify(read.listIds),
  };
  const [version, facts] = bindStatements(PRODUCT_PART, values);
  const [versionRows, factRows, rows] = await decodedBatch(db, [
    version,
    read.factCodes.length > 0 ? facts : null,
    read.rowCodes.length > 0 && read.listIds.length > 0
      ? bindStatements([listRowsStatement], values)[0]
      : null,
  ]);
  return {
    ...versionsOf(versionRows),
    products: productFacts(factRows),
    rows,
  };
}
