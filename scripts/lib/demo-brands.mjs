/**
 * Brands in the demo data (docs/brands.md, docs/pricing-rules.md §31), worked example I from
 * scripts/lib/worked-examples.mjs (the data the engine and API tests read too): brand BOSCH, a
 * product of it in a tools group and one in no group, a primary list with 10.00 for each in a
 * channel of their own, and the two GLOBAL discounts of the example limited to that channel, so
 * they reach nothing else. In the channel, the group's 10 % wins on the grouped product (a group
 * before a brand on rung 11: 9.00) and the brand's 30 % on the other (7.00). The demo has a P-A
 * and a P-C of its own, so the example's products, group and channel get the demo's codes below;
 * the brand keeps its code. Added after the catalogue: it draws nothing from the demo's PRNG and
 * changes no other price.
 */
import { pricelist, productRecord, tradeCondition, Y2027 } from "./demo-model.mjs";
import { WORKED_EXAMPLE_I as I } from "./worked-examples.mjs";

/** @typedef {import("./demo-model.mjs").DemoData} DemoData */

/** The demo's codes and ids for example I. */
export const BRANDS_EXAMPLE = {
  channelCode: "WEB-BR",
  /** The example's product codes → the demo's. */
  productCodes: /** @type {Record<string, string>} */ ({ "P-A": "P-BOSCH-A", "P-C": "P-BOSCH-C" }),
  productGroupCode: "BOSCH-TOOLS",
  pricelistId: 131,
  tradeConditionIds: { brand: 46, group: 47 },
};

const demoProduct = (/** @type {string} */ code) => BRANDS_EXAMPLE.productCodes[code] ?? code;

/**
 * What the example reaches, for checkApart (demo-apart.mjs): nothing else prices there before
 * 2027 (from then on the demo's DRAFT loyalty discount, TC-17, would reach every product).
 */
export const BRANDS_APART = {
  name: "worked example I (docs/pricing-rules.md §31)",
  channelCode: BRANDS_EXAMPLE.channelCode,
  customerCode: "",
  groupCodes: [],
  productCodes: Object.values(BRANDS_EXAMPLE.productCodes),
  ids: {
    pricelists: [BRANDS_EXAMPLE.pricelistId],
    tradeConditions: Object.values(BRANDS_EXAMPLE.tradeConditionIds),
    promotions: [],
  },
  until: Y2027,
};

/** @param {DemoData} data */
export function addBrandsExample(data) {
  const { channelCode, productGroupCode, pricelistId, tradeConditionIds } = BRANDS_EXAMPLE;
  data.brands.push({ ...I.brand });
  data.channels.push({
    code: channelCode,
    name: "Webshop brands (worked example I)",
    isActive: true,
    groupCodes: [],
  });
  data.productGroups.push({
    code: productGroupCode,
    name: `${I.productGroup.name} (worked example I)`,
    parentCode: null,
  });
  const group = (/** @type {string | null} */ code) =>
    code === I.productGroup.code ? productGroupCode : code;
  data.products.push(
    ...I.products.map((p) =>
      productRecord({
        code: demoProduct(p.code),
        name: `${I.brand.name} ${p.productGroupCode ? "drill (in a tools group)" : "glue gun (in no group)"}`,
        productGroupCode: group(p.productGroupCode),
        brandCode: p.brandCode,
      }),
    ),
  );
  data.pricelists.push(
    pricelist({
      id: pricelistId,
      name: `Webshop brands list (worked example I)`,
      currency: "EUR",
      prices: I.products.map((p) => ({
        productCode: demoProduct(p.code),
        minQuantity: 1,
        amount: I.amount,
      })),
      channels: [{ channelCode, primary: true }],
    }),
  );
  const { brand, group: byGroup } = I.tradeConditions;
  data.tradeConditions.push(
    tradeCondition({
      id: tradeConditionIds.brand,
      name: `${brand.label}: ${brand.value / 100} % on brand ${I.brand.code} (worked example I)`,
      scope: brand.scope,
      type: brand.type,
      discountType: brand.discountType,
      value: brand.value,
      brandCodes: brand.brandCodes ?? [],
      channelCodes: [channelCode],
    }),
    tradeCondition({
      id: tradeConditionIds.group,
      name: `${byGroup.label}: ${byGroup.value / 100} % on group ${productGroupCode} (worked example I)`,
      scope: byGroup.scope,
      type: byGroup.type,
      discountType: byGroup.discountType,
      value: byGroup.value,
      productGroupCodes: (byGroup.productGroupCodes ?? []).map((g) => group(g) ?? g),
      channelCodes: [channelCode],
    }),
  );
}
