import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import type { AppEnv, Role } from "./env";
import { ApiError } from "../core/errors";
import { visibilityOf, type Visibility } from "../db/visibility";
import { isRead } from "./read-only";

/** The request header that carries the API key (the name the seed spec gave it). */
export const API_KEY_HEADER = "x-webhook-signature";

/** The 401 detail when no key was sent; /doc shows it as the 401 example. */
export const MISSING_KEY = `missing API key: send it in the ${API_KEY_HEADER} header`;

interface ConfiguredKey {
  /** Which key, for logs, the audit trail and the rate limits; never the key itself. */
  name: string;
  /**
   * Whose key: the person or system behind it, the same for every key they rotate through.
   * Four eyes compare owners (docs/api/access.md §6, docs/api/change-requests.md §17.2).
   */
  owner: string;
  role: Role;
  hash: Uint8Array;
}

const encoder = new TextEncoder();
let parsed: { source: string; keys: ConfiguredKey[] } | undefined;

const NAME = "([A-Za-z0-9._-]{1,64})";
const ENTRY = new RegExp(`^\\s*(?:${NAME}:)?(?:${NAME}:)?(admin|read|sales):([0-9a-f]{64})\\s*$`);

/**
 * Names the service writes for others than a key's owner (`approvedBy` `policy` or `envelope`,
 * jobs' trail).
 */
const RESERVED = new Set(["policy", "envelope", "scheduled", "unknown"]);

/**
 * `owner:name:role:sha256hex`, `name:role:sha256hex` (its owner is its name) or the short
 * `role:sha256hex` (named `role-<first 8 hex>`, its own owner), comma-separated
 * (docs/api/access.md §6). Malformed entries, and owners named like the service's own actors, are
 * skipped so one typo cannot open the door.
 */
export function parseApiKeys(source: string): ConfiguredKey[] {
  const keys: ConfiguredKey[] = [];
  for (const entry of source.split(",")) {
    const match = ENTRY.exec(entry);
    if (!match) continue;
    const [, first, second, role, hex] = match as unknown as [
      string,
      string | undefined,
      string | undefined,
      Role,
      string,
    ];
    const hash = new Uint8Array(32);
    for (let i = 0; i < 32; i++) hash[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
    const name = second ?? first ?? `${role}-${hex.slice(0, 8)}`;
    const owner = second === undefined ? name : first!;
    if (RESERVED.has(owner)) continue;
    keys.push({ name, owner, role, hash });
  }
  return keys;
}

function configuredKeys(source = ""): ConfiguredKey[] {
  if (parsed?.source !== source) parsed = { source, keys: parseApiKeys(source) };
  return parsed.keys;
}

export const authenticate = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  // Surrounding whitespace is never part of a key (a pasted key often carries some).
  const presented = c.req.header(API_KEY_HEADER)?.trim();
  if (!presented) throw new ApiError(401, "UNAUTHORIZED", MISSING_KEY);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(presented)));
  let matched: ConfiguredKey | undefined;
  // Compare against every key, constant-time each, so timing tells nothing about which matched.
  for (const key of configuredKeys(c.env.API_KEYS)) {
    if (crypto.subtle.timingSafeEqual(key.hash, digest) && !matched) matched = key;
  }
  if (!matched) throw new ApiError(401, "UNAUTHORIZED", "unknown API key");
  const { role, name, owner } = matched;
  // Named before its role is judged: a refusal is an answer to a key too (its bookmark).
  c.set("keyName", name);
  if (role !== "admin" && !isRead(c)) {
    const allowed = writersOf(c);
    if (!allowed) {
      throw new ApiError(403, "FORBIDDEN", `a ${role} key cannot make changes; use an admin key`);
    }
    if (!allowed.roles.includes(role)) throw refused(role, allowed.what, allowed.roles);
  }
  // Before the body is read: a read key learns nothing from an admin-only POST (a simulation).
  const adminOnly = adminOnlyAction(c);
  if (role !== "admin" && adminOnly) throw refused(role, adminOnly);
  c.set("role", role);
  c.set("scope", scopeOf(role));
  c.set("keyOwner", owner);
  await next();
};

const refused = (role: Role, what: string, others: readonly Role[] = []) =>
  new ApiError(
    403,
    "FORBIDDEN",
    `a ${role} key cannot ${what}; use ${["an admin", ...others.map((r) => `a ${r}`)].join(" or ")} key`,
  );

/** The roles besides admin that each `allowWriters` middleware lets write, and what it guards. */
const WRITERS = new WeakMap<MiddlewareHandler<AppEnv>, { what: string; roles: readonly Role[] }>();

/** The writers of the route the request matched, if it declares some. */
const writersOf = (c: Context) =>
  matchedRoutes(c)
    .map((route) => WRITERS.get(route.handler as MiddlewareHandler<AppEnv>))
    .find((writers) => writers !== undefined);

/**
 * Route middleware for a write that keys of other roles than admin may make too: quotes, which
 * sales keys write and read keys answer for the buyer (docs/quotes.md §1). `authenticate` finds
 * it among the request's routes and refuses every other role, before any body is read; this
 * check stays for a route mounted without it.
 */
export const allowWriters = (what: string, ...roles: Role[]): MiddlewareHandler<AppEnv> => {
  const guard: MiddlewareHandler<AppEnv> = async (c, next) => {
    if (c.var.role !== "admin" && !roles.includes(c.var.role))
      throw refused(c.var.role, what, roles);
    await next();
  };
  WRITERS.set(guard, { what, roles });
  return guard;
};

/** What each `requireAdmin` middleware guards, so `authenticate` can find it among a request's routes. */
const ADMIN_ONLY = new WeakMap<MiddlewareHandler<AppEnv>, string>();

/** The action of the admin-only route the request matched, if it matched one. */
const adminOnlyAction = (c: Context) =>
  matchedRoutes(c)
    .map((route) => ADMIN_ONLY.get(route.handler as MiddlewareHandler<AppEnv>))
    .find((what) => what !== undefined);

/**
 * Route middleware for reads that only an admin key may make (the audit trail, the lint, the
 * publish simulation). `authenticate` already refuses other keys on such a route, before any
 * body is read; this check stays for a route mounted without it.
 */
export const requireAdmin = (what: string): MiddlewareHandler<AppEnv> => {
  const guard: MiddlewareHandler<AppEnv> = async (c, next) => {
    if (c.var.role !== "admin") throw refused(c.var.role, what);
    await next();
  };
  ADMIN_ONLY.set(guard, what);
  return guard;
};

/**
 * What a key of `role` may see (docs/api/access.md §18), set once per request as `c.var.scope`:
 * admin keys see everything, cost, margin, accruals and pocket price in price answers, COST
 * pricelists and ACCRUAL trade conditions included; read and sales keys none of those
 * (src/db/visibility.ts writes the rule).
 */
export const scopeOf = (role: Role): Visibility => visibilityOf(role === "admin");

/**
 * Whether the request's key sees a quote's `marginBp` (docs/quotes.md §2): admin and sales keys,
 * who judge and approve quotes; never a read key. Cost itself stays admin-only (`scopeOf`).
 */
export const seesQuoteMargins = (c: { var: { role: Role } }): boolean => c.var.role !== "read";
