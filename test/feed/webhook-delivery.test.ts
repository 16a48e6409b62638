import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  getQueueResult,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { CHANGE_EVENTS } from "../../src/pricing/vocabulary";
import {
  assignPricelistToChannel,
  createChannel,
  createCustomer,
  createCustomerGroup,
  createPricelist,
  createProduct,
  createBrand,
  createProductGroup,
  createPromotion,
  createTradeCondition,
} from "../factories";
import { call } from "../fuzz/worker";
import { api, created, uid } from "../shared/helpers";
import { acceptQuote, insertQuote } from "../shared/quote-rows";
import {
  head,
  RECEIVER,
  receivedAt,
  signedBy,
  until,
  type Delivery,
} from "../shared/webhook-helpers";

/**
 * Webhook delivery end to end (docs/api/feed-and-webhooks.md §14): writes through the API, the
 * Worker's real queue producer and consumer (Miniflare's local queues, retries after
 * WEBHOOK_RETRY_BASE_SECONDS = 1), and a receiver on 127.0.0.1 (test/receiver.setup.mjs) whose
 * answers the tests choose.
 */

/** The batches a receiver path took (2xx), once per idempotency id, when they reach `cursor`. */
const deliveredUpTo = (path: string, cursor: number, ms?: number) =>
  until(
    `deliveries up to ${cursor}`,
    async () => {
      const taken = (await receivedAt(path)).filter((r) => r.answered === 200 && !r.duplicate);
      const batches = taken.map((r) => JSON.parse(r.body) as Delivery);
      return batches.at(-1) && batches.at(-1)!.next >= cursor ? batches : undefined;
    },
    ms,
  );

/** The feed after `after`, whole. */
async function feedAfter(after: number) {
  const changes: { cursor: number }[] = [];
  for (let cursor = after; ;) {
    const res = await api("GET", `/v1/api/changes?after=${cursor}&limit=1000`);
    changes.push(...res.body.data);
    if (!res.body.hasMore) return changes;
    cursor = res.body.next;
  }
}

/** A write of every kind of pricing data. */
async function writeEveryKind() {
  const group = await createProductGroup();
  const brand = await createBrand();
  const product = await createProduct({ productGroupCode: group.code, brandCode: brand.code });
  const channel = await createChannel();
  const customerGroup = await createCustomerGroup();
  const customer = await createCustomer({
    customerGroupCodes: [customerGroup.code],
    channelCodes: [channel.code],
  });
  await api("POST", `/v1/api/channel/${channel.code}/customer-group`, {
    body: { customerGroupCodes: [customerGroup.code] },
  });
  const pricelist = await createPricelist();
  await api("PUT", `/v1/api/pricelist/${pricelist.id}/prices`, {
    body: { prices: [{ productCode: product.code, amount: 1000 }] },
  });
  await assignPricelistToChannel(channel.code, pricelist.id);
  await createTradeCondition({ productGroupCodes: [group.code], channelCodes: [channel.code] });
  await createPromotion({ productCodes: [product.code] });
  // An accepted AGREEMENT: its EFFECTIVE entry is the `quotes` event (docs/quotes-honouring.md §3).
  const quote = await insertQuote({
    status: "SENT",
    mode: "AGREEMENT",
    channelCode: channel.code,
    customerCode: customer.code,
    products: [product.code],
  });
  await acceptQuote(quote);
  await api("PATCH", `/v1/api/customer/${customer.code}`, { body: { name: "Renamed" } });
  await api("DELETE", `/v1/api/customer/${customer.code}`);
  // A rate has no code: a validFrom of its own makes it a new one.
  await api("PUT", "/v1/api/exchange-rates", {
    body: {
      rates: [{ from: "USD", to: "EUR", rate: "0.92", validFrom: new Date().toISOString() }],
    },
  });
  await api("POST", "/v1/api/change-requests", {
    body: {
      title: "Next year",
      items: [
        {
          kind: "SET_PRICES",
          pricelistId: pricelist.id,
          rows: [{ productCode: product.code, amount: 1100 }],
        },
      ],
    },
  });
}

describe("delivery through the queue", () => {
  it(
    "a receiver that fails twice gets every change once by idempotency id, in order, all signed",
    { timeout: 60_000 },
    async () => {
      const path = `/hooks/${uid("r")}`;
      const hook = await created("/v1/api/webhooks", {
        url: `${RECEIVER}${path}?fail=2`,
        events: [...CHANGE_EVENTS],
      });
      await writeEveryKind();
      const newest = await head();
      const batches = await deliveredUpTo(path, newest);

      const all = await receivedAt(path);
      expect(all.slice(0, 3).map((r) => [r.attempt, r.answered])).toEqual([
        [1, 503],
        [2, 503],
        [3, 200],
      ]);
      // Every retry of the first batch carried the same id and the same changes.
      expect(new Set(all.slice(0, 3).map((r) => r.deliveryId)).size).toBe(1);
      // The signed body's id (what receivers deduplicate on) is the header's.
      for (const r of all) expect(r.headerId).toBe(r.deliveryId);
      expect(new Set(all.slice(0, 3).map((r) => JSON.parse(r.body).next)).size).toBe(1);
      for (const r of all) expect(await signedBy(r.signature, r.body, hook.secret)).toBe(true);

      const delivered = batches.flatMap((b) => b.changes);
      const feed = await feedAfter(hook.cursor);
      expect(delivered).toEqual(feed);
      // Every entry of pricing data since the webhook started (its own creation is none, §11).
      const { results: entries } = await env.DB.prepare(
        "select id from audit_log where id > ? and entity <> 'webhook' order by id",
      )
        .bind(hook.cursor)
        .all<{ id: number }>();
      expect(delivered.map((c) => c.cursor)).toEqual(entries.map((e) => e.id));
      expect(new Set(delivered.map((c) => c.event))).toEqual(new Set(CHANGE_EVENTS));

      const attempts = await api("GET", `/v1/api/webhooks/${hook.id}/deliveries?sortBy=id:ASC`);
      expect(
        attempts.body.data
          .slice(0, 3)
          .map((d: Record<string, unknown>) => [d.attempt, d.outcome, d.status]),
      ).toEqual([
        [1, "FAILED", 503],
        [2, "FAILED", 503],
        [3, "DELIVERED", 200],
      ]);
      expect(attempts.body.data[0]).toMatchObject({
        deliveryId: all[0]!.deliveryId,
        fromCursor: hook.cursor,
        error: "the receiver answered 503",
        responseBody: "ok",
        latencyMs: expect.any(Number),
      });
      const state = await api("GET", `/v1/api/webhooks/${hook.id}`);
      expect(state.body).toMatchObject({
        cursor: newest,
        failures: 0,
        active: true,
        pausedAt: null,
      });
    },
  );

  it("a burst of 1,000 writes arrives complete and in order", { timeout: 240_000 }, async () => {
    const product = await createProduct();
    const pricelist = await createPricelist();
    const path = `/hooks/${uid("burst")}`;
    const hook = await created("/v1/api/webhooks", {
      url: `${RECEIVER}${path}`,
      events: ["prices"],
    });
    // Through the Worker's fetch handler: the pool's loopback gets slower with every request.
    const writer = async (w: number) => {
      for (let i = 0; i < 100; i++) {
        const res = await call("PUT", `/v1/api/pricelist/${pricelist.id}/prices`, {
          body: { prices: [{ productCode: product.code, minQuantity: w + 1, amount: 1 + i }] },
        });
        expect(res.status).toBe(200);
      }
    };
    await Promise.all(Array.from({ length: 10 }, (_, w) => writer(w)));
    const newest = await head();
    const batches = await deliveredUpTo(path, newest, 120_000);
    const cursors = batches.flatMap((b) => b.changes.map((c) => c.cursor));
    expect(cursors.length).toBe(1000);
    expect(cursors).toEqual([...cursors].sort((a, b) => a - b));
    expect(cursors).toEqual((await feedAfter(hook.cursor)).map((c) => c.cursor));
  });

  it("the Cron Trigger's sweep queues a run for a webhook that no message announced", async () => {
    const path = `/hooks/${uid("sweep")}`;
    const hook = await created("/v1/api/webhooks", {
      url: `${RECEIVER}${path}`,
      events: ["products"],
      active: false,
    });
    await createProduct();
    const product = await head();
    // Switched on behind the API's back: no write, so no message on the queue for it.
    await env.DB.prepare("update webhooks set active = 1 where id = ?").bind(hook.id).run();

    const sent: unknown[] = [];
    const queue = {
      sendBatch: async (messages: { body: unknown }[]) =>
        void sent.push(...messages.map((m) => m.body)),
    };
    const controller = createScheduledController({ scheduledTime: Date.now(), cron: "* * * * *" });
    await worker.scheduled(controller, { ...env, WEBHOOK_QUEUE: queue as never });
    expect(sent).toContainEqual({ type: "deliver", webhookId: hook.id });

    // The message it queued, as the consumer gets it: the product is delivered.
    const batch = createMessageBatch("pricing-webhooks", [
      {
        id: "sweep-1",
        timestamp: new Date(),
        attempts: 1,
        body: { type: "deliver", webhookId: hook.id },
      },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch as never, env);
    await getQueueResult(batch, ctx);
    const [delivery] = await deliveredUpTo(path, product);
    expect(delivery!.changes.map((c) => [c.entity, c.cursor])).toEqual([["product", product]]);
  });
});
