/**
 * Activating the worked example's DRAFT trade condition TC-5 (docs/pricing-rules.md §10) for
 * customer C-1001, as the demo data (`npm run dev`) answers it, byte for byte (ids are the
 * demo's; test/tools/demo-data.test.ts checks it): P-B's group discount 5 % gives way to TC-5's 10
 * %.
 */
export const simulationExampleRequest = {
  channelCode: "WEB-DE",
  at: "2025-06-15T10:00:00Z",
  customers: { codes: ["C-1001"] },
  products: { codes: ["P-A", "P-B", "P-C"] },
  changes: { activate: { tradeConditionIds: [5] } },
};

/** The channel's surcharge on P-B, applied before and after. */
const pbSurcharge = {
  kind: "SURCHARGE",
  id: 4,
  scope: "CHANNEL",
  rung: 7,
  valueBp: null,
  amount: 25,
};

/** P-B for C-1001 as stored: the group discount TC-2 (5 %) and the surcharge. */
const pbBefore = {
  productCode: "P-B",
  quantity: 1,
  status: "OK",
  finalUnitAmount: 424,
  lineAmount: 424,
  regularUnitAmount: 424,
  listUnitAmount: 500,
  currency: "EUR",
  priceUnit: 1,
  taxInclusive: false,
  source: {
    level: "CUSTOMER_GROUP",
    pricelistId: 200,
    tierMinQuantity: 1,
    baseUnitAmount: 420,
    derivedFrom: null,
    tierMode: "VOLUME",
    bands: null,
  },
  adjustments: [
    {
      kind: "DISCOUNT",
      id: 2,
      scope: "CUSTOMER_GROUP",
      rung: 6,
      valueBp: 500,
      amount: -21,
    },
    pbSurcharge,
  ],
  tiers: [
    {
      minQuantity: 1,
      amount: 420,
      priceUnit: 1,
      flatAmount: 0,
    },
    {
      minQuantity: 50,
      amount: 385,
      priceUnit: 1,
      flatAmount: 0,
    },
  ],
  quantityRule: {
    minimum: 1,
    increment: 1,
    maximum: null,
  },
  suggestedQuantities: null,
  priceBreak: null,
  // The simulation is for admin keys: each line with its cost and margin (worked example E's
  // COST list 940 and accrual 29, docs/pricing-rules.md §26).
  costUnitAmount: 300,
  marginAmount: 124,
  marginBp: 2925,
  accruals: [{ id: 29, amount: 8 }],
  pocketUnitAmount: 416,
  pocketMarginBp: 2788,
  explain: null,
};

/** The same line with TC-5 active: its 10 % outranks the group's 5 % (rung 3 before rung 6). */
const pbAfter = {
  ...pbBefore,
  finalUnitAmount: 403,
  lineAmount: 403,
  regularUnitAmount: 403,
  adjustments: [
    { kind: "DISCOUNT", id: 5, scope: "CUSTOMER", rung: 3, valueBp: 1000, amount: -42 },
    pbSurcharge,
  ],
  marginAmount: 103,
  marginBp: 2556,
  pocketUnitAmount: 395,
  pocketMarginBp: 2405,
};

export const simulationExampleAnswer = {
  channelCode: "WEB-DE",
  currency: "EUR",
  at: "2025-06-15T10:00:00.000Z",
  quantity: 1,
  rows: [
    {
      customerCode: "C-1001",
      productCode: "P-B",
      before: pbBefore,
      after: pbAfter,
      difference: -21,
      differenceBp: -495,
      changed: ["RUNG", "ADJUSTMENTS"],
    },
  ],
  rowsOmitted: 0,
  summary: {
    evaluated: 3,
    changed: 1,
    raised: 0,
    lowered: 1,
    largestRises: [],
    largestCuts: [
      {
        customerCode: "C-1001",
        productCode: "P-B",
        difference: -21,
        differenceBp: -495,
      },
    ],
    mostAffectedCustomers: [
      {
        customerCode: "C-1001",
        changed: 1,
        raised: 0,
        lowered: 1,
      },
    ],
    distribution: [
      {
        percent: -5,
        count: 1,
      },
    ],
    // P-A 850, P-B 424 → 403, P-C 170 over the costs 600, 300, 120.
    margin: {
      before: {
        lines: 3,
        linesWithoutCost: 0,
        revenueAmount: 1444,
        costAmount: 1020,
        marginAmount: 424,
        marginBp: 2936,
      },
      after: {
        lines: 3,
        linesWithoutCost: 0,
        revenueAmount: 1423,
        costAmount: 1020,
        marginAmount: 403,
        marginBp: 2832,
      },
    },
  },
};
