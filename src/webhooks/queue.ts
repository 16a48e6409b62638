import type { Db } from "../db/client";
import type { Bindings, WebhookMessage } from "../http/env";
import { loggable } from "../core/errors";
import { deliveryConfig, engineDb } from "./config";
import { deliver, type DeliveryConfig, type Outcome } from "./deliver";
import { dueWebhooks, noteError } from "./store";

/** Queues whose name ends so are dead-letter queues (wrangler.toml `dead_letter_queue`). */
export const DEAD_LETTER_SUFFIX = "-dlq";

type Messages = readonly Message<WebhookMessage>[];

/** The next step after a run, for the messages that asked for it. */
async function follow(env: Bindings, id: number, outcome: Outcome, messages: Messages) {
  const queue = env.WEBHOOK_QUEUE!;
  const [owner, ...others] = messages;
  for (const message of others) message.ack();
  if (outcome.kind === "failed") {
    // The queue's own retry (with the backoff as delay), or a first retry message.
    if (owner) owner.retry({ delaySeconds: outcome.retryInSeconds });
    else
      await queue.send(
        { type: "deliver", webhookId: id },
        { delaySeconds: outcome.retryInSeconds },
      );
    return;
  }
  if (outcome.kind === "more") await queue.send({ type: "deliver", webhookId: id });
  owner?.ack();
}

async function runOne(
  db: Db,
  env: Bindings,
  config: DeliveryConfig,
  id: number,
  messages: Messages,
) {
  try {
    await follow(env, id, await deliver(db, id, config), messages);
    return true;
  } catch (err) {
    console.error(
      JSON.stringify({ message: "webhook delivery failed", webhookId: id, error: loggable(err) }),
    );
    // Thrown, not answered: the queue retries the messages, and after max_retries dead-letters them.
    for (const message of messages) message.retry();
    return false;
  }
}

/**
 * The Worker's `queue` handler for the webhook queue: `deliver` messages run their webhook;
 * `changes` messages (however many in the batch) run every webhook that is due. Each webhook
 * runs once per batch, the webhooks side by side.
 */
export async function handleWebhookQueue(batch: MessageBatch<WebhookMessage>, env: Bindings) {
  if (batch.queue.endsWith(DEAD_LETTER_SUFFIX)) return handleDeadLetters(batch, env);
  const db = engineDb(env);
  const config = deliveryConfig(env);
  const byWebhook = new Map<number, Message<WebhookMessage>[]>();
  const nudges: Message<WebhookMessage>[] = [];
  for (const message of batch.messages) {
    const body = message.body;
    if (body.type === "deliver")
      byWebhook.set(body.webhookId, [...(byWebhook.get(body.webhookId) ?? []), message]);
    else nudges.push(message);
  }
  if (nudges.length) {
    for (const id of await dueWebhooks(db, Date.now()))
      if (!byWebhook.has(id)) byWebhook.set(id, []);
  }
  const results = await Promise.all(
    [...byWebhook].map(([id, messages]) => runOne(db, env, config, id, messages)),
  );
  for (const message of nudges) {
    if (results.every(Boolean)) message.ack();
    else message.retry();
  }
}

/**
 * Messages that failed max_retries times (the handler kept throwing): noted on their webhook and
 * logged. Nothing is lost: the webhook's cursor has not moved, and the sweep sends it again.
 */
async function handleDeadLetters(batch: MessageBatch<WebhookMessage>, env: Bindings) {
  const db = engineDb(env);
  for (const message of batch.messages) {
    console.error(
      JSON.stringify({
        message: "webhook message dead-lettered",
        body: message.body,
        attempts: message.attempts,
      }),
    );
    if (message.body.type === "deliver") {
      await noteError(
        db,
        message.body.webhookId,
        "a delivery kept failing inside the service and went to the dead-letter queue; the sweep tries again every minute",
      );
    }
    message.ack();
  }
}
