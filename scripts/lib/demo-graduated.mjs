/**
 * Graduated tiers in the demo data (docs/pricing-rules.md §29, worked example G): cable ties sold
 * in graduated bands (1–9 at 1.00, 10–49 at 0.90, every tie from the 50th at 0.80) by a GRADUATED
 * list at WEB-DE's CHANNEL level, so 60 ties cost 53.80 where the same tiers VOLUME would make
 * them 48.00. Added after the catalogue, so it draws nothing from the demo's PRNG and changes no
 * other price: the product is new and no other list carries it.
 */
import { pricelist, productRecord } from "./demo-model.mjs";

/** @typedef {import("./demo-model.mjs").DemoData} DemoData */

export const GRADUATED_EXAMPLE = {
  productCode: "P-00299",
  pricelistId: 130,
  /** [minQuantity, amount (EUR cents a tie), flatAmount]. */
  tiers: /** @type {[number, number, number][]} */ ([
    [1, 100, 0],
    [10, 90, 0],
    [50, 80, 0],
  ]),
};

/** @param {DemoData} data */
export function addGraduatedExample(data) {
  const { productCode, pricelistId, tiers } = GRADUATED_EXAMPLE;
  data.products.push(
    productRecord({ code: productCode, name: "Cable ties 200 mm, black (graduated prices)" }),
  );
  data.pricelists.push(
    pricelist({
      id: pricelistId,
      name: "Webshop Germany, graduated bulk prices (each band at its own price)",
      currency: "EUR",
      tierMode: "GRADUATED",
      prices: tiers.map(([minQuantity, amount, flatAmount]) => ({
        productCode,
        minQuantity,
        amount,
        flatAmount,
      })),
      channels: [{ channelCode: "WEB-DE", primary: false }],
    }),
  );
}
