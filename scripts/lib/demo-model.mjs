/**
 * The shapes of the demo data and small factories with the defaults of the API (status ACTIVE
 * here, since demo records are meant to price something).
 */

/** @typedef {import("./demo-catalog.mjs").Product} Product */
/** @typedef {import("./demo-catalog.mjs").Category} Category */
/** @typedef {"DRAFT" | "ACTIVE" | "INACTIVE" | "ARCHIVED"} Status */

/**
 * @typedef {object} ProductGroup
 * @property {string} code
 * @property {string} name
 * @property {string | null} parentCode listed after its parent
 */

/**
 * @typedef {object} ProductRecord
 * @property {string} code
 * @property {string} name
 * @property {string | null} productGroupCode
 * @property {string | null} brandCode docs/brands.md
 * @property {number} minOrderQuantity
 * @property {number} orderIncrement
 * @property {number | null} maxOrderQuantity
 */

/**
 * @typedef {object} Derivation
 * @property {number} basePricelistId
 * @property {number} adjustmentBp
 * @property {{ mode: "NEAREST" | "UP" | "DOWN", step: number, ending: number } | null} rounding
 */

/**
 * @typedef {object} PriceRow
 * @property {string} productCode
 * @property {number} minQuantity
 * @property {number} amount minor units of the pricelist's currency, for `priceUnit` pieces
 * @property {number} [priceUnit] 1–10,000 (docs/pricing-rules.md §20); absent: 1
 * @property {number} [flatAmount] a GRADUATED list's band charge (docs/pricing-rules.md §29); absent: 0
 */

/**
 * @typedef {object} Pricelist
 * @property {number} id
 * @property {string} name
 * @property {"GENERAL" | "INDIVIDUAL"} scope
 * @property {"SALES" | "FLOOR" | "COST"} kind
 * @property {Derivation | null} derivation
 * @property {"VOLUME" | "GRADUATED"} tierMode docs/pricing-rules.md §29
 * @property {Status} status
 * @property {"EUR" | "CHF"} currency
 * @property {number} priority
 * @property {number | null} validFrom
 * @property {number | null} validTo
 * @property {boolean} taxInclusive
 * @property {boolean} allowsTradeDiscounts
 * @property {string | null} customerCode owner of an INDIVIDUAL pricelist
 * @property {PriceRow[]} prices
 * @property {{ channelCode: string, primary: boolean }[]} channels
 * @property {string[]} groupCodes
 * @property {string[]} customerCodes GENERAL pricelists assigned to customers
 */

/**
 * @typedef {object} TradeCondition
 * @property {number} id
 * @property {string} name
 * @property {"GLOBAL" | "CHANNEL" | "CUSTOMER_GROUP" | "CUSTOMER"} scope
 * @property {Status} status
 * @property {"DISCOUNT" | "SURCHARGE" | "NET_PRICE" | "ACCRUAL"} type
 * @property {"PERCENTAGE" | "ABSOLUTE"} discountType
 * @property {number} value
 * @property {"EUR" | "CHF" | null} currency
 * @property {number | null} validFrom
 * @property {number | null} validTo
 * @property {number} priority
 * @property {boolean} stackable
 * @property {string[]} productCodes
 * @property {string[]} productGroupCodes
 * @property {string[]} brandCodes docs/pricing-rules.md §31
 * @property {string[]} channelCodes
 * @property {string[]} groupCodes
 * @property {string[]} customerCodes
 * @property {"LINE_QUANTITY" | "ORDER_QUANTITY" | "ORDER_VALUE"} scaleBasis
 * @property {{ minimum: number, value: number }[]} scales
 */

/**
 * @typedef {object} Promotion
 * @property {number} id
 * @property {string} name
 * @property {Status} status
 * @property {"PERCENTAGE" | "ABSOLUTE"} discountType
 * @property {number} value
 * @property {"EUR" | "CHF" | null} currency
 * @property {number | null} validFrom
 * @property {number | null} validTo
 * @property {number} priority
 * @property {"BEST_OF" | "ON_TOP"} stacking
 * @property {string[]} productCodes
 * @property {string[]} productGroupCodes
 * @property {string[]} brandCodes docs/pricing-rules.md §31
 * @property {string[]} channelCodes
 * @property {string[]} groupCodes
 * @property {{ basis: "QUANTITY" | "VALUE", minimum: number } | null} threshold
 */

/**
 * @typedef {object} Customer
 * @property {string} code
 * @property {string} name
 * @property {string[]} groupCodes
 * @property {string[]} channelCodes
 */

/**
 * @typedef {object} ExchangeRate
 * @property {string} from
 * @property {string} to
 * @property {string} rate a decimal text, as the API takes it (docs/api/prices.md §16.2)
 * @property {number} validFrom
 */

/**
 * @typedef {object} DemoData
 * @property {{ code: string, name: string, isActive: boolean, groupCodes: string[] }[]} channels
 * @property {{ code: string, name: string, description: string }[]} groups
 * @property {ProductGroup[]} productGroups
 * @property {{ code: string, name: string }[]} brands docs/brands.md
 * @property {ProductRecord[]} products
 * @property {Customer[]} customers
 * @property {Pricelist[]} pricelists
 * @property {TradeCondition[]} tradeConditions
 * @property {Promotion[]} promotions
 * @property {ExchangeRate[]} exchangeRates
 */

export const instant = (/** @type {string} */ iso) => Date.parse(iso);
export const Y2025 = instant("2025-01-01T00:00:00.000Z");
export const Y2026 = instant("2026-01-01T00:00:00.000Z");
export const Y2027 = instant("2027-01-01T00:00:00.000Z");
/** createdAt/updatedAt of every seeded row: this instant plus one minute per id. */
export const CREATED = instant("2025-12-01T08:00:00.000Z");

/**
 * @param {Partial<Pricelist> & Pick<Pricelist, "id" | "name" | "currency" | "prices">} fields
 * @returns {Pricelist}
 */
export const pricelist = (fields) => ({
  scope: "GENERAL",
  kind: "SALES",
  derivation: null,
  tierMode: "VOLUME",
  status: "ACTIVE",
  priority: 0,
  validFrom: Y2026,
  validTo: null,
  taxInclusive: false,
  allowsTradeDiscounts: fields.scope !== "INDIVIDUAL",
  customerCode: null,
  channels: [],
  groupCodes: [],
  customerCodes: [],
  ...fields,
});

/**
 * @param {Partial<TradeCondition> & Pick<TradeCondition, "id" | "name" | "scope" | "type" | "value">} fields
 * @returns {TradeCondition}
 */
export const tradeCondition = (fields) => ({
  status: "ACTIVE",
  discountType: "PERCENTAGE",
  currency: null,
  validFrom: Y2026,
  validTo: null,
  priority: 0,
  stackable: false,
  productCodes: [],
  productGroupCodes: [],
  brandCodes: [],
  channelCodes: [],
  groupCodes: [],
  customerCodes: [],
  scaleBasis: "LINE_QUANTITY",
  scales: [],
  ...fields,
});

/**
 * @param {Partial<Promotion> & Pick<Promotion, "id" | "name" | "value" | "validFrom" | "validTo">} fields
 * @returns {Promotion}
 */
export const promotion = (fields) => ({
  status: "ACTIVE",
  discountType: "PERCENTAGE",
  currency: null,
  priority: 0,
  stacking: "BEST_OF",
  productCodes: [],
  productGroupCodes: [],
  brandCodes: [],
  channelCodes: [],
  groupCodes: [],
  threshold: null,
  ...fields,
});

/**
 * A product with the API's defaults: no group, no brand, any quantity.
 * @param {Partial<ProductRecord> & Pick<ProductRecord, "code" | "name">} fields
 * @returns {ProductRecord}
 */
export const productRecord = (fields) => ({
  productGroupCode: null,
  brandCode: null,
  minOrderQuantity: 1,
  orderIncrement: 1,
  maxOrderQuantity: null,
  ...fields,
});
