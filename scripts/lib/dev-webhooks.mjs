/**
 * Webhooks under `npm run dev` (docs/operations.md "Webhooks"): local targets allowed, the
 * sweep's Cron Trigger fired every minute through `--test-scheduled`'s `/__scheduled` (wrangler
 * dev fires no cron by itself), and how to point a webhook at the local receiver
 * (scripts/webhook-receiver.mjs). Queues need nothing: wrangler dev runs the producer and the
 * consumer on Miniflare's local queues.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DEV_KEYS } from "./dev-keys.mjs";

/** The hosts local webhooks may point to (http allowed): the local receiver's. */
export const DEV_WEBHOOK_HOSTS = "127.0.0.1,localhost";
/** Where `npm run webhook:receiver` listens. */
export const RECEIVER_PORT = 8790;
const SWEEP_CRON = "* * * * *";

/**
 * What wrangler dev needs for webhooks: `--test-scheduled` (the `/__scheduled` route the sweep is
 * fired through) and `--var WEBHOOK_ALLOWED_HOSTS:…`, each unless already given (in the
 * arguments, or the variable in .dev.vars).
 * @param {string} root
 * @param {string[]} args the wrangler dev arguments given
 */
export function webhookArgs(root, args) {
  const devVars = join(root, ".dev.vars");
  const own =
    existsSync(devVars) && /^\s*WEBHOOK_ALLOWED_HOSTS\s*=/m.test(readFileSync(devVars, "utf8"));
  return [
    ...(args.includes("--test-scheduled") ? [] : ["--test-scheduled"]),
    ...(own || args.some((a) => a.includes("WEBHOOK_ALLOWED_HOSTS"))
      ? []
      : ["--var", `WEBHOOK_ALLOWED_HOSTS:${DEV_WEBHOOK_HOSTS}`]),
  ];
}

/** @param {number} port the dev server's */
export function webhookHowTo(port) {
  const receiver = `http://127.0.0.1:${RECEIVER_PORT}/hooks`;
  return [
    `webhooks: ${DEV_WEBHOOK_HOSTS} are allowed targets here; the sweep runs every minute`,
    `  1. curl -s localhost:${port}/v1/api/webhooks -H 'x-webhook-signature: ${DEV_KEYS.admin}' \\`,
    `       -H 'content-type: application/json' -d '{"url":"${receiver}","events":["prices","pricelists"]}'`,
    "  2. npm run webhook:receiver -- --secret <the secret from step 1>",
    "     (deliveries queued meanwhile are retried until it answers)",
  ];
}

/**
 * Fires the sweep's Cron Trigger on the dev server every minute, as Cloudflare would.
 * @param {number} port
 * @returns {() => void} stops it
 */
export function fireSweep(port) {
  const url = `http://127.0.0.1:${port}/__scheduled?cron=${encodeURIComponent(SWEEP_CRON)}`;
  const timer = setInterval(() => {
    fetch(url).catch(() => undefined);
  }, 60_000);
  return () => clearInterval(timer);
}
