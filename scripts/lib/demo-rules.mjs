/**
 * The API's write rules (docs/api/resources.md §2, docs/api/relations.md §5.2, §5.7–§5.10; COST and
 * ACCRUAL: docs/pricing-rules.md §23–§25) applied to the demo data before it is turned into SQL, so
 * the demo never holds what the API would refuse. The SQL load itself checks only what the schema
 * enforces (unique codes, foreign keys); these are the rules the services add.
 * test/tools/demo-data.test.ts also creates a copy of every record through the API.
 */

/** @typedef {import("./demo-model.mjs").DemoData} DemoData */
/** @typedef {import("./demo-model.mjs").Pricelist} Pricelist */
/** @typedef {import("./demo-model.mjs").Promotion} Promotion */
/** @typedef {import("./demo-model.mjs").TradeCondition} TradeCondition */

const MAX_GROUP_LEVELS = 8;
const MAX_DERIVATION_STEPS = 3;
const MAX_QUANTITY = 1_000_000;

/** @param {string} message */
const fail = (message) => {
  throw new Error(`demo data: ${message}`);
};

/** @param {DemoData} data */
export function checkWriteRules(data) {
  checkProductGroups(data);
  checkProducts(data);
  checkExchangeRates(data);
  const pricelists = new Map(data.pricelists.map((p) => [p.id, p]));
  const pairs = new Set(data.exchangeRates.map((r) => `${r.from}>${r.to}`));
  for (const p of data.pricelists) checkPricelist(p, pricelists, pairs);
  for (const t of data.tradeConditions) checkTradeCondition(t);
  for (const p of data.promotions) checkPromotion(p);
}

/** A forest: parents listed first (so no cycle), at most 8 levels. @param {DemoData} data */
function checkProductGroups(data) {
  /** @type {Map<string, number>} */
  const depth = new Map();
  for (const g of data.productGroups) {
    if (depth.has(g.code)) fail(`product group ${g.code} twice`);
    const parentDepth = g.parentCode === null ? 0 : depth.get(g.parentCode);
    if (parentDepth === undefined)
      fail(`product group ${g.code}: parent ${g.parentCode} not listed before it`);
    const level = /** @type {number} */ (parentDepth) + 1;
    if (level > MAX_GROUP_LEVELS) fail(`product group ${g.code} is on level ${level} (at most 8)`);
    depth.set(g.code, level);
  }
}

/** Known groups; quantity rules of whole numbers 1…1,000,000 with max ≥ min. @param {DemoData} data */
function checkProducts(data) {
  const groups = new Set(data.productGroups.map((g) => g.code));
  const whole = (/** @type {number} */ n) => Number.isSafeInteger(n) && n >= 1 && n <= MAX_QUANTITY;
  for (const p of data.products) {
    if (p.productGroupCode !== null && !groups.has(p.productGroupCode)) {
      fail(`product ${p.code}: unknown productGroupCode ${p.productGroupCode}`);
    }
    const max = p.maxOrderQuantity;
    if (!whole(p.minOrderQuantity) || !whole(p.orderIncrement) || (max !== null && !whole(max))) {
      fail(`product ${p.code}: quantity rule fields are whole numbers from 1 to ${MAX_QUANTITY}`);
    }
    if (max !== null && max < p.minOrderQuantity) {
      fail(`product ${p.code}: maxOrderQuantity below minOrderQuantity`);
    }
  }
}

/**
 * Rates as the API takes them (docs/api/prices.md §16.2): a decimal text above 0 with at most 12
 * significant digits, two currencies, one rate per pair and validFrom.
 * @param {DemoData} data
 */
function checkExchangeRates(data) {
  const keys = new Set();
  for (const r of data.exchangeRates) {
    const name = `rate ${r.from}→${r.to} from ${new Date(r.validFrom).toISOString()}`;
    const significant = r.rate.replace(".", "").replace(/^0+/, "").replace(/0+$/, "");
    if (!/^\d+(\.\d+)?$/.test(r.rate) || significant === "" || significant.length > 12)
      fail(`${name}: a decimal text above 0 with at most 12 significant digits`);
    if (r.from === r.to) fail(`${name}: two currencies`);
    const key = `${r.from}>${r.to}@${r.validFrom}`;
    if (keys.has(key)) fail(`${name} twice`);
    keys.add(key);
  }
}

/**
 * Price rows: a price unit of 1–10,000 pieces, one row per product and tier
 * (docs/api/relations.md §5.6).
 * @param {Pricelist} p
 */
function checkPriceRows(p) {
  const tiers = new Set();
  for (const r of p.prices) {
    const unit = r.priceUnit ?? 1;
    if (!Number.isSafeInteger(unit) || unit < 1 || unit > 10_000)
      fail(`pricelist ${p.id}: ${r.productCode} has priceUnit ${unit} (1–10000)`);
    const key = `${r.productCode}@${r.minQuantity}`;
    if (tiers.has(key)) fail(`pricelist ${p.id}: ${r.productCode} from ${r.minQuantity} twice`);
    tiers.add(key);
  }
}

/**
 * Scope and owner, kind and where it is assigned, derivation (docs/api/relations.md §5.2, §5.8): a
 * base in another currency needs a rate of the pair, or the demo would answer NO_PRICE and the
 * linter MISSING_EXCHANGE_RATE (docs/pricing-rules.md §19).
 * @param {Pricelist} p
 * @param {Map<number, Pricelist>} pricelists
 * @param {Set<string>} pairs the exchange rates' `from>to`
 */
function checkPricelist(p, pricelists, pairs) {
  const name = `pricelist ${p.id}`;
  checkPriceRows(p);
  if ((p.scope === "INDIVIDUAL") !== (p.customerCode !== null))
    fail(`${name}: an owner iff INDIVIDUAL`);
  const assigned = p.channels.length + p.groupCodes.length + p.customerCodes.length > 0;
  if (p.scope === "INDIVIDUAL" && (p.kind !== "SALES" || assigned || p.derivation)) {
    fail(`${name}: an INDIVIDUAL pricelist is SALES, not derived and assigned nowhere`);
  }
  if (p.kind !== "SALES") {
    if (p.groupCodes.length + p.customerCodes.length > 0 || p.channels.some((c) => c.primary)) {
      fail(`${name}: a ${p.kind} pricelist is assigned to channels only, never as primary`);
    }
  }
  if (p.kind === "COST" && p.derivation) fail(`${name}: a COST pricelist does not derive`);
  if (!p.derivation) return;
  const { basePricelistId, adjustmentBp, rounding } = p.derivation;
  if (!Number.isSafeInteger(adjustmentBp) || adjustmentBp < -9999 || adjustmentBp > 100_000) {
    fail(`${name}: adjustmentBp from −9999 to 100000`);
  }
  if (
    rounding &&
    !(rounding.step >= 1 && rounding.ending >= 0 && rounding.ending < rounding.step)
  ) {
    fail(`${name}: rounding needs step ≥ 1 and 0 ≤ ending < step`);
  }
  const chain = [p.id];
  let currency = p.currency;
  for (let id = basePricelistId; ;) {
    const base = pricelists.get(id);
    if (!base) return fail(`${name}: base pricelist ${id} does not exist`);
    // A SALES list derives from SALES lists, a FLOOR list from a COST list (pricing-rules §24).
    const baseKind = p.kind === "FLOOR" ? "COST" : "SALES";
    if (base.scope !== "GENERAL" || base.kind !== baseKind)
      fail(`${name}: base ${id} is not GENERAL ${baseKind}`);
    if (base.currency !== currency && !pairs.has(`${base.currency}>${currency}`))
      fail(
        `${name}: base ${id} is in ${base.currency}, and no rate ${base.currency} → ${currency}`,
      );
    currency = base.currency;
    if (chain.includes(id)) fail(`${name}: derivation cycle ${[...chain, id].join(" → ")}`);
    chain.push(id);
    if (chain.length - 1 > MAX_DERIVATION_STEPS)
      fail(`${name}: chain ${chain.join(" → ")} over 3 steps`);
    if (!base.derivation) return;
    id = base.derivation.basePricelistId;
  }
}

/**
 * Currency iff the record compares amounts; values in range; distinct scale minimums ≥ 1.
 * @param {TradeCondition | Promotion} r
 * @param {boolean} comparesAmounts scale basis ORDER_VALUE, or a VALUE threshold
 * @param {number[]} values the value and those of the scale rows
 */
function checkDiscount(r, comparesAmounts, values) {
  const name = `${"type" in r ? "trade condition" : "promotion"} ${r.id}`;
  const needsCurrency = r.discountType === "ABSOLUTE" || comparesAmounts;
  if (needsCurrency !== (r.currency !== null)) {
    fail(`${name}: a currency iff ABSOLUTE, ORDER_VALUE or a VALUE threshold`);
  }
  for (const v of values) {
    if (r.discountType === "PERCENTAGE" ? v < 1 || v > 10000 : v < 0) fail(`${name}: value ${v}`);
  }
  if (r.validFrom !== null && r.validTo !== null && r.validFrom >= r.validTo) {
    fail(`${name}: validFrom must be before validTo`);
  }
}

/** @param {TradeCondition} t */
function checkTradeCondition(t) {
  const name = `trade condition ${t.id}`;
  checkDiscount(t, t.scaleBasis === "ORDER_VALUE", [t.value, ...t.scales.map((s) => s.value)]);
  if (t.type === "NET_PRICE" && t.discountType !== "ABSOLUTE")
    fail(`${name}: NET_PRICE is ABSOLUTE`);
  if (t.type === "ACCRUAL" && t.stackable) fail(`${name}: an ACCRUAL is never stackable`);
  if (t.scope === "CHANNEL" && t.channelCodes.length === 0)
    fail(`${name}: CHANNEL scope needs channels`);
  if (t.scope !== "CUSTOMER_GROUP" && t.groupCodes.length > 0)
    fail(`${name}: groups only for CUSTOMER_GROUP`);
  if (t.scope !== "CUSTOMER" && t.customerCodes.length > 0)
    fail(`${name}: customers only for CUSTOMER`);
  const minimums = t.scales.map((s) => s.minimum);
  if (
    new Set(minimums).size !== minimums.length ||
    minimums.some((m) => m < 1) ||
    minimums.length > 100
  ) {
    fail(`${name}: up to 100 scale rows with distinct minimums ≥ 1`);
  }
}

/** @param {Promotion} p */
function checkPromotion(p) {
  checkDiscount(p, p.threshold?.basis === "VALUE", [p.value]);
  if (p.threshold && p.threshold.minimum < 1) fail(`promotion ${p.id}: threshold minimum ≥ 1`);
}
