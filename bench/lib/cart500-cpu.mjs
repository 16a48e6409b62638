/**
 * workerd CPU per 500-line `POST /v1/api/prices/resolve`, two builds of the Worker side by side
 * (issue 29 item 4; bench/results/2026-11-29-cart500-worker.md and -cart500-contract.md). Each
 * build runs in its own Miniflare (its own workerd process) on its own copy of the 100k data set;
 * after a warm-up (both contexts and the product cache warm), blocks of sequential requests go to
 * A, then B, then A …, and each block's CPU is the workerd process's user + system time (/proc)
 * over the block, divided by its requests. The two answers to a request with a fixed `at` are compared byte for
 * byte first. Not part of `npm run bench`: a tool for comparing a change with the code before it.
 *
 *   node bench/lib/cart500-cpu.mjs --a <bundle.js> --a-data <dir> --b <bundle.js> --b-data <dir>
 *     [--blocks 20] [--per-block 25] [--warmup 130] [--contract] [--profile <prefix>]
 *     [--answer <file>] [--connections 1] [--select | --b-select]
 *
 * Bundles: `npx wrangler deploy --dry-run --minify --outdir <dir>` (<dir>/index.js). Data: COPIES
 * of a bench data set's folder (.wrangler/bench-100k); Miniflare writes into them.
 * `--profile <prefix>` records both CPU profiles (the inspector's sampling profiler, 100 µs asked
 * for) over the timed blocks, <prefix>.a.cpuprofile and <prefix>.b.cpuprofile, and counts each
 * one's busy samples: the isolate's JavaScript alone, where workerd's CPU also holds D1's SQLite
 * and the HTTP plumbing. `--answer <file>` writes A's answer to the fixed-`at` request.
 * `--connections n`: a block keeps n requests in flight (the bench's 16 connections), not one.
 * `--select`: the cart asks for what a cart page shows only (the bench's `-select` scenarios,
 * `CART_SELECT`, docs/api/prices.md §9), of both builds: both must know `select`. `--b-select`:
 * B alone asks for it, A for the whole answer (the same bundle twice: what `select` saves).
 * Then the two answers differ, and their sizes are printed.
 */
import { createHash, randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
// @ts-expect-error -- ws (miniflare's own WebSocket client) ships no types; Node 20 has no global one
import WebSocket from "ws";
import { freePort } from "./common.mjs";
import { quantile } from "./engine.mjs";
import { CART_SELECT, discover, scenarios } from "./scenarios.mjs";
import { cpuMsOf, newMiniflare, workerdChildren } from "./workerd.mjs";

const { values: args } = parseArgs({
  options: {
    a: { type: "string" },
    "a-data": { type: "string" },
    b: { type: "string" },
    "b-data": { type: "string" },
    blocks: { type: "string", default: "20" },
    "per-block": { type: "string", default: "25" },
    warmup: { type: "string", default: "130" },
    contract: { type: "boolean", default: false },
    profile: { type: "string" },
    answer: { type: "string" },
    connections: { type: "string", default: "1" },
    select: { type: "boolean", default: false },
    "b-select": { type: "boolean", default: false },
  },
});
if (!args.a || !args["a-data"] || !args.b || !args["b-data"]) {
  throw new Error("usage: --a <bundle> --a-data <dir> --b <bundle> --b-data <dir>");
}

/** The workerd children of this process. */
const workerds = () => new Set(workerdChildren().map((child) => child.pid));

/** CPU ms a workerd has used so far (it runs while the bench measures it). */
const cpuMs = (/** @type {number} */ pid) => cpuMsOf(pid) ?? Number.NaN;

const key = randomBytes(24).toString("hex");
const apiKeys = `bench-read-0:read:${createHash("sha256").update(key).digest("hex")}`;

/** @param {string} bundle @param {string} dir @param {number | undefined} inspectorPort */
async function start(bundle, dir, inspectorPort) {
  const before = workerds();
  const mf = await newMiniflare(bundle, dir, apiKeys, {}, { inspectorPort });
  const url = await mf.ready;
  const pid = [...workerds()].find((p) => !before.has(p));
  if (pid === undefined) throw new Error("no workerd process found");
  return { mf, base: url.origin, pid, inspectorPort };
}

const a = await start(args.a, args["a-data"], args.profile ? await freePort() : undefined);
const b = await start(args.b, args["b-data"], args.profile ? await freePort() : undefined);

// The bench's own cart (bench/lib/scenarios.mjs): 500 products spread over the catalogue; the
// contract one (the bench's contract customer) takes half its lines from the customer's own lists.
const db = await a.mf.getD1Database("DB");
const products = Number(await db.prepare("select count(*) as n from products").first("n"));
const subject = `resolve-500-${args.contract ? "contract" : "anonymous"}${args.select ? "-select" : ""}`;
const scenario = scenarios(await discover(db, products)).find((s) => s.id === subject);
if (!scenario) throw new Error(`no scenario ${subject}`);
const cart = /** @type {Record<string, unknown>} */ (scenario.body);
const body = JSON.stringify(cart);
const bodyB = args["b-select"] ? JSON.stringify({ ...cart, select: CART_SELECT }) : body;

/** @param {string} base @param {string} text */
async function resolve(base, text) {
  const res = await fetch(`${base}/v1/api/prices/resolve`, {
    method: "POST",
    // As the bench's autocannon, which asks for no encoding: fetch asks for gzip by default, and
    // Miniflare's entry worker then compresses the answer as Cloudflare's edge would (some 2-3 ms
    // of workerd's CPU for 477 KB), which the bench never pays.
    headers: {
      "x-webhook-signature": key,
      "content-type": "application/json",
      "accept-encoding": "identity",
    },
    body: text,
  });
  const out = await res.text();
  if (res.status !== 200) throw new Error(`${res.status}: ${out.slice(0, 300)}`);
  return out;
}

// The same answer, byte for byte, at a fixed instant.
const fixed = (/** @type {string} */ text) =>
  JSON.stringify({ ...JSON.parse(text), at: "2026-11-29T12:00:00Z" });
const [answerA, answerB] = [
  await resolve(a.base, fixed(body)),
  await resolve(b.base, fixed(bodyB)),
];
const same = answerA === answerB;
console.log(`answers: ${answerA.length} and ${answerB.length} bytes, identical: ${same}`);
if (!same && !args["b-select"]) process.exitCode = 1;
if (args.answer) writeFileSync(args.answer, answerA);

const warmup = Number(args.warmup);
for (let i = 0; i < warmup; i++) {
  await resolve(a.base, body);
  await resolve(b.base, bodyB);
}

/**
 * The inspector of a worker started with one, its profiler on.
 * @param {number | undefined} port
 */
async function inspect(port) {
  if (!port) return undefined;
  const targets = /** @type {{ title?: string, webSocketDebuggerUrl: string }[]} */ (
    await (await fetch(`http://127.0.0.1:${port}/json`)).json()
  );
  const target = targets.find((t) => t.title?.includes("bench")) ?? targets[0];
  if (!target) throw new Error(`no inspector target on port ${port}`);
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((ok, fail) => {
    ws.once("open", ok);
    ws.once("error", fail);
  });
  let id = 0;
  /** @type {Map<number, (value: any) => void>} */
  const pending = new Map();
  ws.on("message", (/** @type {Buffer} */ data) => {
    const message = JSON.parse(String(data));
    pending.get(message.id)?.(message.result);
    pending.delete(message.id);
  });
  /** @param {string} method @param {object} [params] @returns {Promise<any>} */
  const send = (method, params = {}) =>
    new Promise((ok) => {
      pending.set(++id, ok);
      ws.send(JSON.stringify({ id, method, params }));
    });
  await send("Profiler.enable");
  await send("Profiler.setSamplingInterval", { interval: 100 });
  return { send, close: () => ws.close() };
}
const inspectors = [await inspect(a.inspectorPort), await inspect(b.inspectorPort)];

const perBlock = Number(args["per-block"]);
/** @param {{ base: string, pid: number }} worker @param {string} text */
async function block(worker, text) {
  const cpu0 = cpuMs(worker.pid);
  const t0 = performance.now();
  let next = 0;
  const connection = async () => {
    while (next < perBlock) {
      next++;
      await resolve(worker.base, text);
    }
  };
  await Promise.all(Array.from({ length: Number(args.connections) }, connection));
  return {
    cpu: (cpuMs(worker.pid) - cpu0) / perBlock,
    wall: (performance.now() - t0) / perBlock,
  };
}

/** @type {{ cpu: number, wall: number }[]} */
const sa = [];
/** @type {{ cpu: number, wall: number }[]} */
const sb = [];
for (const inspector of inspectors) await inspector?.send("Profiler.start");
for (let i = 0; i < Number(args.blocks); i++) {
  if (i % 2 === 0) {
    sa.push(await block(a, body));
    sb.push(await block(b, bodyB));
  } else {
    sb.push(await block(b, bodyB));
    sa.push(await block(a, body));
  }
}
for (const [i, inspector] of inspectors.entries()) {
  if (!inspector) continue;
  const { profile } = await inspector.send("Profiler.stop");
  const file = `${args.profile}.${i === 0 ? "a" : "b"}.cpuprofile`;
  writeFileSync(file, JSON.stringify(profile));
  inspector.close();
  // Samples outside (idle), (program) and (root): the isolate's JavaScript and its collector.
  // workerd takes them further apart than the interval asked for, and the deltas hold the waits
  // between requests: compare the two builds' counts, not a time.
  const names = new Map(
    profile.nodes.map((/** @type {any} */ n) => [n.id, n.callFrame.functionName]),
  );
  const busy = profile.samples.filter(
    (/** @type {number} */ id) => !["(idle)", "(program)", "(root)"].includes(names.get(id)),
  ).length;
  console.log(
    `profile ${file}: ${busy} busy samples, ${(busy / (perBlock * Number(args.blocks))).toFixed(1)} a request`,
  );
}

/** @param {{ cpu: number, wall: number }[]} s */
const medianCpu = (s) =>
  quantile(
    s.map((x) => x.cpu),
    0.5,
  );
const show = (/** @type {string} */ name, /** @type {{ cpu: number, wall: number }[]} */ s) => {
  const cpu = s.map((x) => x.cpu);
  const wall = s.map((x) => x.wall);
  console.log(
    `${name}: CPU ms/request median ${quantile(cpu, 0.5).toFixed(2)} ` +
      `(p25 ${quantile(cpu, 0.25).toFixed(2)}, p75 ${quantile(cpu, 0.75).toFixed(2)}); ` +
      `wall ms median ${quantile(wall, 0.5).toFixed(2)}`,
  );
};
console.log(
  `${Number(args.blocks)} blocks of ${perBlock} ${args.contract ? "contract" : "anonymous"} ` +
    `(${args.connections} in flight) ` +
    `500-line resolves each, alternating; load ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`,
);
show("A", sa);
show("B", sb);
const ratio = medianCpu(sb) / medianCpu(sa);
const mean = (/** @type {{ cpu: number }[]} */ s) =>
  s.reduce((sum, x) => sum + x.cpu, 0) / s.length;
// /proc counts CPU in clock ticks (10 ms): a block's median moves in steps of 10 ms / per-block,
// so the mean over all blocks is given too.
console.log(
  `B/A ratio of CPU medians: ${ratio.toFixed(3)}; of means: ${(mean(sb) / mean(sa)).toFixed(3)} ` +
    `(${mean(sa).toFixed(2)} → ${mean(sb).toFixed(2)} ms)`,
);
await a.mf.dispose();
await b.mf.dispose();
