import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./env";
import { ApiError } from "./errors";

/**
 * The period of the `RATE_LIMITER` binding in wrangler.toml (`[ratelimits.simple] period`), in
 * seconds: the binding does not expose it, so keep the two equal. It is the `Retry-After`: the
 * counter starts afresh within one period.
 */
export const RATE_LIMIT_PERIOD_SECONDS = 60;

let warned = false;
/** One line per isolate, not one per request. */
function warnOnce(message: string) {
  if (warned) return;
  warned = true;
  console.warn(JSON.stringify({ warning: message }));
}

/**
 * Per-API-key rate limiting with the Workers Rate Limiting binding, after authentication, keyed
 * by the key's name (never the key). Over the limit → 429 RATE_LIMITED with Retry-After.
 * Without the binding (a deploy that leaves it out) requests are not limited, with one warning
 * in the log; if the limiter itself fails, the request goes through (pricing stays available) and
 * the failure is logged.
 */
export const rateLimit = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const limiter = c.env.RATE_LIMITER;
  if (!limiter) {
    warnOnce("no RATE_LIMITER binding: requests are not rate limited");
    return next();
  }
  let allowed = true;
  try {
    allowed = (await limiter.limit({ key: c.var.keyName })).success;
  } catch (err) {
    console.warn(
      JSON.stringify({
        requestId: c.var.requestId,
        warning: "rate limiter failed; request let through",
        error: err instanceof Error ? err.name : typeof err,
      }),
    );
  }
  if (!allowed) {
    const seconds = RATE_LIMIT_PERIOD_SECONDS;
    throw new ApiError(
      429,
      "RATE_LIMITED",
      `too many requests for this API key; retry after ${seconds} seconds`,
      undefined,
      { "retry-after": String(seconds) },
    );
  }
  await next();
};
