import { and, eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "./client";
import { auditLog, pricingVersion } from "./schema";

/*
 * What accepting an AGREEMENT quote writes besides the quote (docs/pricing-rules.md §28.2,
 * docs/quotes-honouring.md §3): from its acceptance every lookup of its customer in its channel
 * prices its products from it, so
 *
 * 1. the pricing data version moves (`version` and `seen_version`, as any write a read key's
 *    answer can see): every cached channel and customer context, product part and ETag was read
 *    at an older version and is not used again (the quote tables are UNVERSIONED, so their own
 *    writes move nothing: a draft, a send or a decline changes no price);
 * 2. the change feed gets one EFFECTIVE entry of the entity `quote` whose `affects` names the
 *    customer, the channel and the quote's products (as a change request's EFFECTIVE entry,
 *    migration 0022), which webhooks subscribed to `quotes` deliver.
 *
 * Both statements go into the accept's own batch, after its guarded UPDATE, and write only when
 * that UPDATE made the quote an ACCEPTED AGREEMENT at `acceptedAt`: an accept that lost a race
 * (the quote was withdrawn, or accepted by another request at another instant) writes neither.
 * An accepted agreement ends only at its validTo, which the answers' `validUntil` (and so their
 * cache lifetime) already names; nothing is written then.
 */

/** The quote `quoteId` is an AGREEMENT accepted at `acceptedAt` (the accept's UPDATE wrote it). */
const acceptedNow = (quoteId: number, acceptedAt: number) =>
  sql`q.id = ${quoteId} and q.status = 'ACCEPTED' and q.mode = 'AGREEMENT'
    and q.accepted_at = ${acceptedAt}`;

/**
 * The statements to append to the batch that accepts quote `quoteId` at `acceptedAt` (epoch ms,
 * the value its UPDATE sets `accepted_at` to). Harmless for a ONCE quote: they write nothing.
 */
export function agreementAcceptedWrites(
  db: Db,
  quoteId: number,
  acceptedAt: number,
): [BatchItem<"sqlite">, BatchItem<"sqlite">] {
  const bumped = sql`max(${pricingVersion.version} + 1, cast(unixepoch('subsec') * 1000 as integer))`;
  return [
    db
      .update(pricingVersion)
      .set({ version: bumped, seenVersion: bumped })
      .where(
        and(
          eq(pricingVersion.id, 1),
          sql`exists (select 1 from quotes q where ${acceptedNow(quoteId, acceptedAt)})`,
        ),
      ),
    // Every column of audit_log in its order (`insert … select` names them all): id null, so
    // AUTOINCREMENT gives it.
    db.insert(auditLog).select(sql`select null, c.at, c.request_id, c.correlation_id, c.key_name,
        c.operation, c.method, c.path, 'quote', q.id, null, json_object('id', q.id), 'EFFECTIVE',
        null,
        json_object('id', q.id, 'revision', q.revision, 'mode', q.mode, 'lock', q.lock,
          'acceptedAt', strftime('%Y-%m-%dT%H:%M:%fZ', q.accepted_at / 1000.0, 'unixepoch'),
          'validTo', strftime('%Y-%m-%dT%H:%M:%fZ', q.valid_to / 1000.0, 'unixepoch'),
          'affects', json_object(
            'customerCodes', json_array(cu.code),
            'channelCodes', json_array(ch.code),
            'productCodes', (select json_group_array(lp.code) from
              (select p.code from quote_lines l join products p on p.id = l.product_id
                where l.quote_id = q.id order by p.code) lp)))
      from audit_context c, quotes q
        join customers cu on cu.id = q.customer_id join channels ch on ch.id = q.channel_id
      where ${acceptedNow(quoteId, acceptedAt)}`),
  ];
}
