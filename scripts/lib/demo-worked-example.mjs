import {
  instant,
  pricelist,
  productRecord,
  promotion,
  tradeCondition,
  Y2025,
  Y2026,
} from "./demo-model.mjs";
import { WORKED_EXAMPLE_A as A, WORKED_EXAMPLE_E as E } from "./worked-examples.mjs";

/** @typedef {import("./demo-model.mjs").DemoData} DemoData */
/** @typedef {import("./demo-model.mjs").PriceRow} PriceRow */

const byId = (/** @type {{ id: number }} */ a, /** @type {{ id: number }} */ b) => a.id - b.id;
const EXAMPLE_IDS = {
  // The cost, floor and accrual ids: worked example E (docs/pricing-rules.md §26), the cost
  // behind §10's prices.
  pricelists: [...A.pricelists.map((p) => p.id).sort((a, b) => a - b), E.cost.id, E.floor.id],
  tradeConditions: [...A.tradeConditions.map((c) => c.id), E.accrual.id],
  promotions: A.promotions.map((p) => p.id),
};

/**
 * What the example's request reaches, for checkApart (demo-apart.mjs).
 * @type {import("./demo-apart.mjs").Example}
 */
export const WORKED_EXAMPLE = {
  name: "the worked example (docs/pricing-rules.md §10)",
  channelCode: A.channelCode,
  customerCode: A.customerCode,
  groupCodes: A.groupCodes,
  productCodes: A.productCodes,
  ids: EXAMPLE_IDS,
  until: Y2026,
};

/**
 * The worked example of docs/pricing-rules.md §10, from scripts/lib/worked-examples.mjs (the data
 * the engine and API tests read too), with its ids: all ACTIVE, valid 2025-01-01 to 2026-01-01
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
  const window = { validFrom: instant(A.window.validFrom), validTo: instant(A.window.validTo) };
  const channel = data.channels.find((c) => c.code === A.channelCode);
  if (!channel || !A.groupCodes.every((g) => channel.groupCodes.includes(g))) {
    throw new Error("the worked example needs channel WEB-DE with the groups WHOLESALE and NORTH");
  }
  const named = catalogueListPrices.find((r) => A.productCodes.includes(r.productCode));
  if (named) throw new Error(`the catalogue rows of PL-100 price ${named.productCode}`);
  data.products.push(
    ...A.productCodes.map((code) =>
      productRecord({ code, name: `Worked example product ${code.slice("P-".length)}` }),
    ),
  );
  data.customers.unshift({
    code: A.customerCode,
    name: "Hanse Haustechnik-Großhandel GmbH (worked example)",
    groupCodes: A.groupCodes,
    channelCodes: [A.channelCode],
  });
  data.pricelists.push(
    ...[...A.pricelists].sort(byId).map((list) =>
      pricelist({
        id: list.id,
        name: `PL-${list.id} ${list.label}`,
        currency: "EUR",
        priority: list.priority,
        allowsTradeDiscounts: list.allowsTradeDiscounts,
        ...window,
        prices: list.prices.map((row) => ({ ...row })),
        ...(list.level === "INDIVIDUAL"
          ? { scope: "INDIVIDUAL", customerCode: list.customerCode ?? null }
          : {}),
        ...(list.level === "CUSTOMER_GROUP" ? { groupCodes: [list.groupCode ?? ""] } : {}),
        ...(list.level === "CHANNEL"
          ? { channels: [{ channelCode: A.channelCode, primary: false }] }
          : {}),
        ...(list.level === "CHANNEL_PRIMARY"
          ? {
              validTo: null,
              prices: [...list.prices.map((row) => ({ ...row })), ...catalogueListPrices],
              channels: [{ channelCode: A.channelCode, primary: true }],
            }
          : {}),
      }),
    ),
  );
  data.tradeConditions.unshift(
    ...A.tradeConditions.map(({ id, label, customerGroupCodes, validFrom, ...fields }) =>
      tradeCondition({
        id,
        name: `TC-${id} ${label}`,
        ...fields,
        ...window,
        ...(validFrom ? { validFrom: instant(validFrom) } : {}),
        ...(customerGroupCodes ? { groupCodes: customerGroupCodes } : {}),
        // The demo's one change: TC-1 (GLOBAL) only in WEB-DE, so it stays out of the B2B example.
        ...(fields.scope === "GLOBAL" ? { channelCodes: [A.channelCode] } : {}),
      }),
    ),
  );
  addCostExample(data);
  data.promotions.push(
    ...A.promotions.map(({ id, label, validFrom, validTo, ...fields }) =>
      promotion({
        id,
        name: `PR-${id} ${label}`,
        ...fields,
        validFrom: instant(validFrom),
        validTo: instant(validTo),
      }),
    ),
  );
}

/** The demo's COST list also costs P-A and P-C, so that every line of §10 has a margin. */
const DEMO_COSTS = [
  { productCode: "P-A", minQuantity: 1, amount: 600 },
  { productCode: "P-C", minQuantity: 1, amount: 120 },
];

/**
 * Worked example E of docs/pricing-rules.md §26 on top of §10, from scripts/lib/worked-examples.mjs:
 * the COST list CO-940 of WEB-DE (P-B 300, and here P-A 600 and P-C 120), the FLOOR list FL-941
 * derived from it at cost + 10 % (P-B: 330, below every price of the example, so nothing changes),
 * and the ACCRUAL AC-29, 2 % on P-B for C-1001 (P-B × 60 at 391: 8 accrued, pocket price 383).
 * Only admin keys see the costs and the accrual; the floor prices for everyone.
 * @param {DemoData} data
 */
function addCostExample(data) {
  const { cost, floor, accrual } = E;
  const channels = [{ channelCode: A.channelCode, primary: false }];
  data.pricelists.push(
    pricelist({
      id: cost.id,
      name: `CO-${cost.id} ${cost.label}`,
      kind: "COST",
      currency: "EUR",
      validFrom: Y2025,
      prices: [...cost.prices, ...DEMO_COSTS]
        .map((row) => ({ ...row }))
        .sort((a, b) => a.productCode.localeCompare(b.productCode)),
      channels,
    }),
    pricelist({
      id: floor.id,
      name: `FL-${floor.id} ${floor.label}`,
      kind: "FLOOR",
      currency: "EUR",
      validFrom: Y2025,
      derivation: { basePricelistId: cost.id, adjustmentBp: floor.adjustmentBp, rounding: null },
      prices: [],
      channels,
    }),
  );
  const { id, label, ...fields } = accrual;
  data.tradeConditions.push(
    tradeCondition({
      id,
      name: `AC-${id} ${label}`,
      ...fields,
      validFrom: Y2025,
      validTo: Y2026,
    }),
  );
}
