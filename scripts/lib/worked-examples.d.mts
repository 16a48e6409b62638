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

export interface ExampleFCodes {
  channel: string;
  customer: string;
  product: string;
}

interface Quoted {
  unitAmount: number;
  cutBp: number;
  marginBp: number;
}

/** A line's amounts: `finalUnitAmount` and `lineAmount` at `quantity`. */
interface Priced {
  quantity: number;
  finalUnitAmount: number;
  lineAmount: number;
}

export const WORKED_EXAMPLE_F: {
  codes: ExampleFCodes;
  prices: { sales: number; cost: number; floor: number };
  quantity: number;
  policy: {
    autoApprove: { maxCutBp: number; minMarginBp: number | null };
    tiers: { name: string; maxCutBp: number; minMarginBp: number | null; approvers: string[] }[];
  };
  quoted: {
    first: Quoted & { lineAmount: number; tier: string };
    envelope: Quoted & { lineAmount: number };
    manager: Quoted & { tier: string };
    director: Quoted & { tier: string };
    belowFloor: { unitAmount: number };
  };
  honoured: {
    revision: number;
    once: Priced;
    mismatch: Priced;
    betterOf: { salesAmount: number; finalUnitAmount: number };
    agreement: Priced & { anonymous: number };
    priceUnits: {
      quotedUnitAmount: number;
      quotedPriceUnit: number;
      linePriceUnit: number;
      finalUnitAmount: number;
    };
  };
};

/** A tier of a list without its product. */
export interface ExampleTier {
  minQuantity: number;
  amount: number;
  flatAmount: number;
}

/** A band of `source.bands`. */
export interface ExampleBand {
  fromQuantity: number;
  toQuantity: number | null;
  quantity: number;
  unitAmount: number;
  priceUnit: number;
  flatAmount: number;
  amount: number;
}

export const WORKED_EXAMPLE_G: {
  channelCode: string;
  productCode: string;
  pricelistLabel: string;
  tiers: ExampleTier[];
  lots: { quantity: number; amount: number; tierMinQuantity: number }[];
  bands60: ExampleBand[];
  flat: {
    minQuantity: number;
    flatAmount: number;
    at60: number;
    at49: number;
    band60Amount: number;
  };
  volume: { quantity: number; finalUnitAmount: number; lineAmount: number };
  discount: { valueBp: number; amount: number; finalUnitAmount: number };
  floor: {
    amount: number;
    discountBp: number;
    discount: number;
    lift: number;
    finalUnitAmount: number;
  };
};

/** An entry of a line's `ladder`. */
export interface ExampleLadderEntry {
  minQuantity: number;
  quantity: number;
  finalUnitAmount: number;
  priceUnit: number;
  lineAmount: number;
}

export const WORKED_EXAMPLE_H: {
  discountBp: number;
  volume: ExampleLadderEntry[];
  graduated: ExampleLadderEntry[];
  boxed: {
    minOrderQuantity: number;
    orderIncrement: number;
    first: ExampleLadderEntry;
    quantities: number[];
  };
};

/** How explain shows a trade condition on a line. */
interface ExplainedAs {
  rung: number;
  distance: number | null;
  outcome: string;
  decidedBy?: string;
}

interface ExampleBrandCondition {
  label: string;
  scope: "GLOBAL";
  type: "DISCOUNT";
  discountType: "PERCENTAGE";
  value: number;
  brandCodes?: string[];
  productGroupCodes?: string[];
}

export const WORKED_EXAMPLE_I: {
  channelCode: string;
  brand: { code: string; name: string };
  productGroup: { code: string; name: string };
  products: { code: string; productGroupCode: string | null; brandCode: string }[];
  amount: number;
  tradeConditions: { brand: ExampleBrandCondition; group: ExampleBrandCondition };
  variants: {
    plain: {
      finalUnitAmounts: Record<string, number>;
      onPA: { group: ExplainedAs; brand: ExplainedAs };
      onPC: { brand: ExplainedAs };
    };
    brandPriority: { priority: number; finalUnitAmounts: Record<string, number> };
    brandListsPA: {
      productCodes: string[];
      finalUnitAmounts: Record<string, number>;
      onPA: { brand: ExplainedAs };
    };
  };
};
