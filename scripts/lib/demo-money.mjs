/**
 * Money in the demo data (docs/pricing-rules.md §19–§22): wood screws sold in bulk and priced per
 * 1,000 pieces with a volume tier that leaves a cliff (the explorer's "5,000 pieces cost less",
 * the linter's TIER_CLIFF), and a CHF list derived from WEB-DE's EUR list 100 at the day's EUR →
 * CHF rate for SHOP-CH. Added after the catalogue, so it draws nothing from the demo's PRNG and
 * changes no other price: SHOP-CH's primary list 2 prices every catalogue product, so the derived
 * list (at the CHANNEL level, after it) prices only what list 2 does not carry.
 */
import { instant, pricelist, productRecord } from "./demo-model.mjs";

/** @typedef {import("./demo-model.mjs").DemoData} DemoData */

/** The product, its tiers in list 100 (EUR cents per 1,000 pieces), the derived list's id. */
export const MONEY_EXAMPLE = {
  productCode: "P-00298",
  /** 12.50 EUR a thousand from 1,000 pieces, 9.00 from 5,000: 4,000 cost 50.00, 5,000 45.00. */
  tiers: /** @type {[number, number][]} */ ([
    [1000, 1250],
    [5000, 900],
  ]),
  priceUnit: 1000,
  chfPricelistId: 120,
  rates: [
    { from: "EUR", to: "CHF", rate: "0.9365", validFrom: instant("2026-01-01T00:00:00.000Z") },
    { from: "EUR", to: "CHF", rate: "0.941", validFrom: instant("2026-07-01T00:00:00.000Z") },
  ],
};

/** @param {DemoData} data */
export function addMoneyExample(data) {
  const { productCode, tiers, priceUnit, chfPricelistId, rates } = MONEY_EXAMPLE;
  data.products.push(
    productRecord({
      code: productCode,
      name: "Wood screw 4.0x40 Torx zinc-plated, bulk (price per 1,000)",
      productGroupCode: "WOOD-SCREWS",
      // Sold in bags of 500 from 1,000 on.
      minOrderQuantity: 1000,
      orderIncrement: 500,
    }),
  );
  const web = data.pricelists.find((p) => p.id === 100);
  if (!web) throw new Error("the money example needs WEB-DE's primary pricelist 100");
  for (const [minQuantity, amount] of tiers) {
    web.prices.push({ productCode, minQuantity, amount, priceUnit });
  }
  data.pricelists.push(
    pricelist({
      id: chfPricelistId,
      name: "Webshop Switzerland, German range in CHF (list 100 at the day's rate + 5 %, 5 Rappen up)",
      currency: "CHF",
      derivation: {
        basePricelistId: 100,
        adjustmentBp: 500,
        rounding: { mode: "UP", step: 5, ending: 0 },
      },
      prices: [],
      channels: [{ channelCode: "SHOP-CH", primary: false }],
    }),
  );
  data.exchangeRates.push(...rates);
}
