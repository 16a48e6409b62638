import type { Bindings, WebhookMessage } from "../http/env";
import { engineDb } from "./config";
import { dueWebhooks } from "./store";

/** The Cron Trigger of the sweep (wrangler.toml): every minute. */
export const SWEEP_CRON = "* * * * *";

/**
 * Finds every active webhook that is behind the feed, not in backoff and not being delivered,
 * and queues a run for it: a write whose message was lost (or never sent) is delivered within a
 * minute anyway. Returns how many were queued.
 */
export async function sweepWebhooks(env: Bindings, now: number): Promise<number> {
  if (!env.WEBHOOK_QUEUE) return 0;
  const due = await dueWebhooks(engineDb(env), now);
  const messages = due.map((webhookId) => ({
    body: { type: "deliver", webhookId } as WebhookMessage,
  }));
  // sendBatch takes at most 100 messages.
  for (let i = 0; i < messages.length; i += 100) {
    await env.WEBHOOK_QUEUE.sendBatch(messages.slice(i, i + 100));
  }
  return due.length;
}
