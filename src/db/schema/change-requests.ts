import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { CHANGE_REQUEST_ITEM_KINDS, CHANGE_REQUEST_STATUSES } from "../../pricing/vocabulary";
import { timestamps } from "./columns";
import { pricelists } from "./pricelists";
import { products } from "./products";

/**
 * Change requests (docs/api/change-requests.md §17): price changes prepared, approved by a second
 * key and applied in one batch, dated `effectiveAt`. Audited like pricing data (the trail shows who
 * wrote, submitted, approved and applied each one), without pricing-version triggers: a request
 * moves no price by itself, the rows it writes do.
 */
export const changeRequests = sqliteTable(
  "change_requests",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    title: text("title").notNull(),
    status: text("status", { enum: CHANGE_REQUEST_STATUSES }).notNull().default("DRAFT"),
    /** Epoch ms; null: effective when applied. */
    effectiveAt: integer("effective_at"),
    /** The key name that created it (as the audit trail records key names). */
    author: text("author").notNull(),
    /** JSON array of every key name that wrote its content (create, PATCH): none may approve it. */
    editors: text("editors").notNull(),
    submittedAt: integer("submitted_at"),
    /** The approving key's name, or `policy`. */
    approvedBy: text("approved_by"),
    approvedAt: integer("approved_at"),
    appliedAt: integer("applied_at"),
    rejectedBy: text("rejected_by"),
    rejectionReason: text("rejection_reason"),
    /** JSON: the impact computed at submit (docs/api/change-requests.md §17.3). */
    impact: text("impact"),
    /** The facts of what its items touch, read at submit: approve compares them (stale). */
    submittedFacts: text("submitted_facts"),
    /** JSON in the change feed's `affects` form: whose prices applying it moves. */
    affects: text("affects"),
    /** JSON: the records ACTIVATE and DEACTIVATE changed, before and after, for `cancel`. */
    restore: text("restore"),
    /** When the scheduled job recorded `change-request.effective` (once: the guard). */
    effectiveRecordedAt: integer("effective_recorded_at"),
    /**
     * The attempt whose staged rows the apply wrote (`change_request_writes.attempt`, migration
     * 0031): the rows `cancel` restores from. Null: not applied, applied without price rows, or
     * applied before migration 0031 (its rows are attempt 0).
     */
    appliedAttempt: integer("applied_attempt"),
    ...timestamps,
  },
  (t) => [
    index("change_requests_status_idx").on(t.status, t.id),
    index("change_requests_effective_idx").on(t.effectiveAt, t.id),
  ],
);

/** The items of a change request in their order; `body` is the item's JSON without `kind`. */
export const changeRequestItems = sqliteTable(
  "change_request_items",
  {
    changeRequestId: integer("change_request_id")
      .notNull()
      .references(() => changeRequests.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    kind: text("kind", { enum: CHANGE_REQUEST_ITEM_KINDS }).notNull(),
    body: text("body").notNull(),
  },
  (t) => [primaryKey({ columns: [t.changeRequestId, t.position] })],
);

/**
 * One staging of a change request's price rows (migration 0031; docs/api/change-requests.md
 * §17.7): an approve (or a submit the policy approves) stages its rows under a new attempt, in
 * round trips of their own, before the batch that applies them. The batch removes the row of the
 * attempt it applies; a failed attempt removes its staged rows and then this row, and the
 * per-minute Cron sweeps what a Worker that died in between left (older than
 * STAGED_ATTEMPT_TTL_MS, src/db/price-rows.ts). Not audited: bookkeeping.
 */
export const changeRequestAttempts = sqliteTable("change_request_attempts", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  changeRequestId: integer("change_request_id")
    .notNull()
    .references(() => changeRequests.id, { onDelete: "cascade" }),
  /** Epoch ms. */
  startedAt: integer("started_at").notNull(),
});

/**
 * The price rows an applied change request wrote, each with its values before and after: an
 * attempt to apply it stages them here (`attempt`), and the batch that applies it writes
 * `pricelist_prices` from the rows of its own attempt (the rows travel once) and records it as
 * the request's `appliedAttempt`; `cancel` puts back exactly the `before` of that attempt's rows
 * (deleting the INSERTED rows). Not audited (src/db/schema/audited.ts): bookkeeping, and the price
 * rows have their own entries. Emptied once the request is effective, when nothing can be
 * cancelled any more.
 */
export const changeRequestWrites = sqliteTable(
  "change_request_writes",
  {
    changeRequestId: integer("change_request_id")
      .notNull()
      .references(() => changeRequests.id, { onDelete: "cascade" }),
    /**
     * The attempt that staged the row (`change_request_attempts.id`, migration 0031; 0: staged
     * inside the apply's batch, before that migration).
     */
    attempt: integer("attempt").notNull().default(0),
    pricelistId: integer("pricelist_id")
      .notNull()
      .references(() => pricelists.id, { onDelete: "cascade" }),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    minQuantity: integer("min_quantity").notNull(),
    validFrom: integer("valid_from"),
    /** INSERTED: a new row (cancel deletes it); UPDATED: a stored row cut or replaced. */
    action: text("action", { enum: ["INSERTED", "UPDATED"] }).notNull(),
    beforeValidTo: integer("before_valid_to"),
    beforeAmount: integer("before_amount"),
    /** The price units of the row before and after (docs/pricing-rules.md §20); migration 0025. */
    beforePriceUnit: integer("before_price_unit"),
    afterValidTo: integer("after_valid_to"),
    afterAmount: integer("after_amount").notNull(),
    afterPriceUnit: integer("after_price_unit").notNull().default(1),
    /** The flat amounts of the row before and after (docs/pricing-rules.md §29); migration 0029. */
    beforeFlatAmount: integer("before_flat_amount"),
    afterFlatAmount: integer("after_flat_amount").notNull().default(0),
  },
  (t) => [
    // The apply and the cancel find each stored row's staged twin by this (and the reverse).
    index("change_request_writes_key_idx").on(
      t.changeRequestId,
      t.attempt,
      t.action,
      t.pricelistId,
      t.productId,
      t.minQuantity,
    ),
  ],
);

/**
 * The approval policy (docs/api/change-requests.md §17.4): one row (id 1). Both limits set: a
 * request whose impact stays within them, with nothing omitted, is approved at submit by `policy`.
 * A change that would approve more waits as the proposal until an admin key of another owner
 * approves it.
 */
export const changeRequestPolicy = sqliteTable(
  "change_request_policy",
  {
    id: integer("id").primaryKey(),
    autoApproveMaxRaiseBp: integer("auto_approve_max_raise_bp"),
    autoApproveMaxCutBp: integer("auto_approve_max_cut_bp"),
    /** The owner whose PUT set the limits in force (migration 0026); null: the default. */
    setBy: text("set_by"),
    /** The owner who approved them, when they loosened the policy before; else null. */
    approvedBy: text("approved_by"),
    /** A loosening waiting for approval: its limits (both set), who proposed it and when. */
    proposedMaxRaiseBp: integer("proposed_max_raise_bp"),
    proposedMaxCutBp: integer("proposed_max_cut_bp"),
    proposedBy: text("proposed_by"),
    proposedAt: integer("proposed_at"),
    updatedAt: timestamps.updatedAt,
  },
  (t) => [check("change_request_policy_one_row", sql`${t.id} = 1`)],
);
