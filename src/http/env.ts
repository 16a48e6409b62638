import type { IdempotencyClaim } from "../db/audit";
import type { Db, DbMeter } from "../db/client";
import type { Visibility } from "../db/visibility";

/**
 * The roles an API key may have (docs/security.md); GET /v1/api/me answers the caller's. `sales`:
 * reads like `read` (never costs) and writes quotes (docs/quotes.md §1).
 */
export const ROLES = ["admin", "read", "sales"] as const;
export type Role = (typeof ROLES)[number];

export interface Bindings {
  DB: D1Database;
  /** The static assets (wrangler.toml `[assets]`): /doc serves the OpenAPI document from them. */
  ASSETS: Fetcher;
  /** Comma-separated `name:role:sha256hex` (or `role:sha256hex`); unset or empty refuses every protected request. */
  API_KEYS?: string;
  /** Workers Rate Limiting binding for reads (GET, read-only POSTs), keyed by API key name; absent = reads not limited. */
  RATE_LIMITER_READ?: RateLimit;
  /** Workers Rate Limiting binding for writes, keyed by API key name; absent = writes not limited. */
  RATE_LIMITER_ADMIN?: RateLimit;
  /** The period of RATE_LIMITER_READ in seconds, "10" or "60" (10 otherwise): the Retry-After of its 429. */
  RATE_LIMIT_READ_PERIOD?: string;
  /** The period of RATE_LIMITER_ADMIN in seconds, "10" or "60" (60 otherwise): the Retry-After of its 429. */
  RATE_LIMIT_ADMIN_PERIOD?: string;
  /** Comma-separated origins allowed to call the API from a browser (CORS); unset = no CORS. */
  CORS_ORIGINS?: string;
  /** Days the audit trail keeps its entries (src/jobs/retention.ts); not a positive whole number = 400. */
  AUDIT_RETENTION_DAYS?: string;
  /** The webhook queue's producer (wrangler.toml `[[queues.producers]]`); absent = no announcements. */
  WEBHOOK_QUEUE?: Queue<WebhookMessage>;
  /**
   * Comma-separated hosts webhooks may use without the address checks, http allowed
   * (docs/api/feed-and-webhooks.md §14.5).
   */
  WEBHOOK_ALLOWED_HOSTS?: string;
  /** "offline": webhook hosts are never looked up in DNS (local development without a network). */
  WEBHOOK_DNS?: string;
  /** Seconds before a failed delivery's first retry, doubling after each (1-3600; default 30). */
  WEBHOOK_RETRY_BASE_SECONDS?: string;
  /** "off": no request is rate limited, whatever the bindings (`npm run dev -- --no-rate-limits`). */
  RATE_LIMITS?: string;
  /** Bench and local runs only: ms every D1 round trip of a request waits first (1-1000; else none). */
  D1_DELAY_MS?: string;
  /** ms a price lookup's freshness check may take before held data answers, marked (1-60000; else 2000). */
  D1_STALL_MS?: string;
  /** The same bound while this isolate's own long D1 work is in flight (1-60000, ≤ D1_STALL_MS; else 20). */
  D1_BUSY_STALL_MS?: string;
  /** Seconds the data of such a stale answer may be old, past it 503 (0-3600, 0 off; else 60). */
  D1_STALE_MAX_S?: string;
  /** "off" disables the isolate's cache of channel pricing contexts (docs/performance.md); default on. */
  PRICE_CONTEXT_CACHE?: string;
}

export interface Variables {
  requestId: string;
  meter: DbMeter;
  db: Db;
  role: Role;
  /**
   * What the key may see (docs/api/access.md §18), built once by `authenticate` from its role:
   * every read of pricelists, trade conditions, prices and the feed takes it (src/db/visibility.ts).
   */
  scope: Visibility;
  /** The authenticated key's name (never the key). */
  keyName: string;
  /**
   * Whose key it is: the same for every key of one person or system, so it survives rotation.
   * Change requests and the approval policy name and compare owners
   * (docs/api/change-requests.md §17.2).
   */
  keyOwner: string;
  /** Set when the write carries an Idempotency-Key (src/http/idempotency.ts). */
  idempotency?: IdempotencyClaim;
}

export interface AppEnv {
  Bindings: Bindings;
  Variables: Variables;
}

/**
 * Messages on the webhook queue (wrangler.toml `pricing-webhooks`). `changes`: a write committed
 * (sent by every write, src/webhooks/announce.ts); the consumer delivers to every webhook that is
 * due. `deliver`: one webhook's run, sent for its retries (with the backoff as delay), by the
 * Cron Trigger's sweep, and when a run ends with changes left.
 */
export type WebhookMessage = { type: "changes" } | { type: "deliver"; webhookId: number };
