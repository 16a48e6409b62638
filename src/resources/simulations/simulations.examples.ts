/**
 * Activating the worked example's DRAFT trade condition TC-5 (docs/pricing-rules.md §10) for
 * customer C-1001, as the demo data (`npm run dev`) answers it (ids are the demo's).
 */
export const simulationExampleRequest = {
  channelCode: "WEB-DE",
  at: "2025-06-15T10:00:00Z",
  customers: { codes: ["C-1001"] },
  products: { codes: ["P-A", "P-B", "P-C"] },
  changes: { activate: { tradeConditionIds: [5] } },
};

export const simulationExampleAnswer = {
  channelCode: "WEB-DE",
  currency: "EUR",
  at: "2025-06-15T10:00:00.000Z",
  quantity: 1,
  rows: [],
  summary: {
    evaluated: 3,
    changed: 0,
    raised: 0,
    lowered: 0,
    largestRises: [],
    largestCuts: [],
    mostAffectedCustomers: [],
  },
};
