/**
 * Keeps the worked examples of docs/pricing-rules.md exact inside the demo data: a record that is
 * not part of an example and could reach the example's request (its channel, its customer or the
 * customer's groups, its products or their product groups) must start on or after `until`, the
 * end of the example's data, so it changes neither the documented amounts nor `validUntil`.
 */

/** @typedef {import("./demo-model.mjs").DemoData} DemoData */
/** @typedef {import("./demo-model.mjs").Pricelist} Pricelist */

/**
 * @typedef {object} Example
 * @property {string} name for the error message
 * @property {string} channelCode
 * @property {string} customerCode
 * @property {string[]} groupCodes the customer's groups assigned to the channel
 * @property {string[]} productCodes
 * @property {{ pricelists: number[], tradeConditions: number[], promotions: number[] }} ids
 * @property {number} until
 */

/**
 * @param {DemoData} data
 * @param {Example} example
 */
export function checkApart(data, example) {
  const meets = (/** @type {string[]} */ a, /** @type {readonly string[]} */ b) =>
    a.some((x) => b.includes(x));
  const groups = groupsOf(data, example.productCodes);
  const brands = data.products
    .filter((p) => example.productCodes.includes(p.code) && p.brandCode !== null)
    .map((p) => /** @type {string} */ (p.brandCode));
  const reachesProducts = (
    /** @type {{ productCodes: string[], productGroupCodes: string[], brandCodes: string[] }} */ r,
  ) =>
    (r.productCodes.length === 0 &&
      r.productGroupCodes.length === 0 &&
      r.brandCodes.length === 0) ||
    meets(r.productCodes, example.productCodes) ||
    meets(r.productGroupCodes, groups) ||
    meets(r.brandCodes, brands);
  const inChannel = (/** @type {string[]} */ channelCodes) =>
    channelCodes.length === 0 || channelCodes.includes(example.channelCode);
  /**
   * @param {string} what
   * @param {{ id: number, validFrom: number | null }} record
   */
  const late = (what, record) => {
    if (record.validFrom === null || record.validFrom < example.until) {
      throw new Error(
        `${what} ${record.id} reaches the request of ${example.name} before ` +
          `${new Date(example.until).toISOString()}: keep it apart (another channel, other products, a later window)`,
      );
    }
  };

  const pricelists = new Map(data.pricelists.map((p) => [p.id, p]));
  for (const p of data.pricelists) {
    if (example.ids.pricelists.includes(p.id)) continue;
    const reaches =
      p.channels.some((c) => c.channelCode === example.channelCode) ||
      meets(p.groupCodes, example.groupCodes) ||
      p.customerCodes.includes(example.customerCode) ||
      p.customerCode === example.customerCode;
    if (reaches && meets(pricedProducts(p, pricelists), example.productCodes)) late("pricelist", p);
  }
  for (const t of data.tradeConditions) {
    if (example.ids.tradeConditions.includes(t.id)) continue;
    const audience =
      t.scope === "GLOBAL" ||
      t.scope === "CHANNEL" ||
      (t.scope === "CUSTOMER_GROUP" && meets(t.groupCodes, example.groupCodes)) ||
      (t.scope === "CUSTOMER" && t.customerCodes.includes(example.customerCode));
    if (audience && inChannel(t.channelCodes) && reachesProducts(t)) late("trade condition", t);
  }
  for (const p of data.promotions) {
    if (example.ids.promotions.includes(p.id)) continue;
    const audience = p.groupCodes.length === 0 || meets(p.groupCodes, example.groupCodes);
    if (audience && inChannel(p.channelCodes) && reachesProducts(p)) late("promotion", p);
  }
}

/**
 * The product groups of `productCodes` and all their ancestors.
 * @param {DemoData} data
 * @param {string[]} productCodes
 */
function groupsOf(data, productCodes) {
  const parents = new Map(data.productGroups.map((g) => [g.code, g.parentCode]));
  /** @type {string[]} */
  const groups = [];
  for (const product of data.products) {
    if (!productCodes.includes(product.code)) continue;
    for (let g = product.productGroupCode; g !== null; g = parents.get(g) ?? null) groups.push(g);
  }
  return groups;
}

/**
 * The products a pricelist has rows for, its own or through its chain of bases.
 * @param {Pricelist} pricelist
 * @param {Map<number, Pricelist>} pricelists
 * @returns {string[]}
 */
function pricedProducts(pricelist, pricelists) {
  const codes = new Set(pricelist.prices.map((r) => r.productCode));
  for (let p = pricelist, steps = 0; p.derivation && steps < 3; steps++) {
    const base = pricelists.get(p.derivation.basePricelistId);
    if (!base) break;
    for (const r of base.prices) codes.add(r.productCode);
    p = base;
  }
  return [...codes];
}
