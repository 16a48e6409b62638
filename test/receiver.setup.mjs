/**
 * vitest globalSetup: the webhook receiver of scripts/webhook-receiver.mjs on a free port of
 * 127.0.0.1, for the whole run. Tests reach it from inside workerd (Miniflare lets Workers fetch
 * private addresses) through `inject("receiverUrl")`; wrangler.toml's WEBHOOK_ALLOWED_HOSTS is
 * 127.0.0.1 in the tests (vitest.config.ts).
 */
import { startReceiver } from "../scripts/webhook-receiver.mjs";

/** @param {{ provide(key: string, value: unknown): void }} project */
export default async function setup(project) {
  const receiver = await startReceiver({ port: 0 });
  project.provide("receiverUrl", receiver.url);
  return receiver.close;
}
