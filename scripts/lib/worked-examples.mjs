/**
 * The worked examples of docs/pricing-rules.md as plain data, written out once with the figures
 * the documentation gives: A (§10), E (§26), F (§27–§28), G (§29), H (§30) and I (§31). The
 * engine tests turn them into engine candidates (test/shared/pricing-engine-factories.ts
 * `workedExample()`, `exampleE()`, …), the API tests write them through the API
 * (test/shared/worked-example.ts `seedWorkedExample()`, `seedExampleE()`, …;
 * scripts/lib/demo-quotes.mjs `seedExampleF()`), and the demo data holds them
 * (scripts/lib/demo-worked-example.mjs, demo-quotes.mjs, demo-graduated.mjs, demo-brands.mjs).
 * No imports, no functions: a change to an example is a change here, and every suite and the
 * demo follow it.
 *
 * Amounts are minor units (EUR cents), instants ISO 8601 UTC, a rate in basis points. Every record
 * is ACTIVE and valid in `window` unless it says otherwise; price rows are undated. `label` is the
 * demo's description of a record, after its code (`PL-100 Webshop Germany list …`).
 */

/**
 * Worked example A, docs/pricing-rules.md §10: customer C-1001 (groups WHOLESALE and NORTH) in
 * channel WEB-DE on 2025-06-15, P-A × 3, P-B × 60, P-C × 10. Pricelists in the order the tests
 * create them (the individual list first), each with the level it reaches the customer on and
 * where it is assigned: `customerCode` (INDIVIDUAL), `groupCode` (CUSTOMER_GROUP), the channel
 * (CHANNEL_PRIMARY, CHANNEL).
 */
export const WORKED_EXAMPLE_A = {
  channelCode: "WEB-DE",
  customerCode: "C-1001",
  groupCodes: ["WHOLESALE", "NORTH"],
  productCodes: ["P-A", "P-B", "P-C"],
  at: "2025-06-15T10:00:00.000Z",
  window: { validFrom: "2025-01-01T00:00:00.000Z", validTo: "2026-01-01T00:00:00.000Z" },
  lines: [
    { productCode: "P-A", quantity: 3 },
    { productCode: "P-B", quantity: 60 },
    { productCode: "P-C", quantity: 10 },
  ],
  pricelists: [
    {
      id: 900,
      label: "C-1001 individual list",
      level: "INDIVIDUAL",
      customerCode: "C-1001",
      allowsTradeDiscounts: false,
      priority: 0,
      prices: [{ productCode: "P-A", minQuantity: 1, amount: 850 }],
    },
    {
      id: 200,
      label: "WHOLESALE list",
      level: "CUSTOMER_GROUP",
      groupCode: "WHOLESALE",
      allowsTradeDiscounts: true,
      priority: 10,
      prices: [
        { productCode: "P-B", minQuantity: 1, amount: 420 },
        { productCode: "P-B", minQuantity: 50, amount: 385 },
      ],
    },
    {
      id: 210,
      label: "NORTH list",
      level: "CUSTOMER_GROUP",
      groupCode: "NORTH",
      allowsTradeDiscounts: true,
      priority: 5,
      prices: [{ productCode: "P-B", minQuantity: 1, amount: 360 }],
    },
    {
      id: 100,
      label: "Webshop Germany list (primary of WEB-DE)",
      level: "CHANNEL_PRIMARY",
      allowsTradeDiscounts: true,
      priority: 0,
      prices: [
        { productCode: "P-A", minQuantity: 1, amount: 1000 },
        { productCode: "P-B", minQuantity: 1, amount: 500 },
        { productCode: "P-B", minQuantity: 10, amount: 450 },
        { productCode: "P-C", minQuantity: 1, amount: 200 },
      ],
    },
    {
      id: 101,
      label: "Webshop Germany further list",
      level: "CHANNEL",
      allowsTradeDiscounts: true,
      priority: 0,
      prices: [{ productCode: "P-C", minQuantity: 1, amount: 180 }],
    },
  ],
  /** Targets left out are "all"; `customerGroupCodes` and `customerCodes` are assigned links. */
  tradeConditions: [
    {
      id: 1,
      label: "Global discount 2 %",
      scope: "GLOBAL",
      type: "DISCOUNT",
      discountType: "PERCENTAGE",
      value: 200,
    },
    {
      id: 2,
      label: "WHOLESALE discount 5 %",
      scope: "CUSTOMER_GROUP",
      type: "DISCOUNT",
      discountType: "PERCENTAGE",
      value: 500,
      customerGroupCodes: ["WHOLESALE"],
    },
    {
      id: 3,
      label: "C-1001 discount 8 % on P-C",
      scope: "CUSTOMER",
      type: "DISCOUNT",
      discountType: "PERCENTAGE",
      value: 800,
      productCodes: ["P-C"],
      customerCodes: ["C-1001"],
    },
    {
      id: 4,
      label: "WEB-DE surcharge 0.25 EUR on P-B",
      scope: "CHANNEL",
      type: "SURCHARGE",
      discountType: "ABSOLUTE",
      value: 25,
      currency: "EUR",
      productCodes: ["P-B"],
      channelCodes: ["WEB-DE"],
    },
    {
      id: 5,
      label: "C-1001 discount 10 % (draft)",
      status: "DRAFT",
      scope: "CUSTOMER",
      type: "DISCOUNT",
      discountType: "PERCENTAGE",
      value: 1000,
      customerCodes: ["C-1001"],
    },
    {
      id: 6,
      label: "NORTH discount 6 % from July 2025",
      scope: "CUSTOMER_GROUP",
      type: "DISCOUNT",
      discountType: "PERCENTAGE",
      value: 600,
      validFrom: "2025-07-01T00:00:00.000Z",
      customerGroupCodes: ["NORTH"],
    },
  ],
  promotions: [
    {
      id: 7,
      label: "WEB-DE 15 % on P-C in June 2025",
      discountType: "PERCENTAGE",
      value: 1500,
      channelCodes: ["WEB-DE"],
      productCodes: ["P-C"],
      validFrom: "2025-06-01T00:00:00.000Z",
      validTo: "2025-07-01T00:00:00.000Z",
    },
  ],
};

/**
 * Worked example E, docs/pricing-rules.md §26, on top of A: a COST list assigned to WEB-DE holding
 * P-B 1+: 300; a FLOOR list derived from it at cost + 10 % (330, below every price of A, so it
 * changes nothing); an ACCRUAL of 2 % for C-1001 on P-B (P-B × 60 at 391: 8 accrued, pocket 383).
 * Neither list has a window of its own; the accrual has A's. The ids are the demo's; a suite that
 * builds its own records names them as it likes.
 */
export const WORKED_EXAMPLE_E = {
  cost: {
    id: 940,
    label: "Webshop Germany cost (worked example E)",
    prices: [{ productCode: "P-B", minQuantity: 1, amount: 300 }],
  },
  floor: { id: 941, label: "Webshop Germany floor: cost + 10 %", adjustmentBp: 1000 },
  accrual: {
    id: 29,
    label: "C-1001 year-end bonus 2 % on P-B (accrual)",
    scope: "CUSTOMER",
    type: "ACCRUAL",
    discountType: "PERCENTAGE",
    value: 200,
    productCodes: ["P-B"],
    customerCodes: ["C-1001"],
  },
};

/**
 * Worked example F, docs/pricing-rules.md §27 and §28 (a negotiated price, and the quote honoured):
 * channel WEB (EUR), customer K-1 assigned to it, product P-B; PL-1 the channel's primary list,
 * a COST and a FLOOR list assigned to it, each P-B 1+; the quote policy; each price a revision
 * quotes for P-B × 60, with the cut, margin and line amount (or the tier) the engine gives it;
 * and what the accepted revision 2 (360) prices. The quotes are made through the API (the
 * service prices them), by scripts/lib/demo-quotes.mjs `seedExampleF()`; the demo holds the
 * example in channel WEB-Q with product P-QB (the demo has a P-B of its own).
 */
export const WORKED_EXAMPLE_F = {
  codes: { channel: "WEB", customer: "K-1", product: "P-B" },
  /** PL-1 (primary), the COST list and the FLOOR list of the channel: P-B 1+. */
  prices: { sales: 391, cost: 300, floor: 320 },
  quantity: 60,
  policy: {
    autoApprove: { maxCutBp: 200, minMarginBp: 2500 },
    tiers: [
      { name: "REP", maxCutBp: 500, minMarginBp: 2000, approvers: ["rep-1", "rep-2"] },
      { name: "MANAGER", maxCutBp: 1500, minMarginBp: 1000, approvers: ["manager"] },
      { name: "DIRECTOR", maxCutBp: 3000, minMarginBp: null, approvers: ["director"] },
    ],
  },
  /** Each quoted price, and the cut, margin and line amount (or the answer) the engine gives. */
  quoted: {
    first: { unitAmount: 350, cutBp: 1049, marginBp: 1428, lineAmount: 21000, tier: "MANAGER" },
    envelope: { unitAmount: 360, cutBp: 793, marginBp: 1666, lineAmount: 21600 },
    manager: { unitAmount: 340, cutBp: 1305, marginBp: 1176, tier: "MANAGER" },
    director: { unitAmount: 330, cutBp: 1561, marginBp: 909, tier: "DIRECTOR" },
    belowFloor: { unitAmount: 310 },
  },
  /**
   * §28: revision 2 (`envelope`, 360) accepted. Named on resolve (ONCE): P-B × 60 → 360, line
   * 21600; P-B × 50 in the same request → 391 (`QUOTE_QUANTITY_MISMATCH`), line 19550. As
   * BETTER_OF after P-B 1+ becomes 345 → 345 (`USUAL_PRICE_WON`); as FIXED still 360. As an
   * AGREEMENT: K-1's P-B × 5 → 360 (line 1800) with no quoteId, anonymous → 391. Price units: a
   * quote of 101 per 3 pieces on a line priced per 100 → 3367 per 100.
   */
  honoured: {
    revision: 2,
    once: { quantity: 60, finalUnitAmount: 360, lineAmount: 21600 },
    mismatch: { quantity: 50, finalUnitAmount: 391, lineAmount: 19550 },
    betterOf: { salesAmount: 345, finalUnitAmount: 345 },
    agreement: { quantity: 5, finalUnitAmount: 360, lineAmount: 1800, anonymous: 391 },
    priceUnits: {
      quotedUnitAmount: 101,
      quotedPriceUnit: 3,
      linePriceUnit: 100,
      finalUnitAmount: 3367,
    },
  },
};

/**
 * Worked example G, docs/pricing-rules.md §29.1 (graduated tiers): channel GRAD, its primary PL-G
 * (EUR, GRADUATED) with P-G 1+: 100, 10+: 90, 50+: 80 (`tiers`, without a product: each suite
 * names its own). `lots`: what a line of that quantity costs as one lot (its `finalUnitAmount`
 * and `lineAmount`, `priceUnit` = the quantity), with the bands of 60 exactly as `source.bands`
 * answers them. The variants: a flat amount of 500 on the 50+ row; the same rows VOLUME; a 5 %
 * GLOBAL discount; a FLOOR list P-G 1+: 85 with a 10 % discount instead. The demo holds the
 * tiers in WEB-DE for product P-00299 (scripts/lib/demo-graduated.mjs).
 */
export const WORKED_EXAMPLE_G = {
  channelCode: "GRAD",
  productCode: "P-G",
  pricelistLabel: "PL-G",
  tiers: [
    { minQuantity: 1, amount: 100, flatAmount: 0 },
    { minQuantity: 10, amount: 90, flatAmount: 0 },
    { minQuantity: 50, amount: 80, flatAmount: 0 },
  ],
  lots: [
    { quantity: 60, amount: 5380, tierMinQuantity: 50 },
    { quantity: 9, amount: 900, tierMinQuantity: 1 },
    { quantity: 10, amount: 990, tierMinQuantity: 10 },
    { quantity: 1, amount: 100, tierMinQuantity: 1 },
  ],
  /** The bands of 60 pieces: 900 + 3600 + 880 = 5380. */
  bands60: [
    {
      fromQuantity: 1,
      toQuantity: 9,
      quantity: 9,
      unitAmount: 100,
      priceUnit: 1,
      flatAmount: 0,
      amount: 900,
    },
    {
      fromQuantity: 10,
      toQuantity: 49,
      quantity: 40,
      unitAmount: 90,
      priceUnit: 1,
      flatAmount: 0,
      amount: 3600,
    },
    {
      fromQuantity: 50,
      toQuantity: null,
      quantity: 11,
      unitAmount: 80,
      priceUnit: 1,
      flatAmount: 0,
      amount: 880,
    },
  ],
  /** `flatAmount` on the 50+ row: 60 pieces 5380 + 500; 49 pieces do not reach the band. */
  flat: { minQuantity: 50, flatAmount: 500, at60: 5880, at49: 4500, band60Amount: 1380 },
  /** The same rows VOLUME: 60 × 80. */
  volume: { quantity: 60, finalUnitAmount: 80, lineAmount: 4800 },
  /** A 5 % GLOBAL discount on the graduated 60: 5380 − 269. */
  discount: { valueBp: 500, amount: -269, finalUnitAmount: 5111 },
  /** A FLOOR list 1+: 85 and a 10 % discount: 5380 − 538 = 4842, lifted to the lot's floor 5100. */
  floor: { amount: 85, discountBp: 1000, discount: -538, lift: 258, finalUnitAmount: 5100 },
};

/**
 * Worked example H, docs/pricing-rules.md §30.1 (the buyer's tier ladder): example G's PL-G as
 * VOLUME with G's 5 % GLOBAL discount (`volume`), as GRADUATED without it (`graduated`), and as
 * VOLUME with the discount for a product of quantity rule minimum 5, increment 5 (`boxed`: its
 * first entry and the quantities of its entries). Each entry as `ladder` answers it, at any
 * quantity of the line.
 */
export const WORKED_EXAMPLE_H = {
  discountBp: 500,
  volume: [
    { minQuantity: 1, quantity: 1, finalUnitAmount: 95, priceUnit: 1, lineAmount: 95 },
    { minQuantity: 10, quantity: 10, finalUnitAmount: 85, priceUnit: 1, lineAmount: 850 },
    { minQuantity: 50, quantity: 50, finalUnitAmount: 76, priceUnit: 1, lineAmount: 3800 },
  ],
  graduated: [
    { minQuantity: 1, quantity: 1, finalUnitAmount: 100, priceUnit: 1, lineAmount: 100 },
    { minQuantity: 10, quantity: 10, finalUnitAmount: 990, priceUnit: 10, lineAmount: 990 },
    { minQuantity: 50, quantity: 50, finalUnitAmount: 4580, priceUnit: 50, lineAmount: 4580 },
  ],
  boxed: {
    minOrderQuantity: 5,
    orderIncrement: 5,
    first: { minQuantity: 1, quantity: 5, finalUnitAmount: 95, priceUnit: 1, lineAmount: 475 },
    quantities: [5, 10, 50],
  },
};

/**
 * Worked example I, docs/pricing-rules.md §31 (brands): brand BOSCH; P-A in group TOOLS and of
 * brand BOSCH, P-C in no group and of brand BOSCH; a primary list on WEB with `amount` for each.
 * Two GLOBAL discounts: TC-B (30 %, `brandCodes` BOSCH) and TC-G (10 %, `productGroupCodes`
 * TOOLS). `variants`: the final amount of each product and how explain shows TC-B and TC-G on
 * P-A (rung, distance, outcome), as written, with TC-B at priority 10, and with TC-B also
 * listing P-A. The demo holds it in channel WEB-BR with products P-BOSCH-A and P-BOSCH-C
 * (scripts/lib/demo-brands.mjs; the demo has a P-A and a P-C of its own).
 */
export const WORKED_EXAMPLE_I = {
  channelCode: "WEB",
  brand: { code: "BOSCH", name: "Bosch" },
  productGroup: { code: "TOOLS", name: "Tools" },
  products: [
    { code: "P-A", productGroupCode: "TOOLS", brandCode: "BOSCH" },
    { code: "P-C", productGroupCode: null, brandCode: "BOSCH" },
  ],
  amount: 1000,
  tradeConditions: {
    brand: {
      label: "TC-B",
      scope: "GLOBAL",
      type: "DISCOUNT",
      discountType: "PERCENTAGE",
      value: 3000,
      brandCodes: ["BOSCH"],
    },
    group: {
      label: "TC-G",
      scope: "GLOBAL",
      type: "DISCOUNT",
      discountType: "PERCENTAGE",
      value: 1000,
      productGroupCodes: ["TOOLS"],
    },
  },
  variants: {
    /** As written: rung 11 for both on P-A, TC-G (distance 0) before TC-B (9). */
    plain: {
      finalUnitAmounts: { "P-A": 900, "P-C": 700 },
      onPA: {
        group: { rung: 11, distance: 0, outcome: "APPLIED" },
        brand: { rung: 11, distance: 9, outcome: "LOWER_RANK", decidedBy: "DISTANCE" },
      },
      onPC: { brand: { rung: 11, distance: 9, outcome: "APPLIED" } },
    },
    /** TC-B with priority 10: the distance decides before the priority. */
    brandPriority: { priority: 10, finalUnitAmounts: { "P-A": 900, "P-C": 700 } },
    /** TC-B also lists P-A: rung 10 (listed) on P-A. */
    brandListsPA: {
      productCodes: ["P-A"],
      finalUnitAmounts: { "P-A": 700, "P-C": 700 },
      onPA: { brand: { rung: 10, distance: null, outcome: "APPLIED" } },
    },
  },
};
