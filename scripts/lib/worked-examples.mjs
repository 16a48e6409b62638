/**
 * The worked examples of docs/pricing-rules.md as plain data, written out once. The engine tests
 * turn them into engine candidates (test/shared/pricing-engine-factories.ts `workedExample()`,
 * `exampleE()`), the API tests write them through the API (test/shared/worked-example.ts
 * `seedWorkedExample()`, `seedExampleE()`), and the demo data holds them with the ids below
 * (scripts/lib/demo-worked-example.mjs). No imports, no functions: a change to an example is a
 * change here, and every suite and the demo follow it.
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
