// Profiling harness (not committed): the built Worker on the bench D1 under Miniflare with the
// inspector, a CPU profile of N sequential 500-line lookups.
import { execSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { Miniflare } from "miniflare";
const ROOT = "/work/main";
const out = "/work/prof/bundle";
mkdirSync(out, { recursive: true });
execSync(`npx wrangler deploy --dry-run --outdir ${out} 2>&1 | tail -1`, { cwd: ROOT, stdio: "inherit", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } });
const { unstable_getMiniflareWorkerOptions } = await import("wrangler");
const { workerOptions } = unstable_getMiniflareWorkerOptions(join(ROOT, "wrangler.toml"));
const key = "prof-key";
const hash = createHash("sha256").update(key).digest("hex");
const mf = new Miniflare({
  ...workerOptions, name: "prof", modules: true, scriptPath: join(out, "index.js"), modulesRoot: out,
  bindings: { ...workerOptions.bindings, API_KEYS: `prof:read:${hash}`, RATE_LIMITS: "off" },
  d1Persist: join(ROOT, ".wrangler/bench-100k/v3/d1"), host: "127.0.0.1", port: 0, inspectorPort: 9229, logRequests: false,
});
const url = await mf.ready;
const codes = JSON.parse(readFileSync("/work/prof/codes500.json", "utf8")).map((r) => r.code);
const n = Number(process.argv[2] ?? 500);
const body = JSON.stringify({ channelCode: "WEB-DE", lines: codes.slice(0, n).map((productCode, i) => ({ productCode, quantity: [1, 5, 12, 60][i % 4] })) });
const send = async () => { const r = await fetch(url + "v1/api/prices/resolve", { method: "POST", headers: { "content-type": "application/json", "x-webhook-signature": key }, body }); const t = await r.text(); if (!r.ok) throw new Error(t.slice(0, 300)); return r; };
for (let i = 0; i < 30; i++) await send();
console.log("server-timing", (await send()).headers.get("server-timing"));
{ const t = performance.now(); for (let i = 0; i < 100; i++) await send(); console.log("no profiler: wall ms/request", ((performance.now() - t) / 100).toFixed(2)); }
if (process.env.NOPROF) { await mf.dispose(); process.exit(0); }
const targets = await (await fetch("http://127.0.0.1:9229/json")).json();
const target = targets.find((t) => t.title?.includes("prof") || true);
const ws = new WebSocket(target.webSocketDebuggerUrl);
await new Promise((r) => ws.addEventListener("open", r));
let id = 0; const pending = new Map();
ws.addEventListener("message", (e) => { const m = JSON.parse(e.data); if (m.id && pending.has(m.id)) { pending.get(m.id)(m); pending.delete(m.id); } });
const call = (method, params = {}) => new Promise((r) => { const i = ++id; pending.set(i, r); ws.send(JSON.stringify({ id: i, method, params })); });
await call("Profiler.enable"); await call("Profiler.setSamplingInterval", { interval: 100 }); await call("Profiler.start");
const t0 = performance.now();
const N = 200;
for (let i = 0; i < N; i++) await send();
const ms = (performance.now() - t0) / N;
const { result } = await call("Profiler.stop");
writeFileSync("/work/prof/worker.cpuprofile", JSON.stringify(result.profile));
console.log("wall ms/request", ms.toFixed(2));
const p = result.profile; const byId = new Map(p.nodes.map((x) => [x.id, x]));
const self = new Map(); const counts = new Map(); for (const s of p.samples) counts.set(s, (counts.get(s) ?? 0) + 1);
for (const [i, c] of counts) { const nd = byId.get(i); const k = `${nd.callFrame.functionName || "(anon)"} ${nd.callFrame.url.split("/").pop()}:${nd.callFrame.lineNumber}`; self.set(k, (self.get(k) ?? 0) + c); }
const total = p.samples.length;
[...self].sort((a, b) => b[1] - a[1]).slice(0, 40).forEach(([k, c]) => console.log((100 * c / total).toFixed(1) + "%", k));
ws.close(); await mf.dispose();
