import { databaseStalled } from "../../core/errors";
import { holdsD1 } from "../holding";

/**
 * Price lookups through a D1 stall (docs/api/prices.md §9.1, docs/operations.md
 * "Configuration"). A lookup whose context the isolate holds checks with D1 that the data is
 * still of the version it holds; when that check takes longer than `stallMs`, the lookup answers
 * from what the isolate holds (reader.ts `throughStall`; the HTTP side marks the answer with
 * `x-price-stale: age=<s>` and `cache-control: no-store`, resources/prices/prices.cache.ts), as
 * long as the data was last confirmed current at most `staleMaxS` seconds ago;
 * past that, 503 DATABASE_STALLED with Retry-After. While this isolate's own long D1 work is in
 * flight (a change request's submit, approve or cancel, a simulation's reads; db/holding.ts), the
 * bound is `busyStallMs`: that work holds D1, and the check waits behind it (§9.2). The check is
 * not abandoned: its late answer still refreshes the caches (`background`, the request's
 * `waitUntil`). Only the two price lookups pass a policy; writes and every other read wait for D1
 * as they always do.
 */
export interface StallPolicy {
  /** How long the freshness check may take before a held context answers (D1_STALL_MS). */
  stallMs: number;
  /** The bound while this isolate's own long D1 work is in flight (D1_BUSY_STALL_MS, ≤ stallMs). */
  busyStallMs: number;
  /** The oldest a stale answer's data may be, in seconds (D1_STALE_MAX_S). */
  staleMaxS: number;
  /** Keeps the late freshness check running after the answer (the request's `waitUntil`). */
  background: (work: Promise<unknown>) => void;
}

export const DEFAULT_STALL_MS = 2000;
export const DEFAULT_BUSY_STALL_MS = 20;
export const DEFAULT_STALE_MAX_S = 60;
/** The Retry-After of the 503: D1 stalls seen so far last seconds, not minutes. */
export const STALLED_RETRY_AFTER_S = 5;

const wholeIn = (value: string | undefined, min: number, max: number) => {
  const n = Number(value?.trim() || Number.NaN);
  return Number.isInteger(n) && n >= min && n <= max ? n : undefined;
};

/**
 * The policy of `D1_STALL_MS` (a whole number of ms 1–60000, else 2000), `D1_BUSY_STALL_MS` (the
 * same range, else 20; never above D1_STALL_MS) and `D1_STALE_MAX_S` (a whole number of seconds
 * 0–3600, else 60; 0 turns stale answers off: every lookup waits for D1).
 */
export function stallPolicy(
  env: { D1_STALL_MS?: string; D1_BUSY_STALL_MS?: string; D1_STALE_MAX_S?: string },
  background: StallPolicy["background"],
): StallPolicy | undefined {
  const staleMaxS = wholeIn(env.D1_STALE_MAX_S, 0, 3600) ?? DEFAULT_STALE_MAX_S;
  if (staleMaxS === 0) return undefined;
  const stallMs = wholeIn(env.D1_STALL_MS, 1, 60_000) ?? DEFAULT_STALL_MS;
  const busyStallMs = Math.min(
    wholeIn(env.D1_BUSY_STALL_MS, 1, 60_000) ?? DEFAULT_BUSY_STALL_MS,
    stallMs,
  );
  return { stallMs, busyStallMs, staleMaxS, background };
}

/** The 503 of a stalled lookup whose held data is too old to answer with. */
export const stalled = (policy: StallPolicy, boundMs: number) =>
  databaseStalled(boundMs, policy.staleMaxS, STALLED_RETRY_AFTER_S);

/**
 * `work`, or the bound in ms it took longer than: `stallMs`, or `busyStallMs` once this isolate's
 * own long D1 work is in flight (already when the wait begins, or since: a check sent just before
 * an approve waits behind the approve's batch too). The wait looks every `busyStallMs`, with a
 * timer of its own request (a Worker must not resume one request from another's). Work goes on
 * past the bound; its rejection is the caller's to handle. The timer ends with the wait.
 */
export async function within<T>(
  work: Promise<T>,
  policy: StallPolicy,
): Promise<{ value: T } | { stalledMs: number }> {
  let timer: ReturnType<typeof setInterval> | undefined;
  const start = Date.now();
  const late = new Promise<{ stalledMs: number }>((resolve) => {
    timer = setInterval(() => {
      if (holdsD1()) resolve({ stalledMs: policy.busyStallMs });
      else if (Date.now() - start >= policy.stallMs) resolve({ stalledMs: policy.stallMs });
    }, policy.busyStallMs);
  });
  try {
    return await Promise.race([work.then((value) => ({ value })), late]);
  } finally {
    clearInterval(timer);
  }
}
