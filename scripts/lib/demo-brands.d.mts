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

/** What the example reaches, for checkApart (demo-apart.mjs). */
export const BRANDS_APART: import("./demo-apart.mjs").Example;

/** Adds example I to the demo data. */
export function addBrandsExample(data: import("./demo-model.mjs").DemoData): void;
