import { sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { KeyedRow, TimelinePlan } from "../pricing/timeline";
import type { Status } from "../pricing/vocabulary";
import type { Db } from "./client";
import { insertRows, readFacts, rowField, rowsOf, STALE_FACTS, writeJudged } from "./bulk";
import { ALWAYS, pricelistPrices } from "./schema";

/*
 * Writes of price rows by timeline (docs/pricing-rules.md §17), the SQL half: the stored rows of
 * the products a write names, read in one statement whose text is also the guard of the write
 * batch (db/bulk.ts `writeJudged`: a concurrent change fails the batch, the caller judges again),
 * and the inserts and updates a plan (src/pricing/timeline.ts `planTimelines`) asks for, each one
 * statement over a JSON parameter whatever the number of rows.
 */

/** What decides a write of price rows to one pricelist. */
export interface PriceRowFacts {
  status: Status;
  /** Codes of the write that name no product, sorted. */
  unknownCodes: string[];
  /** The stored rows of the named products in the pricelist. */
  rows: KeyedRow[];
}

const codesJson = (codes: readonly string[]) => JSON.stringify([...new Set(codes)].sort());

/** The facts as ONE scalar JSON text (null: no such pricelist), re-read by the write's guard. */
const factsOf = (id: number, codes: string): SQL<string> => sql<string>`(select json_object(
    'status', p.status,
    'unknownCodes', (select json_group_array(value) from (select value from json_each(${codes})
      where value not in (select code from products) order by value)),
    'rows', (select json_group_array(json_object('productCode', r.code,
        'minQuantity', r.min_quantity, 'validFrom', r.valid_from, 'validTo', r.valid_to,
        'amount', r.amount))
      from (select pr.code, pp.min_quantity, pp.valid_from, pp.valid_to, pp.amount
        from pricelist_prices pp join products pr on pr.id = pp.product_id
        where pp.pricelist_id = p.id and pr.code in (select value from json_each(${codes}))
        order by pr.code, pp.min_quantity, coalesce(pp.valid_from, ${ALWAYS})) r))
  from pricelists p where p.id = ${id})`;

/** The facts of a write of `codes` to pricelist `id`; undefined when there is no such list. */
export async function readPriceRowFacts(db: Db, id: number, codes: readonly string[]) {
  const facts = factsOf(id, codesJson(codes));
  const { text, value } = await readFacts<PriceRowFacts | null>(db, facts);
  return value ? { facts, text, value } : undefined;
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
    writes.push(
      db
        .update(t)
        .set({ validTo: rowField("validTo"), amount: rowField("amount") } as never)
        .from(rowsOf(plan.updates.map((update) => update.after)))
        .where(
          sql`${t.pricelistId} = ${id} and ${t.productId} = ${productOfRow}
            and ${t.minQuantity} = ${rowField("minQuantity")}
            and coalesce(${t.validFrom}, ${ALWAYS}) = coalesce(${rowField("validFrom")}, ${ALWAYS})`,
        ),
    );
  }
  if (plan.inserts.length > 0) {
    writes.push(
      insertRows(db, pricelistPrices, plan.inserts, {
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
  writeJudged(db, read.facts, read.text, priceRowWrites(db, id, plan));

export { STALE_FACTS };
