import { createRoute } from "@hono/zod-openapi";
import { errors, IdParams, json, jsonBody } from "../../http/openapi";
import { deliveryList, webhookList } from "./webhooks.list";
import {
  DeliveryListSchema,
  MAX_WEBHOOKS,
  WebhookCreateSchema,
  WebhookListSchema,
  WebhookSchema,
  WebhookUpdateSchema,
  WebhookWithSecretSchema,
} from "./webhooks.schemas";

/** The group of this resource's operations in /doc. */
export const tag = {
  name: "Webhooks",
  description:
    "Signed pushes of the change feed to your receivers, over Cloudflare Queues (admin keys only)",
};

const tags = [tag.name];

const DELIVERY =
  "Every committed write queues a message; the Worker's queue consumer POSTs the changes after " +
  "the webhook's cursor that its events select, in feed order, up to 100 per request, with the " +
  "batch's idempotency id (the same on every retry) as `id` in the signed body, which receivers " +
  "deduplicate on, and in `x-webhook-id` (not signed), and `x-webhook-signature: " +
  't=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. A 2xx moves the cursor; anything else is ' +
  "retried with backoff (30 s doubling, at most 1 h); 16 failures in a row pause the webhook " +
  "(active false, pausedAt set). Delivery is at least once, in order (docs/api/feed-and-webhooks.md §14).";

export const list = webhookList.route({
  method: "get",
  path: "/v1/api/webhooks",
  tags,
  operationId: "listWebhooks",
  summary: "List webhooks (admin keys only)",
  description: "Newest first by default, each with its delivery state; never the secret.",
  responses: { 200: json(WebhookListSchema, "A page of webhooks"), ...errors(400, 401, 403) },
});

export const create = createRoute({
  method: "post",
  path: "/v1/api/webhooks",
  tags,
  operationId: "createWebhook",
  summary: "Create a webhook",
  description:
    `${DELIVERY} The answer shows the signing secret, once. The URL must be https on a host that ` +
    "resolves only to public addresses: none private, loopback, link-local or in another " +
    "special-purpose block of the IANA registries (400 on body.url otherwise, naming the block), " +
    "unless its host is listed in WEBHOOK_ALLOWED_HOSTS. A deployment has at most " +
    `${MAX_WEBHOOKS} webhooks, paused ones included (409 TOO_MANY_WEBHOOKS beyond).`,
  request: { body: jsonBody(WebhookCreateSchema) },
  responses: {
    201: json(WebhookWithSecretSchema, "The webhook and its secret (shown only here)"),
    ...errors(400, 401, 403, 409, 413, 415),
  },
});

export const get = createRoute({
  method: "get",
  path: "/v1/api/webhooks/{id}",
  tags,
  operationId: "getWebhook",
  summary: "Get a webhook and its delivery state (admin keys only)",
  description:
    "`cursor`, `failures`, `nextAttemptAt`, `pausedAt` and `lastError` show how delivery goes.",
  request: { params: IdParams },
  responses: { 200: json(WebhookSchema, "The webhook"), ...errors(400, 401, 403, 404) },
});

export const update = createRoute({
  method: "patch",
  path: "/v1/api/webhooks/{id}",
  tags,
  operationId: "updateWebhook",
  summary: "Change a webhook, pause or resume it",
  description:
    "`active: true` resumes a paused webhook from its cursor: nothing written meanwhile is " +
    "skipped (as long as the audit retention keeps it). A new URL is checked like on create.",
  request: { params: IdParams, body: jsonBody(WebhookUpdateSchema) },
  responses: {
    200: json(WebhookSchema, "The updated webhook"),
    ...errors(400, 401, 403, 404, 413, 415),
  },
});

export const remove = createRoute({
  method: "delete",
  path: "/v1/api/webhooks/{id}",
  tags,
  operationId: "deleteWebhook",
  summary: "Delete a webhook",
  description: "Its delivery attempts go with it. A delivery already under way may still arrive.",
  request: { params: IdParams },
  responses: { 204: { description: "Deleted" }, ...errors(400, 401, 403, 404, 413) },
});

export const rotate = createRoute({
  method: "post",
  path: "/v1/api/webhooks/{id}/rotate-secret",
  tags,
  operationId: "rotateWebhookSecret",
  summary: "Give a webhook a new signing secret",
  description:
    "Answers the new secret, once. For 24 hours deliveries carry two `v1` signatures, with the " +
    "new and the previous secret, so the receiver can switch without losing a delivery.",
  request: { params: IdParams },
  responses: {
    200: json(WebhookWithSecretSchema, "The webhook and its new secret (shown only here)"),
    ...errors(400, 401, 403, 404, 413, 415),
  },
});

export const deliveries = deliveryList.route({
  method: "get",
  path: "/v1/api/webhooks/{id}/deliveries",
  tags,
  operationId: "listWebhookDeliveries",
  summary: "List a webhook's delivery attempts (admin keys only)",
  description:
    "Newest first: each attempt's batch (idempotency id, cursor range, number of changes), " +
    "outcome, HTTP status, error, the first 1 KB of the answer and the latency. Kept 30 days.",
  request: { params: IdParams },
  responses: {
    200: json(DeliveryListSchema, "A page of delivery attempts"),
    ...errors(400, 401, 403, 404),
  },
});
