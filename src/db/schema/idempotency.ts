import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Idempotency keys (docs/api/resources.md "Idempotent retries"): one row per API key name and
 * `Idempotency-Key`, holding the request's fingerprint and, once answered, the first answer.
 * `state` moves PENDING (claimed) → COMMITTED (set inside the request's own write batch, so a
 * retry can never write twice) → DONE (the answer is stored). Kept for 24 hours; the scheduled
 * clean-up deletes older rows.
 */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    keyName: text("key_name").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    /** SHA-256 hex of method, path with query, and body text. */
    fingerprint: text("fingerprint").notNull(),
    /** The server's id of the request that holds (or held) the key. */
    requestId: text("request_id").notNull(),
    state: text("state", { enum: ["PENDING", "COMMITTED", "DONE"] }).notNull(),
    status: integer("status"),
    contentType: text("content_type"),
    body: text("body"),
    createdAt: integer("created_at").notNull(),
    /** When the holder last moved it; a PENDING row not moved for a minute is abandoned. */
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.keyName, t.idempotencyKey] }),
    index("idempotency_keys_created_idx").on(t.createdAt),
  ],
);
