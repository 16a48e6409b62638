/**
 * What `bench/data.mjs` and `bench/run.mjs` share: the sizes of the scale data set, where its D1
 * lives, how to open that D1 with Miniflare exactly as wrangler does, and a progress bar; and a
 * free port (`bench/import.mjs` too).
 */
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { isAbsolute, join, relative, resolve } from "node:path";
import { ROOT } from "../../scripts/lib/local-db.mjs";

export { ROOT };

/**
 * Row counts per size. 100k is the data set; 10k and 1m keep the ratios (10 price rows
 * and 0.1 customers per product) and grow the "human-made" records (groups, pricelists, trade
 * conditions, promotions) more slowly, as a real business would.
 * @typedef {object} SizeSpec
 * @property {number} products
 * @property {number} customers
 * @property {number} groups customer groups
 * @property {number} pricelists all of them, INDIVIDUAL included
 * @property {number} individual INDIVIDUAL pricelists (one per owning customer)
 * @property {number} priceRows pricelist_prices rows, quantity tiers included
 * @property {number} tradeConditions
 * @property {number} promotions
 */

/** @type {Record<string, SizeSpec>} */
export const SIZES = {
  "10k": {
    products: 10_000,
    customers: 1_000,
    groups: 20,
    pricelists: 100,
    individual: 60,
    priceRows: 100_000,
    tradeConditions: 500,
    promotions: 50,
  },
  "100k": {
    products: 100_000,
    customers: 10_000,
    groups: 50,
    pricelists: 300,
    individual: 200,
    priceRows: 1_000_000,
    tradeConditions: 2_000,
    promotions: 200,
  },
  "1m": {
    products: 1_000_000,
    customers: 100_000,
    groups: 200,
    pricelists: 1_000,
    individual: 700,
    priceRows: 10_000_000,
    tradeConditions: 10_000,
    promotions: 1_000,
  },
};

/** The five channels of every size (code, name, currency of its pricelists). */
export const CHANNELS = /** @type {const} */ ([
  ["WEB-DE", "Web shop Germany", "EUR"],
  ["WEB-AT", "Web shop Austria", "EUR"],
  ["SHOP-CH", "Web shop Switzerland", "CHF"],
  ["FIELD-SALES", "Field sales", "EUR"],
  ["MARKETPLACE", "Marketplace", "EUR"],
]);

/** Search terms the product names and codes are built around (see data.mjs). */
export const SEARCH_TERMS = { rare: "titanium", common: "bolt" };

/**
 * @param {string | undefined} size
 * @returns {string}
 */
export function checkSize(size) {
  if (size === undefined || !(size in SIZES)) {
    throw new Error(`--size must be one of ${Object.keys(SIZES).join(", ")} (got ${size})`);
  }
  return size;
}

/**
 * The options of the benches that load the built Worker (`npm run bench`, `npm run
 * bench:quotes-ab`), for parseArgs: the data set, the connection counts, the warm-up, which
 * scenarios, and how long at most (`maxMinutes`: its default).
 * @param {number} maxMinutes
 */
export const loadBenchOptions = (maxMinutes) =>
  /** @type {const} */ ({
    size: { type: "string", default: "100k" },
    "persist-to": { type: "string" },
    connections: { type: "string", default: "1,16" },
    warmup: { type: "string", default: "1" },
    only: { type: "string" },
    "max-minutes": { type: "string", default: String(maxMinutes) },
    help: { type: "boolean", short: "h", default: false },
  });

/**
 * The values of `loadBenchOptions`, checked.
 * @param {{ size: string, "persist-to"?: string, connections: string, warmup: string,
 *   only?: string, "max-minutes": string }} values
 */
export function loadBenchValues(values) {
  const o = {
    size: checkSize(values.size),
    persistTo: values["persist-to"],
    connections: values.connections.split(",").map(Number),
    warmup: Number(values.warmup),
    only: values.only,
    maxMinutes: Number(values["max-minutes"]),
  };
  if (o.connections.some((c) => !Number.isInteger(c) || c < 1 || c > 256))
    throw new Error("--connections: e.g. 1,16");
  if (!(o.warmup >= 0 && o.warmup <= 30)) throw new Error("--warmup: seconds, 0-30");
  if (!(o.maxMinutes > 0)) throw new Error("--max-minutes must be positive");
  return o;
}

/**
 * The folder given to `--persist-to` (relative to where npm was started, as the user typed it),
 * else `.wrangler/bench-<size>` in the project.
 * @param {string | undefined} given
 * @param {string} size
 */
export const persistDir = (given, size) =>
  given
    ? resolve(process.env.INIT_CWD ?? process.cwd(), given)
    : join(ROOT, ".wrangler", `bench-${size}`);

/** A folder for messages: relative to the project when inside it, else absolute. */
export function shownDir(/** @type {string} */ dir) {
  const rel = relative(ROOT, dir);
  return rel === "" ? "." : rel.startsWith("..") || isAbsolute(rel) ? dir : rel;
}

/** What wrangler passes to Miniflare for `--persist-to <dir>`: D1 state lives in `<dir>/v3/d1`. */
export const d1PersistOf = (/** @type {string} */ dir) => join(dir, "v3", "d1");

/** The marker data.mjs writes next to the D1 state: what was loaded, and whether it finished. */
export const markerOf = (/** @type {string} */ dir) => join(dir, "bench-data.json");

/**
 * @typedef {object} Marker
 * @property {"loading" | "complete"} status
 * @property {number} version generator version
 * @property {string} size
 * @property {number} seed
 * @property {Record<string, number>} [counts]
 * @property {number} [loadSeconds]
 */

/**
 * @param {string} dir
 * @returns {Marker | undefined}
 */
export function readMarker(dir) {
  const path = markerOf(dir);
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
}

/**
 * The id wrangler keys the local D1 by: `preview_database_id` if set, else `database_id` of the
 * DB binding in wrangler.toml (wrangler's `executeLocally` does the same).
 */
export function databaseId() {
  const toml = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
  const block = toml.split("[[d1_databases]]").find((b) => /binding\s*=\s*"DB"/.test(b));
  if (!block) throw new Error("wrangler.toml has no [[d1_databases]] with binding DB");
  const id = (/** @type {string} */ key) =>
    new RegExp(`^\\s*${key}\\s*=\\s*"([^"]+)"`, "m").exec(block)?.[1];
  const found = id("preview_database_id") ?? id("database_id");
  if (!found) throw new Error("wrangler.toml: the DB binding has no database_id");
  return found;
}

/** @param {number} n */
export const thousands = (n) => n.toLocaleString("en-US");

/** @param {number} seconds */
export const duration = (seconds) => {
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, "0")} s`;
};

/**
 * A one-line progress bar on stderr. On a terminal it redraws in place (at most 10 times a
 * second); otherwise it prints a line at every 10 % so logs stay short.
 */
export class Progress {
  /**
   * @param {number} total
   * @param {string} unit
   */
  constructor(total, unit) {
    this.total = Math.max(total, 1);
    this.unit = unit;
    this.done = 0;
    this.label = "";
    this.started = performance.now();
    this.lastDraw = 0;
    this.lastDecile = -1;
    this.tty = process.stderr.isTTY === true;
  }

  /**
   * @param {number} n
   * @param {string} [label]
   */
  add(n, label) {
    this.done += n;
    if (label !== undefined) this.label = label;
    const now = performance.now();
    if (this.tty) {
      if (now - this.lastDraw >= 100 || this.done >= this.total) this.draw(now);
    } else {
      const decile = Math.floor((10 * this.done) / this.total);
      if (decile > this.lastDecile) {
        this.lastDecile = decile;
        process.stderr.write(`${this.line(now)}\n`);
      }
    }
  }

  /** @param {number} now */
  line(now) {
    const share = Math.min(this.done / this.total, 1);
    const width = 30;
    const filled = Math.round(share * width);
    const elapsed = (now - this.started) / 1000;
    const eta = share > 0.02 && share < 1 ? ` eta ${duration(elapsed / share - elapsed)}` : "";
    return (
      `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${String(Math.floor(share * 100)).padStart(3)}% ` +
      `${thousands(this.done)}/${thousands(this.total)} ${this.unit}  ${duration(elapsed)}${eta}  ${this.label}`
    );
  }

  /** @param {number} now */
  draw(now) {
    this.lastDraw = now;
    const text = this.line(now);
    const columns = process.stderr.columns ?? 120;
    process.stderr.write(`\r${text.slice(0, columns - 1).padEnd(Math.min(columns - 1, 110))}`);
  }

  finish() {
    if (this.tty) {
      this.draw(performance.now());
      process.stderr.write("\n");
    }
  }
}

/** A free TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address
          ? resolvePort(address.port)
          : reject(new Error("no port")),
      );
    });
  });
}
