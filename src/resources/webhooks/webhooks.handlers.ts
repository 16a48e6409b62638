import { replayAs } from "../../http/idempotency";
import type { AppRouteHandler } from "../../http/router";
import { targetRules } from "../../webhooks/safety";
import {
  deleteWebhook,
  findWebhook,
  listDeliveries,
  listWebhooks,
  toDelivery,
  toWebhook,
  type WebhookRow,
} from "./webhooks.repo";
import type * as routes from "./webhooks.routes";
import { createWebhook, missingWebhook, rotateSecret, updateWebhook } from "./webhooks.service";

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const page = await listWebhooks(c.var.db, c.var.list);
  return c.json(c.var.list.envelope(page.rows.map(toWebhook), page.total), 200);
};

/**
 * The webhook with its secret, shown this once: a replay of the request (Idempotency-Key)
 * answers it with `secret: null`, and the idempotency store never holds it
 * (docs/api/resources.md §4.4).
 */
function withSecretOnce(c: Parameters<typeof replayAs>[0], row: WebhookRow, secret: string) {
  const webhook = toWebhook(row);
  replayAs(c, { ...webhook, secret: null });
  return { ...webhook, secret };
}

export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  const { row, secret } = await createWebhook(c.var.db, targetRules(c.env), c.req.valid("json"));
  return c.json(withSecretOnce(c, row, secret), 201);
};

export const get: AppRouteHandler<typeof routes.get> = async (c) => {
  const { id } = c.req.valid("param");
  const row = await findWebhook(c.var.db, id);
  if (!row) throw missingWebhook(id);
  return c.json(toWebhook(row), 200);
};

export const update: AppRouteHandler<typeof routes.update> = async (c) => {
  const { id } = c.req.valid("param");
  const row = await updateWebhook(c.var.db, targetRules(c.env), id, c.req.valid("json"));
  return c.json(toWebhook(row), 200);
};

export const remove: AppRouteHandler<typeof routes.remove> = async (c) => {
  const { id } = c.req.valid("param");
  if (!(await deleteWebhook(c.var.db, id))) throw missingWebhook(id);
  return c.body(null, 204);
};

export const rotate: AppRouteHandler<typeof routes.rotate> = async (c) => {
  const { row, secret } = await rotateSecret(c.var.db, c.req.valid("param").id);
  return c.json(withSecretOnce(c, row, secret), 200);
};

export const deliveries: AppRouteHandler<typeof routes.deliveries> = async (c) => {
  const { id } = c.req.valid("param");
  if (!(await findWebhook(c.var.db, id))) throw missingWebhook(id);
  const page = await listDeliveries(c.var.db, id, c.var.list);
  return c.json(c.var.list.envelope(page.rows.map(toDelivery), page.total), 200);
};
