import { sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { KeyedRow, TimelinePlan } from "../pricing/timeline";
import type { Status } from "../pricing/vocabulary";
import { errorMentions, isForeignKeyViolation, rawBatch, type Db } from "./client";
import { FOREIGN_KEY } from "./outcomes";
import { insertRows, rowField, rowsOf } from "./bulk";
import { factRows, readFacts, STALE_FACTS, writeJudged } from "./bulk-facts";
import { jsonChunks } from "./chunks";
import { ALWAYS, pricelistPrices } from "./schema";

/*
 * Writes of price rows by timeline (docs/pricing-rules.md §17), the SQL half: the stored rows of
 * the products a write names, read as bulk facts (db/bulk-facts.ts: the write batch's guards read
 * them again and fail the batch when they changed, the caller judges again), and the inserts and
 * updates a plan (src/pricing/timeline.ts `planTimelines`) asks for, one statement per chunk of
 * rows (db/chunks.ts).
 */

/** What decides a write of price rows to one pricelist, as `readFacts` parts. */
interface PriceRowParts {
  /** The pricelist (none: no such list). */
  list: { status: Status }[];
  /** Codes of the write that name no product. */
  unknownCodes: string[];
  /** The stored rows of the named products in the pricelist. */
  rows: KeyedRow[];
}

/** What decides a write of price rows to one pricelist. */
export interface PriceRowFacts {
  status: Status;
  unknownCodes: string[];
  rows: KeyedRow[];
}

/** The facts of a write of `codes` to pricelist `id`, read in one statement. */
const partsOf = (id: number, codes: readonly string[]) => {
  const named = sql`(select value from json_each(${JSON.stringify([...new Set(codes)])}))`;
  return {
    list: sql`select json_object('status', p.status) as fact from pricelists p where p.id = ${id}`,
    unknownCodes: sql`select json_quote(value) as fact from ${named}
      where value not in (select code from products)`,
    rows: factRows(
      sql`pricelist_prices pp join products pr on pr.id = pp.product_id`,
      {
        productCode: sql`pr.code`,
        minQuantity: sql`pp.min_quantity`,
        validFrom: sql`pp.valid_from`,
        validTo: sql`pp.valid_to`,
        amount: sql`pp.amount`,
        priceUnit: sql`pp.price_unit`,
      },
      sql`pp.pricelist_id = ${id} and pr.code in ${named}`,
    ),
  };
};

/** The facts of a write of `codes` to pricelist `id`; undefined when there is no such list. */
export async function readPriceRowFacts(db: Db, id: number, codes: readonly string[]) {
  const read = await readFacts<PriceRowParts>(db, partsOf(id, codes));
  const [list] = read.value.list;
  if (!list) return undefined;
  const value: PriceRowFacts = {
    status: list.status,
    unknownCodes: [...read.value.unknownCodes].sort(),
    rows: read.value.rows,
  };
  return { read, value };
}

export type ReadPriceRowFacts = NonNullable<Awaited<ReturnType<typeof readPriceRowFacts>>>;

/** The product of the JSON row, by its code. */
const productOfRow = sql`(select p.id from products p where p.code = ${rowField("productCode")})`;

/** The statements of `plan` on pricelist `id` (none for an empty plan). */
export function priceRowWrites(db: Db, id: number, plan: TimelinePlan): BatchItem<"sqlite">[] {
  const writes: BatchItem<"sqlite">[] = [];
  if (plan.updates.length > 0) {
    // One UPDATE … FROM over the changed rows, matched by key; the stored values they were
    // judged on are in the guard's facts.
    const t = pricelistPrices;
    for (const json of jsonChunks(plan.updates.map((update) => update.after))) {
      writes.push(
        db
          .update(t)
          .set({
            validTo: rowField("validTo"),
            amount: rowField("amount"),
            priceUnit: rowField("priceUnit"),
          } as never)
          .from(rowsOf(json))
          .where(
            sql`${t.pricelistId} = ${id} and ${t.productId} = ${productOfRow}
              and ${t.minQuantity} = ${rowField("minQuantity")}
              and coalesce(${t.validFrom}, ${ALWAYS}) = coalesce(${rowField("validFrom")}, ${ALWAYS})`,
          ),
      );
    }
  }
  if (plan.inserts.length > 0) {
    writes.push(
      ...insertRows(db, pricelistPrices, plan.inserts, {
        pricelistId: sql`${id}`,
        productId: productOfRow,
      }),
    );
  }
  return writes;
}

/**
 * Writes `plan` in one batch guarded by the facts it was judged on: STALE_FACTS when they
 * changed meanwhile (nothing written), else undefined.
 */
export const writePriceRows = (
  db: Db,
  id: number,
  read: ReadPriceRowFacts,
  plan: TimelinePlan,
): Promise<typeof STALE_FACTS | undefined> =>
  writeJudged(db, read.read, priceRowWrites(db, id, plan));

export { STALE_FACTS };

/** A price write that found a product deleted after the check that resolved its code. */
export const PRODUCT_GONE = Symbol("product gone");

/**
 * Undated rows without a `validTo` (a price sheet as ERPs send it every night) in ONE statement,
 * atomic by itself and needing no judged read: by the timeline rules such a row replaces the
 * undated row of its product and tier (or is added) and ends where the first dated row of the
 * timeline begins, which the statement reads itself, so it can never overlap and concurrent
 * sheets cannot tear (the last one wins). A row already as written is not rewritten. A product
 * deleted since the caller's check leaves product_id null, which fails the whole statement:
 * PRODUCT_GONE; a pricelist deleted meanwhile: FOREIGN_KEY.
 */
export async function writeUndatedRows(
  db: Db,
  id: number,
  rows: readonly { productCode: string; minQuantity: number; amount: number; priceUnit: number }[],
) {
  const product = sql`(select p.id from products p where p.code = ${rowField("productCode")})`;
  const statements = jsonChunks(rows).map(
    (json) => sql`insert into pricelist_prices
        (pricelist_id, product_id, min_quantity, valid_from, valid_to, amount, price_unit)
      select ${id}, ${product}, ${rowField("minQuantity")}, null,
        (select min(x.valid_from) from pricelist_prices x where x.pricelist_id = ${id}
          and x.product_id = ${product} and x.min_quantity = ${rowField("minQuantity")}
          and x.valid_from is not null),
        ${rowField("amount")}, ${rowField("priceUnit")}
      from ${rowsOf(json)} where true
      on conflict (pricelist_id, product_id, min_quantity, coalesce(valid_from, ${sql.raw(String(ALWAYS))}))
      do update set amount = excluded.amount, valid_to = excluded.valid_to,
          price_unit = excluded.price_unit
        where pricelist_prices.amount is not excluded.amount
          or pricelist_prices.valid_to is not excluded.valid_to
          or pricelist_prices.price_unit is not excluded.price_unit`,
  );
  try {
    await rawBatch(db, statements);
    return rows.length;
  } catch (err) {
    if (isForeignKeyViolation(err)) return FOREIGN_KEY;
    if (errorMentions(err, "NOT NULL constraint failed")) return PRODUCT_GONE;
    throw err;
  }
}
