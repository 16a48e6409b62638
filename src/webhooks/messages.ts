/**
 * Messages on the webhook queue (wrangler.toml `pricing-webhooks`). `changes`: a write committed
 * (sent by every write, src/webhooks/announce.ts); the consumer delivers to every webhook that is
 * due. `deliver`: one webhook's run, sent for its retries (with the backoff as delay), by the
 * Cron Trigger's sweep, and when a run ends with changes left.
 */
export type WebhookMessage = { type: "changes" } | { type: "deliver"; webhookId: number };
