import type { IdempotencyClaim } from "./audit";
import type { Db, DbMeter } from "./db";

export type Role = "admin" | "read";

export interface Bindings {
  DB: D1Database;
  /** Comma-separated `name:role:sha256hex` (or `role:sha256hex`); unset or empty refuses every protected request. */
  API_KEYS?: string;
  /** Workers Rate Limiting binding (wrangler.toml `[[ratelimits]]`), keyed by API key name; absent = no limiting. */
  RATE_LIMITER?: RateLimit;
  /** Comma-separated origins allowed to call the API from a browser (CORS); unset = no CORS. */
  CORS_ORIGINS?: string;
  /** Days the audit trail keeps its entries (src/lib/retention.ts); not a positive whole number = 400. */
  AUDIT_RETENTION_DAYS?: string;
}

export interface Variables {
  requestId: string;
  meter: DbMeter;
  db: Db;
  role: Role;
  /** The authenticated key's name (never the key). */
  keyName: string;
  /** Set when the write carries an Idempotency-Key (src/lib/idempotency.ts). */
  idempotency?: IdempotencyClaim;
}

export interface AppEnv {
  Bindings: Bindings;
  Variables: Variables;
}
