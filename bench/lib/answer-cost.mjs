/**
 * What a price answer's size costs workerd, apart from computing it (issue 29 item 4;
 * bench/results/2026-11-30-answer-cost.md). A Worker of a few lines, in Miniflare as the bench
 * runs the service, answers every POST with one of three bodies:
 *
 * - `/empty`: `{}`;
 * - `/held`: the answer's text, one string held by the isolate (the bytes alone);
 * - `/stringify`: `JSON.stringify` of the parsed answer, a fresh string each time, as `c.json`
 *   writes the service's answer (the bytes and their serialisation).
 *
 * The client is the bench's (autocannon, no encoding asked for), the request body the size of a
 * 500-line cart's. Per round, path and connection count it reads the workerd process's CPU time
 * (/proc) over `--seconds` of load and divides it by the answers; the rounds alternate the paths
 * and the medians over them are printed. Not part of `npm run bench`: a tool for the question.
 *
 *   node bench/lib/answer-cost.mjs --answer <file> [--seconds 4] [--rounds 3] [--connections 1,16]
 *
 * `<file>`: an answer to send, for example the one `bench/lib/cart500-cpu.mjs --answer` writes.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { Miniflare } from "miniflare";
import { quantile } from "./engine.mjs";
import { cpuMsOf, workerdChildren } from "./workerd.mjs";

const { values: args } = parseArgs({
  options: {
    answer: { type: "string" },
    seconds: { type: "string", default: "4" },
    rounds: { type: "string", default: "3" },
    connections: { type: "string", default: "1,16" },
  },
});
if (!args.answer) throw new Error("usage: --answer <file> (an answer's JSON)");
const answer = readFileSync(args.answer, "utf8");
JSON.parse(answer); // a JSON text, or stop here

const script = `
const held = ${JSON.stringify(answer)};
const parsed = JSON.parse(held);
const json = { "content-type": "application/json" };
export default {
  async fetch(request) {
    await request.text();
    const path = new URL(request.url).pathname;
    const body = path === "/held" ? held : path === "/stringify" ? JSON.stringify(parsed) : "{}";
    return new Response(body, { headers: json });
  },
};`;

const before = new Set(workerdChildren().map((child) => child.pid));
const mf = new Miniflare({ modules: true, script, compatibilityDate: "2025-01-01" });
const base = (await mf.ready).origin;
const pid = workerdChildren().find((child) => !before.has(child.pid))?.pid;
if (pid === undefined) throw new Error("no workerd process found");

// A 500-line cart's body, about 25 KB.
const body = JSON.stringify({
  channelCode: "WEB-DE",
  lines: Array.from({ length: 500 }, (_, i) => ({
    productCode: `SCR-WOOD-${1e6 + i}`,
    quantity: 5,
  })),
});
const paths = ["/empty", "/held", "/stringify"];
const connections = String(args.connections).split(",").map(Number);

/** @type {Map<string, number[]>} CPU ms an answer, by path and connection count. */
const cpu = new Map();
for (let round = 0; round < Number(args.rounds); round++) {
  for (const c of connections) {
    for (const path of round % 2 === 0 ? paths : [...paths].reverse()) {
      const url = base + path;
      await autocannon({ url, method: "POST", body, connections: c, duration: 1 }); // warm-up
      const cpu0 = cpuMsOf(pid) ?? Number.NaN;
      const result = await autocannon({
        url,
        method: "POST",
        body,
        connections: c,
        duration: Number(args.seconds),
      });
      const answers = result["2xx"];
      const ms = ((cpuMsOf(pid) ?? Number.NaN) - cpu0) / Math.max(1, answers);
      const key = `${path} ${c}`;
      cpu.set(key, [...(cpu.get(key) ?? []), ms]);
    }
  }
}
await mf.dispose();

console.log(
  `answer ${answer.length} bytes; workerd CPU ms an answer, median of ${args.rounds} rounds of ` +
    `${args.seconds} s (load ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")})`,
);
for (const c of connections) {
  const median = (/** @type {string} */ path) => quantile(cpu.get(`${path} ${c}`) ?? [], 0.5);
  const empty = median("/empty");
  const cells = paths.map((path) => {
    const ms = median(path);
    return `${path} ${ms.toFixed(2)}${path === "/empty" ? "" : ` (+${(ms - empty).toFixed(2)})`}`;
  });
  console.log(`${String(c).padStart(2)} connections: ${cells.join(", ")}`);
}
