// The types of worked-examples.mjs for the TypeScript tests (tsconfig.json has no allowJs),
// written by hand from its data; keep them in step with it.

/** A price row: undated, `amount` in minor units for `minQuantity` and more pieces. */
export interface ExampleRow {
  productCode: string;
  minQuantity: number;
  amount: number;
}

export interface ExamplePricelist {
  id: number;
  label: string;
  level: "INDIVIDUAL" | "CUSTOMER_GROUP" | "CHANNEL_PRIMARY" | "CHANNEL";
  /** The owner of an INDIVIDUAL list. */
  customerCode?: string;
  /** The customer group a CUSTOMER_GROUP list is assigned to. */
  groupCode?: string;
  allowsTradeDiscounts: boolean;
  priority: number;
  prices: ExampleRow[];
}

export interface ExampleCondition {
  id: number;
  label: string;
  status?: "DRAFT";
  scope: "GLOBAL" | "CHANNEL" | "CUSTOMER_GROUP" | "CUSTOMER";
  type: "DISCOUNT" | "SURCHARGE" | "ACCRUAL";
  discountType: "PERCENTAGE" | "ABSOLUTE";
  value: number;
  currency?: "EUR";
  validFrom?: string;
  productCodes?: string[];
  channelCodes?: string[];
  customerGroupCodes?: string[];
  customerCodes?: string[];
}

export interface ExamplePromotion {
  id: number;
  label: string;
  discountType: "PERCENTAGE";
  value: number;
  channelCodes: string[];
  productCodes: string[];
  validFrom: string;
  validTo: string;
}

export const WORKED_EXAMPLE_A: {
  channelCode: string;
  customerCode: string;
  groupCodes: string[];
  productCodes: string[];
  at: string;
  window: { validFrom: string; validTo: string };
  lines: { productCode: string; quantity: number }[];
  pricelists: ExamplePricelist[];
  tradeConditions: ExampleCondition[];
  promotions: ExamplePromotion[];
};

export const WORKED_EXAMPLE_E: {
  cost: { id: number; label: string; prices: ExampleRow[] };
  floor: { id: number; label: string; adjustmentBp: number };
  accrual: ExampleCondition & { type: "ACCRUAL" };
};
