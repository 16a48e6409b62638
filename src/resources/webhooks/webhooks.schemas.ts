import { z } from "@hono/zod-openapi";
import { listOf } from "../../list";
import { IsoTimestamp } from "../../core/schemas";
import { CHANGE_EVENTS, DELIVERY_OUTCOMES } from "../../pricing/vocabulary";

const EVENT_LIST = CHANGE_EVENTS.join(", ");

/**
 * The most webhooks a deployment may have, paused ones included: every write fans out to each of
 * them, and the queue consumer runs them side by side (docs/operations.md, Webhooks says why 20).
 */
export const MAX_WEBHOOKS = 20;

const Url = z
  .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a URL") })
  .min(1, "must be an absolute https URL")
  .max(2048, "must be at most 2048 characters")
  .openapi({
    example: "https://erp.example.com/hooks/prices",
    description:
      "Where deliveries are POSTed: https, on a host that resolves only to public addresses (no " +
      "private, loopback, link-local or other special-purpose address, docs/api/feed-and-webhooks.md §14.5), unless " +
      "the host is in WEBHOOK_ALLOWED_HOSTS (then http too)",
  });

const Event = z.enum(CHANGE_EVENTS, { error: () => `must be one of ${EVENT_LIST}` });

const Events = z
  .array(Event, {
    error: (issue) => (issue.input === undefined ? "is required" : "must be a list of events"),
  })
  .min(1, "must name at least one event")
  .max(CHANGE_EVENTS.length * 4, "must name each event at most once")
  .transform((events) => CHANGE_EVENTS.filter((e) => events.includes(e)))
  .openapi({
    example: ["prices", "pricelists"],
    description: `The kinds of change to receive (docs/api/feed-and-webhooks.md §14.1): ${EVENT_LIST}`,
  });

const Active = z.boolean({ error: () => "must be true or false" });

const webhookExample = {
  id: 3,
  url: "https://erp.example.com/hooks/prices",
  events: ["prices", "pricelists"],
  active: true,
  cursor: 1811,
  failures: 0,
  nextAttemptAt: null,
  pausedAt: null,
  lastError: null,
  lastDeliveredAt: "2025-06-14T08:30:02.000Z",
  previousSecretExpiresAt: null,
  createdAt: "2025-06-01T00:00:00.000Z",
  updatedAt: "2025-06-01T00:00:00.000Z",
};

const instantOrNull = (description: string) => IsoTimestamp.nullable().openapi({ description });

export const WebhookSchema = z
  .object({
    id: z.number().int().openapi({ example: 3, description: "Assigned by the service" }),
    url: z.string().openapi({ example: webhookExample.url, description: "Where deliveries go" }),
    events: z
      .array(z.enum(CHANGE_EVENTS))
      .openapi({ description: "The kinds of change it receives" }),
    active: z.boolean().openapi({
      description:
        "Whether it receives deliveries. The service turns it off after too many failed " +
        "attempts in a row (`pausedAt` set); PATCH it back to true to resume where it stopped",
    }),
    cursor: z.number().int().openapi({
      example: 1811,
      description: "The feed cursor up to which everything it subscribes to was delivered",
    }),
    failures: z.number().int().openapi({
      example: 0,
      description: "Failed attempts since the last delivered batch (paused at 16)",
    }),
    nextAttemptAt: instantOrNull("After a failure: when the next attempt is due"),
    pausedAt: instantOrNull("When the service paused it after failing too often; null otherwise"),
    lastError: z.string().nullable().openapi({ description: "Why the last attempt failed" }),
    lastDeliveredAt: instantOrNull("When a batch was last accepted"),
    previousSecretExpiresAt: instantOrNull(
      "After a rotation: until when the previous secret still signs beside the new one",
    ),
    createdAt: IsoTimestamp.openapi({ description: "When the webhook was created" }),
    updatedAt: IsoTimestamp.openapi({ description: "When its settings last changed" }),
  })
  .openapi("Webhook", {
    description: "A receiver of the change feed, with its delivery state",
    example: webhookExample,
  });

const secretExample = "whsec_5f2c9e0b7a14d3e68c1f0a9b2d4e6f8071c3a5b7d9e1f20436587a9bcde0f123";

export const WebhookWithSecretSchema = WebhookSchema.extend({
  secret: z
    .string()
    .nullable()
    .openapi({
      example: secretExample,
      description:
        "The signing secret. Shown in this answer only: store it where your receiver can read it " +
        "(docs/api/feed-and-webhooks.md §14.3). null in a replay of the request (same Idempotency-Key, header " +
        "`idempotent-replayed: true`): the secret is never stored with the answer, so a client " +
        "that lost the first answer rotates the secret (POST /v1/api/webhooks/{id}/rotate-secret)",
    }),
}).openapi("WebhookWithSecret", {
  description:
    "A webhook and its new signing secret, answered once (a replay answers `secret: null`)",
  example: { ...webhookExample, secret: secretExample },
});

const AFTER_WORDING = `must be a whole number 0-${Number.MAX_SAFE_INTEGER} (a cursor of the change feed)`;

export const WebhookCreateSchema = z
  .strictObject({
    url: Url,
    events: Events,
    active: Active.default(true).openapi({ description: "Default true" }),
    after: z
      .number({ error: () => AFTER_WORDING })
      .int(AFTER_WORDING)
      .min(0, AFTER_WORDING)
      .max(Number.MAX_SAFE_INTEGER, AFTER_WORDING)
      .optional()
      .openapi({
        description:
          "Start after this feed cursor (0: from the oldest change still kept, also after the " +
          "retention has deleted older ones); default: the newest, so only changes written " +
          "after the webhook was created are delivered",
      }),
  })
  .openapi("WebhookCreate", {
    description: "A new webhook",
    example: { url: webhookExample.url, events: ["prices", "pricelists"] },
  });

export const WebhookUpdateSchema = z
  .strictObject({
    url: Url.optional(),
    events: Events.optional(),
    active: Active.optional().openapi({
      description:
        "false stops deliveries; true resumes them (also after a pause), from the cursor",
    }),
  })
  .openapi("WebhookUpdate", {
    description: "The fields to change; absent fields stay as they are",
    example: { active: true },
  });

export const WebhookListSchema = listOf(WebhookSchema, "WebhookList", {
  path: "/v1/api/webhooks",
  data: [webhookExample],
});

const deliveryExample = {
  id: 501,
  deliveryId: "whd_3_1790_1811",
  attempt: 1,
  at: "2025-06-14T08:30:01.000Z",
  fromCursor: 1790,
  toCursor: 1811,
  changes: 12,
  outcome: "DELIVERED",
  status: 200,
  error: null,
  responseBody: "ok",
  latencyMs: 84,
};

export const DeliverySchema = z
  .object({
    id: z.number().int().openapi({ example: 501, description: "Ascending in attempt order" }),
    deliveryId: z.string().openapi({
      example: deliveryExample.deliveryId,
      description: "The batch's idempotency id (the x-webhook-id header): the same on every retry",
    }),
    attempt: z
      .number()
      .int()
      .openapi({ example: 1, description: "1 for the first try of a batch" }),
    at: IsoTimestamp.openapi({ description: "When the attempt started" }),
    fromCursor: z
      .number()
      .int()
      .openapi({ description: "The batch holds the changes after this cursor" }),
    toCursor: z.number().int().openapi({ description: "… up to this one" }),
    changes: z.number().int().openapi({ description: "How many changes the batch carried" }),
    outcome: z.enum(DELIVERY_OUTCOMES).openapi({
      description:
        "DELIVERED (a 2xx answer), FAILED, or REFUSED (not sent: the URL failed the checks)",
    }),
    status: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "The receiver's HTTP status, if it answered" }),
    error: z.string().nullable().openapi({ description: "Why the attempt failed" }),
    responseBody: z.string().nullable().openapi({
      description: "The first 1 KB of the receiver's answer (nothing more is kept)",
    }),
    latencyMs: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "From sending to the answer, in ms" }),
  })
  .openapi("WebhookDelivery", {
    description: "One delivery attempt",
    example: deliveryExample,
  });

export const DeliveryListSchema = listOf(DeliverySchema, "WebhookDeliveryList", {
  path: "/v1/api/webhooks/3/deliveries",
  data: [deliveryExample],
});

export type WebhookCreate = z.infer<typeof WebhookCreateSchema>;
export type WebhookUpdate = z.infer<typeof WebhookUpdateSchema>;
