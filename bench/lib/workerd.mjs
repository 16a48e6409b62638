/**
 * The built Worker in Miniflare as the benches start it (`npm run bench`, `npm run
 * bench:quotes-ab`, bench/lib/cart500-cpu.mjs), and what /proc tells about its workerd process:
 * CPU time, resident memory, the CPU time once it has settled.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Miniflare } from "miniflare";
import { d1PersistOf, freePort, ROOT } from "./common.mjs";
import { withD1At } from "./d1-apart.mjs";

/** Linux's clock ticks per second (`getconf CLK_TCK`), in which /proc reports CPU time. */
const TICKS_PER_SECOND = Number(spawnSync("getconf", ["CLK_TCK"]).stdout?.toString().trim()) || 100;

/**
 * The workerd processes that are children of this process, with when each started (in clock
 * ticks since boot), as /proc shows them; none where there is no /proc.
 * @returns {{ pid: number, started: number }[]}
 */
export function workerdChildren() {
  if (!existsSync("/proc/self/stat")) return [];
  const out = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (comm === "workerd" && Number(fields[1]) === process.pid) {
        out.push({ pid: Number(name), started: Number(fields[19]) });
      }
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/**
 * The workerd process Miniflare started for this bench (a child of this process), if /proc shows
 * it: the newest one when there are several.
 */
export function workerdPid() {
  let found;
  for (const child of workerdChildren()) if (child.started >= (found?.started ?? 0)) found = child;
  return found?.pid;
}

/**
 * The CPU time (user + system, ms) a process has used so far, or undefined when it is gone.
 * @param {number} pid
 */
export function cpuMsOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/**
 * A process's resident memory (VmRSS, MiB), or undefined when it is gone.
 * @param {number} pid
 */
export function rssMiBOf(pid) {
  try {
    const kib = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kib === undefined ? undefined : Number(kib) / 1024;
  } catch {
    return undefined;
  }
}

/**
 * A process's CPU time once it has finished what it was still answering: `cpu` read every 100 ms
 * until it stands still (at most 3 s); undefined when the process is gone.
 * @param {() => number | undefined} cpu
 */
export async function settledCpuMs(cpu) {
  let last = cpu();
  for (let i = 0; i < 30 && last !== undefined; i++) {
    await new Promise((r) => setTimeout(r, 100));
    const now = cpu();
    if (now === last) break;
    last = now;
  }
  return last;
}

/**
 * Polls `url` until it answers 200.
 * @param {string} url
 * @param {number} seconds
 * @param {() => string | undefined} [failed] tells why to stop early (the process died)
 */
export async function waitFor(url, seconds, failed) {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const reason = failed?.();
    if (reason) throw new Error(reason);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${seconds} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * The built Worker in Miniflare on 127.0.0.1 and a free port, with the worker options wrangler
 * derives from wrangler.toml (bindings, assets, rate limits: those of `wrangler dev`), `vars` on
 * top (`D1_DELAY_MS`, `PRICE_CONTEXT_CACHE`) and the bench's `API_KEYS`, on the D1 of `dir`.
 * Await `mf.ready` for its URL; `mf.dispose()` stops it. `inspectorPort`: the inspector's port
 * (a CPU profile of the isolate), none without. `d1At`: the address of a D1 host apart
 * (bench/lib/d1-apart.mjs) that `DB` calls instead of a local D1 in this workerd.
 * @param {string} bundle
 * @param {string} dir persist folder of the data set
 * @param {string} apiKeys
 * @param {Record<string, string>} [vars]
 * @param {{ inspectorPort?: number, d1At?: string }} [options]
 */
export async function newMiniflare(bundle, dir, apiKeys, vars = {}, { inspectorPort, d1At } = {}) {
  process.env.WRANGLER_LOG ??= "error"; // no "Using secrets defined in .dev.vars" on stdout
  const { unstable_getMiniflareWorkerOptions } = await import("wrangler");
  const { workerOptions } = unstable_getMiniflareWorkerOptions(join(ROOT, "wrangler.toml"));
  const port = await freePort();
  const worker = {
    ...workerOptions,
    name: "bench",
    modules: true,
    scriptPath: bundle,
    modulesRoot: dirname(bundle), // module names relative to the bundle's folder (a temp dir)
    bindings: { ...workerOptions.bindings, ...vars, API_KEYS: apiKeys },
  };
  return new Miniflare({
    ...(d1At ? { workers: withD1At(worker, d1At) } : { ...worker, d1Persist: d1PersistOf(dir) }),
    host: "127.0.0.1",
    port,
    logRequests: false,
    ...(inspectorPort ? { inspectorPort } : {}),
  });
}
