/**
 * The local D1 database of `wrangler dev`, driven through the project's own wrangler
 * (node_modules/.bin/wrangler is a link to wrangler/bin/wrangler.js, run here with this Node so it
 * also works where .bin holds shell shims).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { DATA_TABLES, demoSql } from "./demo-sql.mjs";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const WRANGLER = join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js");

/** No metrics, no network look-ups for request.cf: local development works offline. */
export const WRANGLER_ENV = {
  ...process.env,
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
};

/**
 * Spawns the local wrangler in the project root.
 * @param {string[]} args
 * @param {{ stdio: import("node:child_process").StdioOptions, env?: NodeJS.ProcessEnv }} options
 */
export const spawnWrangler = (args, { stdio, env = WRANGLER_ENV }) =>
  spawn(process.execPath, [WRANGLER, ...args], { cwd: ROOT, env, stdio });

/**
 * Runs a one-shot wrangler command without a terminal: stdin is closed and CI=true, so wrangler
 * answers its own confirmation prompts ("About to apply 1 migration(s)… continue?") with the
 * default instead of waiting. Output is captured; on failure it is shown and the promise rejects.
 * @param {string[]} args
 * @returns {Promise<string>} stdout
 */
export function wrangler(args) {
  return new Promise((resolvePromise, reject) => {
    const child = spawnWrangler(args, {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...WRANGLER_ENV, CI: "true" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.setEncoding("utf8");
    child.stderr?.setEncoding("utf8");
    child.stdout?.on("data", (chunk) => (stdout += chunk));
    child.stderr?.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (code === 0) return resolvePromise(stdout);
      process.stderr.write(stdout + stderr);
      reject(
        new Error(`wrangler ${args.slice(0, 3).join(" ")} failed (${signal ?? `exit ${code}`})`),
      );
    });
  });
}

/**
 * Removes `--persist-to <dir>` / `--persist-to=<dir>` from `args`.
 * A relative directory is taken from where npm was started (INIT_CWD), as the user typed it.
 * @param {string[]} args
 * @returns {{ persistTo: string | undefined, rest: string[] }}
 */
export function takePersistTo(args) {
  /** @type {string | undefined} */
  let persistTo;
  /** @type {string[]} */
  const rest = [];
  for (let i = 0; i < args.length; i++) {
    const arg = /** @type {string} */ (args[i]);
    if (arg === "--persist-to") {
      persistTo = args[++i];
      if (persistTo === undefined) throw new Error("--persist-to needs a directory");
    } else if (arg.startsWith("--persist-to=")) {
      persistTo = arg.slice("--persist-to=".length);
    } else {
      rest.push(arg);
    }
  }
  return {
    persistTo: persistTo && resolve(process.env.INIT_CWD ?? process.cwd(), persistTo),
    rest,
  };
}

/** `--local` plus `--persist-to` when given: the arguments every local D1 command takes. */
const local = (/** @type {string | undefined} */ persistTo) =>
  persistTo ? ["--local", "--persist-to", persistTo] : ["--local"];

/**
 * Applies the pending migrations of drizzle/ (a no-op when there are none).
 * @param {string | undefined} persistTo
 * @returns {Promise<boolean>} whether any were pending
 */
export async function applyMigrations(persistTo) {
  const out = await wrangler(["d1", "migrations", "apply", "DB", ...local(persistTo)]);
  return !out.includes("No migrations to apply");
}

/**
 * Row counts of every data table (d1_migrations aside), in one statement.
 * @param {string | undefined} persistTo
 * @returns {Promise<Record<string, number>>}
 */
export async function countRows(persistTo) {
  const select = DATA_TABLES.map((t) => `(select count(*) from ${t}) as ${t}`).join(", ");
  const out = await wrangler([
    "d1",
    "execute",
    "DB",
    ...local(persistTo),
    "--json",
    "--command",
    `select ${select}`,
  ]);
  /** @type {{ results: Record<string, number>[] }[]} */
  const parsed = JSON.parse(out.slice(out.indexOf("[")));
  const row = parsed[0]?.results[0];
  if (!row) throw new Error(`unexpected answer of wrangler d1 execute: ${out}`);
  return row;
}

/** @param {Record<string, number>} counts */
export const isEmpty = (counts) => Object.values(counts).every((n) => n === 0);

/**
 * Loads the demo data in one `wrangler d1 execute --file` (one D1 batch: all or nothing).
 * @param {string | undefined} persistTo
 * @param {{ wipe?: boolean }} [options] empty every data table first
 */
export async function loadDemoData(persistTo, { wipe = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "pricing-seed-"));
  try {
    const file = join(dir, "demo.sql");
    writeFileSync(file, demoSql({ wipe }));
    await wrangler(["d1", "execute", "DB", ...local(persistTo), "--file", file]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * "12 channels, 300 products, …" for the log.
 * @param {Record<string, number>} counts
 */
export const describeCounts = (counts) =>
  [
    "channels",
    "products",
    "customers",
    "customer_groups",
    "pricelists",
    "pricelist_prices",
    "trade_conditions",
    "promotions",
  ]
    .map((t) => `${counts[t] ?? 0} ${t.replaceAll("_", " ")}`)
    .join(", ");
