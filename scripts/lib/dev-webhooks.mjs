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
 * The value of a variable in a .dev.vars file (dotenv syntax: `NAME=value`, optionally quoted,
 * `#` comments), or undefined when the file does not set it. The last assignment wins, as in
 * dotenv.
 * @param {string} text the file's content
 * @param {string} name
 * @returns {string | undefined}
 */
export function devVarOf(text, name) {
  let value;
  const line = new RegExp(`^\\s*(?:export\\s+)?${name}\\s*=\\s*(.*)$`);
  for (const raw of text.split(/\r?\n/)) {
    const match = line.exec(raw);
    if (!match) continue;
    const rest = (match[1] ?? "").trim();
    const quoted = /^(["'`])(.*)\1/.exec(rest);
    value = quoted ? quoted[2] : rest.replace(/\s+#.*$/, "").trim();
  }
  return value;
}

/**
 * The WEBHOOK_ALLOWED_HOSTS the dev server runs with, and where it comes from: a `--var` among
 * the arguments wins over .dev.vars (wrangler's precedence), which wins over the default
 * `npm run dev` passes when neither sets it.
 * @param {string} root
 * @param {string[]} args the wrangler dev arguments given
 * @returns {{ hosts: string[], from: "--var" | ".dev.vars" | "npm run dev" }}
 */
export function webhookHosts(root, args) {
  const split = (/** @type {string} */ value) =>
    value
      .split(",")
      .map((h) => h.trim())
      .filter(Boolean);
  const prefix = "WEBHOOK_ALLOWED_HOSTS:";
  const cli = args.filter((a) => a.includes(prefix)).at(-1);
  if (cli !== undefined)
    return { hosts: split(cli.slice(cli.indexOf(prefix) + prefix.length)), from: "--var" };
  const devVars = join(root, ".dev.vars");
  const own = existsSync(devVars)
    ? devVarOf(readFileSync(devVars, "utf8"), "WEBHOOK_ALLOWED_HOSTS")
    : undefined;
  if (own !== undefined) return { hosts: split(own), from: ".dev.vars" };
  return { hosts: split(DEV_WEBHOOK_HOSTS), from: "npm run dev" };
}

/**
 * What wrangler dev needs for webhooks: `--test-scheduled` (the `/__scheduled` route the sweep is
 * fired through) and `--var WEBHOOK_ALLOWED_HOSTS:…`, each unless already given (in the
 * arguments, or the variable in .dev.vars).
 * @param {string} root
 * @param {string[]} args the wrangler dev arguments given
 */
export function webhookArgs(root, args) {
  return [
    ...(args.includes("--test-scheduled") ? [] : ["--test-scheduled"]),
    ...(webhookHosts(root, args).from === "npm run dev"
      ? ["--var", `WEBHOOK_ALLOWED_HOSTS:${DEV_WEBHOOK_HOSTS}`]
      : []),
  ];
}

/**
 * The sentence on the hosts in force, named as the server reads them.
 * @param {{ hosts: string[], from: string }} inForce what {@link webhookHosts} found
 */
export function allowedHostsLine(inForce) {
  const where =
    inForce.from === "npm run dev" ? "" : ` (WEBHOOK_ALLOWED_HOSTS from ${inForce.from})`;
  if (inForce.hosts.length === 0) {
    return `webhooks: no host is an allowed target here${where}: http and local targets are refused`;
  }
  const verb = inForce.hosts.length === 1 ? "is an allowed target" : "are allowed targets";
  return `webhooks: ${inForce.hosts.join(",")} ${verb} here${where}; the sweep runs every minute`;
}

/**
 * @param {number} port the dev server's
 * @param {{ hosts: string[], from: string }} inForce the allowed hosts in force ({@link webhookHosts})
 */
export function webhookHowTo(port, inForce) {
  const receiver = `http://127.0.0.1:${RECEIVER_PORT}/hooks`;
  const lines = [
    allowedHostsLine(inForce),
    `  1. curl -s localhost:${port}/v1/api/webhooks -H 'x-webhook-signature: ${DEV_KEYS.admin}' \\`,
    `       -H 'content-type: application/json' -d '{"url":"${receiver}","events":["prices","pricelists"]}'`,
    "  2. npm run webhook:receiver -- --secret <the secret from step 1>",
    "     (deliveries queued meanwhile are retried until it answers)",
  ];
  const receiverAllowed = inForce.hosts.some((h) => h.toLowerCase() === "127.0.0.1");
  return receiverAllowed
    ? lines
    : [
        ...lines,
        "     (step 1 needs 127.0.0.1 in WEBHOOK_ALLOWED_HOSTS; add it to what is in force above)",
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
