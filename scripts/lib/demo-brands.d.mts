// The types of demo-brands.mjs that the tests use (tsconfig.json has no allowJs), written by hand
// from its JSDoc; keep them in step with its exports.

export const BRANDS_EXAMPLE: {
  channelCode: string;
  /** The example's product codes → the demo's. */
  productCodes: Record<string, string>;
  productGroupCode: string;
  pricelistId: number;
  tradeConditionIds: { brand: number; group: number };
};
