import type {
  CostPricelist,
  FloorPricelist,
  PriceBase,
  PriceRequest,
  PriceRow,
  PricelistCandidate,
  PromotionCandidate,
  TradeConditionCandidate,
} from "../types";
import type { Status } from "../vocabulary";

/** Records of the three kinds with a lifecycle, by id. */
export interface RecordIds {
  pricelistIds: readonly number[];
  tradeConditionIds: readonly number[];
  promotionIds: readonly number[];
}

/**
 * A tier set or overridden: the row of (pricelistId, productCode, minQuantity) gets `amount`,
 * the price of `priceUnit` pieces (absent: 1, docs/pricing-rules.md §20).
 */
export interface TierChange {
  pricelistId: number;
  productCode: string;
  minQuantity: number;
  amount: number;
  priceUnit?: number;
  /** A GRADUATED band's flat amount (docs/pricing-rules.md §29); absent: 0. */
  flatAmount?: number;
}

/** What a publish simulation assumes (docs/simulation.md §5). */
export interface ChangeSet {
  /** Treated as ACTIVE. */
  activate: RecordIds;
  /** Treated as INACTIVE (no longer ACTIVE). */
  deactivate: RecordIds;
  prices: readonly TierChange[];
}

/** The records an engine request takes, whoever the customer is (rates and COST lists included). */
export type PricingRecords = Pick<
  PriceRequest,
  | "pricelists"
  | "priceBases"
  | "floors"
  | "costs"
  | "tradeConditions"
  | "promotions"
  | "exchangeRates"
>;

type Lifecycle = { id: number; status: Status };

/** The record with its status as the change set has it; the same object when unchanged. */
function restated<T extends Lifecycle>(
  record: T,
  activate: ReadonlySet<number>,
  deactivate: ReadonlySet<number>,
): T {
  if (activate.has(record.id)) return { ...record, status: "ACTIVE" };
  if (deactivate.has(record.id)) return { ...record, status: "INACTIVE" };
  return record;
}

/**
 * A list's rows with the change set's tiers set: every row of the same (product, minQuantity),
 * dated or not, replaced, else added.
 */
function withTiers(rows: readonly PriceRow[], changes: readonly TierChange[]): PriceRow[] {
  const key = (row: { productCode: string; minQuantity: number }) =>
    `${row.minQuantity}\u0000${row.productCode}`;
  const changed = new Map(changes.map((c) => [key(c), c]));
  const kept = rows.filter((row) => !changed.has(key(row)));
  // The simulation prices one moment: a tier set by the change set is the row in force then.
  const set = [...changed.values()].map((c) => ({
    productCode: c.productCode,
    minQuantity: c.minQuantity,
    amount: c.amount,
    priceUnit: c.priceUnit ?? 1,
    flatAmount: c.flatAmount ?? 0,
    validFrom: null,
    validTo: null,
  }));
  return [...kept, ...set];
}

/**
 * The records as they would be after the change set: statuses restated, tiers set on every
 * entry of a changed pricelist (candidate, base or floor). Pure: the input is not touched and an
 * unchanged record stays the same object, so "before" and "after" differ by the change set only.
 * Records the change set names that are not among `records` (another channel's, a list that
 * reaches no one here) change nothing.
 */
export function applyChangeSet(records: PricingRecords, changes: ChangeSet): PricingRecords {
  const sets = (ids: keyof RecordIds) =>
    [new Set(changes.activate[ids]), new Set(changes.deactivate[ids])] as const;
  const [lists, conditions, promotions] = [
    sets("pricelistIds"),
    sets("tradeConditionIds"),
    sets("promotionIds"),
  ];
  const tiersOf = new Map<number, TierChange[]>();
  for (const change of changes.prices) {
    tiersOf.set(change.pricelistId, [...(tiersOf.get(change.pricelistId) ?? []), change]);
  }
  const repriced = <T extends { id: number; prices: readonly PriceRow[] }>(list: T): T => {
    const tiers = tiersOf.get(list.id);
    return tiers ? { ...list, prices: withTiers(list.prices, tiers) } : list;
  };
  return {
    pricelists: records.pricelists.map((p): PricelistCandidate => repriced(restated(p, ...lists))),
    priceBases: records.priceBases.map((b): PriceBase => repriced(b)),
    floors: records.floors.map((f): FloorPricelist => repriced(restated(f, ...lists))),
    costs: records.costs?.map((c): CostPricelist => repriced(restated(c, ...lists))),
    tradeConditions: records.tradeConditions.map((t): TradeConditionCandidate =>
      restated(t, ...conditions),
    ),
    promotions: records.promotions.map((p): PromotionCandidate => restated(p, ...promotions)),
    exchangeRates: records.exchangeRates,
  };
}
