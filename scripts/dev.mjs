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
 * Webhooks (scripts/lib/dev-webhooks.mjs): 127.0.0.1 is an allowed target, the sweep's Cron
 * Trigger fires every minute, and the steps to a local receiver are printed.
 */
import { constants } from "node:os";
import { DEV_KEYS, ensureDevVars } from "./lib/dev-keys.mjs";
import { namesResolve, onParentExit } from "./lib/dev-lifecycle.mjs";
import { listenAddress, portProblem } from "./lib/dev-port.mjs";
import { removeDevUrl, urlOf, writeDevUrl } from "./lib/dev-url.mjs";
import { fireSweep, webhookArgs, webhookHowTo } from "./lib/dev-webhooks.mjs";
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

  const keys = `admin=${DEV_KEYS.admin}, read=${DEV_KEYS.read}`;
  const devVars = {
    created: `.dev.vars created with the dev API keys: ${keys}`,
    appended: `API_KEYS of the dev keys appended to .dev.vars: ${keys}`,
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
  if (!devArgs.some((a) => a.includes("WEBHOOK_DNS")) && !(await namesResolve())) {
    vars.push("--var", "WEBHOOK_DNS:offline");
    step("no network (names do not resolve): webhooks may point only to 127.0.0.1 and localhost");
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
  webhookHowTo(address.port).forEach((line) => step(line));
  const stopSweep = fireSweep(address.port);

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

main().catch((error) => {
  console.error(`[dev] ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
