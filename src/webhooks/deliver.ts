import { readChanges, type Change, type Expired } from "../feed/read";
import type { Db } from "../db/client";
import { SEES_ALL } from "../db/visibility";
import type { ChangeEvent } from "../pricing/vocabulary";
import { refusal, type Resolve } from "./safety";
import { DELIVERY_ID_HEADER, SIGNATURE_HEADER, signatureHeader } from "./sign";
import {
  claim,
  isBehind,
  recordAttempt,
  release,
  update,
  type DeliveryValues,
  type WebhookRow,
} from "./store";

/*
 * One webhook's deliveries (docs/api/feed-and-webhooks.md §14.2): under a lease, so one consumer at
 * a time sends its batches and they arrive in feed order; each batch is the changes after the
 * webhook's cursor that its events select, at most BATCH_SIZE, with an idempotency id naming its
 * range of the feed. The range is stored before the first attempt, so every retry sends the same
 * batch under the same id. The cursor moves only after a 2xx: delivery is at least once.
 */

export const BATCH_SIZE = 100;
export const TIMEOUT_MS = 10_000;
/** Consecutive failed attempts after which the webhook is paused (active = false). */
export const PAUSE_AFTER = 16;
export const MAX_BACKOFF_SECONDS = 3600;
/** A run stops after this long and hands the rest to a new message (a batch timeout is 10 s). */
const BUDGET_MS = 20_000;
/** What is kept of a receiver's answer. */
export const RESPONSE_BYTES = 1024;

export interface DeliveryConfig {
  allowed: Set<string>;
  retryBaseSeconds: number;
  resolve?: Resolve;
}

export type Outcome =
  | { kind: "skipped" }
  | { kind: "done" }
  | { kind: "more" }
  | { kind: "failed"; retryInSeconds: number }
  | { kind: "paused" };

/** The wait after the n-th failure in a row: base, doubling, at most an hour. */
export const backoffSeconds = (failures: number, base: number) =>
  Math.min(base * 2 ** (failures - 1), MAX_BACKOFF_SECONDS);

interface Batch {
  after: number;
  upTo: number;
  changes: Change[];
}

export const deliveryId = (hook: WebhookRow, batch: Batch) =>
  `whd_${hook.id}_${batch.after}_${batch.upTo}`;

/** The next batch: the stored range of a batch in flight, else the next changes; undefined when caught up. */
async function nextBatch(db: Db, hook: WebhookRow): Promise<Batch | Expired | undefined> {
  const events = JSON.parse(hook.events) as ChangeEvent[];
  const until = hook.pendingUpTo ?? undefined;
  // Webhooks are registered by admin keys and get every change (docs/api/access.md §18).
  const query = { after: hook.cursor, limit: BATCH_SIZE, events, until };
  const page = await readChanges(db, query, SEES_ALL);
  if ("expired" in page) return page;
  if (until === undefined && page.next <= hook.cursor) return undefined;
  return { after: hook.cursor, upTo: until ?? page.next, changes: page.changes };
}

/** The first RESPONSE_BYTES of an answer; the rest is never read. */
async function firstBytes(res: Response): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < RESPONSE_BYTES) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  await reader.cancel().catch(() => undefined);
  const bytes = new Uint8Array(size);
  chunks.reduce((offset, chunk) => (bytes.set(chunk, offset), offset + chunk.byteLength), 0);
  return new TextDecoder().decode(bytes.subarray(0, RESPONSE_BYTES));
}

const cut = (text: string) => (text.length > 200 ? `${text.slice(0, 200)}…` : text);

function secretsOf(hook: WebhookRow, now: number) {
  const previous = hook.previousSecret && (hook.previousSecretExpiresAt ?? 0) > now;
  return previous ? [hook.secret, hook.previousSecret!] : [hook.secret];
}

type Attempt = Omit<
  DeliveryValues,
  "deliveryId" | "attempt" | "fromCursor" | "toCursor" | "changes"
>;

/** One POST of a batch: what happened, as the deliveries read-out shows it. */
async function post(
  hook: WebhookRow,
  batch: Batch,
  id: string,
  config: DeliveryConfig,
): Promise<Attempt> {
  const at = Date.now();
  const refused = await refusal(hook.url, config.allowed, config.resolve);
  if (refused) return { at, outcome: "REFUSED", error: `not sent: the URL ${refused}` };
  const body = JSON.stringify({ id, webhookId: hook.id, changes: batch.changes, next: batch.upTo });
  const headers = {
    "content-type": "application/json",
    "user-agent": "edge-pricing-webhooks/1",
    [DELIVERY_ID_HEADER]: id,
    [SIGNATURE_HEADER]: await signatureHeader(secretsOf(hook, at), body, Math.floor(at / 1000)),
  };
  try {
    const res = await fetch(hook.url, {
      method: "POST",
      headers,
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const responseBody = await firstBytes(res);
    const ok = res.status >= 200 && res.status < 300;
    const error = ok
      ? null
      : `the receiver answered ${res.status}${res.status < 400 ? " (redirects are not followed)" : ""}`;
    return {
      at,
      outcome: ok ? "DELIVERED" : "FAILED",
      status: res.status,
      error,
      responseBody,
      latencyMs: Date.now() - at,
    };
  } catch (err) {
    const timeout = err instanceof Error && err.name === "TimeoutError";
    const error = timeout
      ? `no answer within ${TIMEOUT_MS / 1000} s`
      : `the request failed: ${cut(String((err as Error)?.message ?? err))}`;
    return { at, outcome: "FAILED", error, latencyMs: Date.now() - at };
  }
}

/** Sends one batch and records the attempt; the webhook's new state, or the outcome that ends the run. */
async function send(
  db: Db,
  hook: WebhookRow,
  leaseId: string,
  batch: Batch,
  config: DeliveryConfig,
) {
  const id = deliveryId(hook, batch);
  const result = await post(hook, batch, id, config);
  const attempt = {
    ...result,
    deliveryId: id,
    attempt: hook.failures + 1,
    fromCursor: batch.after,
    toCursor: batch.upTo,
    changes: batch.changes.length,
  };
  if (result.outcome === "DELIVERED") {
    const set = {
      cursor: batch.upTo,
      pendingUpTo: null,
      failures: 0,
      retryAt: null,
      lastError: null,
      lastDeliveredAt: result.at,
    };
    return (await recordAttempt(db, hook, leaseId, attempt, set)) ?? ({ kind: "done" } as const);
  }
  const failures = hook.failures + 1;
  const delay = backoffSeconds(failures, config.retryBaseSeconds);
  const paused = failures >= PAUSE_AFTER;
  await recordAttempt(db, hook, leaseId, attempt, {
    failures,
    retryAt: result.at + delay * 1000,
    lastError: result.error,
    ...(paused ? { active: false, pausedAt: result.at } : {}),
  });
  return paused
    ? ({ kind: "paused" } as const)
    : ({ kind: "failed", retryInSeconds: delay } as const);
}

/** Batches until caught up, failed, out of time, or the lease is lost. */
async function run(
  db: Db,
  hook: WebhookRow,
  leaseId: string,
  config: DeliveryConfig,
): Promise<Outcome> {
  const deadline = Date.now() + BUDGET_MS;
  let current: WebhookRow | undefined = hook;
  while (current && Date.now() < deadline) {
    const batch = await nextBatch(db, current);
    if (batch === undefined) return { kind: "done" };
    if ("expired" in batch) {
      // Changes older than the retention are gone: the webhook goes on from the oldest kept.
      const lastError = `the changes after cursor ${current.cursor} up to ${batch.expired} expired before they were delivered`;
      current = await update(db, current.id, leaseId, {
        cursor: batch.expired,
        pendingUpTo: null,
        lastError,
      });
      continue;
    }
    if (!batch.changes.length) {
      // Nothing this webhook subscribes to: move past it without a POST.
      current = await update(db, current.id, leaseId, { cursor: batch.upTo, pendingUpTo: null });
      continue;
    }
    if (current.pendingUpTo === null) {
      current = await update(db, current.id, leaseId, { pendingUpTo: batch.upTo });
      if (!current) break;
    }
    const sent = await send(db, current, leaseId, batch, config);
    if ("kind" in sent) return sent;
    current = sent;
  }
  return current ? { kind: "more" } : { kind: "done" };
}

/**
 * Delivers what webhook `id` has not received yet, when it is active, due and not being delivered
 * by another consumer ("skipped" otherwise). "more" when changes remain (out of time, or written
 * while the run ended): the caller sends a new message for them.
 */
export async function deliver(db: Db, id: number, config: DeliveryConfig): Promise<Outcome> {
  const leaseId = crypto.randomUUID();
  const hook = await claim(db, id, leaseId, Date.now());
  if (!hook) return { kind: "skipped" };
  let outcome: Outcome;
  try {
    outcome = await run(db, hook, leaseId, config);
  } finally {
    await release(db, id, leaseId);
  }
  // A write that committed while the lease was held found it taken and dropped its message.
  if (outcome.kind === "done" && (await isBehind(db, id))) return { kind: "more" };
  return outcome;
}
