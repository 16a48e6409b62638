import { asc, count, eq, getTableColumns, inArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { insertRows } from "../../db/bulk";
import { errorMentions, type Db } from "../../db/client";
import {
  channels,
  customers,
  products,
  quoteLines,
  quotePolicy,
  quoteRevisions,
  quotes,
} from "../../db/schema";
import { readPage, type ListRequest } from "../../list";
import type { QuoteStatus, QuoteStoredStatus } from "../../pricing/vocabulary";
import { readStatusSql } from "./quotes.list";

/*
 * Quotes in D1 (docs/quotes.md): the quote, its lines with product codes, its approved
 * revisions, the policy. Every transition is one batch that starts with the guarded UPDATE of
 * the quote (WHERE its status and updatedAt are still the ones read) and a statement that fails
 * the batch unless that UPDATE changed exactly one row: two actions at once have one winner, and
 * the loser writes nothing.
 */

export type QuoteRow = typeof quotes.$inferSelect & {
  customerCode: string;
  channelCode: string;
  readStatus: QuoteStatus;
};
export type QuoteLineRow = typeof quoteLines.$inferSelect & { productCode: string };
export type NewQuoteLine = Omit<typeof quoteLines.$inferInsert, "quoteId">;
export type QuoteRevisionRow = typeof quoteRevisions.$inferSelect;
export type QuotePolicyRow = typeof quotePolicy.$inferSelect;
export type QuoteSet = Partial<typeof quotes.$inferInsert>;

// Aliased: a D1 batch answers rows keyed by column name, and two `code`s would collide.
const quoteColumns = {
  ...getTableColumns(quotes),
  customerCode: sql<string>`${customers.code}`.as("customer_code"),
  channelCode: sql<string>`${channels.code}`.as("channel_code"),
  readStatus: readStatusSql.as("read_status"),
};

const selectQuotes = (db: Db) =>
  db
    .select(quoteColumns)
    .from(quotes)
    .innerJoin(customers, eq(customers.id, quotes.customerId))
    .innerJoin(channels, eq(channels.id, quotes.channelId));

/** The quote, its lines in order and its approved revisions, in one round trip; undefined: none. */
export async function findQuote(db: Db, id: number) {
  const [rows, lines, revisions] = await db.batch([
    selectQuotes(db).where(eq(quotes.id, id)),
    db
      .select({
        ...getTableColumns(quoteLines),
        productCode: sql<string>`${products.code}`.as("product_code"),
      })
      .from(quoteLines)
      .innerJoin(products, eq(products.id, quoteLines.productId))
      .where(eq(quoteLines.quoteId, id))
      .orderBy(asc(quoteLines.position)),
    db
      .select()
      .from(quoteRevisions)
      .where(eq(quoteRevisions.quoteId, id))
      .orderBy(asc(quoteRevisions.revision)),
  ]);
  const row = rows[0] as QuoteRow | undefined;
  return row && { row, lines: lines as QuoteLineRow[], revisions };
}

export type FoundQuote = NonNullable<Awaited<ReturnType<typeof findQuote>>>;

const lineCount = sql<number>`(select count(*) from ${quoteLines}
  where ${quoteLines.quoteId} = ${quotes.id})`;

export const listQuotes = (db: Db, list: ListRequest) =>
  readPage(
    db,
    db
      .select({ ...quoteColumns, lineCount })
      .from(quotes)
      .innerJoin(customers, eq(customers.id, quotes.customerId))
      .innerJoin(channels, eq(channels.id, quotes.channelId))
      .where(list.where)
      .orderBy(...list.orderBy)
      .limit(list.limit)
      .offset(list.offset) as unknown as BatchItem<"sqlite"> &
      PromiseLike<(QuoteRow & { lineCount: number })[]>,
    db.select({ n: count() }).from(quotes).where(list.where),
  );

/** The ids of a customer, a channel and products named by code, in one round trip. */
export async function idsByCode(
  db: Db,
  names: { customerCode?: string; channelCode?: string; productCodes: readonly string[] },
) {
  const [customer, channel, found] = await db.batch([
    db
      .select({ id: customers.id })
      .from(customers)
      .where(eq(customers.code, names.customerCode ?? "")),
    db
      .select({ id: channels.id })
      .from(channels)
      .where(eq(channels.code, names.channelCode ?? "")),
    db
      .select({ id: products.id, code: products.code })
      .from(products)
      .where(inArray(products.code, [...names.productCodes, ""])),
  ]);
  return {
    customerId: customer[0]?.id,
    channelId: channel[0]?.id,
    productIds: new Map(found.map((p) => [p.code, p.id])),
  };
}

/** A new quote and its lines in one batch; its id. */
export async function insertQuote(
  db: Db,
  values: typeof quotes.$inferInsert,
  lines: readonly NewQuoteLine[],
) {
  const newest = sql`(select max(${quotes.id}) from ${quotes})`;
  const [inserted] = await db.batch([
    db.insert(quotes).values(values).returning({ id: quotes.id }),
    ...insertRows(db, quoteLines, lines, { quoteId: newest }),
  ]);
  return inserted[0]!.id;
}

/** The statements replacing every line of quote `id`. */
export const replaceLines = (db: Db, id: number, lines: readonly NewQuoteLine[]) => [
  db.delete(quoteLines).where(eq(quoteLines.quoteId, id)),
  ...insertRows(db, quoteLines, lines, { quoteId: sql`${id}` }),
];

/** The statement recording an approved revision (again: a rejected revision approved later). */
export const recordRevision = (db: Db, revision: QuoteRevisionRow) =>
  db
    .insert(quoteRevisions)
    .values(revision)
    .onConflictDoUpdate({
      target: [quoteRevisions.quoteId, quoteRevisions.revision],
      set: {
        approvedBy: revision.approvedBy,
        approvedAt: revision.approvedAt,
        totalAmount: revision.totalAmount,
        validTo: revision.validTo,
        lines: revision.lines,
      },
    });

const MOVED = "quote moved meanwhile";

/** What a transition returns when another request moved the quote first: nothing was written. */
export const MOVED_ON = Symbol("moved on");

/**
 * Moves quote `row` from the status and updatedAt it was read with, and runs `writes` in the same
 * batch: the UPDATE is guarded by both, and the statement after it fails the batch unless it
 * changed exactly one row (SQLite's changes()), so nothing of a losing request is written.
 */
export async function transition(
  db: Db,
  row: { id: number; status: QuoteStoredStatus; updatedAt: number },
  set: QuoteSet,
  writes: BatchItem<"sqlite">[] = [],
): Promise<typeof MOVED_ON | undefined> {
  const update = db
    .update(quotes)
    .set({
      ...set,
      updatedAt: sql`max(cast(unixepoch('subsec') * 1000 as integer), ${quotes.updatedAt} + 1)`,
    } as never)
    .where(
      sql`${quotes.id} = ${row.id} and ${quotes.status} = ${row.status} and ${quotes.updatedAt} = ${row.updatedAt}`,
    );
  const changedOne = db
    .select({ ok: sql`json_extract('{}', case when changes() = 1 then '$' else ${MOVED} end)` })
    .from(sql`(select 1)`);
  try {
    await db.batch([update, changedOne, ...writes]);
    return undefined;
  } catch (err) {
    if (errorMentions(err, MOVED)) return MOVED_ON;
    throw err;
  }
}

export const readQuotePolicy = async (db: Db) =>
  (await db.select().from(quotePolicy).where(eq(quotePolicy.id, 1)))[0]!;

export const writeQuotePolicy = async (db: Db, set: Partial<QuotePolicyRow>) =>
  (
    await db
      .update(quotePolicy)
      .set({ ...set, updatedAt: sql`cast(unixepoch('subsec') * 1000 as integer)` } as never)
      .where(eq(quotePolicy.id, 1))
      .returning()
  )[0]!;
