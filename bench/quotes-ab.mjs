#!/usr/bin/env node
/**
 * `npm run bench:quotes-ab` — what the accepted AGREEMENT quotes of the scale data cost the price
 * lookups (issue 31, item 6: their ratios fall by no more than 5 %), measured in ONE run.
 *
 *   node bench/quotes-ab.mjs [--size 100k] [--persist-to DIR] [--block 2] [--rounds 6]
 *                            [--connections 1,16] [--warmup 1] [--only REGEX] [--max-fall 0.05]
 *                            [--parallel] [--max-minutes 40]
 *
 * 1. copies the data set twice into a temporary folder (the data set itself is only read), applies
 *    the pending migrations to both, and removes every quote and its lines and revisions from the
 *    second copy with SQL (no audit entry: the audit triggers write only inside a request; the
 *    pricing data version moved as an accept moves it);
 * 2. builds the Worker as `npm run bench` does and starts it twice in Miniflare with the options
 *    wrangler derives from wrangler.toml (two workerd processes, each reading its CPU time from
 *    /proc): **with** the quotes and **without** them, the same bench keys on both;
 * 3. sends every price lookup of `npm run bench` (GET /prices 1 and 24 products, resolve 1, 50 and
 *    500 lines, anonymous and for the contract customer) and the one-read floor to both, and notes
 *    whether their answers differ (a quoted product in the cart);
 * 4. per connection count and scenario, `--rounds` rounds of one `--block`-second block on each
 *    Worker, in the order with-without, without-with, … (ABBA): both see the same load of a shared
 *    machine, and a load that moves during a scenario favours neither. With `--parallel` the two
 *    blocks of a round run at the same time, each Worker with its own `connections`: the same
 *    load at every instant, for a machine whose load moves within seconds;
 * 5. prints per scenario req/s, p99 and CPU per answer of both, with ÷ without (the pooled req/s;
 *    the rounds' median and range beside it), the ratio to the floor on each side; the floor's own
 *    with ÷ without is the method's noise (it reads no quote). A lookup whose req/s with the quotes
 *    is below (1 − `--max-fall`) of its req/s without them misses the check;
 * 6. writes bench/results/quotes-ab-<size>-<time>.json (git-ignored; not named `<size>-…`, so
 *    `npm run bench` never takes it for its previous run).
 *
 * Everything listens on 127.0.0.1 only; both Workers and the copies are removed at the end, on
 * Ctrl-C and after --max-minutes.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join, relative } from "node:path";
import { parseArgs } from "node:util";
import { applyMigrations, wrangler } from "../scripts/lib/local-db.mjs";
import { abbaOrder, beyondControls, changeOf, compareSides, withinFall } from "./lib/ab.mjs";
import { cleanupRegistry } from "./lib/cleanup.mjs";
import {
  loadBenchOptions,
  loadBenchValues,
  persistDir,
  readMarker,
  ROOT,
  shownDir,
  SIZES,
} from "./lib/common.mjs";
import {
  benchKeys,
  CHANNEL,
  discover,
  FLOOR,
  isLookup,
  fetchScenario,
  loadScenario,
  scenarios,
} from "./lib/scenarios.mjs";
import { serverTiming } from "./lib/timing.mjs";
import { cpuMsOf, newMiniflare, waitFor, workerdPid } from "./lib/workerd.mjs";

/** @typedef {import("./lib/scenarios.mjs").Scenario} Scenario */
/** @typedef {import("./lib/scenarios.mjs").KeyPools} KeyPools */
/** @typedef {import("./lib/ab.mjs").Block} Block */
/** @typedef {Awaited<ReturnType<import("miniflare").Miniflare["getD1Database"]>>} D1 */

const RESULTS_DIR = join(ROOT, "bench", "results");
const log = (/** @type {string} */ text) => process.stderr.write(`${text}\n`);

const { cleanups, loads, cleanup } = cleanupRegistry(log, "the Workers");

/** The command line, checked. */
function options() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      ...loadBenchOptions(40),
      block: { type: "string", default: "2" },
      rounds: { type: "string", default: "6" },
      "max-fall": { type: "string", default: "0.05" },
      parallel: { type: "boolean", default: false },
      summarize: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    process.stdout.write(
      "node bench/quotes-ab.mjs [--size 100k] [--persist-to DIR] [--block 2] [--rounds 6]\n" +
        "                         [--connections 1,16] [--warmup 1] [--only REGEX] [--max-fall 0.05]\n" +
        "                         [--parallel] [--max-minutes 40]\n" +
        "node bench/quotes-ab.mjs --summarize RESULT.json...   # the contract lookups beyond the controls, over runs\n",
    );
    return undefined;
  }
  const o = {
    ...loadBenchValues(values),
    block: Number(values.block),
    rounds: Number(values.rounds),
    maxFall: Number(values["max-fall"]),
    parallel: values.parallel,
    summarize: values.summarize ? positionals : undefined,
  };
  if (!(o.block >= 0.5 && o.block <= 60)) throw new Error("--block: seconds, 0.5-60");
  if (!(Number.isInteger(o.rounds) && o.rounds >= 2 && o.rounds <= 100))
    throw new Error("--rounds: a whole number, 2-100");
  if (!(o.maxFall > 0 && o.maxFall < 1)) throw new Error("--max-fall: a share, e.g. 0.05");
  return o;
}

/**
 * Removes every quote with its lines and revisions, as if none had ever been made, and moves the
 * pricing data version as an accept does (src/db/agreements.ts). Run before the Worker answers
 * anything; the audit triggers write nothing outside a request (no audit_context row).
 * @param {D1} db
 */
async function removeQuotes(db) {
  const [lines, revisions, quotes] = await db.batch([
    db.prepare("DELETE FROM quote_lines"),
    db.prepare("DELETE FROM quote_revisions"),
    db.prepare("DELETE FROM quotes"),
    db.prepare(
      "UPDATE pricing_version SET version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)), " +
        "seen_version = max(version + 1, cast(unixepoch('subsec') * 1000 as integer)) WHERE id = 1",
    ),
  ]);
  return {
    quotes: quotes?.meta.changes ?? 0,
    lines: lines?.meta.changes ?? 0,
    revisions: revisions?.meta.changes ?? 0,
  };
}

/**
 * The accepted AGREEMENT quotes in force (and their lines), in all and of the contract customer in
 * the bench's channel.
 * @param {D1} db
 * @param {string} contractCode
 */
async function agreementsIn(db, contractCode) {
  const now = Date.now();
  const all = await db
    .prepare(
      `select count(distinct q.id) as quotes, count(l.quote_id) as lines from quotes q
       left join quote_lines l on l.quote_id = q.id
       where q.status = 'ACCEPTED' and q.mode = 'AGREEMENT' and q.valid_to > ?1`,
    )
    .bind(now)
    .first();
  const contract = await db
    .prepare(
      `select count(distinct q.id) as quotes, count(l.quote_id) as lines from quotes q
       join customers c on c.id = q.customer_id and c.code = ?2
       join channels ch on ch.id = q.channel_id and ch.code = ?3
       left join quote_lines l on l.quote_id = q.id
       where q.status = 'ACCEPTED' and q.mode = 'AGREEMENT' and q.valid_to > ?1`,
    )
    .bind(now, contractCode, CHANNEL)
    .first();
  return {
    quotes: Number(all?.quotes ?? 0),
    lines: Number(all?.lines ?? 0),
    contractQuotes: Number(contract?.quotes ?? 0),
    contractLines: Number(contract?.lines ?? 0),
  };
}

/**
 * One Worker of the comparison: its URL, its D1, the CPU clock of its workerd.
 * @param {string} bundle
 * @param {string} dir
 * @param {string} apiKeys
 */
async function startSide(bundle, dir, apiKeys) {
  const mf = await newMiniflare(bundle, dir, apiKeys);
  cleanups.push(() => mf.dispose());
  const url = await mf.ready;
  // The newest workerd child of this process: the one just started (the sides start in turn).
  const pid = workerdPid();
  await waitFor(`${url.origin}/health`, 30);
  return {
    base: url.origin,
    db: await mf.getD1Database("DB"),
    cpu: () => (pid === undefined ? undefined : cpuMsOf(pid)),
  };
}

/** @typedef {Awaited<ReturnType<typeof startSide>>} SideServer */

/**
 * One block: autocannon on one Worker for `seconds`.
 * @param {SideServer} side
 * @param {Scenario} s
 * @param {KeyPools} keys
 * @param {number} connections
 * @param {number} seconds
 * @returns {Promise<Block>}
 */
async function block(side, s, keys, connections, seconds) {
  const { result, latencies, cpuMs } = await loadScenario(side.base, s, keys, {
    connections,
    seconds,
    loads,
    cpu: side.cpu,
  });
  return {
    requests: result["2xx"],
    seconds: result.duration,
    latencies,
    cpuMs,
    failed: result.non2xx + result.errors + result.timeouts,
  };
}

/**
 * The scenario's answer on both Workers: status, and how many of its priced lines differ (the
 * answers' `lines` or `prices`, compared as JSON).
 * @param {{ with: SideServer, without: SideServer }} sides
 * @param {Scenario} s
 * @param {KeyPools} keys
 */
async function answers(sides, s, keys) {
  const [a, b] = await Promise.all([
    fetchScenario(sides.with.base, s, keys),
    fetchScenario(sides.without.base, s, keys),
  ]);
  const linesOf = (/** @type {any} */ json) =>
    Array.isArray(json?.lines) ? json.lines : Array.isArray(json?.prices) ? json.prices : [];
  const la = linesOf(a.json);
  const lb = linesOf(b.json);
  const differ = la.filter(
    (/** @type {unknown} */ line, /** @type {number} */ i) =>
      JSON.stringify(line) !== JSON.stringify(lb[i]),
  ).length;
  return {
    status: { with: a.status, without: b.status },
    serverTiming: { with: a.timing, without: b.timing },
    lines: la.length,
    differ,
    problem:
      a.status >= 300 || b.status >= 300
        ? `${a.status}/${b.status} ${(a.status >= 300 ? a.text : b.text).slice(0, 160)}`
        : undefined,
  };
}

const fmt = (/** @type {number | undefined} */ n, digits = 2) =>
  n === undefined || Number.isNaN(n) ? "-" : n.toFixed(digits);
const rate = (/** @type {number} */ n) => Math.round(n).toLocaleString("en-US");

/**
 * The results as a Markdown table (it reads as well on a terminal).
 * @param {any[]} rows
 * @param {number} maxFall
 */
function markdownTable(rows, maxFall) {
  const head = [
    "scenario",
    "conns",
    "req/s with / without",
    "with ÷ without",
    "rounds: median (range)",
    "× floor with / without",
    "p99 ms with / without",
    "CPU ms with / without",
    "CPU ÷",
    "",
  ];
  const body = rows.map((r) => [
    r.title,
    String(r.connections),
    `${rate(r.with.requestsPerSecond)} / ${rate(r.without.requestsPerSecond)}`,
    changeOf(r.ratio),
    `${changeOf(r.rounds.median)} (${changeOf(r.rounds.min)} … ${changeOf(r.rounds.max)})`,
    r.id === FLOOR ? "1 / 1" : `${fmt(r.floorRatio.with)} / ${fmt(r.floorRatio.without)}`,
    `${fmt(r.with.p99Ms)} / ${fmt(r.without.p99Ms)}`,
    `${fmt(r.with.cpuMsPerRequest, 3)} / ${fmt(r.without.cpuMsPerRequest, 3)}`,
    changeOf(r.cpuRatio),
    r.id === FLOOR
      ? "control"
      : r.pass === null
        ? "n/a"
        : r.pass
          ? "PASS"
          : `MISS (> ${maxFall * 100} % fall)`,
  ]);
  const line = (/** @type {string[]} */ cells) => `| ${cells.join(" | ")} |`;
  return [
    line(head),
    line(head.map((_, i) => (i < 2 || i === 9 ? "---" : "---:"))),
    ...body.map(line),
  ].join("\n");
}

/**
 * The contract customer's lookups (the only ones that read its agreements) beyond the controls
 * (the floor and the anonymous lookups: they read no quote), over every scenario and connection
 * count of `results` (of one run or several): req/s with ÷ without, and CPU per answer.
 * @param {{ id: string, ratio?: number, cpuRatio?: number }[]} results
 * @param {number} maxFall
 */
function aggregateOf(results, maxFall) {
  const subject = (/** @type {{ id: string }} */ r) => r.id.endsWith("-contract");
  const of = (/** @type {"ratio" | "cpuRatio"} */ key, /** @type {boolean} */ subjects) =>
    results
      .filter((r) => subject(r) === subjects)
      .map((r) => r[key])
      .filter((x) => x !== undefined);
  return {
    throughput: beyondControls(of("ratio", true), of("ratio", false), maxFall),
    cpu: beyondControls(of("cpuRatio", true), of("cpuRatio", false), maxFall),
  };
}

/**
 * The aggregate as printed.
 * @param {ReturnType<typeof aggregateOf>} a
 * @param {number} maxFall
 */
function aggregateLines(a, maxFall) {
  const line = (/** @type {string} */ what, /** @type {ReturnType<typeof beyondControls>} */ b) =>
    `${b.verdict === null ? "open" : b.verdict ? "PASS" : "MISS"}  ${what}: contract lookups ` +
    `${changeOf(b.subjectMean)} (${b.subjects}), controls ${changeOf(b.controlMean)} ` +
    `(${b.controls}, spread ±${((b.controlSpread || 0) * 100).toFixed(1)} %): the quotes ` +
    `${changeOf(b.effect)}, ±2 standard errors ${changeOf(b.low)} … ${changeOf(b.high)} ` +
    `(bound −${maxFall * 100} %)`;
  return [line("req/s", a.throughput), line("CPU per answer", a.cpu)];
}

/**
 * `--summarize`: the aggregate over the results of earlier runs.
 * @param {string[]} files
 * @param {number} maxFall
 */
function summarize(files, maxFall) {
  if (files.length === 0) throw new Error("--summarize: name one or more result files");
  const reports = files.map((f) => JSON.parse(readFileSync(f, "utf8")));
  const results = reports.flatMap((r) => r.results);
  process.stdout.write(
    `${files.length} run(s), ${results.length} scenario results; ` +
      "with ÷ without of the contract customer's lookups beyond the floor's and the anonymous lookups':\n" +
      `${aggregateLines(aggregateOf(results, maxFall), maxFall).join("\n")}\n`,
  );
}

async function main() {
  const o = options();
  if (!o) return;
  if (o.summarize) return summarize(o.summarize, o.maxFall);
  const watchdog = setTimeout(() => {
    log(`\nstopped: the bench ran longer than --max-minutes ${o.maxMinutes}`);
    void cleanup().finally(() => process.exit(1));
  }, o.maxMinutes * 60_000);
  watchdog.unref();

  const source = persistDir(o.persistTo, o.size);
  const marker = readMarker(source);
  if (marker?.status !== "complete" || marker.size !== o.size) {
    throw new Error(
      `no complete ${o.size} data set in ${shownDir(source)}: run ` +
        `\`npm run bench:data -- --size ${o.size}${o.persistTo ? ` --persist-to ${o.persistTo}` : ""}\` first`,
    );
  }
  const spec = /** @type {import("./lib/common.mjs").SizeSpec} */ (SIZES[o.size]);
  const started = new Date();
  const loadAtStart = os.loadavg().map((n) => Number(n.toFixed(2)));
  const tmp = mkdtempSync(join(os.tmpdir(), "pricing-quotes-ab-"));
  const removeTmp = () => rmSync(tmp, { recursive: true, force: true });
  cleanups.push(removeTmp);
  process.on("exit", removeTmp);

  log(
    `quotes A/B ${o.size} (${shownDir(source)}, seed ${marker.seed}): ${o.rounds} rounds of ` +
      `${o.block} s blocks per side at ${o.connections.join(" and ")} connection(s)` +
      (o.parallel ? ", both sides at once" : ", alternating"),
  );
  log("- two copies of the data set …");
  const dirs = { with: join(tmp, "with"), without: join(tmp, "without") };
  for (const dir of Object.values(dirs)) {
    cpSync(source, dir, { recursive: true });
    await applyMigrations(dir);
  }
  log("- building the Worker (wrangler deploy --dry-run --minify) …");
  await wrangler(["deploy", "--dry-run", "--outdir", join(tmp, "worker"), "--minify"]);
  const bundle = join(tmp, "worker", "index.js");
  const { keys, apiKeys } = await benchKeys();

  log("- starting both Workers (Miniflare, 127.0.0.1) …");
  const withQuotes = await startSide(bundle, dirs.with, apiKeys);
  const withoutQuotes = await startSide(bundle, dirs.without, apiKeys);
  const sides = { with: withQuotes, without: withoutQuotes };
  const removed = await removeQuotes(withoutQuotes.db);
  const params = await discover(withQuotes.db, spec.products);
  const agreements = {
    with: await agreementsIn(withQuotes.db, params.contractCode),
    without: await agreementsIn(withoutQuotes.db, params.contractCode),
  };
  log(
    `  with ${withQuotes.base}: ${agreements.with.quotes} accepted agreements in force ` +
      `(${agreements.with.lines} lines; ${params.contractCode} ${agreements.with.contractQuotes} in ${CHANNEL}, ` +
      `${agreements.with.contractLines} lines); without ${withoutQuotes.base}: removed ` +
      `${removed.quotes} quotes, ${removed.lines} lines, ${removed.revisions} revisions`,
  );

  const only = o.only ? new RegExp(o.only) : undefined;
  const list = scenarios(params).filter(
    (s) => s.id === FLOOR || (isLookup(s) && (!only || only.test(s.id))),
  );
  /** @type {Record<string, Awaited<ReturnType<typeof answers>>>} */
  const sampled = {};
  for (const s of list) {
    // Twice: the first answer fills the caches, the second is the steady one compared.
    await answers(sides, s, keys);
    const a = await answers(sides, s, keys);
    sampled[s.id] = a;
    if (a.problem) throw new Error(`${s.title}: ${a.problem}`);
    const steady = (/** @type {string} */ header) => {
      const t = serverTiming(header);
      return `${t.roundTrips ?? "?"} D1 round trip(s), context ${t.ctx ?? "-"}`;
    };
    log(
      `  ${s.title}: ${a.differ} of ${a.lines} lines priced differently; steady with ` +
        `${steady(a.serverTiming.with)}, without ${steady(a.serverTiming.without)}`,
    );
  }
  if (o.warmup > 0) {
    log(`- warm-up (${o.warmup} s per scenario and Worker) …`);
    for (const s of list) {
      for (const side of [withQuotes, withoutQuotes])
        await block(side, s, keys, Math.max(...o.connections), o.warmup);
    }
  }

  /** @type {Record<string, Record<number, { with: Block[], without: Block[] }>>} */
  const blocks = {};
  /** @type {Record<number, number[]>} */
  const loadDuring = {};
  const order = abbaOrder(o.rounds);
  for (const c of o.connections) {
    loadDuring[c] = os.loadavg().map((n) => Number(n.toFixed(2)));
    for (const [n, s] of list.entries()) {
      log(`  [@${c} ${n + 1}/${list.length}] ${s.title}`);
      const got = { with: /** @type {Block[]} */ ([]), without: /** @type {Block[]} */ ([]) };
      for (const round of order) {
        if (o.parallel) {
          // Both at once, each with its own connections: the same load at every instant.
          const [a, b] = await Promise.all(
            [withQuotes, withoutQuotes].map((side) => block(side, s, keys, c, o.block)),
          );
          got.with.push(/** @type {Block} */ (a));
          got.without.push(/** @type {Block} */ (b));
          continue;
        }
        for (const side of round) {
          const which = side === "a" ? "with" : "without";
          got[which].push(await block(sides[which], s, keys, c, o.block));
        }
      }
      (blocks[s.id] ??= {})[c] = got;
    }
  }
  await cleanup();

  const results = o.connections.flatMap((c) => {
    const floor = blocks[FLOOR]?.[c];
    const floorSides = floor ? compareSides(floor.with, floor.without) : undefined;
    return list.map((s) => {
      const got = /** @type {{ with: Block[], without: Block[] }} */ (blocks[s.id]?.[c]);
      const { a, b, ...compared } = compareSides(got.with, got.without);
      const floorRatio = {
        with: floorSides ? a.requestsPerSecond / floorSides.a.requestsPerSecond : undefined,
        without: floorSides ? b.requestsPerSecond / floorSides.b.requestsPerSecond : undefined,
      };
      return {
        id: s.id,
        title: s.title,
        connections: c,
        with: a,
        without: b,
        ...compared,
        floorRatio,
        pass: s.id === FLOOR ? null : withinFall({ a, b, ...compared }, o.maxFall),
        answers: sampled[s.id],
      };
    });
  });
  const lookups = results.filter((r) => r.id !== FLOOR);
  const missed = lookups.filter((r) => r.pass === false);
  const worst = [...lookups].sort((x, y) => (x.ratio ?? 0) - (y.ratio ?? 0))[0];
  const aggregate = aggregateOf(results, o.maxFall);
  const report = {
    date: started.toISOString(),
    size: o.size,
    seed: marker.seed,
    machine: {
      cpu: os.cpus()[0]?.model ?? "unknown",
      cores: os.cpus().length,
      node: process.version,
      loadAverageAtStart: loadAtStart,
      loadAverageByConnections: loadDuring,
      loadAverageAtEnd: os.loadavg().map((n) => Number(n.toFixed(2))),
    },
    settings: {
      blockSeconds: o.block,
      rounds: o.rounds,
      parallel: o.parallel,
      connections: o.connections,
      warmupSeconds: o.warmup,
      maxFall: o.maxFall,
      only: o.only ?? null,
    },
    contractCustomer: params.contractCode,
    agreements,
    removed,
    results,
    aggregate,
    check: {
      target: `price-lookup req/s with the quotes ≥ ${1 - o.maxFall} × without (issue 31, item 6)`,
      lookups: lookups.length,
      missed: missed.map((r) => `${r.title} @${r.connections}`),
      worst: worst
        ? { title: worst.title, connections: worst.connections, ratio: worst.ratio }
        : null,
      pass: lookups.every((r) => r.pass !== null) ? missed.length === 0 : null,
    },
  };
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(
    RESULTS_DIR,
    `quotes-ab-${o.size}-${started.toISOString().replace(/[:.]/g, "-")}.json`,
  );
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);

  const print = (/** @type {string} */ text = "") => process.stdout.write(`${text}\n`);
  print();
  print(
    `Quotes A/B, ${o.size}: ${agreements.with.quotes} accepted AGREEMENT quotes ` +
      `(${agreements.with.lines} lines) against none; ${o.rounds} rounds × ${o.block} s per side, ` +
      (o.parallel
        ? "both sides loaded at the same time (--parallel)"
        : "alternating with-without, without-with, …"),
  );
  print(
    `${report.machine.cpu}, ${report.machine.cores} cores; load ${loadAtStart.join(" ")} at the start, ` +
      Object.entries(loadDuring)
        .map(([c, l]) => `${l.join(" ")} when ${c} connection(s) began`)
        .join(", ") +
      `, ${report.machine.loadAverageAtEnd.join(" ")} at the end`,
  );
  print();
  print(markdownTable(results, o.maxFall));
  print();
  print(
    "with ÷ without: pooled req/s (the rounds: each pair of neighbouring blocks); CPU ÷: " +
      "CPU per answer without ÷ with (workerd, /proc). The floor reads no quote: its with ÷ without " +
      "is the method's noise.",
  );
  for (const r of lookups.filter((x) => x.connections === o.connections[0])) {
    if (r.answers && r.answers.differ > 0)
      print(`${r.title}: ${r.answers.differ} of ${r.answers.lines} lines priced by an agreement`);
  }
  print();
  print(
    "With ÷ without of the contract customer's lookups (they read its agreements) beyond the " +
      "floor's and the anonymous lookups' (they read no quote):",
  );
  for (const line of aggregateLines(aggregate, o.maxFall)) print(line);
  print();
  print(
    `${report.check.pass === null ? "n/a " : report.check.pass ? "PASS" : "MISS"}  ${report.check.target}: ` +
      `${lookups.length - missed.length} of ${lookups.length} within` +
      (worst ? `; worst ${changeOf(worst.ratio)} (${worst.title} @${worst.connections})` : "") +
      `; results: ${relative(ROOT, file)}`,
  );
  clearTimeout(watchdog);
}

main()
  .catch(async (error) => {
    log(`\nquotes A/B failed: ${error instanceof Error ? error.message : error}`);
    if (process.env.DEBUG && error instanceof Error) log(String(error.stack));
    process.exitCode = 1;
    await cleanup();
  })
  .finally(() => void cleanup().then(() => process.exit()));
