/**
 * The live heap of the largest publish simulation (docs/simulation.md §8), in Node: the Worker's
 * own code (`startSimulation` and `simulationJson` of src/resources/simulations, bundled by
 * esbuild) on the bench's D1 (through Miniflare, as the Worker reads it), the body the bench sends,
 * a full GC and the heap's size every 25 steps of the comparison and every 20 pieces of the
 * answer. What an isolate's 128 MB must hold for one call; workerd's RSS (the "Lookups while the
 * largest simulation runs" line of the bench) also counts garbage not yet collected, what V8 keeps
 * once grown, and local D1.
 *
 *   node --expose-gc bench/lib/simulation-heap.mjs [persist dir]   # prints JSON
 *
 * `npm run bench` runs it in a child process (it needs --expose-gc) once its Worker has stopped.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import v8 from "node:v8";
import { build } from "esbuild";
import { Miniflare } from "miniflare";
import { d1PersistOf, databaseId, persistDir, ROOT } from "./common.mjs";
import { simulationBody } from "./simulation.mjs";

const MB = 1024 * 1024;
/** The comparison's steps between two measurements, and the answer's pieces. */
const EVERY_STEPS = 25;
const EVERY_PIECES = 20;

/** The Worker's simulation code, bundled for Node. */
async function bundled(/** @type {string} */ dir) {
  const entry = join(dir, "entry.ts");
  const service = join(ROOT, "src", "resources", "simulations", "simulations.service.ts");
  const outfile = join(dir, "simulation.mjs");
  await build({
    stdin: {
      contents:
        `export { startSimulation, simulationJson } from ${JSON.stringify(service)};\n` +
        `export { SimulationRequestSchema } from ${JSON.stringify(service.replace("service", "schemas"))};\n` +
        `export { createDb, DbMeter } from ${JSON.stringify(join(ROOT, "src", "db", "client.ts"))};\n` +
        `export { PRODUCTS_PER_STEP } from ${JSON.stringify(join(ROOT, "src", "pricing", "simulation", "index.ts"))};\n`,
      resolveDir: ROOT,
      sourcefile: entry,
      loader: "ts",
    },
    bundle: true,
    platform: "node",
    format: "esm",
    outfile,
    logLevel: "error",
  });
  return import(pathToFileURL(outfile).href);
}

/** The heap after a full collection, MB. */
function live() {
  const gc = /** @type {() => void} */ (globalThis.gc);
  gc();
  return v8.getHeapStatistics().used_heap_size / MB;
}

const round = (/** @type {number} */ n) => Number(n.toFixed(1));

/**
 * The simulation run to its end without pauses: its answer.
 * @param {any} code the bundle
 * @param {unknown} db
 * @param {any} request
 */
async function simulate(code, db, request) {
  const { head, steps } = await code.startSimulation(db, request);
  let step = steps.next();
  while (!step.done) step = steps.next();
  return { ...head, ...step.value };
}

/**
 * The simulation with the live heap measured (absolute, MB): with its data read, the most in
 * the first pass and in the whole comparison (every EVERY_STEPS steps), once its answer is built
 * (the comparison done and out of reach, as when the Worker writes it) and the most while the
 * answer is written (every EVERY_PIECES pieces).
 * @param {any} code the bundle
 * @param {unknown} db
 * @param {any} request
 */
async function measure(code, db, request) {
  const { answer, ...heap } = await compared(code, db, request);
  const built = live();
  let [writing, pieces, bytes] = [built, 0, 0];
  for (const piece of code.simulationJson(answer)) {
    bytes += Buffer.byteLength(piece);
    if (++pieces % EVERY_PIECES === 0) writing = Math.max(writing, live());
  }
  const counts = {
    rows: answer.rows.length,
    changed: answer.summary.changed,
    steps: heap.steps,
    pieces,
    answerMB: round(bytes / 1e6),
  };
  return { ...heap, built, writing, counts };
}

/**
 * The data read and the comparison run, measured; only the answer leaves.
 * @param {any} code the bundle
 * @param {unknown} db
 * @param {any} request
 */
async function compared(code, db, request) {
  const { head, steps } = await code.startSimulation(db, request);
  const data = live();
  // The first pass: every buyer's two set-ups and its products in steps (docs/simulation.md §8).
  const buyers = request.customers.sample + (request.customers.anonymous ? 1 : 0);
  const firstPass = buyers * (2 + Math.ceil(request.products.sample / code.PRODUCTS_PER_STEP));
  let [comparing, first, count] = [data, data, 0];
  let step = steps.next();
  for (; !step.done; step = steps.next()) {
    if (++count % EVERY_STEPS !== 0) continue;
    const now = live();
    comparing = Math.max(comparing, now);
    if (count <= firstPass) first = Math.max(first, now);
  }
  return { answer: { ...head, ...step.value }, data, first, comparing, steps: count };
}

async function main() {
  if (typeof globalThis.gc !== "function") throw new Error("run with node --expose-gc");
  const tmp = mkdtempSync(join(os.tmpdir(), "simulation-heap-"));
  const mf = new Miniflare({
    modules: true,
    script: "export default { fetch: () => new Response(null, { status: 404 }) }",
    d1Databases: { DB: databaseId() },
    d1Persist: d1PersistOf(persistDir(process.argv[2], "100k")),
  });
  try {
    const code = await bundled(tmp);
    const d1 = await mf.getD1Database("DB");
    const { body } = await simulationBody(d1, "WEB-DE");
    const request = code.SimulationRequestSchema.parse(JSON.parse(body));
    // Once unmeasured first: the code it compiles stays in the heap, in the Worker's isolate too.
    await simulate(code, code.createDb(d1, new code.DbMeter(0)), request);
    const measured = await measure(code, code.createDb(d1, new code.DbMeter(0)), request);
    // What stays once the call is over: every figure is over it (absolute figures would count
    // the bundle, Miniflare's client, and what an earlier call left for the next collection).
    const floor = live();
    const over = (/** @type {number} */ mb) => round(mb - floor);
    const result = {
      ...measured.counts,
      /** Live heap over the one without the call, MB: its data read, the most in the first pass… */
      dataMB: over(measured.data),
      firstPassMB: over(measured.first),
      comparingMB: over(measured.comparing),
      /** …with the answer's rows built, and the most while the answer is written. */
      builtMB: over(measured.built),
      writingMB: over(measured.writing),
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await mf.dispose();
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`simulation-heap: ${error instanceof Error ? error.message : error}\n`);
  process.exitCode = 1;
});
