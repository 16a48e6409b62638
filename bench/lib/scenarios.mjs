/**
 * The scenarios of `npm run bench` (bench/run.mjs) and `npm run bench:quotes-ab`
 * (bench/quotes-ab.mjs): the parameters read from the loaded data, each scenario's request, the
 * pools of bench API keys its load comes from, one request of it (`fetchScenario`) and one load
 * run (`loadScenario`).
 */
import { createHash, randomBytes } from "node:crypto";
import { join } from "node:path";
import autocannon from "autocannon";
import { createRandom } from "../../scripts/lib/random.mjs";
import { ROOT, SEARCH_TERMS } from "./common.mjs";
import { settledCpuMs } from "./workerd.mjs";

/**
 * The line fields a cart page shows (issue 29 item 4): the `select` of the `-select` carts
 * (docs/api/prices.md §9) and of `bench/lib/cart500-cpu.mjs --select`.
 */
export const CART_SELECT = [
  "finalUnitAmount",
  "lineAmount",
  "regularUnitAmount",
  "listUnitAmount",
  "currency",
  "priceUnit",
  "quantityRule",
  "suggestedQuantities",
  "priceBreak",
];

/** The storefront's channel: every lookup prices in it. */
export const CHANNEL = "WEB-DE";
/** The one-read floor every ratio refers to. */
export const FLOOR = "product-by-code";

/**
 * @typedef {"health" | "floor" | "lookup1" | "lookup" | "lookup500" | "select500" | "random" | "list" | "search" | "conditions" | "write"} Kind
 *   `random`: a cart drawn anew for every request (uniform or skewed), measured beside the fixed
 *   carts the targets judge; `select500`: a 500-line cart answering `CART_SELECT` only, held to
 *   the 500-line carts' targets in rows of its own
 * @typedef {object} Scenario
 * @property {string} id
 * @property {string} group
 * @property {string} title
 * @property {Kind} kind
 * @property {"GET" | "POST" | "PUT"} method
 * @property {string} path
 * @property {"read" | "admin" | null} key
 * @property {unknown} [body]
 * @property {() => unknown} [bodyOf] a new body for every request (a random cart), instead of `body`
 * @property {boolean} [peer] also measured against the NestJS peer
 */

/**
 * The parameters the scenarios need, read from the loaded data.
 * @param {Awaited<ReturnType<import("miniflare").Miniflare["getD1Database"]>>} db
 * @param {number} products
 */
export async function discover(db, products) {
  /** @param {string} sql @param {unknown[]} params */
  const all = async (sql, ...params) =>
    (
      await db
        .prepare(sql)
        .bind(...params)
        .all()
    ).results;
  const floor = await db
    .prepare("select code from products where id = ?")
    .bind(Math.ceil(products / 3)) // not one of the rare-term products (spread from the middle)
    .first("code");
  // A contract customer: in the channel, with an ACTIVE individual pricelist and a group (assigned
  // to the channel) that has an ACTIVE pricelist. bench:data guarantees C-000001 qualifies.
  const contract = await db
    .prepare(
      `select c.id, c.code from customers c
       join channel_customers cc on cc.customer_id = c.id
       join channels ch on ch.id = cc.channel_id and ch.code = ?1
       where exists (select 1 from pricelists pl where pl.customer_id = c.id and pl.status = 'ACTIVE')
         and exists (select 1 from customer_group_members m
           join channel_customer_groups cg on cg.customer_group_id = m.customer_group_id and cg.channel_id = ch.id
           join customer_group_pricelists gp on gp.customer_group_id = m.customer_group_id
           join pricelists pl on pl.id = gp.pricelist_id and pl.status = 'ACTIVE'
           where m.customer_id = c.id)
       order by c.id limit 1`,
    )
    .bind(CHANNEL)
    .first();
  if (!floor || !contract)
    throw new Error("the data set lacks a product or a contract customer; rerun bench:data");
  const spread = async (/** @type {number} */ n) => {
    const ids = Array.from({ length: n }, (_, k) => 1 + Math.floor(((k + 0.5) * products) / n));
    const rows = await all(
      `select code from products where id in (select value from json_each(?)) order by id`,
      JSON.stringify(ids),
    );
    return rows.map((r) => String(r.code));
  };
  // Half of a contract customer's cart comes from its own pricelists (individual, assigned, group).
  const own = (
    await all(
      `select p.code from pricelist_prices pp join products p on p.id = pp.product_id
       where pp.min_quantity = 1 and pp.pricelist_id in (
         select id from pricelists where customer_id = ?1
         union select pricelist_id from customer_pricelists where customer_id = ?1
         union select gp.pricelist_id from customer_group_pricelists gp
           join customer_group_members m on m.customer_group_id = gp.customer_group_id where m.customer_id = ?1)
       group by p.id order by (p.id * 2654435761) % 1000003 limit 250`,
      contract.id,
    )
  ).map((r) => String(r.code));
  const upsertList = await db
    .prepare(
      `select cp.pricelist_id as id from channel_pricelists cp join channels c on c.id = cp.channel_id
       where c.code = 'MARKETPLACE' and cp.is_primary = 1`,
    )
    .first("id");
  // The same 1000 rows each time, with the amounts they already have: the upsert rewrites them
  // without changing the data set.
  const upsertRows = (
    await all(
      `select p.code, pp.min_quantity, pp.amount from pricelist_prices pp join products p on p.id = pp.product_id
       where pp.pricelist_id = ? order by pp.product_id, pp.min_quantity limit 1000`,
      upsertList,
    )
  ).map((r) => ({
    productCode: String(r.code),
    minQuantity: Number(r.min_quantity),
    amount: Number(r.amount),
  }));
  const catalogue = (await all("select code from products order by id")).map((r) => String(r.code));
  return {
    floorCode: String(floor),
    contractCode: String(contract.code),
    catalogue,
    spread: {
      1: await spread(1),
      24: await spread(24),
      50: await spread(50),
      500: await spread(500),
    },
    own,
    upsertList: Number(upsertList),
    upsertRows,
  };
}

export const QUANTITIES = [1, 5, 12, 60];

/**
 * Draws product codes of the catalogue: `uniform`, every product alike; `skewed`, by a Zipf law
 * (exponent 1) over the products in a fixed shuffled order, as storefront traffic goes: the most
 * asked-for 1 % of the products get about half the lines.
 * @param {string[]} catalogue @param {"uniform" | "skewed"} how
 */
function drawer(catalogue, how) {
  // Seeded (mulberry32): the random carts of a run are the same in every run.
  const random = createRandom(how === "uniform" ? 7 : 11).next;
  const n = catalogue.length;
  if (how === "uniform") return () => /** @type {string} */ (catalogue[Math.floor(random() * n)]);
  const order = createRandom(13).shuffle(catalogue.map((_, i) => i));
  const cumulative = new Float64Array(n);
  let sum = 0;
  for (let rank = 0; rank < n; rank++) cumulative[rank] = sum += 1 / (rank + 1);
  return () => {
    const x = random() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (/** @type {number} */ (cumulative[mid]) < x) lo = mid + 1;
      else hi = mid;
    }
    return /** @type {string} */ (catalogue[/** @type {number} */ (order[lo])]);
  };
}

/**
 * @param {Awaited<ReturnType<typeof discover>>} d
 * @returns {Scenario[]}
 */
export function scenarios(d) {
  /** @param {string[]} codes @param {boolean} contract */
  const cart = (codes, contract) => {
    const mixed = contract ? codes.map((code, i) => (i % 2 === 0 && d.own[i / 2]) || code) : codes;
    return mixed.map((productCode, i) => ({
      productCode,
      quantity: QUANTITIES[i % QUANTITIES.length] ?? 1,
    }));
  };
  /** @param {1 | 24} n @param {boolean} contract */
  const lookup = (n, contract) =>
    `/v1/api/prices?channel=${CHANNEL}${contract ? `&customer=${d.contractCode}` : ""}&quantity=5` +
    (n === 1 ? `&product=${d.spread[1][0]}` : d.spread[24].map((c) => `&product=${c}`).join(""));
  /** @param {1 | 50 | 500} n @param {boolean} contract @returns {Scenario} */
  const resolve = (n, contract) => ({
    id: `resolve-${n}-${contract ? "contract" : "anonymous"}`,
    group: "storefront",
    title: `POST /prices/resolve ${n} line${n > 1 ? "s" : ""}, ${contract ? "contract" : "anonymous"}`,
    kind: n === 1 ? "lookup1" : n === 500 ? "lookup500" : "lookup",
    method: "POST",
    path: "/v1/api/prices/resolve",
    key: "read",
    body: {
      channelCode: CHANNEL,
      ...(contract ? { customerCode: d.contractCode } : {}),
      lines: cart(d.spread[n], contract),
    },
  });
  /** @param {1 | 500} page @param {"id" | "name"} by @returns {Scenario} */
  const list = (page, by) => ({
    id: `product-list-page${page}-${by}`,
    group: "back office",
    title: `GET /product page ${page} by ${by}`,
    kind: "list",
    method: "GET",
    path: `/v1/api/product?page=${page}&limit=20&sortBy=${by}:ASC`,
    key: "read",
    peer: true,
  });
  /** @param {"rare" | "common"} which @returns {Scenario} */
  const search = (which) => ({
    id: `product-search-${which}`,
    group: "back office",
    title: `GET /product search "${SEARCH_TERMS[which]}" (${which})`,
    kind: "search",
    method: "GET",
    path: `/v1/api/product?search=${SEARCH_TERMS[which]}`,
    key: "read",
    peer: true,
  });
  return [
    {
      id: "health",
      group: "floor",
      title: "GET /health (no D1)",
      kind: "health",
      method: "GET",
      path: "/health",
      key: null,
      peer: true,
    },
    {
      id: "product-by-code",
      group: "floor",
      title: "GET /product/{code} (one read)",
      kind: "floor",
      method: "GET",
      path: `/v1/api/product/${d.floorCode}`,
      key: "read",
      peer: true,
    },
    ...[false, true].flatMap((contract) =>
      [1, 24].map(
        (n) =>
          /** @type {Scenario} */ ({
            id: `prices-get-${n}-${contract ? "contract" : "anonymous"}`,
            group: "storefront",
            title: `GET /prices ${n} product${n > 1 ? "s" : ""}, ${contract ? "contract" : "anonymous"}`,
            kind: n === 1 ? "lookup1" : "lookup",
            method: "GET",
            path: lookup(/** @type {1 | 24} */ (n), contract),
            key: "read",
          }),
      ),
    ),
    ...[false, true].flatMap((contract) =>
      [1, 50, 500].map((n) => resolve(/** @type {1 | 50 | 500} */ (n), contract)),
    ),
    // The 500-line carts again, answering what a cart page shows (`select`).
    ...[false, true].map((contract) => {
      const full = resolve(500, contract);
      return /** @type {Scenario} */ ({
        ...full,
        id: `${full.id}-select`,
        title: `${full.title}, select`,
        kind: "select500",
        body: { .../** @type {object} */ (full.body), select: CART_SELECT },
      });
    }),
    .../** @type {const} */ (["uniform", "skewed"]).map((how) => {
      const draw = drawer(d.catalogue, how);
      return /** @type {Scenario} */ ({
        id: `resolve-50-${how}`,
        group: "storefront",
        title: `POST /prices/resolve 50 random lines, ${how}`,
        kind: "random",
        method: "POST",
        path: "/v1/api/prices/resolve",
        key: "read",
        bodyOf: () => ({
          channelCode: CHANNEL,
          lines: Array.from({ length: 50 }, (_, i) => ({
            productCode: draw(),
            quantity: QUANTITIES[i % QUANTITIES.length] ?? 1,
          })),
        }),
      });
    }),
    list(1, "id"),
    list(500, "id"),
    list(1, "name"),
    list(500, "name"),
    search("rare"),
    search("common"),
    {
      id: "trade-conditions-filtered",
      group: "back office",
      title: "GET /trade-conditions status+scope filters",
      kind: "conditions",
      method: "GET",
      path: "/v1/api/trade-conditions?filter.status=ACTIVE&filter.scope=CUSTOMER_GROUP",
      key: "read",
    },
    {
      id: "customer-trade-conditions",
      group: "back office",
      title: "GET /customer/{code}/trade-conditions",
      kind: "conditions",
      method: "GET",
      path: `/v1/api/customer/${d.contractCode}/trade-conditions`,
      key: "read",
    },
    {
      id: "price-upsert-1000",
      group: "back office",
      title: "PUT /pricelist/{id}/prices 1000 rows",
      kind: "write",
      method: "PUT",
      path: `/v1/api/pricelist/${d.upsertList}/prices`,
      key: "admin",
      body: { prices: d.upsertRows },
    },
  ];
}

/** The price lookups: what the targets of issue 15 and the cache are about. */
const LOOKUPS = /** @type {Kind[]} */ (["lookup1", "lookup", "lookup500", "select500"]);
export const isLookup = (/** @type {{ kind: Kind }} */ s) => LOOKUPS.includes(s.kind);

/**
 * @typedef {{ read: string[], admin: string[] }} KeyPools
 */

/**
 * The scenario's request, with the first key of its role's pool.
 * @param {Scenario} s
 * @param {KeyPools} keys
 */
export function requestOf(s, keys) {
  if (s.bodyOf) s = { ...s, body: s.bodyOf() };
  /** @type {Record<string, string>} */
  const headers = {};
  if (s.key) headers["x-webhook-signature"] = /** @type {string} */ (keys[s.key][0]);
  const body = s.body === undefined ? undefined : JSON.stringify(s.body);
  if (body !== undefined) headers["content-type"] = "application/json";
  return { method: s.method, headers, body };
}

/**
 * The scenario's request once per key of its role's pool; each autocannon connection cycles
 * through them, so every key carries an equal share of the load.
 * @param {Scenario} s
 * @param {KeyPools} keys
 */
export function requestsPerKey(s, keys) {
  const { headers } = requestOf(s, keys);
  const bodyOf = s.bodyOf;
  /** @type {{ setupRequest?: (req: any) => any }} */
  const fresh = bodyOf
    ? { setupRequest: (req) => ({ ...req, body: JSON.stringify(bodyOf()) }) }
    : {};
  return s.key
    ? keys[s.key].map((key) => ({
        headers: { ...headers, "x-webhook-signature": key },
        ...fresh,
      }))
    : undefined;
}

/**
 * One request of scenario `s` (30 s at most): its status, text, JSON (undefined when the text is
 * none) and `Server-Timing` ("" without).
 * @param {string} base
 * @param {Scenario} s
 * @param {KeyPools} keys
 */
export async function fetchScenario(base, s, keys) {
  const response = await fetch(base + s.path, {
    ...requestOf(s, keys),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  /** @type {any} */
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const timing = response.headers.get("server-timing") ?? "";
  return { status: response.status, ok: response.ok, text, json, timing };
}

/**
 * Scenario `s` under autocannon on `base` for `seconds` at `connections`: the run's result, the
 * time of each 2xx answer (autocannon's histogram keeps whole milliseconds, too coarse for
 * sub-millisecond answers), and the server's CPU over the run (`cpu`, read again once it has
 * settled; undefined without it). The run is in `loads` while it runs, so a clean-up stops it.
 * @param {string} base
 * @param {Scenario} s
 * @param {KeyPools} keys
 * @param {{ connections: number, seconds: number, loads: Set<import("autocannon").Instance>,
 *   cpu?: () => number | undefined, setupClient?: import("autocannon").Options["setupClient"] }} o
 */
export async function loadScenario(base, s, keys, o) {
  /** @type {number[]} */
  const latencies = [];
  const cpuBefore = o.cpu?.();
  const run = autocannon({
    url: base + s.path,
    ...requestOf(s, keys),
    requests: requestsPerKey(s, keys),
    connections: o.connections,
    duration: o.seconds,
    timeout: 10,
    ...(o.setupClient ? { setupClient: o.setupClient } : {}),
  });
  o.loads.add(run);
  run.on(
    "response",
    (
      /** @type {unknown} */ _client,
      /** @type {number} */ status,
      /** @type {number} */ _bytes,
      /** @type {number} */ ms,
    ) => {
      if (status >= 200 && status < 300) latencies.push(ms);
    },
  );
  const result = await run;
  o.loads.delete(run);
  const cpuAfter = o.cpu && cpuBefore !== undefined ? await settledCpuMs(o.cpu) : undefined;
  const cpuMs =
    cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
  return { result, latencies, cpuMs };
}

/** Requests a second each role's load may reach without a 429 (`benchKeys`); /health is the ceiling. */
export const PEAK_PER_SECOND = { read: 5000, admin: 250 };
/** The rate-limit binding of each role (src/http/rate-limit.ts). */
export const LIMITERS = { read: "RATE_LIMITER_READ", admin: "RATE_LIMITER_ADMIN" };

/**
 * Fresh bench API keys. The Worker runs with the rate limits of wrangler.toml, nothing raised:
 * one key may send a storefront's worth of requests, the load generator sends thousands a second.
 * So each role's load comes from a pool of keys, as many storefronts and back-office clients would
 * send it, with enough keys that PEAK_PER_SECOND requests a second stay within every key's limit
 * (one key when the role's binding is absent: it is not limited).
 */
export async function benchKeys() {
  process.env.WRANGLER_LOG ??= "error";
  const { unstable_readConfig } = await import("wrangler");
  const config = unstable_readConfig({ config: join(ROOT, "wrangler.toml") });
  /** @type {Record<string, { limit: number, period: number }>} */
  const rateLimits = Object.fromEntries(
    config.ratelimits.map(
      (/** @type {{ name: string, simple: { limit: number, period: number } }} */ r) => [
        r.name,
        r.simple,
      ],
    ),
  );
  const sha = (/** @type {string} */ k) => createHash("sha256").update(k).digest("hex");
  /** @type {KeyPools} */
  const keys = { read: [], admin: [] };
  /** @type {string[]} */
  const entries = [];
  for (const role of /** @type {const} */ (["read", "admin"])) {
    const limit = rateLimits[LIMITERS[role]];
    const count = limit ? Math.ceil((PEAK_PER_SECOND[role] * limit.period) / limit.limit) : 1;
    for (let i = 0; i < count; i++) {
      const key = randomBytes(24).toString("hex");
      keys[role].push(key);
      entries.push(`bench-${role}-${i}:${role}:${sha(key)}`);
    }
  }
  return { keys, apiKeys: entries.join(","), rateLimits };
}
