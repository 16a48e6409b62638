/**
 * An A/B comparison measured in one run (`npm run bench:quotes-ab`, bench/quotes-ab.mjs): two
 * Workers, each scenario in short blocks alternating between them, so that both see the same load
 * of a shared machine. Pure: the order of the blocks, what the blocks of a side add up to, and the
 * ratio of the two sides with its verdict.
 */
import { quantile } from "./engine.mjs";

/**
 * @typedef {"a" | "b"} Side
 * @typedef {object} Block one block of one scenario on one side
 * @property {number} requests 2xx answers
 * @property {number} seconds how long the block ran
 * @property {number[]} latencies ms of each 2xx answer
 * @property {number | undefined} cpuMs the server's CPU time during the block (workerd, /proc)
 * @property {number} failed answers that were not 2xx, errors and timeouts
 */

/**
 * The order of the two sides in each of `rounds` rounds: a b, b a, a b, … (ABBA). A load that
 * rises or falls steadily during a scenario favours neither side: whatever the first block of a
 * round gains, the next round gives to the other side.
 * @param {number} rounds
 * @returns {[Side, Side][]}
 */
export function abbaOrder(rounds) {
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error("rounds: a whole number ≥ 1");
  return Array.from({ length: rounds }, (_, i) => (i % 2 === 0 ? ["a", "b"] : ["b", "a"]));
}

/**
 * What one side's blocks add up to: req/s over their whole time (not the mean of the blocks'
 * rates, so a short block weighs less), latency percentiles over every answer, the server's CPU
 * per answer (undefined when a block has no CPU reading).
 * @param {Block[]} blocks
 */
export function pooled(blocks) {
  const requests = blocks.reduce((sum, b) => sum + b.requests, 0);
  const seconds = blocks.reduce((sum, b) => sum + b.seconds, 0);
  const latencies = blocks.flatMap((b) => b.latencies);
  const failed = blocks.reduce((sum, b) => sum + b.failed, 0);
  const cpu = blocks.every((b) => b.cpuMs !== undefined)
    ? blocks.reduce((sum, b) => sum + (b.cpuMs ?? 0), 0)
    : undefined;
  return {
    blocks: blocks.length,
    requests,
    requestsPerSecond: seconds > 0 ? requests / seconds : 0,
    p50Ms: latencies.length > 0 ? quantile(latencies, 0.5) : undefined,
    p99Ms: latencies.length > 0 ? quantile(latencies, 0.99) : undefined,
    cpuMsPerRequest:
      cpu === undefined || requests + failed === 0 ? undefined : cpu / (requests + failed),
    failed,
  };
}

/** @param {Block} b */
const rateOf = (b) => (b.seconds > 0 ? b.requests / b.seconds : 0);

/**
 * Side a against side b for one scenario: `ratio` = a's pooled req/s ÷ b's, `cpuRatio` = b's CPU
 * per answer ÷ a's (above 1 when a costs less, as `ratio`), and the ratios of each round (the two
 * blocks next to each other in time) with their median and range: how far a single pair strays.
 * The blocks of a round are `a[i]` and `b[i]`.
 * @param {Block[]} a
 * @param {Block[]} b
 */
export function compareSides(a, b) {
  if (a.length !== b.length) throw new Error("both sides need a block in every round");
  const pa = pooled(a);
  const pb = pooled(b);
  const rounds = a
    .map((block, i) => {
      const other = /** @type {Block} */ (b[i]);
      return rateOf(other) > 0 ? rateOf(block) / rateOf(other) : undefined;
    })
    .filter((x) => x !== undefined);
  return {
    a: pa,
    b: pb,
    ratio: pb.requestsPerSecond > 0 ? pa.requestsPerSecond / pb.requestsPerSecond : undefined,
    cpuRatio:
      pa.cpuMsPerRequest && pb.cpuMsPerRequest
        ? pb.cpuMsPerRequest / pa.cpuMsPerRequest
        : undefined,
    p99Ratio: pa.p99Ms !== undefined && pb.p99Ms ? pa.p99Ms / pb.p99Ms : undefined,
    rounds: {
      median: rounds.length > 0 ? quantile(rounds, 0.5) : undefined,
      min: rounds.length > 0 ? Math.min(...rounds) : undefined,
      max: rounds.length > 0 ? Math.max(...rounds) : undefined,
      ratios: rounds.map((x) => Number(x.toFixed(3))),
    },
  };
}

/**
 * The verdict on a ratio a ÷ b (a: the change, b: without it): it passes when a falls by no more
 * than `maxFall` (0.05: a ÷ b ≥ 0.95). `null` when it could not be measured (no ratio, or answers
 * that failed: their rate means nothing).
 * @param {ReturnType<typeof compareSides>} c
 * @param {number} maxFall
 * @returns {boolean | null}
 */
export function withinFall(c, maxFall) {
  if (c.ratio === undefined || c.a.failed > 0 || c.b.failed > 0) return null;
  return c.ratio >= 1 - maxFall;
}

/**
 * "+3.1 %", "−4.0 %": a ratio as the change it is.
 * @param {number | undefined} ratio
 */
export const changeOf = (ratio) => {
  if (ratio === undefined || Number.isNaN(ratio)) return "-";
  const pct = (ratio - 1) * 100;
  const shown = Math.abs(pct).toFixed(1);
  return shown === "0.0" ? "±0.0 %" : `${pct > 0 ? "+" : "−"}${shown} %`;
};

/**
 * The change the subjects show beyond the controls, over many scenarios: a single scenario's
 * a ÷ b on a loaded machine strays by more than a small change, but the scenarios the change
 * cannot reach (controls: the same service, code paths that do not read it) stray alike, so the
 * subjects' mean ratio over the controls' estimates the change itself. Means of logarithms
 * (geometric), with two standard errors of their difference as the range; `verdict` for a fall
 * of at most `maxFall`: true when even the range's low end is within it, false when its high end
 * is not, null when the range straddles the bound (not decided by these measurements).
 * @param {number[]} subjects ratios a ÷ b of the scenarios the change can reach
 * @param {number[]} controls ratios a ÷ b of the scenarios it cannot reach
 * @param {number} maxFall
 */
export function beyondControls(subjects, controls, maxFall) {
  const stats = (/** @type {number[]} */ xs) => {
    const logs = xs.filter((x) => x > 0).map(Math.log);
    const n = logs.length;
    const mean = n > 0 ? logs.reduce((s, x) => s + x, 0) / n : NaN;
    const variance = n > 1 ? logs.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1) : NaN;
    return { n, mean, variance };
  };
  const s = stats(subjects);
  const c = stats(controls);
  const difference = s.mean - c.mean;
  const error = Math.sqrt(s.variance / s.n + c.variance / c.n);
  const measured = s.n > 1 && c.n > 1 && Number.isFinite(difference) && Number.isFinite(error);
  const effect = Math.exp(difference);
  const low = Math.exp(difference - 2 * error);
  const high = Math.exp(difference + 2 * error);
  return {
    subjects: s.n,
    controls: c.n,
    subjectMean: Math.exp(s.mean),
    controlMean: Math.exp(c.mean),
    controlSpread: Math.sqrt(c.variance),
    effect: measured ? effect : undefined,
    low: measured ? low : undefined,
    high: measured ? high : undefined,
    verdict: !measured ? null : low >= 1 - maxFall ? true : high < 1 - maxFall ? false : null,
  };
}
