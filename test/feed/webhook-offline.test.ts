import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { app } from "../../src/app";
import { deliveryConfig } from "../../src/webhooks/config";
import { offlineResolve, resolveOverHttps } from "../../src/webhooks/safety";
import { KEYS } from "../shared/helpers";

/**
 * Webhooks without a network (issue 22 item 9): `npm run dev` sets WEBHOOK_DNS=offline when it
 * finds none, and a webhook to a public name is then refused without a DNS-over-HTTPS fetch,
 * whose failure the runtime would log as a stack trace per lookup. One sentence is logged.
 */

afterEach(() => vi.restoreAllMocks());

const OFFLINE = { WEBHOOK_DNS: "offline" };

function create(url: string, bindings: Record<string, unknown> = OFFLINE) {
  return app.fetch(
    new Request("http://pricing.test/v1/api/webhooks", {
      method: "POST",
      headers: { "x-webhook-signature": KEYS.admin, "content-type": "application/json" },
      body: JSON.stringify({ url, events: ["prices"], active: false }),
    }),
    { ...env, ...bindings },
  );
}

describe("WEBHOOK_DNS=offline", () => {
  it("refuses a public name without a lookup and logs one sentence, not a stack trace", async () => {
    const fetch = vi.spyOn(globalThis, "fetch");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const res = await create("https://hooks.example.com/pricing");
    expect(res.status).toBe(400);
    const problem = (await res.json()) as { errors: { path: string; message: string }[] };
    expect(problem.errors).toEqual([
      {
        path: "body.url",
        message: "host hooks.example.com could not be resolved (the DNS lookup failed); try again",
      },
    ]);
    expect(fetch).not.toHaveBeenCalled();
    expect(warn.mock.calls.map(([line]) => JSON.parse(String(line)))).toEqual([
      {
        warning:
          'webhook host hooks.example.com was not looked up: WEBHOOK_DNS is "offline" (npm run ' +
          "dev found no network); point webhooks at a host of WEBHOOK_ALLOWED_HOSTS",
      },
    ]);
  });

  it("still takes the hosts of WEBHOOK_ALLOWED_HOSTS, which need no lookup", async () => {
    const fetch = vi.spyOn(globalThis, "fetch");
    const res = await create("http://127.0.0.1:8788/hook", {
      ...OFFLINE,
      WEBHOOK_ALLOWED_HOSTS: "127.0.0.1",
    });
    expect(res.status).toBe(201);
    expect(fetch).not.toHaveBeenCalled();
  });

  it("applies to deliveries too, and only when set to offline", () => {
    expect(deliveryConfig({ ...env, ...OFFLINE }).resolve).toBe(offlineResolve);
    for (const value of [undefined, "", "on", "Offline-ish"]) {
      expect(deliveryConfig({ ...env, WEBHOOK_DNS: value }).resolve, value).toBe(resolveOverHttps);
    }
  });
});
