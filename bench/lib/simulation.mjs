/**
 * The largest publish simulation (docs/simulation.md §8), timed: 100 customers × 1,000 products of
 * WEB-DE, activating the DRAFT trade conditions and promotions that reach the channel and a new
 * price sheet for the 1,000 products (their first tier in the channel's primary list, 1 % up), so
 * that most pairs change and every part of the comparison works. Not a load run: a simulation is
 * a rare back-office call of a second or two, so it is sent a few times one after the other and
 * its wall time reported.
 */

const PATH = "/v1/api/simulations/prices";

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
 * Sends the largest simulation `runs` times in a row with an admin key.
 * @param {string} base
 * @param {string} adminKey
 * @param {Db} db
 * @param {{ channel: string, runs?: number }} options
 */
export async function timeSimulation(base, adminKey, db, { channel, runs = 3 }) {
  const changes = await changeSetOf(db, channel);
  const body = JSON.stringify({
    channelCode: channel,
    customers: { sample: 100 },
    products: { sample: 1000 },
    changes,
  });
  /** @type {number[]} */
  const millis = [];
  /** @type {any} */
  let last;
  let serverTiming = null;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const res = await fetch(base + PATH, {
      method: "POST",
      headers: { "content-type": "application/json", "x-webhook-signature": adminKey },
      body,
      signal: AbortSignal.timeout(120_000),
    });
    last = await res.json();
    millis.push(performance.now() - start);
    if (res.status !== 200) throw new Error(`simulation: ${res.status} ${JSON.stringify(last)}`);
    serverTiming = res.headers.get("server-timing");
  }
  const sorted = [...millis].sort((a, b) => a - b);
  return {
    id: "simulation-100x1000",
    activated: changes.activate,
    pricesSet: changes.prices.length,
    runs,
    msMedian: Number((sorted[Math.floor(runs / 2)] ?? 0).toFixed(1)),
    msMin: Number((sorted[0] ?? 0).toFixed(1)),
    roundTrips: Number(/desc="(\d+) quer/.exec(serverTiming ?? "")?.[1] ?? NaN),
    /** The last run's D1 time, from Server-Timing. */
    dbMs: Number(/dur=([\d.]+)/.exec(serverTiming ?? "")?.[1] ?? NaN),
    evaluated: last.summary.evaluated,
    changed: last.summary.changed,
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
  `median ${s.msMedian} ms wall of ${s.runs} (min ${s.msMin}), ${s.roundTrips} D1 round trips (${s.dbMs} ms), ` +
  `${s.changed} of ${s.evaluated} prices changed`;
