import {
  instant,
  pricelist,
  productRecord,
  promotion,
  tradeCondition,
  Y2025,
  Y2026,
} from "./demo-model.mjs";

/** @typedef {import("./demo-model.mjs").DemoData} DemoData */
/** @typedef {import("./demo-model.mjs").PriceRow} PriceRow */

const EXAMPLE_PRODUCTS = ["P-A", "P-B", "P-C"];
const EXAMPLE_IDS = {
  // 940, 941 and 29: worked example E (docs/pricing-rules.md §26), the cost behind §10's prices.
  pricelists: [100, 101, 200, 210, 900, 940, 941],
  tradeConditions: [1, 2, 3, 4, 5, 6, 29],
  promotions: [7],
};

/**
 * What the example's request reaches, for checkApart (demo-apart.mjs).
 * @type {import("./demo-apart.mjs").Example}
 */
export const WORKED_EXAMPLE = {
  name: "the worked example (docs/pricing-rules.md §10)",
  channelCode: "WEB-DE",
  customerCode: "C-1001",
  groupCodes: ["WHOLESALE", "NORTH"],
  productCodes: EXAMPLE_PRODUCTS,
  ids: EXAMPLE_IDS,
  until: Y2026,
};

/**
 * The worked example of docs/pricing-rules.md §10, verbatim: all ACTIVE, valid 2025-01-01 to 2026-01-01
 * unless noted, EUR, amounts in cents. It lives in the catalogue's channel WEB-DE (which must
 * already exist with the groups WHOLESALE and NORTH), and its PL-100 is that channel's primary
 * pricelist, so PL-100 also carries `catalogueListPrices` and stays valid after 2025 (validTo
 * open). That changes nothing in the example: the catalogue rows are other products, PL-100 is
 * alone on its level, and its missing 2026-01-01 edge is later than the answer's validUntil.
 * TC-1 is limited to WEB-DE, where every request of the example is: as a GLOBAL condition for all
 * products it would otherwise also reach the B2B example (§16, channel B2B-AT) in 2025.
 * @param {DemoData} data
 * @param {PriceRow[]} catalogueListPrices
 */
export function addWorkedExample(data, catalogueListPrices) {
  const window = { validFrom: Y2025, validTo: Y2026 };
  const channel = data.channels.find((c) => c.code === "WEB-DE");
  if (!channel || !["WHOLESALE", "NORTH"].every((g) => channel.groupCodes.includes(g))) {
    throw new Error("the worked example needs channel WEB-DE with the groups WHOLESALE and NORTH");
  }
  const named = catalogueListPrices.find((r) => EXAMPLE_PRODUCTS.includes(r.productCode));
  if (named) throw new Error(`the catalogue rows of PL-100 price ${named.productCode}`);
  data.products.push(
    productRecord({ code: "P-A", name: "Worked example product A" }),
    productRecord({ code: "P-B", name: "Worked example product B" }),
    productRecord({ code: "P-C", name: "Worked example product C" }),
  );
  data.customers.unshift({
    code: "C-1001",
    name: "Hanse Haustechnik-Großhandel GmbH (worked example)",
    groupCodes: ["WHOLESALE", "NORTH"],
    channelCodes: ["WEB-DE"],
  });
  const row = (
    /** @type {string} */ productCode,
    /** @type {number} */ minQuantity,
    /** @type {number} */ amount,
  ) => ({
    productCode,
    minQuantity,
    amount,
  });
  data.pricelists.push(
    pricelist({
      id: 100,
      name: "PL-100 Webshop Germany list (primary of WEB-DE)",
      currency: "EUR",
      validFrom: Y2025,
      validTo: null,
      prices: [
        row("P-A", 1, 1000),
        row("P-B", 1, 500),
        row("P-B", 10, 450),
        row("P-C", 1, 200),
        ...catalogueListPrices,
      ],
      channels: [{ channelCode: "WEB-DE", primary: true }],
    }),
    pricelist({
      id: 101,
      name: "PL-101 Webshop Germany further list",
      currency: "EUR",
      ...window,
      prices: [row("P-C", 1, 180)],
      channels: [{ channelCode: "WEB-DE", primary: false }],
    }),
    pricelist({
      id: 200,
      name: "PL-200 WHOLESALE list",
      currency: "EUR",
      priority: 10,
      ...window,
      prices: [row("P-B", 1, 420), row("P-B", 50, 385)],
      groupCodes: ["WHOLESALE"],
    }),
    pricelist({
      id: 210,
      name: "PL-210 NORTH list",
      currency: "EUR",
      priority: 5,
      ...window,
      prices: [row("P-B", 1, 360)],
      groupCodes: ["NORTH"],
    }),
    pricelist({
      id: 900,
      name: "PL-900 C-1001 individual list",
      scope: "INDIVIDUAL",
      customerCode: "C-1001",
      allowsTradeDiscounts: false,
      currency: "EUR",
      ...window,
      prices: [row("P-A", 1, 850)],
    }),
  );
  data.tradeConditions.unshift(
    tradeCondition({
      id: 1,
      name: "TC-1 Global discount 2 %",
      scope: "GLOBAL",
      type: "DISCOUNT",
      value: 200,
      ...window,
      channelCodes: ["WEB-DE"],
    }),
    tradeCondition({
      id: 2,
      name: "TC-2 WHOLESALE discount 5 %",
      scope: "CUSTOMER_GROUP",
      type: "DISCOUNT",
      value: 500,
      ...window,
      groupCodes: ["WHOLESALE"],
    }),
    tradeCondition({
      id: 3,
      name: "TC-3 C-1001 discount 8 % on P-C",
      scope: "CUSTOMER",
      type: "DISCOUNT",
      value: 800,
      ...window,
      productCodes: ["P-C"],
      customerCodes: ["C-1001"],
    }),
    tradeCondition({
      id: 4,
      name: "TC-4 WEB-DE surcharge 0.25 EUR on P-B",
      scope: "CHANNEL",
      type: "SURCHARGE",
      discountType: "ABSOLUTE",
      currency: "EUR",
      value: 25,
      ...window,
      productCodes: ["P-B"],
      channelCodes: ["WEB-DE"],
    }),
    tradeCondition({
      id: 5,
      name: "TC-5 C-1001 discount 10 % (draft)",
      scope: "CUSTOMER",
      status: "DRAFT",
      type: "DISCOUNT",
      value: 1000,
      ...window,
      customerCodes: ["C-1001"],
    }),
    tradeCondition({
      id: 6,
      name: "TC-6 NORTH discount 6 % from July 2025",
      scope: "CUSTOMER_GROUP",
      type: "DISCOUNT",
      value: 600,
      validFrom: instant("2025-07-01T00:00:00.000Z"),
      validTo: Y2026,
      groupCodes: ["NORTH"],
    }),
  );
  addCostExample(data);
  data.promotions.push(
    promotion({
      id: 7,
      name: "PR-7 WEB-DE 15 % on P-C in June 2025",
      value: 1500,
      validFrom: instant("2025-06-01T00:00:00.000Z"),
      validTo: instant("2025-07-01T00:00:00.000Z"),
      productCodes: ["P-C"],
      channelCodes: ["WEB-DE"],
    }),
  );
}

/**
 * Worked example E of docs/pricing-rules.md §26 on top of §10: the COST list CO-940 of WEB-DE
 * (P-A 600, P-B 300, P-C 120), the FLOOR list FL-941 derived from it at cost + 10 % (P-B: 330,
 * below every price of the example, so nothing changes), and the ACCRUAL AC-29, 2 % on P-B for
 * C-1001 (P-B × 60 at 391: 8 accrued, pocket price 383). Only admin keys see the costs and the
 * accrual; the floor prices for everyone.
 * @param {DemoData} data
 */
function addCostExample(data) {
  const cost = (/** @type {string} */ productCode, /** @type {number} */ amount) => ({
    productCode,
    minQuantity: 1,
    amount,
  });
  data.pricelists.push(
    pricelist({
      id: 940,
      name: "CO-940 Webshop Germany cost (worked example E)",
      kind: "COST",
      currency: "EUR",
      validFrom: Y2025,
      prices: [cost("P-A", 600), cost("P-B", 300), cost("P-C", 120)],
      channels: [{ channelCode: "WEB-DE", primary: false }],
    }),
    pricelist({
      id: 941,
      name: "FL-941 Webshop Germany floor: cost + 10 %",
      kind: "FLOOR",
      currency: "EUR",
      validFrom: Y2025,
      derivation: { basePricelistId: 940, adjustmentBp: 1000, rounding: null },
      prices: [],
      channels: [{ channelCode: "WEB-DE", primary: false }],
    }),
  );
  data.tradeConditions.push(
    tradeCondition({
      id: 29,
      name: "AC-29 C-1001 year-end bonus 2 % on P-B (accrual)",
      scope: "CUSTOMER",
      type: "ACCRUAL",
      value: 200,
      validFrom: Y2025,
      validTo: Y2026,
      productCodes: ["P-B"],
      customerCodes: ["C-1001"],
    }),
  );
}
