import { expect } from "vitest";
import {
  resolvePrices,
  type FloorPricelist,
  type LinePrice,
  type PriceRequest,
  type PricelistCandidate,
  type PricelistLevel,
  type ProductFacts,
  type PromotionCandidate,
  type TradeConditionCandidate,
} from "../../src/pricing";
import {
  WORKED_EXAMPLE_A,
  WORKED_EXAMPLE_E,
  type ExampleCondition,
  type ExampleRow,
} from "../../scripts/lib/worked-examples.mjs";

/**
 * Factories of the price engine's unit tests (test/pricing/pricing-engine*.test.ts): every record ACTIVE,
 * EUR, valid all of 2025 unless the test says otherwise.
 */

export const t = (iso: string) => Date.parse(iso);
/** An undated price row's window: from always, open-ended. */
export const ALWAYS = { validFrom: null, validTo: null } as const;
export const Y2025 = t("2025-01-01T00:00:00Z");
export const Y2026 = t("2026-01-01T00:00:00Z");
export const AT = t("2025-06-15T10:00:00Z");

export type Rows = Record<string, [minQuantity: number, amount: number][]>;

export function pricelist(
  id: number,
  levels: PricelistLevel[],
  rows: Rows,
  extra: Partial<PricelistCandidate> = {},
): PricelistCandidate {
  return {
    id,
    name: `PL-${id}`,
    status: "ACTIVE",
    validFrom: Y2025,
    validTo: Y2026,
    currency: "EUR",
    priority: 0,
    allowsTradeDiscounts: true,
    taxInclusive: false,
    levels,
    prices: Object.entries(rows).flatMap(([productCode, tiers]) =>
      tiers.map(([minQuantity, amount]) => ({ productCode, minQuantity, amount, ...ALWAYS })),
    ),
    derivation: null,
    ...extra,
  };
}

export function condition(
  id: number,
  extra: Partial<TradeConditionCandidate> = {},
): TradeConditionCandidate {
  return {
    id,
    name: `TC-${id}`,
    scope: "GLOBAL",
    status: "ACTIVE",
    type: "DISCOUNT",
    discountType: "PERCENTAGE",
    value: 1000,
    currency: null,
    validFrom: Y2025,
    validTo: Y2026,
    priority: 0,
    stackable: false,
    productCodes: [],
    productGroupCodes: [],
    channelCodes: [],
    scaleBasis: "LINE_QUANTITY",
    scales: [],
    customerCodes: [],
    customerGroupCodes: [],
    ...extra,
  };
}

export function promotion(id: number, extra: Partial<PromotionCandidate> = {}): PromotionCandidate {
  return {
    id,
    name: `PR-${id}`,
    status: "ACTIVE",
    discountType: "PERCENTAGE",
    value: 1000,
    currency: null,
    validFrom: Y2025,
    validTo: Y2026,
    priority: 0,
    stacking: "BEST_OF",
    productCodes: [],
    productGroupCodes: [],
    channelCodes: [],
    customerGroupCodes: [],
    threshold: null,
    ...extra,
  };
}

/** A product's facts: its group path (own group first) and quantity rule. */
export const facts = (
  groupPath: readonly string[] = [],
  minOrderQuantity = 1,
  orderIncrement = 1,
  maxOrderQuantity: number | null = null,
): ProductFacts => ({ groupPath, minOrderQuantity, orderIncrement, maxOrderQuantity });

/** Known products, in no group and with no quantity rule unless `groups` says otherwise. */
export function productsOf(
  codes: readonly string[],
  groups: Record<string, readonly string[]> = {},
): Map<string, ProductFacts> {
  return new Map(
    codes.map((code) => [
      code,
      {
        groupPath: groups[code] ?? [],
        minOrderQuantity: 1,
        orderIncrement: 1,
        maxOrderQuantity: null,
      },
    ]),
  );
}

export function request(extra: Partial<PriceRequest> = {}): PriceRequest {
  return {
    at: AT,
    currency: "EUR",
    channel: { code: "WEB-DE" },
    customer: { code: "C-1" },
    groupCodes: ["G-1"],
    // P is in SCREWS, a child of FAST; Q in FAST; R in no group.
    products: productsOf(["P", "Q", "R"], { P: ["SCREWS", "FAST"], Q: ["FAST"] }),
    explain: false,
    pricelists: [],
    priceBases: [],
    floors: [],
    tradeConditions: [],
    promotions: [],
    lines: [{ productCode: "P", quantity: 1 }],
    ...extra,
  };
}

/** The single line of a one-line request. */
export function line(extra: Partial<PriceRequest>): LinePrice {
  const answer = resolvePrices(request(extra));
  expect(answer.lines).toHaveLength(1);
  return answer.lines[0]!;
}

/** A channel-primary pricelist with P at `amount`: the usual base for condition tests. */
export const primary = (amount = 1000, extra: Partial<PricelistCandidate> = {}) =>
  pricelist(1, ["CHANNEL_PRIMARY"], { P: [[1, amount]] }, extra);

/** A FLOOR pricelist of the channel. */
export function floor(id: number, rows: Rows, extra: Partial<FloorPricelist> = {}): FloorPricelist {
  return {
    id,
    name: `FL-${id}`,
    status: "ACTIVE",
    validFrom: Y2025,
    validTo: Y2026,
    currency: "EUR",
    priority: 0,
    prices: Object.entries(rows).flatMap(([productCode, tiers]) =>
      tiers.map(([minQuantity, amount]) => ({ productCode, minQuantity, amount, ...ALWAYS })),
    ),
    ...extra,
  };
}

/** A COST pricelist of the channel (docs/pricing-rules.md §23): what each product costs. */
export const cost = (id: number, rows: Rows, extra: Partial<FloorPricelist> = {}) =>
  floor(id, rows, { name: `CO-${id}`, ...extra });

/** The engine's rows of an example's price rows. */
const rowsOf = (prices: readonly ExampleRow[]): Rows => {
  const rows: Rows = {};
  for (const { productCode, minQuantity, amount } of prices) {
    (rows[productCode] ??= []).push([minQuantity, amount]);
  }
  return rows;
};

/** An example's trade condition as an engine candidate (its label is the demo's, not a field). */
export function exampleCondition(
  { id, label: _label, validFrom, ...fields }: ExampleCondition,
  extra: Partial<TradeConditionCandidate> = {},
): TradeConditionCandidate {
  return condition(id, {
    ...fields,
    ...(validFrom === undefined ? {} : { validFrom: t(validFrom) }),
    ...extra,
  });
}

/**
 * The worked example of docs/pricing-rules.md §10 as an engine request: channel WEB-DE, customer
 * C-1001 in WHOLESALE and NORTH, at 2025-06-15T10:00:00Z, P-A × 3, P-B × 60, P-C × 10. The data is
 * scripts/lib/worked-examples.mjs, which the API tests and the demo data read too.
 */
export function workedExample(extra: Partial<PriceRequest> = {}): PriceRequest {
  const example = WORKED_EXAMPLE_A;
  return {
    at: t(example.at),
    currency: "EUR",
    channel: { code: example.channelCode },
    customer: { code: example.customerCode },
    groupCodes: [...example.groupCodes],
    products: productsOf(example.productCodes),
    explain: false,
    priceBases: [],
    floors: [],
    pricelists: example.pricelists.map(({ id, level, prices, priority, allowsTradeDiscounts }) =>
      pricelist(id, [level], rowsOf(prices), { priority, allowsTradeDiscounts }),
    ),
    tradeConditions: example.tradeConditions.map((c) => exampleCondition(c)),
    promotions: example.promotions.map(({ id, label: _label, validFrom, validTo, ...fields }) =>
      promotion(id, { ...fields, validFrom: t(validFrom), validTo: t(validTo) }),
    ),
    lines: example.lines.map((l) => ({ ...l })),
    ...extra,
  };
}

/**
 * Worked example E of docs/pricing-rules.md §26 as the engine sees it, with the ids a test gives
 * its records: the COST list's rows, the FLOOR derived from it and the ACCRUAL, from
 * scripts/lib/worked-examples.mjs.
 */
export function exampleERecords(ids: { cost: number; floor: number; accrual: number }) {
  const { cost: costList, floor: floorList, accrual } = WORKED_EXAMPLE_E;
  const costs = cost(ids.cost, rowsOf(costList.prices), { validFrom: null, validTo: null });
  return {
    cost: costs,
    floor: floor(
      ids.floor,
      {},
      {
        validFrom: null,
        validTo: null,
        derivation: {
          basePricelistId: ids.cost,
          adjustmentBp: floorList.adjustmentBp,
          rounding: null,
        },
      },
    ),
    accrual: exampleCondition({ ...accrual, id: ids.accrual }, { name: `AC-${ids.accrual}` }),
  };
}
