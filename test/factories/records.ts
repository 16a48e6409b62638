import { uid } from "../shared/helpers";

/** Fields a test sets on top of a factory's defaults. */
export type Overrides = Record<string, unknown>;

/** A POST that must answer 201; returns the created record. */
export type Post = (path: string, body: unknown) => Promise<any>;

/**
 * Defaults follow the API's own (a pricelist or a condition starts DRAFT unless asked), so a
 * factory never hides a state: a test that relies on a status, a name or a value passes it.
 */
export const tradeConditionBody = (overrides: Overrides = {}) => ({
  name: "Global 5 %",
  scope: "GLOBAL",
  type: "DISCOUNT",
  discountType: "PERCENTAGE",
  value: 500,
  ...overrides,
});

export const promotionBody = (overrides: Overrides = {}) => ({
  name: "Summer sale",
  discountType: "PERCENTAGE",
  value: 1500,
  ...overrides,
});

/**
 * Every factory over one transport: the tests' `created` (the Worker's entrypoint) or, for the
 * race tests, the Worker's fetch handler (test/fuzz/worker.ts says why).
 */
export function factoriesVia(post: Post) {
  return {
    createProduct: (overrides: Overrides = {}) =>
      post("/v1/api/product", { code: uid("P"), name: "Product", ...overrides }),
    createProductGroup: (overrides: Overrides = {}) =>
      post("/v1/api/product-group", { code: uid("PG"), name: "Product group", ...overrides }),
    createBrand: (overrides: Overrides = {}) =>
      post("/v1/api/brand", { code: uid("B"), name: "Brand", ...overrides }),
    createChannel: (overrides: Overrides = {}) =>
      post("/v1/api/channel", { code: uid("CH"), name: "Channel", ...overrides }),
    createCustomerGroup: (overrides: Overrides = {}) =>
      post("/v1/api/customer-group", { code: uid("G"), name: "Group", ...overrides }),
    createCustomer: (overrides: Overrides = {}) =>
      post("/v1/api/customer", { code: uid("C"), name: "Customer", ...overrides }),
    /** A GENERAL pricelist; the unique name keeps name searches apart. */
    createPricelist: (overrides: Overrides = {}) =>
      post("/v1/api/pricelist", { name: `List ${uid("N")}`, currency: "EUR", ...overrides }),
    createIndividualPricelist: (customerCode: string, overrides: Overrides = {}) =>
      post("/v1/api/pricelist/individual", {
        customerCode,
        name: "Individual",
        currency: "EUR",
        ...overrides,
      }),
    createTradeCondition: (overrides: Overrides = {}) =>
      post("/v1/api/trade-conditions", tradeConditionBody(overrides)),
    createPromotion: (overrides: Overrides = {}) =>
      post("/v1/api/promotion", promotionBody(overrides)),
  };
}
