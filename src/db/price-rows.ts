import { eq, lt, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { alias } from "drizzle-orm/sqlite-core";
import { nextTurn } from "../core/steps";
import type { TargetLists } from "../pricing/targeting";
import type { KeyedRow, TimelinePlan } from "../pricing/timeline";
import type { Status, TierMode } from "../pricing/vocabulary";
import { errorMentions, isForeignKeyViolation, rawBatch, type Db } from "./client";
import { FOREIGN_KEY } from "./outcomes";
import { CHANGED } from "./optimistic";
import { insertRows, rowField, rowsOf } from "./bulk";
import { factRows, readFacts, STALE_FACTS, staleUnless, writeJudged } from "./bulk-facts";
import { jsonChunks } from "./chunks";
import { ALWAYS, changeRequestAttempts, changeRequestWrites, pricelistPrices } from "./schema";
import { int, nullableInt, select, statement, text } from "./rows";
import { READ_DIMENSIONS } from "./pricing/reach";

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
  list: { status: Status; tierMode: TierMode }[];
  /** Codes of the write that name no product. */
  unknownCodes: string[];
  /** The stored rows of the named products in the pricelist. */
  rows: KeyedRow[];
}

/** What decides a write of price rows to one pricelist. */
export interface PriceRowFacts {
  status: Status;
  tierMode: TierMode;
  unknownCodes: string[];
  rows: KeyedRow[];
}

/** The facts of a write of `codes` to pricelist `id`, read in one statement. */
const partsOf = (id: number, codes: readonly string[]) => {
  const named = sql`(select value from json_each(${JSON.stringify([...new Set(codes)])}))`;
  return {
    list: sql`select json_object('status', p.status, 'tierMode', p.tier_mode) as fact
      from pricelists p where p.id = ${id}`,
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
        flatAmount: sql`pp.flat_amount`,
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
    tierMode: list.tierMode,
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
            flatAmount: rowField("flatAmount"),
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
 * PRODUCT_GONE; a pricelist deleted meanwhile: FOREIGN_KEY. The statement writes only while
 * `guard` (the pricelist's state the caller checked: not ARCHIVED) holds, read again in the same
 * batch: CHANGED when it failed and nothing was written (the caller judges again).
 */
export async function writeUndatedRows(
  db: Db,
  id: number,
  rows: readonly {
    productCode: string;
    minQuantity: number;
    amount: number;
    priceUnit: number;
    flatAmount: number;
  }[],
  guard: SQL,
) {
  const product = sql`(select p.id from products p where p.code = ${rowField("productCode")})`;
  const statements = jsonChunks(rows).map(
    (json) => sql`insert into pricelist_prices
        (pricelist_id, product_id, min_quantity, valid_from, valid_to, amount, price_unit,
          flat_amount)
      select ${id}, ${product}, ${rowField("minQuantity")}, null,
        (select min(x.valid_from) from pricelist_prices x where x.pricelist_id = ${id}
          and x.product_id = ${product} and x.min_quantity = ${rowField("minQuantity")}
          and x.valid_from is not null),
        ${rowField("amount")}, ${rowField("priceUnit")}, ${rowField("flatAmount")}
      from ${rowsOf(json)} where ${guard}
      on conflict (pricelist_id, product_id, min_quantity, coalesce(valid_from, ${sql.raw(String(ALWAYS))}))
      do update set amount = excluded.amount, valid_to = excluded.valid_to,
          price_unit = excluded.price_unit, flat_amount = excluded.flat_amount
        where pricelist_prices.amount is not excluded.amount
          or pricelist_prices.valid_to is not excluded.valid_to
          or pricelist_prices.price_unit is not excluded.price_unit
          or pricelist_prices.flat_amount is not excluded.flat_amount`,
  );
  try {
    const [held] = (
      await rawBatch<{ held: number }[][]>(db, [...statements, sql`select ${guard} as held`])
    ).at(-1)!;
    return held?.held ? rows.length : CHANGED;
  } catch (err) {
    if (isForeignKeyViolation(err)) return FOREIGN_KEY;
    if (errorMentions(err, "NOT NULL constraint failed")) return PRODUCT_GONE;
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// Several pricelists at once: a change request (docs/api/change-requests.md §17.5)
// ---------------------------------------------------------------------------------------------

/**
 * What a change reads of one pricelist: the rows of the named products and of the products in
 * the named groups or below them; neither named: every row of the list.
 */
export type RowSelection = { pricelistId: number } & TargetLists;

/** The selection's JSON column of each targeting dimension, in `sel`. */
const COLUMNS = READ_DIMENSIONS.map((_, k) => `d${k}`);

/**
 * `with recursive …`: `picked`, every stored row each selection selects, with the selection's
 * index `i` (a row two selections select comes twice).
 */
function selected(selections: readonly RowSelection[]): SQL {
  const json = JSON.stringify(
    selections.map((s) => ({
      l: s.pricelistId,
      ...Object.fromEntries(READ_DIMENSIONS.map((d, k) => [COLUMNS[k], s[d.field] ?? null])),
    })),
  );
  const columns = sql.raw(COLUMNS.map((c) => `, json_extract(value, '$.${c}')`).join(""));
  const ctes = READ_DIMENSIONS.flatMap((d, k) =>
    d.selects.with ? [d.selects.with(COLUMNS[k]!)] : [],
  );
  const pairs = READ_DIMENSIONS.map((d, k) => d.selects.pairs(COLUMNS[k]!));
  const none = sql.raw(COLUMNS.map((c) => `s.${c} is null`).join(" and "));
  return sql`with recursive
    sel(i, l, ${sql.raw(COLUMNS.join(", "))}) as (select key, json_extract(value, '$.l')${columns}
      from json_each(${json})),
    ${sql.join(
      ctes,
      sql`,
    `,
    )}${ctes.length ? sql`,` : sql``}
    pairs(i, l, product_id) as (${sql.join(
      pairs,
      sql`
      union `,
    )}),
    picked(i, pricelist_id, product_id, min_quantity, valid_from, valid_to, amount, price_unit,
        flat_amount)
      as (select x.i, pp.pricelist_id, pp.product_id, pp.min_quantity, pp.valid_from, pp.valid_to,
        pp.amount, pp.price_unit, pp.flat_amount from pairs x join pricelist_prices pp
        on pp.pricelist_id = x.l and pp.product_id = x.product_id
      union all select s.i, pp.pricelist_id, pp.product_id, pp.min_quantity, pp.valid_from,
        pp.valid_to, pp.amount, pp.price_unit, pp.flat_amount from sel s join pricelist_prices pp
        on pp.pricelist_id = s.l
        where ${none})`;
}

const M = 2147483647;

/**
 * A 31-bit polynomial hash of a row's columns in SQL integers (every step stays below 2^62, so
 * SQLite never turns it into a float). Two of them, summed over the rows with their count, are
 * the rows' digest: what a guard compares instead of the rows themselves, which would be a
 * parameter of megabytes for a catalogue (a changed row escapes it with odds of about 2^-62).
 */
function rowHash(k: number): SQL {
  const columns = [
    "pricelist_id",
    "product_id",
    "min_quantity",
    `coalesce(valid_from, ${ALWAYS})`,
    "coalesce(valid_to, -1)",
    "amount",
    "price_unit",
    "flat_amount",
  ];
  let hash = "0";
  for (const column of columns)
    hash = `((${hash}) * ${k} + ((${column}) % ${M} + ${M}) % ${M}) % ${M}`;
  return sql.raw(hash);
}

/**
 * The stored rows of `selections` (each with the index of the selection that chose it, and its
 * product's id), and their digest: one statement each. Identical selections (ten items on the
 * whole of one list) read their rows once: `selection` is then the index of the first of them,
 * and `sameAs[i]` says which one selection `i` reads (docs/api/change-requests.md §17.7). The
 * digest is over every selection, as it always was.
 */
export function rowSetsSql(selections: readonly RowSelection[]) {
  const firstOf = new Map<string, number>();
  const sameAs = selections.map((s, i) => {
    const key = JSON.stringify([s.pricelistId, ...READ_DIMENSIONS.map((d) => s[d.field] ?? null)]);
    if (!firstOf.has(key)) firstOf.set(key, i);
    return firstOf.get(key)!;
  });
  // The others are kept as selections of nothing, so the indexes stay those of the items.
  const read = selections.map((s, i) =>
    sameAs[i] === i ? s : { pricelistId: s.pricelistId, productCodes: [] },
  );
  const columns = select({
    selection: int(sql`p.i`),
    pricelistId: int(sql`p.pricelist_id`),
    productId: int(sql`p.product_id`),
    productCode: text(sql`pr.code`),
    minQuantity: int(sql`p.min_quantity`),
    validFrom: nullableInt(sql`p.valid_from`),
    validTo: nullableInt(sql`p.valid_to`),
    amount: int(sql`p.amount`),
    priceUnit: int(sql`p.price_unit`),
    flatAmount: int(sql`p.flat_amount`),
  });
  const rows = statement(
    columns,
    sql`from picked p join products pr on pr.id = p.product_id
      order by p.i, pr.code, p.min_quantity, coalesce(p.valid_from, ${ALWAYS})`,
    selected(read),
  );
  const digest = sql<string>`(${selected(selections)} select json_object('n', count(*),
    'h', coalesce(sum(${rowHash(1000003)}), 0), 'k', coalesce(sum(${rowHash(998244353)}), 0)) from picked)`;
  return { rows, digest, sameAs };
}

/** A row a change request writes, with its values before (UPDATED) and after. */
export interface StagedWrite {
  pricelistId: number;
  productId: number;
  minQuantity: number;
  validFrom: number | null;
  action: "INSERTED" | "UPDATED";
  beforeValidTo: number | null;
  beforeAmount: number | null;
  beforePriceUnit: number | null;
  beforeFlatAmount: number | null;
  afterValidTo: number | null;
  afterAmount: number;
  afterPriceUnit: number;
  afterFlatAmount: number;
}

/**
 * The rows of `plan` on pricelist `pricelistId` as staged writes (product ids by code), one at a
 * time: a plan of a million rows is never a second list of a million objects.
 */
export function* stagedWritesOf(
  pricelistId: number,
  plan: TimelinePlan,
  productIds: ReadonlyMap<string, number>,
): Generator<StagedWrite, void> {
  const base = (row: KeyedRow) => ({
    pricelistId,
    productId: productIds.get(row.productCode)!,
    minQuantity: row.minQuantity,
    validFrom: row.validFrom,
    afterValidTo: row.validTo,
    afterAmount: row.amount,
    afterPriceUnit: row.priceUnit,
    afterFlatAmount: row.flatAmount,
  });
  for (const { before, after } of plan.updates) {
    yield {
      ...base(after),
      action: "UPDATED",
      beforeValidTo: before.validTo,
      beforeAmount: before.amount,
      beforePriceUnit: before.priceUnit,
      beforeFlatAmount: before.flatAmount,
    };
  }
  for (const row of plan.inserts) {
    yield {
      ...base(row),
      action: "INSERTED",
      beforeValidTo: null,
      beforeAmount: null,
      beforePriceUnit: null,
      beforeFlatAmount: null,
    };
  }
}

/**
 * Rows per staging statement: one JSON parameter of at most about 95 KB (some 145 bytes a row),
 * the size of the 1,000-row bodies the bulk writes bind, far under D1's 2 MB for one value
 * (docs/toolchain.md, "D1 limits").
 */
export const STAGED_ROWS_PER_STATEMENT = 650;

const STAGED_KEYS = {
  pricelistId: "l",
  productId: "p",
  minQuantity: "q",
  validFrom: "f",
  action: "x",
  beforeValidTo: "bt",
  beforeAmount: "ba",
  beforePriceUnit: "bu",
  beforeFlatAmount: "bf",
  afterValidTo: "t",
  afterAmount: "a",
  afterPriceUnit: "u",
  afterFlatAmount: "fa",
} as const;

/** `t` (a pricelist_prices row) is the row staged as `w` (the key of migration 0020). */
const sameRow = (t: string, w: string) =>
  sql.raw(`${t}.pricelist_id = ${w}.pricelist_id and ${t}.product_id = ${w}.product_id
    and ${t}.min_quantity = ${w}.min_quantity
    and coalesce(${t}.valid_from, ${ALWAYS}) = coalesce(${w}.valid_from, ${ALWAYS})`);

/**
 * One attempt to apply a change request (migration 0031): the key its staged rows carry. A
 * request applied before that migration has its rows under attempt 0 (`appliedAttempt` null).
 */
export interface Attempt {
  changeRequestId: number;
  attempt: number;
}

/** An attempt that staged `rows` rows. */
export interface StagedAttempt extends Attempt {
  rows: number;
}

/** The staged rows of `attempt` are `w` (and, given, of one action). */
const stagedAs = ({ changeRequestId, attempt }: Attempt, action?: StagedWrite["action"]) =>
  sql`w.change_request_id = ${changeRequestId} and w.attempt = ${attempt}${
    action ? sql` and w.action = ${action}` : sql``
  }`;

/** A DELETE of the staged rows of `attempt`; `more`: the rest of its WHERE (a condition, a LIMIT). */
const deleteStaged = (db: Db, attempt: Attempt, more: SQL = sql``) =>
  db.delete(changeRequestWrites).where(sql`rowid in (select w.rowid from change_request_writes w
    where ${stagedAs(attempt)} ${more})`);

/** Whether the row of `attempt` is there (a swept or finished attempt's is not). */
const attemptLive = ({ attempt }: Attempt) =>
  sql`exists (select 1 from ${changeRequestAttempts} a where a.id = ${attempt})`;

/**
 * How long an attempt may take from its start to its batch before the per-minute Cron counts it
 * dead and sweeps its staged rows (`sweepStagedAttempts`): far longer than an apply takes (the
 * 100,000-row one stages in seconds; its CPU time, not its wall time, is what a Worker bounds), so
 * only the rows of a Worker that died between its staging and its batch, or of a clean-up that
 * failed, are swept. Should a live attempt outlast it all the same, its batch fails on its guard
 * (`appliedFromStaged`) and the approve starts again.
 */
export const STAGED_ATTEMPT_TTL_MS = 10 * 60 * 1000;

/** Staged rows deleted per statement when an attempt is discarded: each a short hold of D1. */
export const DISCARDED_ROWS_PER_STATEMENT = 5_000;

/** The writes in chunks of STAGED_ROWS_PER_STATEMENT rows, each row in its short-keyed form. */
export function* stagedChunks(writes: Iterable<StagedWrite>): Generator<Record<string, unknown>[]> {
  const fields = Object.entries(STAGED_KEYS) as [keyof StagedWrite, string][];
  let chunk: Record<string, unknown>[] = [];
  for (const write of writes) {
    const row: Record<string, unknown> = {};
    for (const [field, key] of fields) row[key] = write[field];
    chunk.push(row);
    if (chunk.length === STAGED_ROWS_PER_STATEMENT) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length) yield chunk;
}

/**
 * The statement that stages one chunk (of `stagedChunks`) under `attempt`: it inserts only while
 * the attempt's row is there, so nothing is staged after a sweep has removed the attempt.
 */
export function stagingStatement(
  db: Db,
  attempt: Attempt,
  chunk: readonly Record<string, unknown>[],
): BatchItem<"sqlite"> {
  const fields = Object.entries(STAGED_KEYS) as [keyof StagedWrite, string][];
  const set = {
    changeRequestId: sql`${attempt.changeRequestId}`,
    attempt: sql`${attempt.attempt}`,
    ...Object.fromEntries(fields.map(([field, key]) => [field, rowField(key)])),
  };
  const [statement] = insertRows(db, changeRequestWrites, chunk, set, attemptLive(attempt));
  return statement!;
}

/**
 * Stages `writes` for change request `changeRequestId` under a new attempt, BEFORE the batch that
 * applies them (docs/api/change-requests.md §17.7): no reader of prices reads staged rows, so each
 * chunk is a round trip of its own (a hold of D1 of some tens of milliseconds), with a turn of
 * the event loop before it for the isolate's other requests. Undefined: nothing to stage (no
 * attempt is started). On a failure the attempt is discarded and the error thrown.
 */
export async function stageWrites(
  db: Db,
  changeRequestId: number,
  writes: Iterable<StagedWrite>,
): Promise<StagedAttempt | undefined> {
  let staged: StagedAttempt | undefined;
  try {
    for (const chunk of stagedChunks(writes)) {
      await nextTurn();
      if (!staged) {
        const [started] = await db
          .insert(changeRequestAttempts)
          .values({ changeRequestId, startedAt: Date.now() })
          .returning({ id: changeRequestAttempts.id });
        staged = { changeRequestId, attempt: started!.id, rows: 0 };
      }
      await db.batch([stagingStatement(db, staged, chunk)]);
      staged.rows += chunk.length;
    }
  } catch (error) {
    await discardFailed(db, staged);
    throw error;
  }
  return staged;
}

/**
 * An UPDATE of the stored rows staged as `action` by `attempt`, each set to its staged `side`
 * values: UPDATE … FROM the staged rows, each stored row found from its staged one by the table's
 * unique key (not by scanning the table).
 */
function updateFromStaged(
  db: Db,
  attempt: Attempt,
  action: StagedWrite["action"],
  side: "before" | "after",
) {
  const w = alias(changeRequestWrites, "w");
  const value = (column: string) => sql.raw(`w.${side}_${column}`);
  return db
    .update(pricelistPrices)
    .set({
      validTo: sql`${value("valid_to")}`,
      amount: sql`${value("amount")}`,
      priceUnit: sql`${value("price_unit")}`,
      flatAmount: sql`${value("flat_amount")}`,
    })
    .from(w)
    .where(sql`${stagedAs(attempt, action)} and ${sameRow("pricelist_prices", "w")}`);
}

/**
 * The statements of the apply's batch that write the rows `staged` staged (after `stageWrites`):
 * a guard that fails the batch (STALE_FACTS) unless the attempt's row and all its staged rows are
 * still there (not swept), ONE update of the cut or replaced rows and ONE insert of the new rows
 * from the staged ones, and the attempt's row removed (it is the request's `appliedAttempt` now:
 * the caller records that in the same batch). The staged rows stay: they are what `cancel`
 * restores from (`restoreStagedWrites`).
 */
export function appliedFromStaged(db: Db, staged: StagedAttempt): BatchItem<"sqlite">[] {
  return [
    staleUnless(
      db,
      sql`${attemptLive(staged)} and (select count(*) from ${changeRequestWrites} w
        where ${stagedAs(staged)}) = ${staged.rows}`,
    ),
    updateFromStaged(db, staged, "UPDATED", "after"),
    // The columns in the table's order, as Drizzle lists them.
    db.insert(pricelistPrices).select(
      sql`select w.pricelist_id, w.product_id, w.min_quantity, w.valid_from, w.after_valid_to,
        w.after_amount, w.after_price_unit, w.after_flat_amount from change_request_writes w
        where ${stagedAs(staged, "INSERTED")}`,
    ),
    db.delete(changeRequestAttempts).where(eq(changeRequestAttempts.id, staged.attempt)),
  ];
}

/**
 * Removes what an attempt that did not apply staged: its rows, DISCARDED_ROWS_PER_STATEMENT per
 * round trip (a turn of the event loop between), then, in ONE batch, what is left of them and
 * its row. Once its row is gone no staging statement of it inserts anything
 * (`stagingStatement`), so even an attempt still staging leaves no row behind; a Worker that dies
 * before the last batch leaves the attempt's row, and the Cron's sweep finishes the work. Rows
 * go only while the attempt's row is there: once its batch has applied it (before a sweep that
 * listed it got here, or in a batch that committed but answered an error), they are what `cancel`
 * restores from.
 */
export async function discardAttempt(db: Db, attempt: Attempt): Promise<void> {
  const rows = (limit: SQL) => deleteStaged(db, attempt, sql`and ${attemptLive(attempt)} ${limit}`);
  const chunk = sql`limit ${DISCARDED_ROWS_PER_STATEMENT}`;
  while ((await rows(chunk)).meta.changes === DISCARDED_ROWS_PER_STATEMENT) await nextTurn();
  await db.batch([
    rows(sql``),
    db.delete(changeRequestAttempts).where(eq(changeRequestAttempts.id, attempt.attempt)),
  ]);
}

/**
 * `discardAttempt` for an attempt that failed (none: nothing was staged). Should that fail too,
 * the failure that called it is still the answer: the attempt is left to the Cron's sweep.
 */
export async function discardFailed(db: Db, attempt: Attempt | undefined): Promise<void> {
  if (!attempt) return;
  try {
    await discardAttempt(db, attempt);
  } catch (error) {
    console.warn(
      JSON.stringify({
        message: "staged attempt left for the sweep",
        ...attempt,
        error: String(error),
      }),
    );
  }
}

/**
 * The per-minute Cron's sweep (docs/api/change-requests.md §17.7, docs/operations.md
 * "Configuration"): the attempts started more than STAGED_ATTEMPT_TTL_MS before `now` that are
 * still there never applied (an applied attempt's row goes in its batch, a failed one removes its
 * own): their staged rows are removed, then their rows (`discardAttempt`). Returns how many
 * attempts it removed.
 */
export async function sweepStagedAttempts(db: Db, now: number): Promise<number> {
  const dead = await db
    .select({
      changeRequestId: changeRequestAttempts.changeRequestId,
      attempt: changeRequestAttempts.id,
    })
    .from(changeRequestAttempts)
    .where(lt(changeRequestAttempts.startedAt, now - STAGED_ATTEMPT_TTL_MS));
  for (const attempt of dead) await discardAttempt(db, attempt);
  return dead.length;
}

/** How many rows attempt `attempt` wrote are no longer as it wrote them (SQL). */
export const divergedWritesSql = (attempt: Attempt): SQL<number> => sql<number>`(
  select count(*) from change_request_writes w where ${stagedAs(attempt)}
    and not exists (select 1 from pricelist_prices pp where ${sameRow("pp", "w")}
      and pp.valid_to is w.after_valid_to and pp.amount = w.after_amount
      and pp.price_unit = w.after_price_unit and pp.flat_amount = w.after_flat_amount))`;

/**
 * The statements that undo what the applied `attempt` of a change request wrote (inside the batch
 * of its cancel, after a guard on `divergedWritesSql`): its new rows deleted, the rows it cut or
 * replaced given back their end, amount and price unit, its staged rows removed.
 */
export function restoreStagedWrites(db: Db, attempt: Attempt): BatchItem<"sqlite">[] {
  return [
    db.delete(pricelistPrices).where(
      sql`pricelist_prices.rowid in (select pp.rowid from change_request_writes w
        join pricelist_prices pp on ${sameRow("pp", "w")}
        where ${stagedAs(attempt, "INSERTED")})`,
    ),
    updateFromStaged(db, attempt, "UPDATED", "before"),
    deleteStaged(db, attempt),
  ];
}
