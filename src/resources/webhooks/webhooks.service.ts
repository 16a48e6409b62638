import { feedBounds } from "../../feed/read";
import type { Db } from "../../db/client";
import { ApiError, invalid, notFound, type FieldIssue } from "../../core/errors";
import { CHANGED, optimistically, patchOf } from "../../db/optimistic";
import { refusal, type TargetRules } from "../../webhooks/safety";
import { newSecret } from "../../webhooks/sign";
import {
  findWebhook,
  insertWebhook,
  replaceSecret,
  updateWebhook as writeWebhook,
  type WebhookRow,
} from "./webhooks.repo";
import { MAX_WEBHOOKS, type WebhookCreate, type WebhookUpdate } from "./webhooks.schemas";

/**
 * How long a rotated secret keeps signing beside the new one (docs/api/feed-and-webhooks.md §14.3).
 */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

const tooManyWebhooks = () =>
  new ApiError(
    409,
    "TOO_MANY_WEBHOOKS",
    `this deployment has ${MAX_WEBHOOKS} webhooks, the most it may have; delete one before ` +
      "creating another (docs/operations.md, Webhooks)",
  );

export const missingWebhook = (id: number) => notFound(`webhook ${id} not found`);

/**
 * The URL may receive webhooks (docs/api/feed-and-webhooks.md §14.5), or a 400 on body.url saying
 * why not.
 */
async function checkUrl(url: string, rules: TargetRules) {
  const reason = await refusal(url, rules.allowed, rules.resolve);
  if (reason) throw invalid([{ path: "body.url", message: reason }]);
}

/**
 * Where a new webhook starts in the feed: after `after` if given (and still kept; 0 is the oldest
 * change kept, docs/api/feed-and-webhooks.md §14), else now.
 */
async function startCursor(db: Db, after: number | undefined) {
  const { oldest, newest } = await feedBounds(db);
  if (after === undefined) return newest;
  if (after === 0) return oldest;
  const issue = (message: string): FieldIssue => ({ path: "body.after", message });
  if (after < oldest) {
    throw invalid([issue(`is older than the retention; the oldest cursor served is ${oldest}`)]);
  }
  if (after > newest) throw invalid([issue(`is past the newest change (cursor ${newest})`)]);
  return after;
}

export async function createWebhook(db: Db, rules: TargetRules, input: WebhookCreate) {
  await checkUrl(input.url, rules);
  const cursor = await startCursor(db, input.after);
  const secret = newSecret();
  const row = await insertWebhook(db, MAX_WEBHOOKS, {
    url: input.url,
    events: JSON.stringify(input.events),
    active: input.active,
    secret,
    cursor,
  });
  if (!row) throw tooManyWebhooks();
  return { row, secret };
}

/** A resumed webhook starts afresh: no pause, no backoff, from where it stopped. */
const RESUMED = { failures: 0, retryAt: null, pausedAt: null } satisfies Partial<WebhookRow>;

export async function updateWebhook(db: Db, rules: TargetRules, id: number, input: WebhookUpdate) {
  const patch = patchOf(input);
  if (patch.url !== undefined) await checkUrl(patch.url, rules);
  const set: Partial<WebhookRow> = {
    ...(patch.url !== undefined ? { url: patch.url } : {}),
    ...(patch.events !== undefined ? { events: JSON.stringify(patch.events) } : {}),
    ...(patch.active !== undefined ? { active: patch.active } : {}),
    ...(patch.active === true ? RESUMED : {}),
    updatedAt: Date.now(),
  };
  const row = await writeWebhook(db, id, set);
  if (!row) throw missingWebhook(id);
  return row;
}

/** A new secret; the current one signs beside it for ROTATION_OVERLAP_MS. */
export const rotateSecret = (db: Db, id: number) =>
  optimistically(`webhook ${id}`, async () => {
    const current = await findWebhook(db, id);
    if (!current) throw missingWebhook(id);
    const secret = newSecret();
    const now = Date.now();
    // Only over the secret just read: two rotations at once must not drop the first one's secret.
    const row = await replaceSecret(db, id, current.secret, {
      secret,
      previousSecret: current.secret,
      previousSecretExpiresAt: now + ROTATION_OVERLAP_MS,
      updatedAt: now,
    });
    return row ? { row, secret } : CHANGED;
  });
