#!/usr/bin/env node
/**
 * `npm run dev`: one command from a fresh clone to a running service with data.
 *
 * 0. stops with one line when the address it would serve on is taken (another `npm run dev`),
 *    before anything below happens;
 * 1. creates `.dev.vars` with API_KEYS for the well-known dev keys (admin `dev-admin-key`,
 *    read `dev-read-key`) if it is missing; an existing file is kept;
 * 2. applies the migrations of drizzle/ to the local D1 database, without prompting;
 * 3. loads the demo data set (scripts/seed.mjs) only when that database is empty;
 * 4. serves on http://localhost:8787 with `wrangler dev`, offline (no metrics, no cf fetch), and
 *    forwards SIGINT/SIGTERM/SIGHUP to it so Ctrl-C stops everything; when whatever started it
 *    goes away (`kill <pid>` of `npm run dev`, whose shell passes no signal on), it stops too;
 * 5. notes where it serves in .wrangler/dev-url.json for `npm run import` / `npm run export`
 *    (scripts/lib/dev-url.mjs), removed when it stops.
 * 6. once it answers, adds the demo's two change requests and its quotes (worked example F, in
 *    several states) through the API when the demo data is there and no change request is
 *    (scripts/lib/demo-change-requests.mjs, scripts/lib/demo-quotes.mjs).
 *
 * Arguments after `--`:
 *   --persist-to <dir>   local state directory for every wrangler call (default .wrangler/state)
 *   --no-seed            skip step 3
 *   --no-rate-limits     RATE_LIMITS=off: no request is rate limited (load tests, fuzzers)
 *   anything else        passed to `wrangler dev` (e.g. `--port 8788` replaces the default port)
 *
 * Without a network (names do not resolve) it sets WEBHOOK_DNS=offline, so creating a webhook to
 * a public name is refused with one sentence instead of the runtime's stack trace per DNS lookup.
 *
 * Webhooks (scripts/lib/dev-webhooks.mjs): 127.0.0.1 and localhost are allowed targets unless a
 * `--var` or .dev.vars sets WEBHOOK_ALLOWED_HOSTS (the hosts in force are printed), the sweep's
 * Cron Trigger fires every minute, and the steps to a local receiver are printed.
 */
import { constants } from "node:os";
import { addDemoChangeRequests } from "./lib/demo-change-requests.mjs";
import { addDemoQuotes, DEMO_QUOTE_CODES } from "./lib/demo-quotes.mjs";
import { DEV_KEYS, DEV_OWNERS, ensureDevVars } from "./lib/dev-keys.mjs";
import { namesResolve, onParentExit } from "./lib/dev-lifecycle.mjs";
import { listenAddress, portProblem } from "./lib/dev-port.mjs";
import { removeDevUrl, urlOf, writeDevUrl } from "./lib/dev-url.mjs";
import { fireSweep, webhookArgs, webhookHosts, webhookHowTo } from "./lib/dev-webhooks.mjs";
import {
  ROOT,
  WRANGLER_ENV,
  applyMigrations,
  countRows,
  describeCounts,
  isEmpty,
  loadDemoData,
  spawnWrangler,
  takePersistTo,
} from "./lib/local-db.mjs";

const step = (/** @type {string} */ message) => console.log(`[dev] ${message}`);

/**
 * @param {string[]} args
 * @param {string} name
 */
const hasOption = (args, name) => args.some((a) => a === name || a.startsWith(`${name}=`));

async function main() {
  const { persistTo, rest } = takePersistTo(process.argv.slice(2));
  const seed = !rest.includes("--no-seed");
  const limits = !rest.includes("--no-rate-limits");
  const devArgs = rest.filter((a) => a !== "--no-seed" && a !== "--no-rate-limits");

  // A busy port is one line, before anything is written, migrated or seeded.
  const busy = await portProblem(listenAddress(devArgs));
  if (busy) {
    console.error(`[dev] ${busy}`);
    process.exit(1);
  }

  const keys =
    `admin=${DEV_KEYS.admin}, read=${DEV_KEYS.read}, second admin=${DEV_KEYS.approver}, ` +
    `sales rep=${DEV_KEYS.rep}, sales manager=${DEV_KEYS.manager}`;
  const devVars = {
    created: `.dev.vars created with the dev API keys: ${keys}`,
    appended: `API_KEYS of the dev keys appended to .dev.vars: ${keys}`,
    "added approver": `the second admin dev key was added to .dev.vars: ${keys}`,
    "added sales keys": `the sales dev keys (a rep and a manager) were added to .dev.vars: ${keys}`,
    "named owners": `the dev keys in .dev.vars now have owners (${DEV_OWNERS.admin}, ${DEV_OWNERS.approver}): ${keys}`,
    "kept dev keys": `.dev.vars has the dev API keys: ${keys}`,
    "kept own keys": ".dev.vars has API_KEYS of your own: keeping them",
  };
  step(devVars[ensureDevVars(ROOT)]);

  const migrated = await applyMigrations(persistTo);
  step(migrated ? "applied the pending migrations" : "migrations are up to date");

  if (seed) {
    const counts = await countRows(persistTo);
    if (isEmpty(counts)) {
      await loadDemoData(persistTo);
      step(
        `database was empty: loaded the demo data (${describeCounts(await countRows(persistTo))})`,
      );
    } else {
      step(`database already has data (${describeCounts(counts)}): not seeding`);
    }
  }

  const ip = hasOption(devArgs, "--ip") ? [] : ["--ip", "127.0.0.1"];
  const port = hasOption(devArgs, "--port") ? [] : ["--port", "8787"];
  const vars = [];
  if (!limits) {
    vars.push("--var", "RATE_LIMITS:off");
    step("rate limits off (RATE_LIMITS=off): for load tests and fuzzers, never for a deployment");
  }
  const allowed = webhookHosts(ROOT, devArgs);
  if (!devArgs.some((a) => a.includes("WEBHOOK_DNS")) && !(await namesResolve())) {
    vars.push("--var", "WEBHOOK_DNS:offline");
    const only = allowed.hosts.length > 0 ? allowed.hosts.join(", ") : "no host";
    step(`no network (names do not resolve): webhooks may point only to ${only}`);
  }
  const args = [
    "dev",
    ...ip,
    ...port,
    ...(persistTo ? ["--persist-to", persistTo] : []),
    ...webhookArgs(ROOT, devArgs),
    ...vars,
    ...devArgs,
  ];
  step(`wrangler ${args.join(" ")}`);
  const child = spawnWrangler(args, { stdio: "inherit", env: WRANGLER_ENV });
  const address = listenAddress(devArgs);
  writeDevUrl(ROOT, urlOf(address), process.pid);
  webhookHowTo(address.port, allowed).forEach((line) => step(line));
  const stopSweep = fireSweep(address.port);
  if (seed) {
    demoChangeRequests(address.port).catch((error) =>
      step(`demo change requests not added: ${error instanceof Error ? error.message : error}`),
    );
  }

  /** @param {NodeJS.Signals} signal */
  const stop = (signal) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  // Ctrl-C in a terminal reaches the whole process group anyway; a plain `kill <pid>` of this
  // script (a supervisor, an IDE's stop button) must stop the server too, and so must a kill of
  // the npm process that started it.
  for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM", "SIGHUP"])) {
    process.on(signal, () => stop(signal));
  }
  onParentExit(() => stop("SIGTERM"));
  child.on("error", (error) => {
    removeDevUrl(ROOT, process.pid);
    console.error(error.message);
    process.exit(1);
  });
  child.on("exit", (code, signal) => {
    stopSweep();
    removeDevUrl(ROOT, process.pid);
    process.exit(code ?? (signal ? 128 + constants.signals[signal] : 1));
  });
}

/**
 * Once the server answers, the demo's change requests (a price increase approved by the second
 * dev key, one waiting for approval, both for next month) when the demo data is there and no
 * change request is yet: they carry the impact the service computes, so they go through the API.
 * @param {number} port
 */
async function demoChangeRequests(port) {
  const base = `http://127.0.0.1:${port}`;
  /** @type {import("./lib/demo-change-requests.mjs").Call} */
  const call = async (method, path, body, key) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        "x-webhook-signature": key,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json().catch(() => null) };
  };
  for (let tries = 0; ; tries++) {
    const up = await fetch(`${base}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (tries > 240) throw new Error("the server did not answer within 2 minutes");
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const list = await call("GET", "/v1/api/change-requests?limit=1", undefined, DEV_KEYS.admin);
  const demo = await call("GET", "/v1/api/pricelist/100", undefined, DEV_KEYS.admin);
  const listed = /** @type {{ meta: { totalItems: number } }} */ (list.body);
  if (list.status !== 200 || listed.meta.totalItems > 0 || demo.status !== 200) return;
  const keys = { author: DEV_KEYS.admin, approver: DEV_KEYS.approver };
  const made = await addDemoChangeRequests(call, keys, Date.now());
  step(
    `demo change requests: ${made.approved.id} "${made.approved.title}" APPLIED (approved by ` +
      `${DEV_KEYS.approver}), ${made.pending.id} "${made.pending.title}" waiting for approval`,
  );
  const quotes = await addDemoQuotes(
    call,
    { admin: DEV_KEYS.admin, read: DEV_KEYS.read, rep: DEV_KEYS.rep, manager: DEV_KEYS.manager },
    Date.now(),
  );
  step(
    `demo quotes (worked example F in channel ${DEMO_QUOTE_CODES.channel}): ${quotes.pending} ` +
      `waiting for ${DEV_KEYS.manager}, ${quotes.sent} SENT, ${quotes.renegotiating} ` +
      `RENEGOTIATING, ${quotes.agreement} an accepted AGREEMENT, ${quotes.draft} a DRAFT`,
  );
}

main().catch((error) => {
  console.error(`[dev] ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
