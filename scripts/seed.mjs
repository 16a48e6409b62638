#!/usr/bin/env node
/**
 * `npm run db:seed` loads the demo data set into the LOCAL D1 database (never a remote one).
 *
 *   npm run db:seed                              load the demo into an empty local database
 *   npm run db:seed -- --force                   empty every table first, then load (a reset)
 *   npm run db:seed -- --persist-to /tmp/x       use that state directory (as `npm run dev` does)
 *   npm run db:seed -- --print > demo.sql        only print the SQL; touches nothing
 *
 * Pending migrations are applied first, so it works on a fresh clone. The demo uses fixed ids and
 * codes, so on a database that already holds data it refuses politely (exit 1, nothing changed):
 * `--force` is the explicit "throw my local data away". Wipe and load run as one D1 batch, so a
 * failure leaves the database as it was. `npm run dev` seeds by itself when the database is empty.
 * What the demo contains: scripts/lib/demo-data.mjs.
 */
import { DEV_KEYS } from "./lib/dev-keys.mjs";
import { demoSql } from "./lib/demo-sql.mjs";
import {
  applyMigrations,
  countRows,
  describeCounts,
  isEmpty,
  loadDemoData,
  takePersistTo,
} from "./lib/local-db.mjs";

const USAGE = "usage: npm run db:seed [-- --force] [--persist-to <dir>] [--print]";

async function main() {
  const { persistTo, rest } = takePersistTo(process.argv.slice(2));
  const flags = new Set(rest);
  for (const flag of flags) {
    if (!["--force", "--print", "--help", "-h"].includes(flag)) {
      throw new Error(`unknown argument ${flag}\n${USAGE}`);
    }
  }
  if (flags.has("--help") || flags.has("-h")) return void console.log(USAGE);
  const force = flags.has("--force");
  if (flags.has("--print")) {
    // `… --print | head` closes the pipe early; that is not an error.
    process.stdout.on("error", (error) => {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== "EPIPE") throw error;
    });
    return void process.stdout.write(demoSql({ wipe: force }));
  }

  const where = persistTo ? `local D1 in ${persistTo}` : "local D1 (.wrangler/state)";
  if (await applyMigrations(persistTo))
    console.log(`Applied the pending migrations to the ${where}.`);
  const before = await countRows(persistTo);
  if (!isEmpty(before) && !force) {
    console.error(
      `The ${where} already holds data (${describeCounts(before)}).\n` +
        "Nothing was changed. To delete all of it and load the demo data again, run:\n" +
        `  npm run db:seed -- --force${persistTo ? ` --persist-to ${persistTo}` : ""}`,
    );
    process.exitCode = 1;
    return;
  }
  await loadDemoData(persistTo, { wipe: force });
  console.log(
    `Loaded the demo data into the ${where}: ${describeCounts(await countRows(persistTo))}.`,
  );
  console.log(
    `Dev API keys: admin ${DEV_KEYS.admin}, read ${DEV_KEYS.read}, second admin ${DEV_KEYS.approver}, ` +
      `sales rep ${DEV_KEYS.rep}, sales manager ${DEV_KEYS.manager}.`,
  );
  console.log("The next `npm run dev` adds the demo's change requests and quotes through the API.");
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
