// The types of demo-graduated.mjs that the tests use (tsconfig.json has no allowJs), written by
// hand from its JSDoc; keep them in step with its exports.

export const GRADUATED_EXAMPLE: { productCode: string; channelCode: string; pricelistId: number };

/** Adds example G's tiers to the demo data. */
export function addGraduatedExample(data: import("./demo-model.mjs").DemoData): void;
