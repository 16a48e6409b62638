/**
 * The scale data set as rows, generated from a seed: the same seed and size give the same rows on
 * every machine. Every table has explicit ids and timestamps (no defaults, no clock), and every
 * schema rule of drizzle/ holds: unique codes, foreign keys in load order, `customer_id` set iff
 * INDIVIDUAL, at most one primary pricelist per channel, instants in epoch ms, booleans 0/1.
 *
 * Small tables are built in memory (`buildModel`); products and price rows, the big ones, are
 * streamed (`productRows`, `priceRows`) so the 1m size does not hold 10 million rows at once.
 *
 * Validity windows sit far from today (2025-01-01 to 2035-01-01, or clearly expired/future), so
 * the answers of a price lookup without `at` stay the same for years.
 */
import { createRandom } from "../../scripts/lib/random.mjs";
import { pickGroups, quantityRule } from "./b2b.mjs";
import { product, rareIds } from "./catalogue.mjs";
import { CHANNELS, SEARCH_TERMS } from "./common.mjs";

/** @typedef {import("./common.mjs").SizeSpec} SizeSpec */
/** @typedef {import("../../scripts/lib/random.mjs").Random} Random */
/** @typedef {import("../../scripts/lib/sql.mjs").SqlValue} SqlValue */
/** @typedef {{ table: string, columns: string[], rows: SqlValue[][] }} Table */
/** @typedef {import("./b2b.mjs").GroupTree} GroupTree */

/**
 * Bump when the generated rows change, so an old data set is not taken for the new one.
 * 2: the B2B terms of issue 12 (product groups, quantity rules, derived dealer lists, floors,
 * conditions and promotions on groups, order-level scales, thresholds).
 */
export const GENERATOR_VERSION = 3;

const T0 = Date.UTC(2025, 0, 1);
const FAR = Date.UTC(2035, 0, 1);
const EXPIRED = /** @type {const} */ ([Date.UTC(2024, 0, 1), Date.UTC(2025, 0, 1)]);
/** Explicit created_at/updated_at: one record a minute from 2025-01-01 on. */
const stamp = (/** @type {number} */ id) => T0 + id * 60_000;

/**
 * One PRNG stream per purpose, so the rows of one table do not depend on how many draws another
 * table made.
 * @param {number} seed
 * @param {number} salt
 */
const stream = (seed, salt) => createRandom((seed ^ Math.imul(salt, 0x9e3779b1)) >>> 0);

/**
 * `[validFrom, validTo]`: 70 % open-ended from 2025, 20 % 2025-2035, 5 % expired, 5 % future.
 * @param {Random} r
 * @returns {[number | null, number | null]}
 */
function window(r) {
  const u = r.next();
  if (u < 0.7) return [T0, null];
  if (u < 0.9) return [T0, FAR];
  if (u < 0.95) return [EXPIRED[0], EXPIRED[1]];
  return [FAR, null];
}

/**
 * @param {Random} r
 * @param {readonly [string, number][]} weighted
 */
function weightedPick(r, weighted) {
  const total = weighted.reduce((s, [, w]) => s + w, 0);
  let u = r.next() * total;
  for (const [value, w] of weighted) {
    if ((u -= w) < 0) return value;
  }
  return /** @type {string} */ (weighted.at(-1)?.[0]);
}

/**
 * `k` distinct integers of 1..n, ascending.
 * @param {Random} r
 * @param {number} n
 * @param {number} k
 * @returns {number[]}
 */
export function sampleIds(r, n, k) {
  k = Math.min(k, n);
  if (k * 3 < n) {
    const chosen = new Set();
    while (chosen.size < k) chosen.add(r.int(1, n));
    return [...chosen].sort((a, b) => a - b);
  }
  const all = Int32Array.from({ length: n }, (_, i) => i + 1);
  for (let i = 0; i < k; i++) {
    const j = r.int(i, n - 1);
    const t = /** @type {number} */ (all[i]);
    all[i] = /** @type {number} */ (all[j]);
    all[j] = t;
  }
  return [...all.subarray(0, k)].sort((a, b) => a - b);
}

/** Scale rows' minimums per basis: pieces on the line or in the order, EUR cents of the order. */
/** @type {Record<string, number[]>} */
const SCALE_MINIMUMS = {
  LINE_QUANTITY: [10, 50, 100],
  ORDER_QUANTITY: [100, 500, 1000],
  ORDER_VALUE: [50_000, 200_000, 1_000_000],
};

const pad = (/** @type {number} */ n, /** @type {number} */ width) =>
  String(n).padStart(width, "0");
export const customerCode = (/** @type {number} */ id) => `C-${pad(id, 6)}`;
export const groupCode = (/** @type {number} */ id) => `G-${pad(id, 3)}`;

const SEGMENTS = [
  "Wholesale",
  "Installers",
  "Retail stores",
  "Contractors",
  "Facility management",
  "Public sector",
  "Industry",
  "Trade partners",
  "Key accounts",
  "Craftsmen",
];
const REGIONS = ["North", "South", "East", "West", "Central", "Alps", "Rhine", "Coast"];
const COMPANY_A = [
  "Mueller",
  "Schmidt",
  "Weber",
  "Fischer",
  "Becker",
  "Hoffmann",
  "Koch",
  "Richter",
  "Klein",
  "Wolf",
  "Neumann",
  "Schwarz",
  "Zimmermann",
  "Braun",
  "Krueger",
  "Hartmann",
  "Lange",
  "Werner",
  "Krause",
  "Lehmann",
];
const COMPANY_B = [
  "Bau",
  "Haustechnik",
  "Elektro",
  "Sanitaer",
  "Holzbau",
  "Metallbau",
  "Dach",
  "Montage",
  "Gebaeudeservice",
  "Werkzeuge",
];
const COMPANY_C = ["GmbH", "GmbH & Co. KG", "AG", "KG", "e.K.", "OHG"];

/**
 * @typedef {object} Model
 * @property {SizeSpec} spec
 * @property {Table[]} before tables loaded before the products
 * @property {Table[]} pricing pricelists and their assignments, loaded before the price rows
 * @property {Table[]} after trade conditions and promotions with their links, loaded last
 * @property {PricelistPlan[]} pricelistPlans what each pricelist's price rows look like
 * @property {number} priceRowCount all price rows: the SALES lists' `spec.priceRows`, floors and
 *   the derived lists' own rows
 * @property {string} contractCustomer the customer the generator guarantees to have group and individual pricelists
 */

/**
 * @typedef {object} PricelistPlan
 * @property {number} id
 * @property {"primary" | "other" | "individual" | "derived" | "floor"} kind
 * @property {number} budget its number of price rows
 * @property {number} factor amount factor on the list price
 * @property {number} currencyFactor 1 for EUR, 1.08 for CHF
 */

/**
 * Everything except products and price rows.
 * @param {SizeSpec} spec
 * @param {number} seed
 * @param {Int32Array} cents list price per product id (index 0 unused), from `productRows`
 * @param {GroupTree} tree the product groups, from `groupTree`
 * @returns {Model}
 */
export function buildModel(spec, seed, cents, tree) {
  const P = spec.products;
  const C = spec.customers;
  const G = spec.groups;

  // --- channels -------------------------------------------------------------------------
  const channels = {
    table: "channels",
    columns: ["id", "code", "name", "is_active", "created_at", "updated_at"],
    rows: CHANNELS.map(([code, name], i) => [i + 1, code, name, 1, stamp(i + 1), stamp(i + 1)]),
  };
  const currencyOf = (/** @type {number} */ channel) => (channel === 3 ? "CHF" : "EUR");

  // --- customer groups and their channels ------------------------------------------------
  const rg = stream(seed, 1);
  /** @type {SqlValue[][]} */
  const groupRows = [];
  /** @type {SqlValue[][]} */
  const channelGroups = [];
  for (let g = 1; g <= G; g++) {
    const segment = /** @type {string} */ (SEGMENTS[(g - 1) % SEGMENTS.length]);
    const region = /** @type {string} */ (
      REGIONS[Math.floor((g - 1) / SEGMENTS.length) % REGIONS.length]
    );
    const round = Math.floor((g - 1) / (SEGMENTS.length * REGIONS.length));
    const name = `${segment} ${region}${round ? ` ${round + 1}` : ""}`;
    groupRows.push([g, groupCode(g), name, `${segment} in region ${region}`, stamp(g), stamp(g)]);
    /** @type {number[]} */
    const chs = g === 1 ? [1, 4] : [1, 2, 3, 4, 5].filter((c) => rg.chance(c === 1 ? 0.8 : 0.35));
    if (chs.length === 0) chs.push(rg.int(1, 5));
    for (const c of chs) channelGroups.push([c, g]);
  }

  // --- customers, their channels and groups -----------------------------------------------
  const rc = stream(seed, 2);
  /** @type {SqlValue[][]} */
  const customerRows = [];
  /** @type {SqlValue[][]} */
  const channelCustomers = [];
  /** @type {SqlValue[][]} */
  const members = [];
  const CHANNEL_SHARE = [0.8, 0.2, 0.1, 0.4, 0.15];
  for (let c = 1; c <= C; c++) {
    const name = `${rc.pick(COMPANY_A)} ${rc.pick(COMPANY_B)} ${rc.pick(COMPANY_C)}`;
    customerRows.push([c, customerCode(c), name, stamp(c), stamp(c)]);
    const chs =
      c === 1 ? [1, 4] : [1, 2, 3, 4, 5].filter((ch) => rc.chance(CHANNEL_SHARE[ch - 1] ?? 0));
    if (chs.length === 0) chs.push(1);
    for (const ch of chs) channelCustomers.push([ch, c]);
    const u = rc.next();
    const groupCount = c === 1 ? 1 : u < 0.05 ? 0 : u < 0.75 ? 1 : 2;
    const groups = c === 1 ? [1] : sampleIds(rc, G, groupCount);
    for (const g of groups) members.push([g, c]);
  }
  // customer_group_members' primary key is (group, customer): load in that order.
  members.sort(
    (a, b) =>
      /** @type {number} */ (a[0]) - /** @type {number} */ (b[0]) ||
      /** @type {number} */ (a[1]) - /** @type {number} */ (b[1]),
  );
  channelCustomers.sort(
    (a, b) =>
      /** @type {number} */ (a[0]) - /** @type {number} */ (b[0]) ||
      /** @type {number} */ (a[1]) - /** @type {number} */ (b[1]),
  );

  // --- pricelists ---------------------------------------------------------------------------
  const rp = stream(seed, 3);
  const secondaries = 2 * CHANNELS.length;
  const others = spec.pricelists - spec.individual - CHANNELS.length;
  const customerLists = others - secondaries - G;
  if (customerLists < 1) throw new Error("size spec: too few pricelists for channels and groups");
  /** @type {SqlValue[][]} */
  const pricelistRows = [];
  /** @type {SqlValue[][]} */
  const channelPricelists = [];
  /** @type {SqlValue[][]} */
  const groupPricelists = [];
  /** @type {SqlValue[][]} */
  const customerPricelists = [];
  /** @type {PricelistPlan[]} */
  const plans = [];
  const generalStatus = () =>
    weightedPick(rp, [
      ["ACTIVE", 90],
      ["INACTIVE", 4],
      ["DRAFT", 4],
      ["ARCHIVED", 2],
    ]);
  /**
   * @param {number} id
   * @param {string} name
   * @param {{ scope?: string, status: string, currency: string, priority: number,
   *   window: [number | null, number | null], taxInclusive?: number, allows?: number,
   *   customerId?: number | null, kind?: "SALES" | "FLOOR",
   *   derivation?: [base: number, adjustmentBp: number, rounding: [string, number, number] | null] }} p
   */
  const addPricelist = (id, name, p) =>
    pricelistRows.push([
      id,
      name,
      p.scope ?? "GENERAL",
      p.status,
      p.currency,
      p.priority,
      p.window[0],
      p.window[1],
      p.taxInclusive ?? 0,
      p.allows ?? 1,
      p.customerId ?? null,
      stamp(id),
      stamp(id),
      p.kind ?? "SALES",
      p.derivation?.[0] ?? null,
      p.derivation?.[1] ?? null,
      ...(p.derivation?.[2] ?? [null, null, null]),
    ]);

  // Exact row budgets: primaries 7P (all products, every 5th with 10+ and 50+ tiers), the
  // INDIVIDUAL lists P together, every other list 2P together; 10P in all.
  const otherBudget = spec.priceRows - 7 * P - P;
  if (otherBudget < 0 || P % 5 !== 0)
    throw new Error("size spec: price rows must be 10 per product");
  /** @param {number} total @param {number} parts @param {number} j */
  const share = (total, parts, j) => Math.floor(total / parts) + (j < total % parts ? 1 : 0);

  let id = 0;
  for (let ch = 1; ch <= CHANNELS.length; ch++) {
    id += 1;
    const [code] = /** @type {(typeof CHANNELS)[number]} */ (CHANNELS[ch - 1]);
    addPricelist(id, `${code} primary list`, {
      status: "ACTIVE",
      currency: currencyOf(ch),
      priority: 0,
      window: [T0, null],
      taxInclusive: ch === 3 ? 1 : 0,
    });
    channelPricelists.push([ch, id, 1]);
    plans.push({
      id,
      kind: "primary",
      budget: P + (2 * P) / 5,
      factor: 1,
      currencyFactor: ch === 3 ? 1.08 : 1,
    });
  }
  let otherIndex = 0;
  const otherPlan = (
    /** @type {number} */ listId,
    /** @type {number} */ factor,
    /** @type {number} */ currencyFactor,
  ) =>
    plans.push({
      id: listId,
      kind: "other",
      budget: share(otherBudget, others, otherIndex++),
      factor,
      currencyFactor,
    });
  for (let k = 0; k < secondaries; k++) {
    id += 1;
    const ch = (k % CHANNELS.length) + 1;
    const [code] = /** @type {(typeof CHANNELS)[number]} */ (CHANNELS[ch - 1]);
    const status = generalStatus();
    const theme = rp.pick(["clearance", "project", "seasonal", "outlet", "bulk"]);
    addPricelist(id, `${code} ${theme} list ${Math.floor(k / CHANNELS.length) + 1}`, {
      status,
      currency: currencyOf(ch),
      priority: rp.int(0, 5),
      window: window(rp),
      taxInclusive: ch === 3 ? 1 : 0,
    });
    if (status !== "ARCHIVED") channelPricelists.push([ch, id, 0]);
    otherPlan(id, 0.97 + 0.06 * rp.next(), ch === 3 ? 1.08 : 1);
  }
  for (let g = 1; g <= G; g++) {
    id += 1;
    const forced = g === 1;
    const status = forced ? "ACTIVE" : generalStatus();
    addPricelist(id, `${groupCode(g)} group list`, {
      status,
      currency: "EUR",
      priority: rp.int(0, 10),
      window: forced ? [T0, null] : window(rp),
    });
    if (status !== "ARCHIVED") groupPricelists.push([g, id]);
    otherPlan(id, 0.85 + 0.1 * rp.next(), 1);
  }
  const perCustomerList = Math.max(5, Math.round(C / 500));
  for (let k = 0; k < customerLists; k++) {
    id += 1;
    const forced = k === 0;
    const status = forced ? "ACTIVE" : generalStatus();
    addPricelist(id, `Project list ${k + 1}`, {
      status,
      currency: "EUR",
      priority: rp.int(0, 10),
      window: forced ? [T0, null] : window(rp),
    });
    if (status !== "ARCHIVED") {
      const targets = sampleIds(rp, C, perCustomerList);
      if (forced && !targets.includes(1)) targets[0] = 1;
      for (const c of new Set(targets)) customerPricelists.push([c, id]);
    }
    otherPlan(id, 0.8 + 0.12 * rp.next(), 1);
  }
  const owners = sampleIds(rp, C, spec.individual);
  if (!owners.includes(1)) owners[0] = 1;
  for (let k = 0; k < owners.length; k++) {
    id += 1;
    const owner = /** @type {number} */ (owners[k]);
    const forced = owner === 1;
    addPricelist(id, `${customerCode(owner)} contract list`, {
      scope: "INDIVIDUAL",
      status: forced || rp.chance(0.85) ? "ACTIVE" : "DRAFT",
      currency: "EUR",
      priority: rp.int(0, 5),
      window: forced ? [T0, null] : window(rp),
      allows: forced || rp.chance(0.3) ? 1 : 0,
      customerId: owner,
    });
    plans.push({
      id,
      kind: "individual",
      budget: share(P, owners.length, k),
      factor: 0.75 + 0.15 * rp.next(),
      currencyFactor: 1,
    });
  }
  addB2bPricelists({
    spec,
    seed,
    id,
    addPricelist,
    plans,
    channelPricelists,
    groupPricelists,
  });
  customerPricelists.sort(
    (a, b) =>
      /** @type {number} */ (a[0]) - /** @type {number} */ (b[0]) ||
      /** @type {number} */ (a[1]) - /** @type {number} */ (b[1]),
  );
  groupPricelists.sort(
    (a, b) =>
      /** @type {number} */ (a[0]) - /** @type {number} */ (b[0]) ||
      /** @type {number} */ (a[1]) - /** @type {number} */ (b[1]),
  );

  // --- trade conditions ------------------------------------------------------------------------
  const rt = stream(seed, 4);
  // Issue 12's terms from a stream of their own: half the product-specific DISCOUNTs and
  // SURCHARGEs name 1–3 product groups instead of products; of the scaled conditions, 30 % count
  // the order's quantity and 20 % its value (in EUR).
  const rb = stream(seed, 11);
  /** @type {SqlValue[][]} */
  const tcProductGroups = [];
  /** @type {SqlValue[][]} */
  const tcRows = [];
  /** @type {SqlValue[][]} */
  const tcChannels = [];
  /** @type {SqlValue[][]} */
  const tcProducts = [];
  /** @type {SqlValue[][]} */
  const tcScales = [];
  /** @type {SqlValue[][]} */
  const tcGroups = [];
  /** @type {SqlValue[][]} */
  const tcCustomers = [];
  let forcedCustomer = 0;
  let forcedGroup = 0;
  for (let t = 1; t <= spec.tradeConditions; t++) {
    const scope = weightedPick(rt, [
      ["GLOBAL", 2],
      ["CHANNEL", 13],
      ["CUSTOMER_GROUP", 35],
      ["CUSTOMER", 50],
    ]);
    const type = weightedPick(rt, [
      ["DISCOUNT", 75],
      ["SURCHARGE", 10],
      ["NET_PRICE", 15],
    ]);
    const status = weightedPick(rt, [
      ["ACTIVE", 85],
      ["DRAFT", 7],
      ["INACTIVE", 4],
      ["ARCHIVED", 4],
    ]);
    /** @type {number[]} */
    let productIds = [];
    /** @type {number[]} */
    let groupIds = [];
    let scaleBasis = "LINE_QUANTITY";
    let discountType;
    let value;
    if (type === "NET_PRICE") {
      discountType = "ABSOLUTE";
      productIds = sampleIds(rt, P, rt.int(1, 5));
      value = Math.round(
        /** @type {number} */ (cents[/** @type {number} */ (productIds[0])]) * 0.8,
      );
    } else {
      const percentage = rt.chance(type === "DISCOUNT" ? 0.8 : 0.5);
      discountType = percentage ? "PERCENTAGE" : "ABSOLUTE";
      value = percentage
        ? type === "DISCOUNT"
          ? 50 * rt.int(2, 50)
          : 50 * rt.int(2, 10)
        : type === "DISCOUNT"
          ? rt.int(10, 500)
          : rt.int(5, 300);
      if (rt.chance(0.6)) productIds = sampleIds(rt, P, rt.int(1, 50));
      if (rt.chance(0.2)) {
        const steps = rt.int(2, 3);
        const u = rb.next();
        scaleBasis = u < 0.3 ? "ORDER_QUANTITY" : u < 0.5 ? "ORDER_VALUE" : "LINE_QUANTITY";
        const minimums = SCALE_MINIMUMS[scaleBasis];
        for (let k = 0; k < steps; k++) {
          const scaled = percentage
            ? Math.min(10000, value + 200 * (k + 1))
            : value + Math.max(1, Math.round(value / 2)) * (k + 1);
          tcScales.push([t, minimums?.[k] ?? 100, scaled]);
        }
      }
      if (productIds.length > 0 && rb.chance(0.5)) {
        productIds = [];
        groupIds = pickGroups(rb, tree, 3);
      }
    }
    for (const g of groupIds) tcProductGroups.push([t, g]);
    const currency = discountType === "ABSOLUTE" || scaleBasis === "ORDER_VALUE" ? "EUR" : null;
    const [validFrom, validTo] = window(rt);
    const stackable = rt.chance(0.1) ? 1 : 0;
    const priority = rt.chance(0.7) ? 0 : rt.int(1, 10);
    /** @type {number[]} */
    let chs = [];
    if (scope === "CHANNEL" || rt.chance(0.25)) chs = sampleIds(rt, CHANNELS.length, rt.int(1, 2));
    for (const ch of chs) tcChannels.push([t, ch]);
    for (const p of productIds) tcProducts.push([t, p]);
    let target = "";
    if (scope === "CUSTOMER") {
      const targets = sampleIds(rt, C, rt.chance(0.8) ? 1 : rt.int(2, 3));
      // The contract customer is reached by the first two ACTIVE customer conditions.
      if (status === "ACTIVE" && forcedCustomer < 2 && !targets.includes(1)) {
        targets[0] = 1;
        targets.sort((a, b) => a - b);
      }
      if (status === "ACTIVE" && targets.includes(1)) forcedCustomer += 1;
      for (const c of targets) tcCustomers.push([t, c]);
      target = ` for ${customerCode(/** @type {number} */ (targets[0]))}`;
    } else if (scope === "CUSTOMER_GROUP") {
      const targets = sampleIds(rt, G, rt.int(1, 3));
      if (status === "ACTIVE" && forcedGroup < 2 && !targets.includes(1)) {
        targets[0] = 1;
        targets.sort((a, b) => a - b);
      }
      if (status === "ACTIVE" && targets.includes(1)) forcedGroup += 1;
      for (const g of targets) tcGroups.push([t, g]);
      target = ` for ${groupCode(/** @type {number} */ (targets[0]))}`;
    } else if (scope === "CHANNEL") {
      target = ` in ${CHANNELS[/** @type {number} */ (chs[0]) - 1]?.[0]}`;
    }
    const what = { DISCOUNT: "Discount", SURCHARGE: "Surcharge", NET_PRICE: "Net price" }[type];
    const amount =
      discountType === "PERCENTAGE"
        ? `${(value / 100).toFixed(2)} %`
        : `${(value / 100).toFixed(2)} EUR`;
    const on = productIds.length
      ? ` on ${productIds.length} products`
      : groupIds.length
        ? ` on ${groupIds.length} product group${groupIds.length > 1 ? "s" : ""}`
        : "";
    const by = {
      LINE_QUANTITY: "",
      ORDER_QUANTITY: " by order quantity",
      ORDER_VALUE: " by order value",
    }[scaleBasis];
    tcRows.push([
      t,
      `${what} ${amount}${target}${on}${by} #${t}`,
      scope,
      status,
      type,
      discountType,
      value,
      currency,
      validFrom,
      validTo,
      priority,
      stackable,
      stamp(t),
      stamp(t),
      scaleBasis,
    ]);
  }

  // --- promotions ----------------------------------------------------------------------------------
  const rm = stream(seed, 5);
  // Issue 12's terms from a stream of their own: 40 % of the product-specific promotions name 1–2
  // product groups instead; 20 % of all have a threshold, half on the quantity (10–100 pieces),
  // half on the value (100–1,000 EUR) of the lines they reach.
  const rq = stream(seed, 12);
  /** @type {SqlValue[][]} */
  const promoProductGroups = [];
  /** @type {SqlValue[][]} */
  const promoRows = [];
  /** @type {SqlValue[][]} */
  const promoChannels = [];
  /** @type {SqlValue[][]} */
  const promoProducts = [];
  /** @type {SqlValue[][]} */
  const promoGroups = [];
  const THEMES = [
    "Spring sale",
    "Summer deal",
    "Autumn offer",
    "Winter special",
    "Trade fair",
    "Clearance",
    "Launch offer",
  ];
  for (let m = 1; m <= spec.promotions; m++) {
    const status = weightedPick(rm, [
      ["ACTIVE", 80],
      ["DRAFT", 10],
      ["INACTIVE", 5],
      ["ARCHIVED", 5],
    ]);
    const percentage = rm.chance(0.8);
    const value = percentage ? 50 * rm.int(10, 60) : rm.int(50, 1000);
    const u = rm.next();
    /** @type {[number | null, number | null]} */
    const validity = u < 0.6 ? [T0, FAR] : u < 0.8 ? [EXPIRED[0], EXPIRED[1]] : [FAR, null];
    for (const ch of rm.chance(0.5) ? sampleIds(rm, CHANNELS.length, rm.int(1, 2)) : [])
      promoChannels.push([m, ch]);
    const productIds = rm.chance(0.85) ? sampleIds(rm, P, rm.int(1, 100)) : [];
    if (productIds.length > 0 && rq.chance(0.4)) {
      for (const g of pickGroups(rq, tree, 2)) promoProductGroups.push([m, g]);
    } else {
      for (const p of productIds) promoProducts.push([m, p]);
    }
    for (const g of rm.chance(0.2) ? sampleIds(rm, G, rm.int(1, 3)) : []) promoGroups.push([m, g]);
    /** @type {[string | null, number | null]} */
    const threshold = !rq.chance(0.2)
      ? [null, null]
      : rq.chance(0.5)
        ? ["QUANTITY", 10 * rq.int(1, 10)]
        : ["VALUE", 10000 * rq.int(1, 10)];
    promoRows.push([
      m,
      `${rm.pick(THEMES)} ${percentage ? `${value / 100} %` : `${(value / 100).toFixed(2)} EUR off`} #${m}`,
      status,
      percentage ? "PERCENTAGE" : "ABSOLUTE",
      value,
      percentage && threshold[0] !== "VALUE" ? null : "EUR",
      validity[0],
      validity[1],
      rm.chance(0.7) ? 0 : rm.int(1, 5),
      rm.chance(0.8) ? "BEST_OF" : "ON_TOP",
      stamp(m),
      stamp(m),
      ...threshold,
    ]);
  }

  const stamped = ["created_at", "updated_at"];
  const agreements = agreementTables(spec, seed, cents, channelCustomers, currencyOf);
  return {
    spec,
    contractCustomer: customerCode(1),
    pricelistPlans: plans,
    priceRowCount: plans.reduce((s, p) => s + p.budget, 0),
    before: [
      channels,
      {
        table: "customer_groups",
        columns: ["id", "code", "name", "description", ...stamped],
        rows: groupRows,
      },
      { table: "customers", columns: ["id", "code", "name", ...stamped], rows: customerRows },
      {
        table: "channel_customer_groups",
        columns: ["channel_id", "customer_group_id"],
        rows: channelGroups.sort(
          (a, b) =>
            /** @type {number} */ (a[0]) - /** @type {number} */ (b[0]) ||
            /** @type {number} */ (a[1]) - /** @type {number} */ (b[1]),
        ),
      },
      {
        table: "channel_customers",
        columns: ["channel_id", "customer_id"],
        rows: channelCustomers,
      },
      {
        table: "customer_group_members",
        columns: ["customer_group_id", "customer_id"],
        rows: members,
      },
    ],
    pricing: [
      {
        table: "pricelists",
        columns: [
          "id",
          "name",
          "scope",
          "status",
          "currency",
          "priority",
          "valid_from",
          "valid_to",
          "tax_inclusive",
          "allows_trade_discounts",
          "customer_id",
          ...stamped,
          "kind",
          "base_pricelist_id",
          "adjustment_bp",
          "rounding_mode",
          "rounding_step",
          "rounding_ending",
        ],
        rows: pricelistRows,
      },
      {
        table: "channel_pricelists",
        columns: ["channel_id", "pricelist_id", "is_primary"],
        rows: channelPricelists.sort(
          (a, b) =>
            /** @type {number} */ (a[0]) - /** @type {number} */ (b[0]) ||
            /** @type {number} */ (a[1]) - /** @type {number} */ (b[1]),
        ),
      },
      {
        table: "customer_group_pricelists",
        columns: ["customer_group_id", "pricelist_id"],
        rows: groupPricelists,
      },
      {
        table: "customer_pricelists",
        columns: ["customer_id", "pricelist_id"],
        rows: customerPricelists,
      },
    ],
    after: [
      {
        table: "trade_conditions",
        columns: [
          "id",
          "name",
          "scope",
          "status",
          "type",
          "discount_type",
          "value",
          "currency",
          "valid_from",
          "valid_to",
          "priority",
          "stackable",
          ...stamped,
          "scale_basis",
        ],
        rows: tcRows,
      },
      {
        table: "trade_condition_channels",
        columns: ["trade_condition_id", "channel_id"],
        rows: tcChannels,
      },
      {
        table: "trade_condition_products",
        columns: ["trade_condition_id", "product_id"],
        rows: tcProducts,
      },
      {
        table: "trade_condition_product_groups",
        columns: ["trade_condition_id", "product_group_id"],
        rows: tcProductGroups,
      },
      {
        table: "trade_condition_scales",
        columns: ["trade_condition_id", "min_quantity", "value"],
        rows: tcScales,
      },
      {
        table: "trade_condition_customer_groups",
        columns: ["trade_condition_id", "customer_group_id"],
        rows: tcGroups,
      },
      {
        table: "trade_condition_customers",
        columns: ["trade_condition_id", "customer_id"],
        rows: tcCustomers,
      },
      {
        table: "promotions",
        columns: [
          "id",
          "name",
          "status",
          "discount_type",
          "value",
          "currency",
          "valid_from",
          "valid_to",
          "priority",
          "stacking",
          ...stamped,
          "threshold_basis",
          "threshold_minimum",
        ],
        rows: promoRows,
      },
      { table: "promotion_channels", columns: ["promotion_id", "channel_id"], rows: promoChannels },
      { table: "promotion_products", columns: ["promotion_id", "product_id"], rows: promoProducts },
      {
        table: "promotion_product_groups",
        columns: ["promotion_id", "product_group_id"],
        rows: promoProductGroups,
      },
      {
        table: "promotion_customer_groups",
        columns: ["promotion_id", "customer_group_id"],
        rows: promoGroups,
      },
      ...agreements,
    ],
  };
}

/** Customers with an accepted AGREEMENT quote: 3,000 of the 100k data's 10,000. */
const AGREEMENT_SHARE = 0.3;

/**
 * Accepted AGREEMENT quotes (docs/pricing-rules.md §28.2), which every lookup of their customer
 * in their channel reads with the customer: 30 % of the customers have one in one of their
 * channels, of 1-8 products at 85-98 % of the list price; the contract customer (customer 1) has
 * one in WEB-DE of 20 products, so its lookups in the bench read and price one. Accepted in 2025,
 * valid until 2035: in force whenever the bench runs.
 * @param {SizeSpec} spec
 * @param {number} seed
 * @param {Int32Array} cents
 * @param {SqlValue[][]} channelCustomers `[channel, customer]`
 * @param {(channel: number) => string} currencyOf
 * @returns {Table[]}
 */
function agreementTables(spec, seed, cents, channelCustomers, currencyOf) {
  const r = stream(seed, 13);
  /** @type {Map<number, number[]>} */
  const channelsOf = new Map();
  for (const [ch, c] of channelCustomers) {
    const list = channelsOf.get(/** @type {number} */ (c)) ?? [];
    list.push(/** @type {number} */ (ch));
    channelsOf.set(/** @type {number} */ (c), list);
  }
  /** @type {SqlValue[][]} */
  const quotes = [];
  /** @type {SqlValue[][]} */
  const lines = [];
  for (let c = 1; c <= spec.customers; c++) {
    if (c !== 1 && !r.chance(AGREEMENT_SHARE)) continue;
    const id = quotes.length + 1;
    const channel = c === 1 ? 1 : r.pick(channelsOf.get(c) ?? [1]);
    const products = sampleIds(r, spec.products, c === 1 ? 20 : r.int(1, 8));
    let total = 0;
    products.forEach((pid, position) => {
      const regular = /** @type {number} */ (cents[pid]);
      const quoted = Math.round((regular * r.int(850, 980)) / 1000);
      const quantity = r.pick([1, 10, 50, 100]);
      total += quoted * quantity;
      const cut = regular > 0 ? Math.ceil(((regular - quoted) * 10_000) / regular) : 0;
      lines.push([
        id,
        position,
        pid,
        quantity,
        regular,
        1,
        null,
        quoted,
        quoted * quantity,
        Math.max(0, cut),
        null,
        null,
        "[]",
      ]);
    });
    const at = stamp(id);
    quotes.push([
      id,
      "ACCEPTED",
      1,
      c,
      channel,
      currencyOf(channel),
      "AGREEMENT",
      "FIXED",
      FAR,
      total,
      "bench-rep",
      "bench-rep",
      '["bench-rep"]',
      "policy",
      at,
      at,
      at,
      at,
      at,
      at,
    ]);
  }
  return [
    {
      table: "quotes",
      columns: [
        "id",
        "status",
        "revision",
        "customer_id",
        "channel_id",
        "currency",
        "mode",
        "lock",
        "valid_to",
        "total_amount",
        "author",
        "author_owner",
        "writers",
        "approved_by",
        "approved_at",
        "sent_at",
        "accepted_at",
        "priced_at",
        "created_at",
        "updated_at",
      ],
      rows: quotes,
    },
    {
      table: "quote_lines",
      columns: [
        "quote_id",
        "position",
        "product_id",
        "quantity",
        "regular_unit_amount",
        "price_unit",
        "floor_unit_amount",
        "quoted_unit_amount",
        "line_amount",
        "cut_bp",
        "margin_bp",
        "cost_unit_amount",
        "adjustments",
      ],
      rows: lines,
    },
  ];
}

/**
 * The derived dealer lists and the FLOOR lists, after every other pricelist (ids go on from `id`).
 *
 * - Dealer lists (a tenth of the customer groups, at least 4): the first half derive from the
 *   primary list of an EUR channel (−5 … −15 %, with or without a price ending), the others from
 *   a dealer list of the first half (2 steps), the last one from the one before it (3 steps).
 *   Each has own rows for 0.5 % of the products, and is assigned to 15 % of the customer groups;
 *   the first one also to group 1, the contract customer's.
 * - Floors: one EUR FLOOR list (every product at 74–78 % of its list price) assigned to the four
 *   EUR channels, one CHF FLOOR list (every second product) assigned to SHOP-CH.
 * @param {{ spec: SizeSpec, seed: number, id: number,
 *   addPricelist: (id: number, name: string, p: any) => void, plans: PricelistPlan[],
 *   channelPricelists: SqlValue[][], groupPricelists: SqlValue[][] }} context
 */
function addB2bPricelists({
  spec,
  seed,
  id,
  addPricelist,
  plans,
  channelPricelists,
  groupPricelists,
}) {
  const r = stream(seed, 10);
  const P = spec.products;
  const G = spec.groups;
  const dealers = Math.max(4, Math.round(G / 10));
  const firstHalf = Math.ceil(dealers / 2);
  const EUR_CHANNELS = [1, 2, 4, 5];
  const ROUNDINGS = /** @type {const} */ ([
    ["NEAREST", 10, 9],
    ["UP", 5, 0],
    ["DOWN", 100, 99],
    null,
  ]);
  const firstDealer = id + 1;
  for (let k = 0; k < dealers; k++) {
    id += 1;
    const base =
      k < firstHalf
        ? /** @type {number} */ (EUR_CHANNELS[k % EUR_CHANNELS.length])
        : k === dealers - 1 && dealers > 2
          ? id - 1
          : firstDealer + (k - firstHalf);
    const adjustment = -100 * r.int(5, 15);
    addPricelist(id, `Dealer list ${k + 1} (list ${base} ${adjustment / 100} %)`, {
      status: k === 0 || r.chance(0.9) ? "ACTIVE" : "DRAFT",
      currency: "EUR",
      priority: r.int(0, 10),
      window: [T0, null],
      derivation: [base, adjustment, r.pick(ROUNDINGS)],
    });
    const groups = sampleIds(r, G, Math.ceil(G * 0.15));
    if (k === 0 && !groups.includes(1)) groups[0] = 1;
    for (const g of new Set(groups)) groupPricelists.push([g, id]);
    plans.push({
      id,
      kind: "derived",
      budget: Math.floor(P / 200),
      factor: 0.82,
      currencyFactor: 1,
    });
  }
  id += 1;
  addPricelist(id, "EUR margin floor", {
    kind: "FLOOR",
    status: "ACTIVE",
    currency: "EUR",
    priority: 0,
    window: [T0, null],
  });
  for (const ch of EUR_CHANNELS) channelPricelists.push([ch, id, 0]);
  plans.push({ id, kind: "floor", budget: P, factor: 0.76, currencyFactor: 1 });
  id += 1;
  addPricelist(id, "CHF margin floor", {
    kind: "FLOOR",
    status: "ACTIVE",
    currency: "CHF",
    priority: 0,
    window: [T0, null],
    taxInclusive: 1,
  });
  channelPricelists.push([3, id, 0]);
  plans.push({ id, kind: "floor", budget: P / 2, factor: 0.76, currencyFactor: 1.08 });
}

export const PRODUCT_COLUMNS = [
  "id",
  "code",
  "name",
  "created_at",
  "updated_at",
  "product_group_id",
  "min_order_quantity",
  "order_increment",
  "max_order_quantity",
];

/**
 * The products, in id order, each in its family × brand group (2 % in none) with its quantity
 * rule (b2b.mjs); fills `cents` (list price per id) and `terms` (how many names carry each
 * search term) on the way.
 * @param {SizeSpec} spec
 * @param {number} seed
 * @param {Int32Array} cents
 * @param {Record<string, number>} terms
 * @param {GroupTree} tree
 * @returns {Generator<SqlValue[]>}
 */
export function* productRows(spec, seed, cents, terms, tree) {
  const r = stream(seed, 6);
  const rg = stream(seed, 8);
  const rq = stream(seed, 9);
  const rare = new Set(rareIds(spec.products));
  const termList = Object.values(SEARCH_TERMS);
  for (const term of termList) terms[term] = 0;
  for (let id = 1; id <= spec.products; id++) {
    const p = product(r, id, rare.has(id));
    cents[id] = p.cents;
    const name = p.name.toLowerCase();
    for (const term of termList) if (name.includes(term)) terms[term] = (terms[term] ?? 0) + 1;
    const group = rg.chance(0.02) ? null : tree.leafOf(p.family, p.brand);
    yield [id, p.code, p.name, stamp(id), stamp(id), group, ...quantityRule(rq, p.family, p.name)];
  }
}

export const PRICE_COLUMNS = ["pricelist_id", "product_id", "min_quantity", "amount"];

/**
 * Every price row, pricelist by pricelist, products ascending (the primary key's order).
 * Primary lists: every product at 1+, every 5th product also at 10+ (95 %) and 50+ (90 %).
 * Other general lists: a sample of products at 1+ and 20+ (92 %). INDIVIDUAL lists and the derived
 * lists' own rows: a sample at 1+. FLOOR lists: every product, or every second one, at 1+.
 * @param {Model} model
 * @param {number} seed
 * @param {Int32Array} cents
 * @returns {Generator<SqlValue[]>}
 */
export function* priceRows(model, seed, cents) {
  const P = model.spec.products;
  const r = stream(seed, 7);
  for (const plan of model.pricelistPlans) {
    const base = (/** @type {number} */ p) =>
      Math.max(
        1,
        Math.round(
          /** @type {number} */ (cents[p]) *
            plan.factor *
            plan.currencyFactor *
            (0.98 + 0.04 * r.next()),
        ),
      );
    if (plan.kind === "primary") {
      for (let p = 1; p <= P; p++) {
        const amount = base(p);
        yield [plan.id, p, 1, amount];
        if (p % 5 === 0) {
          yield [plan.id, p, 10, Math.round(amount * 0.95)];
          yield [plan.id, p, 50, Math.round(amount * 0.9)];
        }
      }
    } else if (plan.kind === "other") {
      const products = sampleIds(r, P, Math.ceil(plan.budget / 2));
      let left = plan.budget;
      for (const p of products) {
        const amount = base(p);
        yield [plan.id, p, 1, amount];
        left -= 1;
        if (left > 0) {
          yield [plan.id, p, 20, Math.round(amount * 0.92)];
          left -= 1;
        }
      }
    } else if (plan.kind === "floor") {
      const step = P / plan.budget;
      for (let k = 1; k <= plan.budget; k++) {
        const p = Math.round(k * step);
        yield [plan.id, p, 1, base(p)];
      }
    } else {
      // INDIVIDUAL lists and the derived lists' own rows.
      for (const p of sampleIds(r, P, plan.budget)) yield [plan.id, p, 1, base(p)];
    }
  }
}
