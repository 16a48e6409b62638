/**
 * The largest publish simulation (docs/simulation.md §8), timed: 100 customers × 1,000 products of
 * WEB-DE, activating the DRAFT trade conditions and promotions that reach the channel and a new
 * price sheet for the 1,000 products (their first tier in the channel's primary list, 1 % up), so
 * that most pairs change and every part of the comparison works. Not a load run: a simulation is
 * a rare back-office call of a second or two, so it is sent a few times one after the other and
 * its wall time reported.
 */

const PATH = "/v1/api/simulations/prices";
/** The most rows a simulation may answer (docs/simulation.md §2): the largest answer. */
const MAX_ROWS = 10_000;

/** @typedef {{ prepare(sql: string): { bind(...values: unknown[]): { all(): Promise<{ results: Record<string, unknown>[] }> } } }} Db */

/**
 * The change set: up to 10 DRAFT trade conditions and 10 DRAFT promotions of the channel (or of
 * every channel) that have not ended, and the price sheet.
 * @param {Db} db
 * @param {string} channel
 */
async function changeSetOf(db, channel) {
  /** @param {string} table @param {string} link @param {string} owner */
  const ids = async (table, link, owner) =>
    (
      await db
        .prepare(
          `select t.id from ${table} t where t.status = 'DRAFT'
             and (t.valid_to is null or t.valid_to > ?1)
             and (not exists (select 1 from ${link} l where l.${owner} = t.id)
               or exists (select 1 from ${link} l join channels ch on ch.id = l.channel_id
                 where l.${owner} = t.id and ch.code = ?2))
           order by t.id limit 10`,
        )
        .bind(Date.now(), channel)
        .all()
    ).results.map((r) => Number(r.id));
  // The sample's products (the first 1,000 by code, as the simulation takes them) in the
  // channel's primary list.
  const primary = (
    await db
      .prepare(
        `select cp.pricelist_id as id from channel_pricelists cp join channels ch
           on ch.id = cp.channel_id where ch.code = ?1 and cp.is_primary = 1`,
      )
      .bind(channel)
      .all()
  ).results[0]?.id;
  const sheet = (
    await db
      .prepare(
        `select pr.code, pp.amount from (select id, code from products
           order by lower(code), id limit 1000) pr
         join pricelist_prices pp on pp.product_id = pr.id and pp.min_quantity = 1
         where pp.pricelist_id = ?1`,
      )
      .bind(primary)
      .all()
  ).results;
  return {
    activate: {
      tradeConditionIds: await ids(
        "trade_conditions",
        "trade_condition_channels",
        "trade_condition_id",
      ),
      promotionIds: await ids("promotions", "promotion_channels", "promotion_id"),
    },
    prices: sheet.map((row) => ({
      pricelistId: Number(primary),
      productCode: String(row.code),
      amount: Math.round(Number(row.amount) * 1.01),
    })),
  };
}

/**
 * The body of the largest simulation: 100 customers × the first 1,000 products of `channel`, the
 * change set above.
 * @param {Db} db
 * @param {string} channel
 */
export async function simulationBody(db, channel) {
  const changes = await changeSetOf(db, channel);
  return {
    changes,
    body: JSON.stringify({
      channelCode: channel,
      customers: { sample: 100 },
      products: { sample: 1000 },
      changes,
      maxRows: MAX_ROWS,
    }),
  };
}

/**
 * One simulation: status, wall time, bytes of the answer, Server-Timing, and the parsed body when
 * `parse` (the bench's own runs; the load runs only count the bytes).
 * @param {string} base
 * @param {string} adminKey
 * @param {string} body
 * @param {boolean} [parse]
 */
async function simulateOnce(base, adminKey, body, parse = false) {
  const start = performance.now();
  try {
    const res = await fetch(base + PATH, {
      method: "POST",
      headers: { "content-type": "application/json", "x-webhook-signature": adminKey },
      body,
      signal: AbortSignal.timeout(120_000),
    });
    const text = await res.text();
    return {
      status: res.status,
      ms: performance.now() - start,
      bytes: text.length,
      retryAfter: res.headers.get("retry-after"),
      serverTiming: res.headers.get("server-timing"),
      /** @type {any} */
      json: parse || res.status !== 200 ? JSON.parse(text) : undefined,
    };
  } catch (error) {
    // The server gave up on it (or died): counted, not fatal, so the run still reports.
    const cause = error instanceof Error ? (error.cause ?? error) : error;
    return {
      status: "failed",
      ms: performance.now() - start,
      bytes: 0,
      retryAfter: null,
      serverTiming: null,
      json: { detail: String(cause instanceof Error ? cause.message : cause) },
    };
  }
}

/**
 * Sends the largest simulation `runs` times in a row with an admin key; with `cpuMs` (the
 * server's CPU time so far, once it settled) also the server's CPU time per simulation, which
 * others' load on the machine moves far less than the wall time.
 * @param {string} base
 * @param {string} adminKey
 * @param {Db} db
 * @param {{ channel: string, runs?: number, cpuMs?: () => Promise<number | undefined> }} options
 */
export async function timeSimulation(base, adminKey, db, { channel, runs = 3, cpuMs }) {
  const { changes, body } = await simulationBody(db, channel);
  /** @type {number[]} */
  const millis = [];
  /** @type {any} */
  let last;
  let serverTiming = null;
  let bytes = 0;
  /** @type {number[]} */
  const cpu = [];
  for (let i = 0; i < runs; i++) {
    const cpuBefore = await cpuMs?.();
    const run = await simulateOnce(base, adminKey, body, true);
    if (run.status !== 200)
      throw new Error(`simulation: ${run.status} ${JSON.stringify(run.json)}`);
    millis.push(run.ms);
    const cpuAfter = await cpuMs?.();
    if (cpuBefore !== undefined && cpuAfter !== undefined) cpu.push(cpuAfter - cpuBefore);
    ({ serverTiming, bytes, json: last } = run);
  }
  const sorted = [...millis].sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return {
    id: "simulation-100x1000",
    activated: changes.activate,
    pricesSet: changes.prices.length,
    runs,
    msMedian: Number((sorted[Math.floor(runs / 2)] ?? 0).toFixed(1)),
    msMin: Number((sorted[0] ?? 0).toFixed(1)),
    /** workerd's CPU time (the Worker and local D1) per simulation, median; null unmeasured. */
    cpuMsMedian: cpu.length ? Math.round(cpu[Math.floor(cpu.length / 2)] ?? 0) : null,
    roundTrips: Number(/desc="(\d+) quer/.exec(serverTiming ?? "")?.[1] ?? NaN),
    /** The last run's D1 time, from Server-Timing. */
    dbMs: Number(/dur=([\d.]+)/.exec(serverTiming ?? "")?.[1] ?? NaN),
    evaluated: last.summary.evaluated,
    changed: last.summary.changed,
    rows: last.rows.length,
    answerMB: Number((bytes / 1e6).toFixed(1)),
  };
}

/**
 * The line `npm run bench` prints.
 * @param {Awaited<ReturnType<typeof timeSimulation>>} s
 */
export const simulationLine = (s) =>
  `Simulation (POST ${PATH}, 100 customers × 1,000 products, activating ` +
  `${s.activated.tradeConditionIds.length} DRAFT conditions and ${s.activated.promotionIds.length} promotions, ` +
  `setting ${s.pricesSet} prices): ` +
  `median ${s.msMedian} ms wall of ${s.runs} (min ${s.msMin}` +
  (s.cpuMsMedian === null ? "" : `; ${s.cpuMsMedian} ms of workerd's CPU`) +
  `), ${s.roundTrips} D1 round trips (${s.dbMs} ms), ` +
  `${s.changed} of ${s.evaluated} prices changed, ${s.rows} rows answered (${s.answerMB} MB)`;

/**
 * @typedef {{ id: string, title: string, lookup: boolean, method: string, path: string,
 *   requests: { headers: Record<string, string>, body?: string }[] }} LoadSubject
 */

/**
 * `connections` clients sending `subject` back to back for `seconds`, each latency kept, also of
 * the requests still running when the time is up (they are waited for): while a simulation holds
 * the isolate, a request that has not come back is the one that counts. (autocannon drops the
 * requests in flight at the end, so a blocked server would look fast.)
 * @param {string} base
 * @param {LoadSubject} subject
 * @param {number} connections
 * @param {number} seconds
 */
async function closedLoop(base, subject, connections, seconds) {
  /** @type {number[]} */
  const latencies = [];
  let failed = 0;
  let sent = 0;
  const end = performance.now() + seconds * 1000;
  const client = async () => {
    while (performance.now() < end) {
      const { headers, body } = /** @type {LoadSubject["requests"][number]} */ (
        subject.requests[sent++ % subject.requests.length]
      );
      const start = performance.now();
      try {
        const res = await fetch(base + subject.path, {
          method: subject.method,
          headers,
          body,
          signal: AbortSignal.timeout(60_000),
        });
        await res.arrayBuffer();
        if (res.status >= 300) failed += 1;
      } catch {
        failed += 1;
      }
      latencies.push(performance.now() - start);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, client));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (/** @type {number} */ q) =>
    Number(
      (latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0).toFixed(2),
    );
  return {
    requests: latencies.length,
    requestsPerSecond: Math.round(latencies.length / elapsed),
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    maxMs: Number((latencies.at(-1) ?? 0).toFixed(2)),
    failed,
  };
}

/**
 * The peak of a process's RSS, sampled every 50 ms while it runs.
 * @param {() => number | undefined} rssMiB
 */
function rssPeak(rssMiB) {
  let peak = rssMiB() ?? 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMiB() ?? 0);
  }, 50);
  timer.unref();
  return {
    /** The peak since the last take, and a new start from the RSS now. */
    take() {
      const seen = Math.max(peak, rssMiB() ?? 0);
      peak = rssMiB() ?? 0;
      return Number(seen.toFixed(0));
    },
    stop: () => clearInterval(timer),
  };
}

/**
 * Simulations sent back to back with each key at once (each answer read to its end) until
 * stopped; a key refused with 429 waits its Retry-After, as a client should.
 * @param {string} base
 * @param {string[]} adminKeys
 * @param {string} body
 */
function simulationLoop(base, adminKeys, body) {
  let stopped = false;
  /** @type {Awaited<ReturnType<typeof simulateOnce>>[]} */
  const done = [];
  const pause = async (/** @type {number} */ ms) => {
    for (const until = Date.now() + ms; !stopped && Date.now() < until;) {
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const running = Promise.all(
    adminKeys.map(async (key) => {
      while (!stopped) {
        const answer = await simulateOnce(base, key, body);
        done.push(answer);
        if (answer.status === 429) await pause(1000 * Number(answer.retryAfter ?? 1));
      }
    }),
  );
  return {
    async stop() {
      stopped = true;
      await running;
      return tallyOf(done);
    },
  };
}

/**
 * Statuses ("200": 4) and the median and longest wall time of some simulations.
 * @param {Awaited<ReturnType<typeof simulateOnce>>[]} runs
 */
function tallyOf(runs) {
  /** @type {Record<string, number>} */
  const statuses = {};
  for (const r of runs) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  const ok = runs.filter((r) => r.status === 200).map((r) => r.ms);
  ok.sort((a, b) => a - b);
  const failures = runs.filter((r) => r.status === "failed").map((r) => r.json?.detail);
  return {
    count: runs.length,
    statuses,
    /** Why requests failed without an answer (each reason once). */
    failures: [...new Set(failures)],
    msMedian: ok.length ? Number((ok[Math.floor(ok.length / 2)] ?? 0).toFixed(0)) : null,
    msMax: ok.length ? Number((ok.at(-1) ?? 0).toFixed(0)) : null,
  };
}

/**
 * How many admin keys send the largest simulation back to back while the lookups are measured:
 * more than the isolate runs at once (SIMULATION_LIMITS.perIsolate), so its limit is what keeps
 * the lookups' p99 (issue 28 item 13).
 */
const SIMULTANEOUS = 4;

/**
 * Price lookups (and /health) while the largest simulation runs (issue 22; docs/simulation.md
 * §8): each subject for `seconds` alone, for `seconds` while four admin keys send the largest
 * simulation back to back at once (SIMULTANEOUS; the refused wait their Retry-After), and for
 * `seconds` alone again (its p99 alone is the mean of the two);
 * then the concurrency limits: two at once with one key (the second
 * must be refused, 429), and eight at once with eight keys. workerd's RSS (the Worker and local
 * D1) is sampled throughout: idle before the first simulation, the peak of a simulation alone
 * (the first: V8 keeps what it grew), of the load runs and of the eight.
 * @param {{ base: string, adminKeys: string[], body: string, subjects: LoadSubject[],
 *   connections: number[], seconds: number, rssMiB: () => number | undefined,
 *   log: (line: string) => void }} o
 */
export async function lookupsUnderSimulation(o) {
  const [own, sameKey, ...others] = o.adminKeys;
  if (!own || !sameKey || others.length < 8) throw new Error("need 10 admin keys");
  const rss = rssPeak(o.rssMiB);
  try {
    for (const s of o.subjects) await closedLoop(o.base, s, Math.max(...o.connections), 1); // warm-up
    const idleMiB = rss.take();
    const single = await simulateOnce(o.base, own, o.body);
    if (single.status !== 200) throw new Error(`simulation: ${single.status}`);
    const singlePeakMiB = rss.take();
    const runs = [];
    for (const c of o.connections) {
      for (const s of o.subjects) {
        o.log(`  [${UNDER_SIMULATION} @${c}] ${s.title}, alone and with a simulation running`);
        // Alone right before and right after, as the floor beside every scenario of the bench:
        // when others' load on the machine moves meanwhile, both sides of the ratio move alike.
        const before = await closedLoop(o.base, s, c, o.seconds);
        const loop = simulationLoop(o.base, [own, ...others.slice(0, SIMULTANEOUS - 1)], o.body);
        const during = await closedLoop(o.base, s, c, o.seconds);
        const simulations = await loop.stop();
        const after = await closedLoop(o.base, s, c, o.seconds);
        const alone = {
          p50Ms: Number(((before.p50Ms + after.p50Ms) / 2).toFixed(2)),
          p99Ms: Number(((before.p99Ms + after.p99Ms) / 2).toFixed(2)),
          maxMs: Math.max(before.maxMs, after.maxMs),
          requestsPerSecond: Math.round((before.requestsPerSecond + after.requestsPerSecond) / 2),
          failed: before.failed + after.failed,
        };
        runs.push({
          id: s.id,
          title: s.title,
          lookup: s.lookup,
          connections: c,
          before,
          during,
          after,
          alone,
          simulations,
          p99Ratio: alone.p99Ms > 0 ? Number((during.p99Ms / alone.p99Ms).toFixed(2)) : null,
        });
      }
    }
    const loadPeakMiB = rss.take();
    const twoWithOneKey = await Promise.all(
      [0, 1].map(() => simulateOnce(o.base, sameKey, o.body)),
    );
    const refused = twoWithOneKey.find((r) => r.status === 429);
    rss.take();
    const eightKeys = await Promise.all(
      others.slice(0, 8).map((key) => simulateOnce(o.base, key, o.body)),
    );
    const eightPeakMiB = rss.take();
    return {
      idleMiB,
      single: {
        ms: Number(single.ms.toFixed(0)),
        answerMB: Number((single.bytes / 1e6).toFixed(1)),
        serverTiming: single.serverTiming,
        peakMiB: singlePeakMiB,
      },
      loadPeakMiB,
      runs,
      twoWithOneKey: {
        ...tallyOf(twoWithOneKey),
        refusal: refused
          ? {
              code: refused.json?.code,
              detail: refused.json?.detail,
              retryAfter: refused.retryAfter,
            }
          : null,
      },
      eightKeys: { ...tallyOf(eightKeys), peakMiB: eightPeakMiB },
    };
  } finally {
    rss.stop();
  }
}

/** `--only` id of the lookups measured while simulations run. */
export const UNDER_SIMULATION = "simulation-load";

/**
 * The lines `npm run bench` prints for `lookupsUnderSimulation`.
 * @param {Awaited<ReturnType<typeof lookupsUnderSimulation>>} u
 */
export function underSimulationLines(u) {
  const lines = [
    `Lookups while the largest simulation runs (100 × 1,000, maxRows ${MAX_ROWS}: ` +
      `${u.single.ms} ms alone, ${u.single.answerMB} MB answer, Server-Timing ${u.single.serverTiming}); workerd RSS ${u.idleMiB} MiB ` +
      `idle, at most ${u.single.peakMiB} MiB during the first simulation, ${u.loadPeakMiB} MiB during the runs below:`,
  ];
  for (const r of u.runs) {
    const s = r.simulations;
    lines.push(
      `  ${r.title} @${r.connections}: p99 ${r.alone.p99Ms} ms alone (${r.before.p99Ms} before, ` +
        `${r.after.p99Ms} after) → ${r.during.p99Ms} ms ` +
        `with ${SIMULTANEOUS} keys simulating (${r.p99Ratio}×); p50 ${r.alone.p50Ms} → ${r.during.p50Ms} ms; ` +
        `max ${r.alone.maxMs} → ${r.during.maxMs} ms; ` +
        `${r.alone.requestsPerSecond} → ${r.during.requestsPerSecond} req/s; ` +
        `${s.count} simulations meanwhile (${JSON.stringify(s.statuses)}, median ${s.msMedian} ms)` +
        (r.during.failed || r.alone.failed
          ? `; failed ${r.alone.failed} / ${r.during.failed}`
          : ""),
    );
  }
  const two = u.twoWithOneKey;
  lines.push(
    `  two at once with one key: ${JSON.stringify(two.statuses)}` +
      (two.refusal
        ? ` (${two.refusal.code}, Retry-After ${two.refusal.retryAfter}: "${two.refusal.detail}")`
        : ""),
  );
  lines.push(
    `  eight at once with eight keys: ${JSON.stringify(u.eightKeys.statuses)}, the slowest ` +
      `${u.eightKeys.msMax} ms; workerd RSS at most ${u.eightKeys.peakMiB} MiB` +
      (u.eightKeys.failures.length ? ` (failed: ${u.eightKeys.failures.join("; ")})` : ""),
  );
  return lines;
}
