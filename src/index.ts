import { app } from "./app";
import { createDb, DbMeter } from "./lib/db";
import type { Bindings } from "./lib/env";
import { applyRetention, retentionDays } from "./lib/retention";

/**
 * The Worker: the app answers requests; the Cron Trigger of wrangler.toml runs the retention
 * (src/lib/retention.ts, docs/operations.md "Retention"). Its database handle has no audit source,
 * so deleting old entries is not itself recorded as entries.
 */
export default {
  fetch: app.fetch,
  async scheduled(controller, env) {
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
  },
} satisfies ExportedHandler<Bindings>;
