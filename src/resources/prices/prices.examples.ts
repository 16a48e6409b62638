/**
 * The worked example of docs/pricing-rules.md §10 as served by the demo data (`npm run dev`): the
 * request and the answer the service gives for it, byte for byte (ids are the demo's).
 */
export const workedExampleRequest = {
  channelCode: "WEB-DE",
  customerCode: "C-1001",
  at: "2025-06-15T10:00:00Z",
  lines: [
    {
      productCode: "P-A",
      quantity: 3,
    },
    {
      productCode: "P-B",
      quantity: 60,
    },
    {
      productCode: "P-C",
      quantity: 10,
    },
  ],
};

export const workedExampleAnswer = {
  channelCode: "WEB-DE",
  customerCode: "C-1001",
  currency: "EUR",
  at: "2025-06-15T10:00:00.000Z",
  totalAmount: 27710,
  pricedTotalAmount: 27710,
  complete: true,
  validUntil: "2025-07-01T00:00:00.000Z",
  lines: [
    {
      productCode: "P-A",
      quantity: 3,
      status: "OK",
      finalUnitAmount: 850,
      lineAmount: 2550,
      regularUnitAmount: 850,
      listUnitAmount: 1000,
      currency: "EUR",
      priceUnit: 1,
      taxInclusive: false,
      source: {
        level: "INDIVIDUAL",
        pricelistId: 900,
        tierMinQuantity: 1,
        baseUnitAmount: 850,
        derivedFrom: null,
      },
      adjustments: [],
      tiers: [
        {
          minQuantity: 1,
          amount: 850,
          priceUnit: 1,
        },
      ],
      quantityRule: {
        minimum: 1,
        increment: 1,
        maximum: null,
      },
      suggestedQuantities: null,
      priceBreak: null,
      explain: null,
    },
    {
      productCode: "P-B",
      quantity: 60,
      status: "OK",
      finalUnitAmount: 391,
      lineAmount: 23460,
      regularUnitAmount: 391,
      listUnitAmount: 450,
      currency: "EUR",
      priceUnit: 1,
      taxInclusive: false,
      source: {
        level: "CUSTOMER_GROUP",
        pricelistId: 200,
        tierMinQuantity: 50,
        baseUnitAmount: 385,
        derivedFrom: null,
      },
      adjustments: [
        {
          kind: "DISCOUNT",
          id: 2,
          scope: "CUSTOMER_GROUP",
          rung: 6,
          valueBp: 500,
          amount: -19,
        },
        {
          kind: "SURCHARGE",
          id: 4,
          scope: "CHANNEL",
          rung: 7,
          valueBp: null,
          amount: 25,
        },
      ],
      tiers: [
        {
          minQuantity: 1,
          amount: 420,
          priceUnit: 1,
        },
        {
          minQuantity: 50,
          amount: 385,
          priceUnit: 1,
        },
      ],
      quantityRule: {
        minimum: 1,
        increment: 1,
        maximum: null,
      },
      suggestedQuantities: null,
      priceBreak: null,
      explain: null,
    },
    {
      productCode: "P-C",
      quantity: 10,
      status: "OK",
      finalUnitAmount: 170,
      lineAmount: 1700,
      regularUnitAmount: 184,
      listUnitAmount: 200,
      currency: "EUR",
      priceUnit: 1,
      taxInclusive: false,
      source: {
        level: "CHANNEL_PRIMARY",
        pricelistId: 100,
        tierMinQuantity: 1,
        baseUnitAmount: 200,
        derivedFrom: null,
      },
      adjustments: [
        {
          kind: "PROMOTION",
          id: 7,
          scope: null,
          rung: null,
          valueBp: 1500,
          amount: -30,
        },
      ],
      tiers: [
        {
          minQuantity: 1,
          amount: 200,
          priceUnit: 1,
        },
      ],
      quantityRule: {
        minimum: 1,
        increment: 1,
        maximum: null,
      },
      suggestedQuantities: null,
      priceBreak: null,
      explain: null,
    },
  ],
};
