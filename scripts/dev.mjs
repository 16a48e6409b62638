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
 *    forwards SIGINT/SIGTERM/SIGHUP to it so Ctrl-C stops everything.
 *
 * Arguments after `--`:
 *   --persist-to <dir>   local state directory for every wrangler call (default .wrangler/state)
 *   --no-seed            skip step 3
 *   anything else        passed to `wrangler dev` (e.g. `--port 8788` replaces the default port)
 *
 * Webhooks (scripts/lib/dev-webhooks.mjs): 127.0.0.1 is an allowed target, the sweep's Cron
 * Trigger fires every minute, and the steps to a local receiver are printed.
 */
import { constants } from "node:os";
import { DEV_KEYS, ensureDevVars } from "./lib/dev-keys.mjs";
import { listenAddress, portProblem } from "./lib/dev-port.mjs";
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
  const devArgs = rest.filter((a) => a !== "--no-seed");

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
  const args = [
    "dev",
    ...ip,
    ...port,
    ...(persistTo ? ["--persist-to", persistTo] : []),
    ...webhookArgs(ROOT, devArgs),
    ...devArgs,
  ];
  step(`wrangler ${args.join(" ")}`);
  const child = spawnWrangler(args, { stdio: "inherit", env: WRANGLER_ENV });
  const { port: served } = listenAddress(devArgs);
  webhookHowTo(served).forEach((line) => step(line));
  const stopSweep = fireSweep(served);

  // Ctrl-C in a terminal reaches the whole process group anyway; a plain `kill <pid>` of this
  // script (a supervisor, an IDE's stop button) must stop the server too.
  for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM", "SIGHUP"])) {
    process.on(signal, () => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    });
  }
  child.on("error", (error) => {
    console.error(error.message);
    process.exit(1);
  });
  child.on("exit", (code, signal) => {
    stopSweep();
    process.exit(code ?? (signal ? 128 + constants.signals[signal] : 1));
  });
}

main().catch((error) => {
  console.error(`[dev] ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
