import { sql } from "drizzle-orm";
import {
  check,
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import { QUOTE_LOCKS, QUOTE_MODES, QUOTE_STORED_STATUSES } from "../../pricing/vocabulary";
import { channels } from "./channels";
import { timestamps } from "./columns";
import { customers } from "./customers";
import { products } from "./products";

/**
 * Quotes (docs/quotes.md): prices a sales rep negotiates for one customer in one channel, priced
 * and judged by the engine, approved by authority, sent, answered by the buyer and honoured.
 * Audited (the trail shows who wrote, submitted, approved, sent, accepted and redeemed each one).
 * Every transition is a guarded `UPDATE … WHERE status = …` checked by its changes count, so two
 * concurrent actions have one winner.
 */
export const quotes = sqliteTable(
  "quotes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    status: text("status", { enum: QUOTE_STORED_STATUSES }).notNull().default("DRAFT"),
    /** 1 at create; a PATCH in RENEGOTIATING starts the next one. */
    revision: integer("revision").notNull().default(1),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
    channelId: integer("channel_id")
      .notNull()
      .references(() => channels.id, { onDelete: "cascade" }),
    /** The currency of the lines as priced (the channel's answer). */
    currency: text("currency").notNull(),
    mode: text("mode", { enum: QUOTE_MODES }).notNull().default("ONCE"),
    lock: text("lock", { enum: QUOTE_LOCKS }).notNull().default("FIXED"),
    /** Epoch ms: the quote holds until then; past it an unanswered quote reads EXPIRED. */
    validTo: integer("valid_to").notNull(),
    /** The sum of the lines' `lineAmount`. */
    totalAmount: integer("total_amount").notNull(),
    /** The tier the last submit asked for (PENDING_APPROVAL), else null. */
    requiredTier: text("required_tier"),
    /** The key name that created it, and its owner. */
    author: text("author").notNull(),
    authorOwner: text("author_owner").notNull(),
    /**
     * JSON array of the owners of the keys that wrote its content (create, PATCH), in the order
     * they first wrote: SELF_APPROVAL refuses every one of them (docs/quotes.md §3.2).
     */
    writers: text("writers").notNull().default("[]"),
    submittedAt: integer("submitted_at"),
    /** The approving key's name, `policy` or `envelope`. */
    approvedBy: text("approved_by"),
    approvedAt: integer("approved_at"),
    rejectedBy: text("rejected_by"),
    rejectionReason: text("rejection_reason"),
    sentAt: integer("sent_at"),
    acceptedAt: integer("accepted_at"),
    declinedAt: integer("declined_at"),
    declineReason: text("decline_reason"),
    withdrawnAt: integer("withdrawn_at"),
    redeemedAt: integer("redeemed_at"),
    /** The order a redeem named. */
    orderRef: text("order_ref"),
    /** When the lines were last priced (create, PATCH, submit). */
    pricedAt: integer("priced_at").notNull(),
    ...timestamps,
  },
  (t) => [
    index("quotes_status_idx").on(t.status, t.id),
    index("quotes_customer_idx").on(t.customerId, t.id),
    index("quotes_valid_to_idx").on(t.validTo, t.id),
    index("quotes_created_at_idx").on(t.createdAt, t.id),
    // AGREEMENT quotes a lookup of one customer in one channel honours (docs/quotes.md §7).
    index("quotes_agreement_idx")
      .on(t.customerId, t.channelId, t.validTo)
      .where(sql`${t.status} = 'ACCEPTED' AND ${t.mode} = 'AGREEMENT'`),
  ],
);

/**
 * The lines of a quote's current revision, in their order, with the engine's judgement as
 * priced: every unit amount is per `priceUnit` pieces. `adjustments` is the regular price's
 * breakdown (JSON, the receipt `GET` shows unchanged); `costUnitAmount` is shown to admin keys
 * only, `marginBp` to admin and sales keys.
 */
export const quoteLines = sqliteTable(
  "quote_lines",
  {
    quoteId: integer("quote_id")
      .notNull()
      .references(() => quotes.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    quantity: integer("quantity").notNull(),
    regularUnitAmount: integer("regular_unit_amount").notNull(),
    priceUnit: integer("price_unit").notNull().default(1),
    floorUnitAmount: integer("floor_unit_amount"),
    quotedUnitAmount: integer("quoted_unit_amount").notNull(),
    lineAmount: integer("line_amount").notNull(),
    cutBp: integer("cut_bp").notNull(),
    marginBp: integer("margin_bp"),
    costUnitAmount: integer("cost_unit_amount"),
    adjustments: text("adjustments").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.quoteId, t.position] }),
    // A product at most once per quote; honouring finds a product's line by it.
    uniqueIndex("quote_lines_product_idx").on(t.quoteId, t.productId),
  ],
);

/**
 * Each approved revision of a quote, as approved: its lines (JSON: productId, quantity,
 * quotedUnitAmount, priceUnit, cutBp, marginBp) and who approved it. A later revision whose every
 * line is no worse than an approved one's is approved by `envelope` (docs/quotes.md §4).
 */
export const quoteRevisions = sqliteTable(
  "quote_revisions",
  {
    quoteId: integer("quote_id")
      .notNull()
      .references(() => quotes.id, { onDelete: "cascade" }),
    revision: integer("revision").notNull(),
    approvedBy: text("approved_by").notNull(),
    approvedAt: integer("approved_at").notNull(),
    totalAmount: integer("total_amount").notNull(),
    validTo: integer("valid_to").notNull(),
    lines: text("lines").notNull(),
  },
  (t) => [primaryKey({ columns: [t.quoteId, t.revision] })],
);

/**
 * The quote policy (docs/quotes.md §4): one row (id 1). `autoApproveEnabled` false: no
 * auto-approval. `tiers` is a JSON array of `{ name, maxCutBp, minMarginBp, approvers }` in
 * rising authority (0–5).
 */
export const quotePolicy = sqliteTable(
  "quote_policy",
  {
    id: integer("id").primaryKey(),
    autoApproveEnabled: integer("auto_approve_enabled", { mode: "boolean" })
      .notNull()
      .default(false),
    autoApproveMaxCutBp: integer("auto_approve_max_cut_bp"),
    autoApproveMinMarginBp: integer("auto_approve_min_margin_bp"),
    tiers: text("tiers").notNull().default("[]"),
    /** The key name whose PUT set it; null: the default. */
    setBy: text("set_by"),
    updatedAt: timestamps.updatedAt,
  },
  (t) => [check("quote_policy_one_row", sql`${t.id} = 1`)],
);
