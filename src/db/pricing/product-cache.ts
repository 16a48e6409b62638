import type { PriceRow, ProductFacts } from "../../pricing";
import type { Db } from "../client";
import { IsolateCache, type CacheBounds } from "../isolate-cache";
import type { RequestPart } from "./lookup";
import { loadProducts } from "./products";

/**
 * The isolate's product cache (docs/performance.md "The caches"): per product code, its
 * facts (quantity rule, group path; null: no such product) and its price rows in each list a
 * lookup has needed (an empty array: known to have none), all of one pricing data version. With
 * both contexts cached, a lookup reads only the version and what this cache lacks, in one round
 * trip; a storefront asks for the same products again and again, so a warm lookup reads the
 * version alone. Kept exact the way the contexts are: used only when the lookup's own batch reads
 * the version the entries were read at; a new version empties it.
 */

interface ProductEntry {
  facts: ProductFacts | null;
  /** Rows by list id, for the lists read so far. */
  rows: Map<number, PriceRow[]>;
  /**
   * Its rows in each list a lookup asked for, in that lookup's order, and those lists' ids
   * joined (`rowsIn`): a warm cart asks for the same lists again and finds its rows without a
   * look-up per list.
   */
  listed?: { key: string; rows: readonly PriceRow[][] };
}

/**
 * At most 40,000 products and 150,000 rows (facts and list rows; some 60-100 bytes each with the
 * maps, so 15 MB at worst beside the contexts' 56 MB, under two thirds of an isolate's 128 MB;
 * besides, each product's `listed`, one small array of the rows' lists).
 * A product of the 100k bench data holds 2-3 rows of a channel's and a customer's lists, so some
 * 40,000 products fit: a storefront's busy part of the catalogue.
 */
export const PRODUCT_CACHE_BOUNDS: CacheBounds = {
  maxEntries: 40_000,
  maxWeight: 150_000,
  maxEntryWeight: 2_000,
};

const cache = new IsolateCache<ProductEntry>(PRODUCT_CACHE_BOUNDS);
/** The version every entry was read at. */
let cachedVersion = -1;

/** Empties the cache (tests). */
export function clearProductCache() {
  cache.clear();
  cachedVersion = -1;
}

const weightOf = (entry: ProductEntry) => {
  let rows = 1;
  for (const list of entry.rows.values()) rows += list.length;
  return rows;
};

/**
 * An entry's rows in each of `listIds` (`key`: the ids joined), in their order; undefined when it
 * lacks one. Rows of one version never change, so what was found is kept on the entry.
 */
function rowsIn(entry: ProductEntry, listIds: readonly number[], key: string) {
  if (entry.listed?.key === key) return entry.listed.rows;
  const rows: PriceRow[][] = [];
  for (const id of listIds) {
    const list = entry.rows.get(id);
    if (!list) return undefined;
    rows.push(list);
  }
  entry.listed = { key, rows };
  return rows;
}

/** Whether a known product's entry lacks the rows of one of `listIds` (`key`: joined). */
const lacksList = (entry: ProductEntry, listIds: readonly number[], key: string) =>
  entry.facts !== null && !rowsIn(entry, listIds, key);

/** Rows by list id, then by product code. */
function byListAndProduct(rows: Iterable<[number, readonly PriceRow[]]>) {
  const out = new Map<string, Map<number, PriceRow[]>>();
  for (const [id, list] of rows) {
    for (const row of list) {
      let lists = out.get(row.productCode);
      if (!lists) out.set(row.productCode, (lists = new Map()));
      const held = lists.get(id);
      if (held) held.push(row);
      else lists.set(id, [row]);
    }
  }
  return out;
}

/**
 * The entries of `codes` after a read: `facts` for the codes whose facts were read (absent: no
 * such product), the `rows` of `listIds` for the codes whose rows were read, the `held` entries
 * (as the cache held them before the read, data of the same version, at the codes' positions)
 * for the others. What was read is kept (unless too heavy).
 */
function merge(
  codes: readonly string[],
  held: readonly (ProductEntry | undefined)[],
  read: { facts?: ReadonlyMap<string, ProductFacts>; factCodes: ReadonlySet<string> },
  rows: { codes: ReadonlySet<string>; byList: Iterable<[number, readonly PriceRow[]]> },
  listIds: readonly number[],
) {
  const readRows = byListAndProduct(rows.byList);
  return codes.map((code, i) => {
    const fresh = read.factCodes.has(code);
    const entry = (fresh ? undefined : held[i]) ?? {
      facts: read.facts?.get(code) ?? null,
      rows: new Map(),
    };
    const withRows = entry.facts !== null && rows.codes.has(code);
    if (withRows) {
      const lists = readRows.get(code);
      for (const id of listIds) entry.rows.set(id, lists?.get(id) ?? []);
    }
    if (fresh || withRows) cache.set(code, entry, weightOf(entry));
    return entry;
  });
}

/** Keeps what a lookup read of `codes` at `version` with every list of `listIds` (a full read). */
export function rememberProducts(
  version: number,
  codes: readonly string[],
  part: Pick<RequestPart, "products" | "prices">,
  listIds: readonly number[],
) {
  if (version !== cachedVersion) {
    cache.clear();
    cachedVersion = version;
  }
  const all = new Set(codes);
  merge(
    codes,
    [],
    { facts: part.products, factCodes: all },
    { codes: all, byList: part.prices },
    listIds,
  );
}

/** The request part of `codes` from their entries (at the same positions); `key`: `listIds` joined. */
function partOf(
  { version, seenVersion }: { version: number; seenVersion: number },
  codes: readonly string[],
  entries: readonly ProductEntry[],
  listIds: readonly number[],
  key: string,
): RequestPart {
  const products = new Map<string, ProductFacts>();
  // Each list's rows at its position in `listIds`: no look-up of the list per product.
  const lists = listIds.map((): PriceRow[] => []);
  for (let i = 0; i < codes.length; i++) {
    const entry = entries[i]!;
    if (!entry.facts) continue;
    products.set(codes[i]!, entry.facts);
    const rows = rowsIn(entry, listIds, key)!;
    for (let at = 0; at < rows.length; at++) {
      const held = rows[at]!;
      for (let r = 0; r < held.length; r++) lists[at]!.push(held[r]!);
    }
  }
  const prices = new Map<number, PriceRow[]>();
  for (let at = 0; at < listIds.length; at++) {
    if (lists[at]!.length > 0) prices.set(listIds[at]!, lists[at]!);
  }
  return { version, seenVersion, products, prices };
}

/**
 * The request's part for `codes` with the rows of `listIds`: ONE round trip that reads the
 * version and what the cache lacks (nothing else when it lacks nothing). Undefined when the data
 * is no longer of `version` (the caller reads everything again).
 */
export async function loadProductPart(
  db: Db,
  version: number,
  codes: readonly string[],
  listIds: readonly number[],
): Promise<RequestPart | undefined> {
  if (version !== cachedVersion) {
    cache.clear();
    cachedVersion = version;
  }
  // One look at the cache per code (a look moves the entry to the front of the LRU order).
  const held: (ProductEntry | undefined)[] = [];
  const key = listIds.join();
  const factCodes: string[] = [];
  const rowCodes: string[] = [];
  for (const code of codes) {
    const entry = cache.get(code);
    held.push(entry);
    if (!entry) factCodes.push(code);
    // Rows of a product it knows: those of every list asked for; of a product not known: all.
    if (!entry || lacksList(entry, listIds, key)) rowCodes.push(code);
  }
  const read = await loadProducts(db, { factCodes, rowCodes, listIds });
  // The data moved on, or another lookup moved the cache to another version meanwhile.
  if (read.version !== version || cachedVersion !== version) return undefined;
  const byList = new Map<number, PriceRow[]>();
  for (const { pricelistId, ...row } of read.rows) {
    const list = byList.get(pricelistId);
    if (list) list.push(row);
    else byList.set(pricelistId, [row]);
  }
  // Nothing read (a warm cart): the held entries are the request's, in the order of `codes`.
  const entries =
    factCodes.length === 0 && rowCodes.length === 0
      ? (held as ProductEntry[])
      : merge(
          codes,
          held,
          { facts: read.products, factCodes: new Set(factCodes) },
          { codes: new Set(rowCodes), byList },
          listIds,
        );
  return partOf(read, codes, entries, listIds, key);
}

/**
 * The request's part for `codes` from the cache alone, without a round trip: only when the cache
 * is of `version` and holds every code (its facts, and for a product that exists the rows of
 * every list of `listIds`); else undefined. What answers a lookup through a D1 stall
 * (reader.ts `heldContext`).
 */
export function heldProductPart(
  versions: { version: number; seenVersion: number },
  codes: readonly string[],
  listIds: readonly number[],
): RequestPart | undefined {
  if (versions.version !== cachedVersion) return undefined;
  const key = listIds.join();
  const entries: ProductEntry[] = [];
  for (const code of codes) {
    const entry = cache.get(code);
    if (!entry || lacksList(entry, listIds, key)) return undefined;
    entries.push(entry);
  }
  return partOf(versions, codes, entries, listIds, key);
}
