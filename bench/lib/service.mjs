/**
 * A fresh local service for the benches that drive it over HTTP (`bench/import.mjs`,
 * `bench/bulk-audit.mjs`, `bench/change-request.mjs`): its own D1 folder, the migrations of
 * drizzle/ applied, an admin key of its own. `wrangler dev`, or with `d1Apart` the built Worker in
 * Miniflare with its D1 in a workerd of its own (bench/lib/d1-apart.mjs).
 */
import { spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import {
  WRANGLER_ENV,
  applyMigrations,
  spawnWrangler,
  wrangler,
} from "../../scripts/lib/local-db.mjs";
import { freePort } from "./common.mjs";
import { startD1Host } from "./d1-apart.mjs";
import { newMiniflare, workerdPid } from "./workerd.mjs";

/** A random key and its API_KEYS entry, `name:role:sha256`. */
function adminKey(/** @type {string} */ name, role = "admin") {
  const key = randomBytes(18).toString("base64url");
  return { key, entry: `${name}:${role}:${createHash("sha256").update(key).digest("hex")}` };
}

/**
 * A fresh `wrangler dev` on `dir`, with its own admin key (`key`, named `bench`) and, with
 * `approver`, a second one named `approver` (`approverKey`: a change request's four eyes), and
 * `readers` read keys (`readKeys`: lookups beside the writes, each under its own rate limit), and
 * `loaders` more admin keys (`loaderKeys`: a load of more calls than one key's write limit allows,
 * 300 a minute, spread over them).
 * `stop()` ends it (resolved once it has).
 * @param {string} dir
 * `sharedCpus`: with `d1Apart`, no process is pinned to CPUs (`apart`).
 * @param {{ approver?: boolean, readers?: number, loaders?: number, d1Apart?: boolean,
 *   sharedCpus?: boolean }} [options]
 */
export async function startService(
  dir,
  { approver = false, readers = 0, loaders = 0, d1Apart = false, sharedCpus = false } = {},
) {
  await applyMigrations(dir);
  const own = adminKey("bench");
  const second = approver ? adminKey("approver") : undefined;
  const reads = Array.from({ length: readers }, (_, i) => adminKey(`reader-${i}`, "read"));
  const loads = Array.from({ length: loaders }, (_, i) => adminKey(`loader-${i}`));
  const keys = [own, ...(second ? [second] : []), ...reads, ...loads].map((k) => k.entry).join(",");
  const named = {
    key: own.key,
    approverKey: second?.key,
    readKeys: reads.map((r) => r.key),
    loaderKeys: loads.map((l) => l.key),
  };
  const started = d1Apart ? await apart(dir, keys, !sharedCpus) : await wranglerDev(dir, keys);
  return { ...named, ...started };
}

/**
 * The built Worker in Miniflare, its D1 in a workerd of its own. With more than one CPU, D1's
 * workerd has the last one to itself and the Worker's workerd and this process (the load) the
 * others, alone and during the work alike: as on Cloudflare, where D1 runs on other machines, what
 * D1 does takes nothing from the Worker's CPU. Without `pinned`, all three share every CPU.
 */
async function apart(
  /** @type {string} */ dir,
  /** @type {string} */ keys,
  /** @type {boolean} */ pinned,
) {
  const out = join(dir, "worker");
  await wrangler(["deploy", "--dry-run", "--outdir", out]);
  const host = await startD1Host(dir);
  const hostPid = workerdPid();
  const mf = await newMiniflare(join(out, "index.js"), dir, keys, {}, { d1At: host.address });
  const url = (await mf.ready).origin;
  const cpus = availableParallelism();
  const workerPid = workerdPid();
  if (pinned && cpus > 1 && hostPid && workerPid && hostPid !== workerPid) {
    pin(hostPid, String(cpus - 1));
    for (const pid of [workerPid, process.pid]) pin(pid, cpus > 2 ? `0-${cpus - 2}` : "0");
  }
  return { url, stop: () => mf.dispose().then(host.dispose) };
}

/** Pins every thread of process `pid` to `cpus` (taskset's list: "0", "0-2"), if taskset is there. */
function pin(/** @type {number} */ pid, /** @type {string} */ cpus) {
  const { status } = spawnSync("taskset", ["-a", "-c", "-p", cpus, String(pid)], {
    stdio: "ignore",
  });
  if (status !== 0) console.warn(`[bench] could not pin process ${pid} to CPU ${cpus}`);
}

/** `wrangler dev` on `dir` with `keys`, once it answers /health. */
async function wranglerDev(/** @type {string} */ dir, /** @type {string} */ keys) {
  const port = await freePort();
  const child = spawnWrangler(
    [
      "dev",
      ...["--ip", "127.0.0.1", "--port", String(port), "--persist-to", dir],
      ...["--var", `API_KEYS:${keys}`, "--show-interactive-dev-session=false"],
    ],
    { stdio: ["ignore", "ignore", "inherit"], env: { ...WRANGLER_ENV, WRANGLER_LOG: "error" } },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let waited = 0; ; waited += 250) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited ${child.exitCode}`);
    const ok = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (waited > 90_000) throw new Error("wrangler dev did not answer within 90 s");
    await new Promise((r) => setTimeout(r, 250));
  }
  /** @type {() => Promise<void>} */
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  return { url, stop };
}
