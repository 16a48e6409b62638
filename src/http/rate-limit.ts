import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv, Bindings } from "./env";
import { ApiError } from "../core/errors";
import { isRead } from "./read-only";

/**
 * The two limits, chosen by the route's role, never by the key's: storefront reads (GET, HEAD
 * and the routes marked `readOnly`, such as the price lookup POST) and management writes
 * (everything else, which only an admin key may call). An admin key's reads count against the
 * read limit, in a bucket of its own name. Each limit is a Workers Rate Limiting binding
 * (wrangler.toml `[[ratelimits]]`), counted per key name.
 *
 * The binding does not tell the Worker its period, which is the `Retry-After` (the count starts
 * afresh within one period): `periodVar` names the var that gives it when wrangler.toml sets
 * another period than the default here.
 */
export const RATE_LIMITS = {
  read: {
    binding: "RATE_LIMITER_READ",
    periodVar: "RATE_LIMIT_READ_PERIOD",
    defaultPeriod: 10,
    traffic: "reads",
    counted: "GET calls and price lookups",
  },
  admin: {
    binding: "RATE_LIMITER_ADMIN",
    periodVar: "RATE_LIMIT_ADMIN_PERIOD",
    defaultPeriod: 60,
    traffic: "writes",
    counted: "every call that changes data",
  },
} as const;

type RateLimitKind = keyof typeof RATE_LIMITS;

/** The binding's period from its var: 10 or 60 (the only periods the binding accepts), else the default. */
function ratePeriod(kind: RateLimitKind, env: Partial<Bindings>): number {
  const { periodVar, defaultPeriod } = RATE_LIMITS[kind];
  const value = env[periodVar]?.trim();
  return value === "10" || value === "60" ? Number(value) : defaultPeriod;
}

/** The 429's sentence: which limit, what it counts, and when to come back. */
export function rateLimitedDetail(kind: RateLimitKind, seconds: number): string {
  const { traffic, counted } = RATE_LIMITS[kind];
  return (
    `too many ${traffic} for this API key: its ${kind} limit (${counted}, counted per ` +
    `${seconds} seconds) is used up; retry after ${seconds} seconds`
  );
}

const warned = new Set<string>();
/** One line per isolate and message, not one per request. */
function warnOnce(message: string) {
  if (warned.has(message)) return;
  warned.add(message);
  console.warn(JSON.stringify({ warning: message }));
}

/** Whether the limiter lets the request through; a failing limiter does (pricing stays available). */
async function allowed(c: Context<AppEnv>, limiter: RateLimit): Promise<boolean> {
  try {
    return (await limiter.limit({ key: c.var.keyName })).success;
  } catch (err) {
    console.warn(
      JSON.stringify({
        requestId: c.var.requestId,
        warning: "rate limiter failed; request let through",
        error: err instanceof Error ? err.name : typeof err,
      }),
    );
    return true;
  }
}

/**
 * `RATE_LIMITS=off` turns every limit off, for load tests and fuzzers against a local service
 * (`npm run dev -- --no-rate-limits`, docs/operations.md "Rate limits"); any other value, or
 * none, leaves them on.
 */
export const rateLimitsOff = (env: Partial<Bindings>) =>
  env.RATE_LIMITS?.trim().toLowerCase() === "off";

/**
 * Per-API-key rate limiting, after authentication, keyed by the key's name (never the key), with
 * the read or the admin limit by the route's role. Over it → 429 RATE_LIMITED with Retry-After and
 * a sentence naming the limit. Without the binding (a deploy that leaves it out) that traffic is
 * not limited, with one warning in the log.
 */
export const rateLimit = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  if (rateLimitsOff(c.env)) {
    warnOnce("RATE_LIMITS is off: no request is rate limited");
    return next();
  }
  const kind: RateLimitKind = isRead(c) ? "read" : "admin";
  const { binding, traffic } = RATE_LIMITS[kind];
  const limiter = c.env[binding];
  if (!limiter) {
    warnOnce(`no ${binding} binding: ${traffic} are not rate limited`);
  } else if (!(await allowed(c, limiter))) {
    const seconds = ratePeriod(kind, c.env);
    throw new ApiError(429, "RATE_LIMITED", rateLimitedDetail(kind, seconds), undefined, {
      headers: { "retry-after": String(seconds) },
    });
  }
  await next();
};
