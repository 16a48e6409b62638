import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { timestamps } from "./columns";
import { DELIVERY_OUTCOMES } from "../../pricing/vocabulary";

/**
 * Webhooks (docs/api/feed-and-webhooks.md §14): where the change feed is pushed. Without generated
 * audit triggers and pricing version triggers (NOT_AUDITED, src/db/schema/audited.ts): they are no
 * pricing data, and a generated entry would copy the signing secret. Migration 0019's hand-written
 * triggers record their settings in the audit trail instead, never the secrets
 * (docs/api/feed-and-webhooks.md §11).
 *
 * The secret is stored as given to the client (docs/api/feed-and-webhooks.md §14.3): an HMAC key
 * must be readable to sign, so hashing is no option; D1 encrypts it at rest like every row.
 */
export const webhooks = sqliteTable("webhooks", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  url: text("url").notNull(),
  /** JSON array of CHANGE_EVENTS. */
  events: text("events").notNull(),
  /** The client's switch; also turned off when the receiver keeps failing (`pausedAt`). */
  active: integer("active", { mode: "boolean" }).notNull().default(true),
  secret: text("secret").notNull(),
  /** The secret before the last rotation, still signing beside the new one until it expires. */
  previousSecret: text("previous_secret"),
  previousSecretExpiresAt: integer("previous_secret_expires_at"),
  /** The feed cursor of the last change delivered (or passed over as not subscribed). */
  cursor: integer("cursor").notNull(),
  /** The last cursor of the batch in flight: a retry sends exactly that range again. */
  pendingUpTo: integer("pending_up_to"),
  /** Failed attempts since the last success. */
  failures: integer("failures").notNull().default(0),
  /** No attempt before this instant (the backoff after a failure). */
  retryAt: integer("retry_at"),
  /** Set when the service turned `active` off after too many failures. */
  pausedAt: integer("paused_at"),
  lastError: text("last_error"),
  lastDeliveredAt: integer("last_delivered_at"),
  /** Who is delivering: one consumer at a time per webhook, so batches go out in order. */
  leaseId: text("lease_id"),
  leaseUntil: integer("lease_until"),
  ...timestamps,
});

/** One row per delivery attempt, kept for WEBHOOK_DELIVERY_RETENTION_DAYS (src/jobs/retention.ts). */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    webhookId: integer("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    /** The idempotency id of the batch (the `x-webhook-id` header), the same on every retry. */
    deliveryId: text("delivery_id").notNull(),
    attempt: integer("attempt").notNull(),
    at: integer("at").notNull(),
    /** The batch's range of the feed: after `fromCursor`, up to `toCursor`. */
    fromCursor: integer("from_cursor").notNull(),
    toCursor: integer("to_cursor").notNull(),
    changes: integer("changes").notNull(),
    outcome: text("outcome", { enum: DELIVERY_OUTCOMES }).notNull(),
    /** The receiver's HTTP status; null when no answer came. */
    status: integer("status"),
    error: text("error"),
    /** The first 1 KB of the receiver's answer. */
    responseBody: text("response_body"),
    latencyMs: integer("latency_ms"),
  },
  (t) => [
    index("webhook_deliveries_webhook_idx").on(t.webhookId, t.id),
    index("webhook_deliveries_at_idx").on(t.at),
  ],
);
