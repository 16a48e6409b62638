import { created } from "../shared/helpers";
import { factoriesVia } from "./records";

/**
 * The one place tests create records: through the API, with unique codes from uid(), the API's
 * own defaults and per-call overrides.
 */
export const {
  createProduct,
  createProductGroup,
  createBrand,
  createChannel,
  createCustomerGroup,
  createCustomer,
  createPricelist,
  createIndividualPricelist,
  createTradeCondition,
  createPromotion,
} = factoriesVia(created);

export { factoriesVia, promotionBody, tradeConditionBody } from "./records";
export type { Overrides, Post } from "./records";
export * from "./steps";
