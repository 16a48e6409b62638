import { sql, type SQL } from "drizzle-orm";
import {
  QUOTE_LOCKS,
  QUOTE_MODES,
  QUOTE_STORED_STATUSES,
  type QuoteStoredStatus,
  type QuoteTerms,
} from "../../pricing";
import type { Db } from "../client";
import {
  asRecord,
  asMember,
  bindStatements,
  decodedBatch,
  int,
  jsonArray,
  member,
  nullableInt,
  select,
  statement,
  text,
} from "../rows";
import type { Params } from "./query";

/*
 * The ACCEPTED AGREEMENT quotes of a lookup's customer in its channel (docs/pricing-rules.md
 * §28.2), read as one column of the row that already reads the customer: a lookup that prices
 * them costs no statement and no round trip more, and the customer context caches them with the
 * customer (contexts.ts). Every window is read (the engine checks `acceptedAt ≤ at < validTo`,
 * and explain says OUT_OF_WINDOW), so the cached context serves every moment. The partial index
 * quotes_agreement_idx finds them.
 */

/** One line of an agreement, with its quote's terms repeated (json_object of the column). */
const agreementLine = asRecord({
  id: "int",
  revision: "int",
  lock: "text",
  acceptedAt: "int",
  validTo: "int",
  productCode: "text",
  quantity: "int",
  quotedUnitAmount: "int",
  priceUnit: "int",
});

export type AgreementLine = ReturnType<typeof agreementLine>;

/** The column: the agreements' lines of the customer `q.customerCode` in the channel `channelId`. */
export const agreementsColumn = (q: Params, channelId: SQL) =>
  jsonArray(
    agreementLine,
    sql`(select json_group_array(json_object('id', qu.id, 'revision', qu.revision,
        'lock', qu.lock, 'acceptedAt', qu.accepted_at, 'validTo', qu.valid_to,
        'productCode', qp.code, 'quantity', ql.quantity,
        'quotedUnitAmount', ql.quoted_unit_amount, 'priceUnit', ql.price_unit))
      from quotes qu join quote_lines ql on ql.quote_id = qu.id
        join products qp on qp.id = ql.product_id
      where qu.customer_id = (select id from customers where code = ${q.customerCode})
        and qu.channel_id = ${channelId} and qu.status = 'ACCEPTED' and qu.mode = 'AGREEMENT'
        and qu.accepted_at is not null)`,
  );

const asLock = asMember(QUOTE_LOCKS);

/** The agreements of the column's lines, each with its lines, by id (the engine ranks them). */
export function agreementsOf(lines: readonly AgreementLine[]): QuoteTerms[] {
  const byId = new Map<number, QuoteTerms & { lines: QuoteTerms["lines"][number][] }>();
  for (const line of lines) {
    let quote = byId.get(line.id);
    if (!quote) {
      quote = {
        id: line.id,
        revision: line.revision,
        mode: "AGREEMENT",
        lock: asLock(line.lock, "agreements.lock"),
        acceptedAt: line.acceptedAt,
        validTo: line.validTo,
        lines: [],
      };
      byId.set(line.id, quote);
    }
    quote.lines.push({
      productCode: line.productCode,
      quantity: line.quantity,
      quotedUnitAmount: line.quotedUnitAmount,
      priceUnit: line.priceUnit,
    });
  }
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

// ---------------------------------------------------------------------------------------------
// The quote a resolve names (`quoteId`, docs/pricing-rules.md §28.1): one statement, read in the
// same moment as the lookup's own batch, so it costs one read and no round trip in sequence.
// ---------------------------------------------------------------------------------------------

const namedQuoteStatement = statement(
  select({
    id: int(sql`qu.id`),
    status: member(QUOTE_STORED_STATUSES, sql`qu.status`),
    mode: member(QUOTE_MODES, sql`qu.mode`),
    lock: member(QUOTE_LOCKS, sql`qu.lock`),
    revision: int(sql`qu.revision`),
    customerCode: text(sql`cu.code`),
    channelCode: text(sql`ch.code`),
    acceptedAt: nullableInt(sql`qu.accepted_at`),
    validTo: int(sql`qu.valid_to`),
    lines: jsonArray(
      asRecord({ productCode: "text", quantity: "int", quotedUnitAmount: "int", priceUnit: "int" }),
      sql`(select json_group_array(json_object('productCode', qp.code, 'quantity', ql.quantity,
          'quotedUnitAmount', ql.quoted_unit_amount, 'priceUnit', ql.price_unit))
        from quote_lines ql join products qp on qp.id = ql.product_id where ql.quote_id = qu.id)`,
    ),
  }),
  sql`from quotes qu join customers cu on cu.id = qu.customer_id
    join channels ch on ch.id = qu.channel_id where qu.id = ${sql.placeholder("quoteId")}`,
);

/** A quote as honouring needs it: whose it is, where, its status, and its terms. */
export interface NamedQuote {
  status: QuoteStoredStatus;
  customerCode: string;
  channelCode: string;
  /** Its terms; `acceptedAt` 0 when it was never accepted (then it honours nothing). */
  terms: QuoteTerms;
}

/** The quote `id` with its lines, in one read; undefined when there is none. */
export async function loadNamedQuote(db: Db, id: number): Promise<NamedQuote | undefined> {
  const [rows] = await decodedBatch(db, bindStatements([namedQuoteStatement], { quoteId: id }));
  const row = rows[0];
  if (!row) return undefined;
  const { status, customerCode, channelCode, acceptedAt, lines, ...terms } = row;
  return {
    status,
    customerCode,
    channelCode,
    terms: { ...terms, acceptedAt: acceptedAt ?? 0, lines },
  };
}
