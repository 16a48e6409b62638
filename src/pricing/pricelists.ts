import { ascending, decidedBy, descending, pickBest, type Ranking } from "./rank";
import {
  CHANNEL_LEVELS,
  PRICELIST_LEVELS,
  type Instant,
  type PricelistCandidate,
  type PricelistExplain,
  type PricelistLevel,
  type PricelistOutcome,
  type Status,
  type Tier,
  type Validity,
} from "./types";
import { isInWindow, type EdgeTracker } from "./validity";

/** A pricelist with its request-level checks made once and its rows indexed by product. */
export interface PreparedPricelist {
  pricelist: PricelistCandidate;
  /** The first failing request-level check, or null. */
  gate: "NOT_ACTIVE" | "OTHER_CURRENCY" | null;
  inWindow: boolean;
  /** Rows per product, minQuantity ascending. */
  tiers: ReadonlyMap<string, readonly Tier[]>;
}

/** The candidates of each level, in PRICELIST_LEVELS order, each level sorted priority desc, id asc. */
export type PricelistLevels = readonly (readonly PreparedPricelist[])[];

export function preparePricelists(
  pricelists: readonly PricelistCandidate[],
  currency: string,
  at: Instant,
): PricelistLevels {
  // The same pricelist may come once per level or once with several levels: merge by id.
  const byId = new Map<number, { pricelist: PricelistCandidate; levels: Set<PricelistLevel> }>();
  for (const pricelist of pricelists) {
    const seen = byId.get(pricelist.id);
    if (seen) for (const level of pricelist.levels) seen.levels.add(level);
    else byId.set(pricelist.id, { pricelist, levels: new Set(pricelist.levels) });
  }

  const levels = PRICELIST_LEVELS.map(() => [] as PreparedPricelist[]);
  for (const { pricelist, levels: memberOf } of byId.values()) {
    const prepared: PreparedPricelist = {
      pricelist,
      gate:
        pricelist.status !== "ACTIVE"
          ? "NOT_ACTIVE"
          : pricelist.currency !== currency
            ? "OTHER_CURRENCY"
            : null,
      inWindow: isInWindow(pricelist, at),
      tiers: indexRows(pricelist),
    };
    PRICELIST_LEVELS.forEach((level, i) => {
      if (memberOf.has(level)) levels[i]!.push(prepared);
    });
  }
  for (const level of levels) {
    level.sort(
      (a, b) =>
        descending(a.pricelist.priority, b.pricelist.priority) ||
        ascending(a.pricelist.id, b.pricelist.id),
    );
  }
  return levels;
}

function indexRows(pricelist: PricelistCandidate): Map<string, Tier[]> {
  const tiers = new Map<string, Tier[]>();
  for (const row of pricelist.prices) {
    const rows = tiers.get(row.productCode);
    const tier = { minQuantity: row.minQuantity, amount: row.amount };
    if (rows) rows.push(tier);
    else tiers.set(row.productCode, [tier]);
  }
  // D1's key makes minQuantity unique per product; should two rows share one anyway, the
  // cheaper sorts last and wins, so the answer does not depend on row order.
  for (const rows of tiers.values()) {
    rows.sort((a, b) => ascending(a.minQuantity, b.minQuantity) || descending(a.amount, b.amount));
  }
  return tiers;
}

/** The row with the largest minQuantity ≤ quantity (rows sorted ascending), if any. */
export function tierFor(rows: readonly Tier[], quantity: number): Tier | undefined {
  let found: Tier | undefined;
  for (const row of rows) {
    if (row.minQuantity > quantity) break;
    found = row;
  }
  return found;
}

/** A pricelist that has a price for the line at one level. */
export interface LevelCandidate {
  level: PricelistLevel;
  prepared: PreparedPricelist;
  tier: Tier;
}

/** Step 1's ranking inside one level. */
const levelRanking: Ranking<LevelCandidate> = [
  ["PRIORITY", (a, b) => descending(a.prepared.pricelist.priority, b.prepared.pricelist.priority)],
  // A pricelist that ends (a campaign, a contract) is meant to beat the standing one it overlaps.
  [
    "VALID_TO",
    (a, b) =>
      ascending(
        a.prepared.pricelist.validTo === null ? 1 : 0,
        b.prepared.pricelist.validTo === null ? 1 : 0,
      ),
  ],
  ["AMOUNT", (a, b) => ascending(a.tier.amount, b.tier.amount)],
  ["ID", (a, b) => ascending(a.prepared.pricelist.id, b.prepared.pricelist.id)],
];

export interface BaseLookup {
  /** The base price: the best candidate of the first level that has one. */
  base: LevelCandidate | undefined;
  /** The same lookup on the two channel levels only. */
  list: LevelCandidate | undefined;
  explain: PricelistExplain[] | null;
}

type Check = { outcome: PricelistOutcome; tier: Tier | undefined };

function check(prepared: PreparedPricelist, productCode: string, quantity: number): Check {
  if (prepared.gate) return { outcome: prepared.gate, tier: undefined };
  const rows = prepared.tiers.get(productCode);
  if (!rows) return { outcome: "NO_PRICE_FOR_PRODUCT", tier: undefined };
  if (!prepared.inWindow) return { outcome: "OUT_OF_WINDOW", tier: undefined };
  const tier = tierFor(rows, quantity);
  return tier ? { outcome: "USED", tier } : { outcome: "NO_TIER_FOR_QUANTITY", tier: undefined };
}

/**
 * Step 1 for one line: every level is examined (the list price needs the channel levels anyway,
 * and `explain` all of them); a pricelist is "looked at" for `validUntil` once it passes the
 * checks that do not depend on time.
 */
export function lookupBase(
  levels: PricelistLevels,
  productCode: string,
  quantity: number,
  edges: EdgeTracker,
  explain: boolean,
): BaseLookup {
  let base: LevelCandidate | undefined;
  let list: LevelCandidate | undefined;
  const levelResults: {
    level: PricelistLevel;
    checks: Check[];
    best: LevelCandidate | undefined;
    priced: LevelCandidate[];
  }[] = [];

  PRICELIST_LEVELS.forEach((level, i) => {
    const members = levels[i] ?? [];
    const checks: Check[] = [];
    const priced: LevelCandidate[] = [];
    for (const prepared of members) {
      const result = check(prepared, productCode, quantity);
      checks.push(result);
      if (
        result.outcome === "OUT_OF_WINDOW" ||
        result.outcome === "NO_TIER_FOR_QUANTITY" ||
        result.tier
      ) {
        edges.note(prepared.pricelist);
      }
      if (result.tier) priced.push({ level, prepared, tier: result.tier });
    }
    const best = pickBest(levelRanking, priced);
    base ??= best;
    if (CHANNEL_LEVELS.includes(level)) list ??= best;
    levelResults.push({ level, checks, best, priced });
  });

  if (!explain) return { base, list, explain: null };

  const entries: PricelistExplain[] = [];
  PRICELIST_LEVELS.forEach((level, i) => {
    const members = levels[i] ?? [];
    const { checks, best, priced } = levelResults[i]!;
    members.forEach((prepared, j) => {
      const { outcome, tier } = checks[j]!;
      const candidate = priced.find((c) => c.prepared === prepared);
      let final: PricelistOutcome = outcome;
      let rankedBy = null;
      if (candidate) {
        if (candidate === base) final = "USED";
        else if (best === base) {
          final = "LOWER_RANK";
          rankedBy = decidedBy(levelRanking, candidate, best!);
        } else final = "LOWER_LEVEL";
      }
      entries.push({
        level,
        pricelistId: prepared.pricelist.id,
        name: prepared.pricelist.name,
        outcome: final,
        decidedBy: rankedBy,
        tierMinQuantity: tier?.minQuantity ?? null,
        amount: tier?.amount ?? null,
        usedForListPrice: candidate !== undefined && candidate === list,
      });
    });
  });
  return { base, list, explain: entries };
}

/** What `GET /customer/{code}` needs to pick a customer's primary pricelist. */
export interface OwnPricelist extends Validity {
  id: number;
  scope: "GENERAL" | "INDIVIDUAL";
  status: Status;
  priority: number;
}

/**
 * A customer's own pricelists (its INDIVIDUAL ones and the GENERAL ones assigned to it) that
 * price anything at `at` (ACTIVE, in window), in the order of the pricing rules: INDIVIDUAL
 * first, then priority descending, then id ascending.
 */
export function rankCustomerPricelists<T extends OwnPricelist>(
  own: readonly T[],
  at: Instant,
): T[] {
  return own
    .filter((p) => p.status === "ACTIVE" && isInWindow(p, at))
    .sort(
      (a, b) =>
        ascending(a.scope === "INDIVIDUAL" ? 0 : 1, b.scope === "INDIVIDUAL" ? 0 : 1) ||
        descending(a.priority, b.priority) ||
        ascending(a.id, b.id),
    );
}

/** The first of `rankCustomerPricelists`, or null. */
export function primaryCustomerPricelist<T extends OwnPricelist>(
  own: readonly T[],
  at: Instant,
): T | null {
  return rankCustomerPricelists(own, at)[0] ?? null;
}
