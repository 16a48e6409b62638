import {
  pricelist,
  productRecord,
  promotion,
  tradeCondition,
  Y2025,
  Y2026,
} from "./demo-model.mjs";

/** @typedef {import("./demo-model.mjs").DemoData} DemoData */

const EXAMPLE_PRODUCTS = ["W-1", "S-1", "T-1", "X-1"];
const EXAMPLE_IDS = {
  pricelists: [10, 20, 30],
  tradeConditions: [41, 42, 43, 44, 45],
  promotions: [51],
};

/**
 * What the example's request reaches, for checkApart (demo-apart.mjs).
 * @type {import("./demo-apart.mjs").Example}
 */
export const B2B_EXAMPLE = {
  name: "the worked example with B2B terms (docs/pricing-rules.md §16)",
  channelCode: "B2B-AT",
  customerCode: "K-7",
  groupCodes: ["DEALER"],
  productCodes: EXAMPLE_PRODUCTS,
  ids: EXAMPLE_IDS,
  until: Y2026,
};

/**
 * The worked example with B2B terms of docs/pricing-rules.md §16, verbatim and with its ids: all
 * ACTIVE, EUR, valid 2025-01-01 to 2026-01-01, in a channel of its own (B2B-AT) with its own
 * customer (K-7), customer group (DEALER), product groups (FAST › SCREWS › WOOD, TOOLS) and
 * products (W-1, S-1, T-1, X-1), so nothing else of the demo reaches its request at
 * 2025-09-01T12:00:00Z; checkApart makes sure.
 * @param {DemoData} data
 */
export function addB2bExample(data) {
  const window = { validFrom: Y2025, validTo: Y2026 };
  data.channels.push({
    code: "B2B-AT",
    name: "B2B Austria",
    isActive: true,
    groupCodes: ["DEALER"],
  });
  data.groups.push({
    code: "DEALER",
    name: "Dealers (B2B worked example)",
    description: "The dealer group of docs/pricing-rules.md §16",
  });
  data.customers.push({
    code: "K-7",
    name: "Kärntner Baubedarf GmbH (B2B worked example)",
    groupCodes: ["DEALER"],
    channelCodes: ["B2B-AT"],
  });
  data.productGroups.push(
    { code: "FAST", name: "Fasteners (B2B worked example)", parentCode: null },
    { code: "SCREWS", name: "Screws (B2B worked example)", parentCode: "FAST" },
    { code: "WOOD", name: "Wood screws (B2B worked example)", parentCode: "SCREWS" },
    { code: "TOOLS", name: "Tools (B2B worked example)", parentCode: null },
  );
  data.products.push(
    productRecord({
      code: "W-1",
      name: "Wood screw 4x40, box of 100 (B2B worked example)",
      productGroupCode: "WOOD",
      minOrderQuantity: 100,
      orderIncrement: 100,
    }),
    productRecord({
      code: "S-1",
      name: "Screw S-1 (B2B worked example)",
      productGroupCode: "SCREWS",
    }),
    productRecord({
      code: "T-1",
      name: "Tool T-1 (B2B worked example)",
      productGroupCode: "TOOLS",
    }),
    productRecord({ code: "X-1", name: "Product X-1, in no group (B2B worked example)" }),
  );
  const row = (
    /** @type {string} */ productCode,
    /** @type {number} */ amount,
    minQuantity = 1,
  ) => ({
    productCode,
    minQuantity,
    amount,
  });
  data.pricelists.push(
    pricelist({
      id: 10,
      name: "PL-10 B2B Austria list (primary of B2B-AT)",
      currency: "EUR",
      ...window,
      prices: [
        row("W-1", 1200),
        row("S-1", 400),
        row("S-1", 360, 500),
        row("T-1", 8000),
        row("X-1", 1500),
      ],
      channels: [{ channelCode: "B2B-AT", primary: true }],
    }),
    pricelist({
      id: 20,
      name: "PL-20 DEALER list: PL-10 − 10 %, prices ending in 9",
      currency: "EUR",
      ...window,
      derivation: {
        basePricelistId: 10,
        adjustmentBp: -1000,
        rounding: { mode: "NEAREST", step: 10, ending: 9 },
      },
      prices: [row("W-1", 1100)],
      groupCodes: ["DEALER"],
    }),
    pricelist({
      id: 30,
      name: "PL-30 B2B Austria floor",
      kind: "FLOOR",
      currency: "EUR",
      ...window,
      prices: [row("S-1", 310), row("T-1", 5000)],
      channels: [{ channelCode: "B2B-AT", primary: false }],
    }),
  );
  const dealer = { scope: /** @type {const} */ ("CUSTOMER_GROUP"), groupCodes: ["DEALER"] };
  data.tradeConditions.push(
    tradeCondition({
      id: 41,
      name: "TC-41 DEALER 10 % on FAST",
      type: "DISCOUNT",
      value: 1000,
      ...window,
      ...dealer,
      productGroupCodes: ["FAST"],
    }),
    tradeCondition({
      id: 42,
      name: "TC-42 DEALER 5 % on SCREWS",
      type: "DISCOUNT",
      value: 500,
      ...window,
      ...dealer,
      productGroupCodes: ["SCREWS"],
    }),
    tradeCondition({
      id: 43,
      name: "TC-43 K-7 25 % on T-1",
      scope: "CUSTOMER",
      type: "DISCOUNT",
      value: 2500,
      ...window,
      productCodes: ["T-1"],
      customerCodes: ["K-7"],
    }),
    tradeCondition({
      id: 44,
      name: "TC-44 2 % on FAST from 1000 pieces in the order (stackable)",
      scope: "GLOBAL",
      type: "DISCOUNT",
      value: 200,
      stackable: true,
      ...window,
      productGroupCodes: ["FAST"],
      scaleBasis: "ORDER_QUANTITY",
      scales: [{ minimum: 1000, value: 200 }],
    }),
    tradeCondition({
      id: 45,
      name: "TC-45 B2B-AT surcharge 0.50 EUR on X-1",
      scope: "CHANNEL",
      type: "SURCHARGE",
      discountType: "ABSOLUTE",
      currency: "EUR",
      value: 50,
      ...window,
      productCodes: ["X-1"],
      channelCodes: ["B2B-AT"],
    }),
  );
  data.promotions.push(
    promotion({
      id: 51,
      name: "PR-51 B2B-AT 15 % on TOOLS from 100 EUR of tools (on top)",
      value: 1500,
      currency: "EUR",
      stacking: "ON_TOP",
      ...window,
      productGroupCodes: ["TOOLS"],
      channelCodes: ["B2B-AT"],
      threshold: { basis: "VALUE", minimum: 10000 },
    }),
  );
}
