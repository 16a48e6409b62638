import { app } from "./app";
import { createDb, DbMeter } from "./db/client";
import { sweepStagedAttempts } from "./db/price-rows";
import type { Bindings } from "./http/env";
import { applyRetention, retentionDays } from "./jobs/retention";
import { recordEffectiveChangeRequests } from "./resources/change-requests/change-requests.service";
import type { WebhookMessage } from "./http/env";
import { handleWebhookQueue } from "./webhooks/queue";
import { SWEEP_CRON, sweepWebhooks } from "./webhooks/sweep";

/** The daily retention (src/jobs/retention.ts, docs/operations.md "Retention"). */
async function retention(controller: ScheduledController, env: Bindings) {
  const days = retentionDays(env.AUDIT_RETENTION_DAYS);
  const deleted = await applyRetention(
    createDb(env.DB, new DbMeter()),
    controller.scheduledTime,
    days,
  );
  console.log(
    JSON.stringify({
      message: "retention",
      cron: controller.cron,
      scheduledTime: new Date(controller.scheduledTime).toISOString(),
      auditRetentionDays: days,
      deleted,
    }),
  );
}

/**
 * The Worker: the app answers requests; the webhook queue's consumer delivers the change feed
 * (src/webhooks, docs/api/feed-and-webhooks.md §14); the Cron Triggers of wrangler.toml run, every
 * minute, the change requests that became effective (`recordEffectiveChangeRequests` of
 * src/resources/change-requests, docs/api/change-requests.md §17.6), the webhook sweep and the
 * sweep of the rows staged by applies that never reached their batch (`sweepStagedAttempts`,
 * §17.7), and daily the retention. Their database handles have no audit source, so what they
 * write (delivery state, deleted old entries) is not itself recorded as entries.
 */
export default {
  fetch: app.fetch,
  queue: handleWebhookQueue,
  async scheduled(controller, env) {
    if (controller.cron === SWEEP_CRON) {
      // First what became effective, so the sweep right after delivers its feed entries.
      const db = createDb(env.DB, new DbMeter());
      const effective = await recordEffectiveChangeRequests(db, controller.scheduledTime);
      if (effective.length) {
        console.log(JSON.stringify({ message: "change requests effective", ids: effective }));
      }
      const queued = await sweepWebhooks(env, Date.now());
      if (queued) console.log(JSON.stringify({ message: "webhook sweep", queued }));
      await sweepStagedAttempts(db, controller.scheduledTime);
      return;
    }
    await retention(controller, env);
  },
} satisfies ExportedHandler<Bindings, WebhookMessage>;
