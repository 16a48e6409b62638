/**
 * Graduated tiers in the demo data (docs/pricing-rules.md §29, worked example G): cable ties sold
 * in graduated bands (1–9 at 1.00, 10–49 at 0.90, every tie from the 50th at 0.80) by a GRADUATED
 * list at WEB-DE's CHANNEL level, so 60 ties cost 53.80 where the same tiers VOLUME would make
 * them 48.00. The tiers are example G's (scripts/lib/worked-examples.mjs, which the engine and API
 * tests read too). Added after the catalogue, so it draws nothing from the demo's PRNG and changes
 * no other price: the product is new and no other list carries it.
 */
import { pricelist, productRecord } from "./demo-model.mjs";
import { WORKED_EXAMPLE_G as G } from "./worked-examples.mjs";

/** @typedef {import("./demo-model.mjs").DemoData} DemoData */

/** The demo's codes and id for example G; its tiers and figures are the example's. */
export const GRADUATED_EXAMPLE = {
  productCode: "P-00299",
  channelCode: "WEB-DE",
  pricelistId: 130,
};

/** @param {DemoData} data */
export function addGraduatedExample(data) {
  const { productCode, channelCode, pricelistId } = GRADUATED_EXAMPLE;
  data.products.push(
    productRecord({ code: productCode, name: "Cable ties 200 mm, black (graduated prices)" }),
  );
  data.pricelists.push(
    pricelist({
      id: pricelistId,
      name: "Webshop Germany, graduated bulk prices (each band at its own price)",
      currency: "EUR",
      tierMode: "GRADUATED",
      prices: G.tiers.map((tier) => ({ productCode, ...tier })),
      channels: [{ channelCode, primary: false }],
    }),
  );
}
