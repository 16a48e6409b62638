/**
 * What the Worker's `Server-Timing` header says about a request — the D1 round trips and their
 * time (`db;desc="2 queries";dur=1.7`) and what the isolate cache of the channel-wide pricing
 * context did (`ctx;desc="hit"`, `"miss"` or `"off"`) — and the tally of it over a load run.
 */

/**
 * @typedef {{ roundTrips: number | null, dbMs: number | null, ctx: string | null }} Timing
 * @typedef {{ responses: number, ctx: Record<string, number>, trips: Record<string, number> }} Tally
 */

/**
 * @param {string | null | undefined} header
 * @returns {Timing}
 */
export function serverTiming(header) {
  const entries = (header ?? "").split(",").map((part) => part.trim());
  const entry = (/** @type {string} */ name) =>
    entries.find((e) => e === name || e.startsWith(`${name};`));
  const db = entry("db");
  const ctx = entry("ctx");
  const trips = db && /desc="(\d+) quer/.exec(db)?.[1];
  const dur = db && /dur=([\d.]+)/.exec(db)?.[1];
  return {
    roundTrips: trips ? Number(trips) : null,
    dbMs: dur ? Number(dur) : null,
    ctx: (ctx && /desc="?([\w-]+)/.exec(ctx)?.[1]) || null,
  };
}

/** @returns {Tally} */
export const newTally = () => ({ responses: 0, ctx: {}, trips: {} });

/**
 * Counts one 2xx answer's cache outcome ("none" when it has no `ctx` entry) and round trips.
 * @param {Tally} tally
 * @param {string | null | undefined} header
 */
export function countTiming(tally, header) {
  const { roundTrips, ctx } = serverTiming(header);
  tally.responses += 1;
  const outcome = ctx ?? "none";
  tally.ctx[outcome] = (tally.ctx[outcome] ?? 0) + 1;
  const trips = String(roundTrips ?? "?");
  tally.trips[trips] = (tally.trips[trips] ?? 0) + 1;
}

/**
 * The `Server-Timing` value of a response's raw header list (`[name, value, name, value, …]`,
 * as autocannon's HTTP parser hands it over).
 * @param {string[]} raw
 */
export function serverTimingOfRaw(raw) {
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (String(raw[i]).toLowerCase() === "server-timing") return String(raw[i + 1]);
  }
  return undefined;
}

/**
 * The tally as reported: answers counted, cache outcomes, the hit rate (hits ÷ hits and misses;
 * null when the cache never answered, e.g. with it off or on a route that does not use it) and
 * the round trips (the distribution and the mean).
 * @param {Tally} tally
 */
export function tallySummary(tally) {
  const hit = tally.ctx.hit ?? 0;
  const miss = tally.ctx.miss ?? 0;
  let trips = 0;
  let known = 0;
  for (const [n, count] of Object.entries(tally.trips)) {
    if (n === "?") continue;
    trips += Number(n) * count;
    known += count;
  }
  return {
    sampled: tally.responses,
    ctx: tally.ctx,
    hitRate: hit + miss > 0 ? Number((hit / (hit + miss)).toFixed(4)) : null,
    roundTrips: tally.trips,
    meanRoundTrips: known > 0 ? Number((trips / known).toFixed(3)) : null,
  };
}
