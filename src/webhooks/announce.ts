import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/env";
import { loggable } from "../core/errors";

/**
 * After a request that committed a write, one `changes` message on the webhook queue, sent in
 * `waitUntil`: the answer does not wait for it, and a failed send cannot fail the write (the
 * sweep of the Cron Trigger finds what it would have announced). Without the queue binding,
 * nothing is sent.
 */
export const announceChanges = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  await next();
  const queue = c.env.WEBHOOK_QUEUE;
  if (!queue || c.var.meter.writes === 0) return;
  const sent = queue.send({ type: "changes" }).catch((err: unknown) => {
    console.error(
      JSON.stringify({
        message: "change announcement not sent",
        requestId: c.var.requestId,
        error: loggable(err),
      }),
    );
  });
  try {
    c.executionCtx.waitUntil(sent);
  } catch {
    // No execution context (app.request in a script): the send still runs, unawaited.
  }
};
