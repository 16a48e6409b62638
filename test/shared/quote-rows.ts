import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { agreementAcceptedWrites } from "../../src/db/agreements";
import { createDb, DbMeter } from "../../src/db/client";
import { quotes } from "../../src/db/schema";

/**
 * Quotes written straight into D1 with the schema's columns, for the tests of honouring while the
 * quote resource writes them in production, and their accept as that resource's accept action
 * must write it: the guarded UPDATE and `agreementAcceptedWrites` in one batch with an audit
 * context (docs/quotes-honouring.md §3).
 */

const DAY = 86_400_000;

export interface QuoteRow {
  status: string;
  channelCode: string;
  customerCode: string;
  mode?: "ONCE" | "AGREEMENT";
  lock?: "FIXED" | "BETTER_OF";
  /** The quote's lines: product codes, each at `quantity` and `quoted`. */
  products: string[];
  quantity?: number;
  quoted?: number;
  validTo?: number;
  /** Default: a day ago, or null for a SENT quote. */
  acceptedAt?: number | null;
}

/** A quote of revision 2, each line at 360 × 60 unless told (regular 391, floor 320, cost 300). */
export async function insertQuote(q: QuoteRow): Promise<number> {
  const now = Date.now();
  const quantity = q.quantity ?? 60;
  const quoted = q.quoted ?? 360;
  const row = await env.DB.prepare(
    `insert into quotes (status, revision, customer_id, channel_id, currency, mode, lock, valid_to,
       total_amount, author, author_owner, writers, accepted_at, redeemed_at, priced_at, created_at, updated_at)
     values (?, 2, (select id from customers where code = ?), (select id from channels where code = ?),
       'EUR', ?, ?, ?, ?, 'rep-1', 'rep-1', '["rep-1"]', ?, ?, ?, ?, ?) returning id`,
  )
    .bind(
      q.status,
      q.customerCode,
      q.channelCode,
      q.mode ?? "ONCE",
      q.lock ?? "FIXED",
      q.validTo ?? now + 30 * DAY,
      quoted * quantity * q.products.length,
      q.acceptedAt === undefined ? (q.status === "SENT" ? null : now - DAY) : q.acceptedAt,
      q.status === "REDEEMED" ? now : null,
      now - 2 * DAY,
      now - 2 * DAY,
      now - 2 * DAY,
    )
    .first<{ id: number }>();
  const id = row!.id;
  for (const [position, code] of q.products.entries()) {
    await env.DB.prepare(
      `insert into quote_lines (quote_id, position, product_id, quantity, regular_unit_amount,
         price_unit, floor_unit_amount, quoted_unit_amount, line_amount, cut_bp, margin_bp,
         cost_unit_amount, adjustments)
       values (?, ?, (select id from products where code = ?), ?, 391, 1, 320, ?, ?, 793, 1666, 300, '[]')`,
    )
      .bind(id, position, code, quantity, quoted, quoted * quantity)
      .run();
  }
  return id;
}

/** A Db like a request's: every write batch carries an audit context (src/db/client.ts). */
const writer = () =>
  createDb(env.DB, new DbMeter(), () => ({
    requestId: `test-${crypto.randomUUID()}`,
    correlationId: null,
    keyName: "test-read-key",
    operation: "acceptQuote",
    method: "POST",
    path: "/v1/api/quotes/accept",
  }));

/** Accepts a SENT quote as the accept action must: one batch, the honouring writes included. */
export async function acceptQuote(id: number, at = Date.now()) {
  const db = writer();
  await db.batch([
    db
      .update(quotes)
      .set({ status: "ACCEPTED", acceptedAt: at, updatedAt: at })
      .where(and(eq(quotes.id, id), eq(quotes.status, "SENT"))),
    ...agreementAcceptedWrites(db, id, at),
  ]);
  return at;
}
