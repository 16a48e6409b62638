/**
 * Price lookups and /health while the largest change request is submitted and approved, on the
 * same isolate (issue 28 item 10; docs/api/change-requests.md §17.7; `npm run bench:change-request
 * -- --lookups`): each subject alone, then while one admin key creates, submits, has approved
 * (second key) and cancels the request back to back, then alone again. A lookup counts as "during"
 * when it was in flight at any moment of a submit or an approve; its p99 alone is the mean of the
 * two alone runs.
 */
import { devCall } from "./dev-call.mjs";

/**
 * @typedef {{ id: string, title: string, path: string, headers: Record<string, string>[] }} Subject
 * @typedef {{ start: number, end: number }} Span
 * @typedef {Span & { ctx: string }} Lookup  the answer's Server-Timing `ctx` ("hit", "miss",
 *   "stale", …; "-" without one, as /health's)
 */

/**
 * `connections` clients sending `subject` back to back until `until()` says so; every request's
 * span kept, also of those still running then (they are waited for).
 * @param {string} base
 * @param {Subject} subject
 * @param {number} connections
 * @param {() => boolean} until
 */
async function closedLoop(base, subject, connections, until) {
  /** @type {Lookup[]} */
  const spans = [];
  let failed = 0;
  let sent = 0;
  const client = async () => {
    while (!until()) {
      const headers = subject.headers[sent++ % subject.headers.length];
      const start = performance.now();
      let ctx = "-";
      try {
        const res = await fetch(base + subject.path, {
          headers,
          signal: AbortSignal.timeout(120_000),
        });
        await res.arrayBuffer();
        if (res.status >= 300) failed += 1;
        ctx = /ctx;desc="(\w+)"/.exec(res.headers.get("server-timing") ?? "")?.[1] ?? "-";
      } catch {
        failed += 1;
      }
      spans.push({ start, end: performance.now(), ctx });
    }
  };
  await Promise.all(Array.from({ length: connections }, client));
  return { spans, failed };
}

/**
 * How many of some lookups answered stale (docs/api/prices.md §9.2), and the `ctx` of the slowest
 * 1 % (at least one), counted.
 * @param {Lookup[]} lookups
 */
function ctxOf(lookups) {
  const slowest = [...lookups]
    .sort((a, b) => b.end - b.start - (a.end - a.start))
    .slice(0, Math.max(1, Math.ceil(lookups.length / 100)));
  /** @type {Record<string, number>} */
  const tally = {};
  for (const { ctx } of slowest) tally[ctx] = (tally[ctx] ?? 0) + 1;
  return { stale: lookups.filter((l) => l.ctx === "stale").length, slowest: tally };
}

/** p50, p99 and max of some spans' latencies, and how many. @param {Span[]} spans */
function quantiles(spans) {
  const ms = spans.map((s) => s.end - s.start).sort((a, b) => a - b);
  const at = (/** @type {number} */ q) =>
    Number((ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] ?? 0).toFixed(2));
  return {
    requests: ms.length,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    maxMs: Number((ms.at(-1) ?? 0).toFixed(2)),
  };
}

/**
 * One call; throws on an answer ≥ 300. Its span and Server-Timing. Through `devCall`: it survives
 * wrangler's dev proxy after a long call (bench/lib/dev-call.mjs).
 * @param {string} base @param {string} key @param {string} method @param {string} path
 * @param {unknown} [body]
 */
async function call(base, key, method, path, body) {
  const start = performance.now();
  const { timing, answer } = await devCall(base, key, method, path, body);
  return { start, end: performance.now(), timing, answer };
}

/**
 * The request created, submitted, approved and cancelled back to back until stopped; the spans
 * of every submit and approve.
 * @param {{ base: string, key: string, approverKey: string, body: unknown }} o
 */
function requestLoop(o) {
  let stopped = false;
  /** @type {{ submit: (Span & { timing: string })[], approve: (Span & { timing: string })[] }} */
  const spans = { submit: [], approve: [] };
  const cr = "/v1/api/change-requests";
  /** @type {unknown} */
  let failure;
  const running = (async () => {
    while (!stopped) {
      const { answer } = await call(o.base, o.key, "POST", cr, o.body);
      const submit = await call(o.base, o.key, "POST", `${cr}/${answer.id}/submit`);
      spans.submit.push({ start: submit.start, end: submit.end, timing: submit.timing });
      const approve = await call(o.base, o.approverKey, "POST", `${cr}/${answer.id}/approve`);
      if (approve.answer.status !== "APPLIED") throw new Error(`approve: ${approve.answer.status}`);
      spans.approve.push({ start: approve.start, end: approve.end, timing: approve.timing });
      await call(o.base, o.key, "POST", `${cr}/${answer.id}/cancel`);
    }
  })().catch((error) => {
    // Kept for stop(): a rejection nobody awaits yet would end the process before its clean-up.
    failure = error;
    stopped = true;
  });
  return {
    /** Whether `rounds` submits and approvals are done. @param {number} rounds */
    done: (rounds) => stopped || spans.approve.length >= rounds,
    async stop() {
      stopped = true;
      await running;
      if (failure) throw failure;
      return spans;
    },
  };
}

const overlaps = (/** @type {Span} */ a, /** @type {Span} */ b) =>
  a.start < b.end && b.start < a.end;

const ms = (/** @type {Span[]} */ spans) =>
  spans.map((s) => Math.round(s.end - s.start)).sort((a, b) => a - b);

/**
 * Each subject alone for `seconds`, while the request loop runs `rounds` rounds (and at least
 * `seconds`), alone again for `seconds`.
 * @param {{ base: string, key: string, approverKey: string, body: unknown, subjects: Subject[],
 *   connections: number, seconds: number, rounds: number, log: (line: string) => void }} o
 */
export async function lookupsUnderChangeRequest(o) {
  const forSeconds = () => {
    const end = performance.now() + o.seconds * 1000;
    return () => performance.now() >= end;
  };
  const runs = [];
  for (const subject of o.subjects) {
    await closedLoop(o.base, subject, o.connections, forSeconds()); // warm-up
    const before = await closedLoop(o.base, subject, o.connections, forSeconds());
    const loop = requestLoop(o);
    const minimum = forSeconds();
    const during = await closedLoop(
      o.base,
      subject,
      o.connections,
      () => minimum() && loop.done(o.rounds),
    );
    const spans = await loop.stop();
    const after = await closedLoop(o.base, subject, o.connections, forSeconds());
    const busy = [...spans.submit, ...spans.approve];
    const inFlight = during.spans.filter((s) => busy.some((b) => overlaps(s, b)));
    const [b, a] = [quantiles(before.spans), quantiles(after.spans)];
    const alone = { p50Ms: (b.p50Ms + a.p50Ms) / 2, p99Ms: (b.p99Ms + a.p99Ms) / 2 };
    const within = (/** @type {Span[]} */ work) =>
      quantiles(inFlight.filter((s) => work.some((w) => overlaps(s, w))));
    const under = {
      ...quantiles(inFlight),
      ...ctxOf(inFlight),
      bySubmit: within(spans.submit),
      byApprove: within(spans.approve),
    };
    const run = {
      id: subject.id,
      title: subject.title,
      connections: o.connections,
      before: b,
      after: a,
      alone: { p50Ms: Number(alone.p50Ms.toFixed(2)), p99Ms: Number(alone.p99Ms.toFixed(2)) },
      during: under,
      failed: before.failed + during.failed + after.failed,
      submitMs: ms(spans.submit),
      approveMs: ms(spans.approve),
      timing: { submit: spans.submit.at(-1)?.timing, approve: spans.approve.at(-1)?.timing },
      p99Ratio: alone.p99Ms > 0 ? Number((under.p99Ms / alone.p99Ms).toFixed(2)) : null,
    };
    o.log(
      `${run.title} @${run.connections}: p99 ${run.alone.p99Ms} ms alone (${b.p99Ms} before, ` +
        `${a.p99Ms} after) → ${under.p99Ms} ms while a submit or approve ran (${run.p99Ratio}×, ` +
        `${under.requests} requests, ${under.stale} answered stale, the slowest 1 %: ` +
        `${JSON.stringify(under.slowest)}; p99 beside a submit ${under.bySubmit.p99Ms} ms, ` +
        `an approve ${under.byApprove.p99Ms} ms); p50 ${run.alone.p50Ms} → ${under.p50Ms} ms; max ` +
        `${Math.max(b.maxMs, a.maxMs)} → ${under.maxMs} ms; submits ${run.submitMs.join(", ")} ms, ` +
        `approvals ${run.approveMs.join(", ")} ms` +
        (run.failed ? `; failed ${run.failed}` : ""),
    );
    runs.push(run);
  }
  return runs;
}
