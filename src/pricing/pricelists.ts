import { ascending, compareBy, decidedBy, descending, type Ranking } from "./rank";
import {
  effectiveRows,
  isPriceable,
  noteChainEdges,
  type Derivations,
  type PricedTier,
} from "./derivation";
import { lotOf } from "./graduated";
import { pushTo } from "./maps";
import { perPiece } from "./units";
import type { Instant, PricelistCandidate, PricelistExplain, Tier, Validity } from "./types";
import { isInWindow, type EdgeTracker } from "./validity";
import {
  PRICELIST_LEVELS,
  type PricelistLevel,
  type PricelistOutcome,
  type PricelistScope,
  type RankKey,
  type Status,
} from "./vocabulary";

/** A pricelist with its request-level checks made once and its rows indexed by product. */
export interface PreparedPricelist {
  pricelist: PricelistCandidate;
  /** The first failing request-level check, or null. */
  gate: "NOT_ACTIVE" | "OTHER_CURRENCY" | null;
  /** In the request's currency, whatever its status. */
  inCurrency: boolean;
  inWindow: boolean;
  /** Effective rows per product (own, else derived), minQuantity ascending. */
  tiers: ReadonlyMap<string, readonly PricedTier[]>;
  /** Products it would derive from a base in another currency with no rate in force (§19). */
  missingRate: ReadonlySet<string>;
}

/** The candidates of each level, in PRICELIST_LEVELS order, each level sorted priority desc, id asc. */
export type PricelistLevels = readonly (readonly PreparedPricelist[])[];

/**
 * The candidates by level, each with its rows valid at `at`. The edges of the rows of the lists
 * that can price (ACTIVE, in the currency) and of their chains go to `edges`: a scheduled row
 * ends the answer's validity (docs/pricing-rules.md §17), and so does the next rate of a pair
 * their chains convert with (§19).
 */
export function preparePricelists(
  pricelists: readonly PricelistCandidate[],
  derivations: Derivations,
  currency: string,
  at: Instant,
  edges?: EdgeTracker,
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
      inCurrency: pricelist.currency === currency,
      inWindow: isInWindow(pricelist, at),
      ...effectiveRows(pricelist, derivations),
    };
    if (prepared.gate === null) noteChainEdges(pricelist, derivations, edges);
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

/** The row with the largest minQuantity ≤ quantity (rows sorted ascending), if any. */
export function tierFor<T extends Tier>(rows: readonly T[], quantity: number): T | undefined {
  let found: T | undefined;
  for (const row of rows) {
    if (row.minQuantity > quantity) break;
    found = row;
  }
  return found;
}

/**
 * Explain only (docs/pricing-rules.md §9): the tier a list stopped by its status or its window
 * holds for the line, so a reader sees what it would have priced. Never another currency's.
 */
export function heldTier<T extends Tier>(
  list: { inCurrency: boolean; tiers: ReadonlyMap<string, readonly T[]> },
  failure: string,
  productCode: string,
  quantity: number,
): T | undefined {
  const holds =
    failure === "NOT_ACTIVE" || failure === "OUT_OF_WINDOW" || failure === "ROUNDS_TO_ZERO";
  if (!list.inCurrency || !holds) return;
  const rows = list.tiers.get(productCode);
  return rows && tierFor(rows, quantity);
}

/** `heldTier` of a SALES list, as its tier mode prices the line (a GRADUATED list's lot). */
function heldLot(prepared: PreparedPricelist, failure: string, productCode: string, q: number) {
  const held = heldTier(prepared, failure, productCode, q);
  return held && tierAt(prepared, prepared.tiers.get(productCode)!, q);
}

/** A pricelist that has a price for the line at one level. */
export interface LevelCandidate {
  level: PricelistLevel;
  prepared: PreparedPricelist;
  tier: PricedTier;
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
  // Per piece: tiers of two lists may be priced per different units (docs/pricing-rules.md §20).
  ["AMOUNT", (a, b) => perPiece(a.tier, b.tier)],
  ["ID", (a, b) => ascending(a.prepared.pricelist.id, b.prepared.pricelist.id)],
];

export interface BaseLookup {
  /** The base price: the best candidate of the first level that has one. */
  base: LevelCandidate | undefined;
  /** The same lookup on the two channel levels only. */
  list: LevelCandidate | undefined;
}

type Failure = Exclude<PricelistOutcome, "USED" | "LOWER_RANK" | "LOWER_LEVEL">;

/** The tier a pricelist offers the line, or the first check it fails. */
function check(
  prepared: PreparedPricelist,
  productCode: string,
  quantity: number,
): PricedTier | Failure {
  if (prepared.gate) return prepared.gate;
  const rows = prepared.tiers.get(productCode);
  if (!rows)
    return prepared.missingRate.has(productCode) ? "NO_EXCHANGE_RATE" : "NO_PRICE_FOR_PRODUCT";
  if (!prepared.inWindow) return "OUT_OF_WINDOW";
  const tier = tierAt(prepared, rows, quantity);
  if (!tier) return "NO_TIER_FOR_QUANTITY";
  // docs/pricing-rules.md §19: a derived amount rounded to 0 from a positive base is no price.
  return tier.roundsToZero ? "ROUNDS_TO_ZERO" : tier;
}

/**
 * The tier of `rows` that prices `quantity` pieces in this list: a VOLUME list's row it reaches,
 * or a GRADUATED list's lot (docs/pricing-rules.md §29): the amount of all q pieces, per q pieces,
 * with its bands, keyed by the row q reaches.
 */
export function tierAt(
  prepared: PreparedPricelist,
  rows: readonly PricedTier[],
  quantity: number,
): PricedTier | undefined {
  const tier = tierFor(rows, quantity);
  if (!tier || prepared.pricelist.tierMode !== "GRADUATED") return tier;
  const lot = lotOf(rows, quantity)!;
  const priced: PricedTier = {
    minQuantity: tier.minQuantity,
    amount: lot.amount,
    priceUnit: quantity,
    derivedFrom: tier.derivedFrom,
    bands: lot.bands,
  };
  if (lot.roundsToZero) priced.roundsToZero = true;
  return priced;
}

/** The two levels that make up the public list price (`listUnitAmount`). */
const CHANNEL_LEVELS: readonly PricelistLevel[] = ["CHANNEL_PRIMARY", "CHANNEL"];
const IS_CHANNEL_LEVEL = PRICELIST_LEVELS.map((level) => CHANNEL_LEVELS.includes(level));

/** A list that may price a product at some quantity: what `listsByProduct` keeps for a line. */
interface ProductList {
  /** Its index in PRICELIST_LEVELS. */
  level: number;
  prepared: PreparedPricelist;
  /** Its effective rows for the product, minQuantity ascending. */
  rows: readonly PricedTier[];
}

/**
 * The lists of every level that pass the checks that depend on neither the quantity nor the time
 * (status, currency, a row for the product), in level order, each level in its ranking order:
 * all that `lookupIn` looks at, kept on a line to price it again at another quantity (the
 * price-break advice, the ladder).
 */
export type ProductLists = readonly ProductList[];

/**
 * Each product's lists (`ProductLists`), from one pass over the products of the lists that can
 * price: a line then looks its product up once instead of in every list of every level.
 */
export function listsByProduct(levels: PricelistLevels): ReadonlyMap<string, ProductLists> {
  const byProduct = new Map<string, ProductList[]>();
  levels.forEach((level, i) => {
    for (const prepared of level) {
      if (prepared.gate) continue;
      for (const [code, rows] of prepared.tiers)
        pushTo(byProduct, code, { level: i, prepared, rows });
    }
  });
  return byProduct;
}

/**
 * Step 1 for one line of `quantity` pieces, among the lists `listsByProduct` has for its product (the
 * others fail `check` whatever the quantity and are not looked at). Every level is examined: the
 * list price needs the channel levels anyway. A list is "looked at" for `validUntil` once it
 * passes the checks that do not depend on time, as `check` has them: out of window, no tier for
 * the quantity, or a price (a tier that rounds to zero is not looked at).
 */
export function lookupIn(lists: ProductLists, quantity: number, edges: EdgeTracker): BaseLookup {
  let base: LevelCandidate | undefined;
  let list: LevelCandidate | undefined;
  let best: LevelCandidate | undefined;
  // Plain loops: this runs for every line (and again for its price-break advice and ladder).
  for (let k = 0; k < lists.length; k++) {
    const { level, prepared, rows } = lists[k]!;
    const tier = prepared.inWindow ? tierAt(prepared, rows, quantity) : undefined;
    // A tier that rounds to zero is no price (§19): not looked at, yet its level still ends here.
    if (!tier?.roundsToZero) {
      edges.note(prepared.pricelist);
      if (tier) {
        const candidate: LevelCandidate = { level: PRICELIST_LEVELS[level]!, prepared, tier };
        if (!best || compareBy(levelRanking, candidate, best) < 0) best = candidate;
      }
    }
    // The level's last list: its best is known.
    if (best && lists[k + 1]?.level !== level) {
      base ??= best;
      if (IS_CHANNEL_LEVEL[level]) list ??= best;
      best = undefined;
    }
  }
  return { base, list };
}

/** Every (level, pricelist) of the request for one line, with why it won or lost. */
export function explainPricelists(
  levels: PricelistLevels,
  productCode: string,
  quantity: number,
  { base, list }: BaseLookup,
): PricelistExplain[] {
  const entries: PricelistExplain[] = [];
  PRICELIST_LEVELS.forEach((level, i) => {
    for (const prepared of levels[i] ?? []) {
      const result = check(prepared, productCode, quantity);
      const tier = typeof result === "string" ? undefined : result;
      const shown = tier ?? heldLot(prepared, result as Failure, productCode, quantity);
      const is = (c: LevelCandidate | undefined) => c?.level === level && c.prepared === prepared;
      let outcome: PricelistOutcome;
      let rankedBy: RankKey | null = null;
      if (!tier) outcome = result as Failure;
      else if (is(base)) outcome = "USED";
      else if (base?.level === level) {
        // The first level with a price is the base's level: here a candidate lost on rank.
        outcome = "LOWER_RANK";
        rankedBy = decidedBy(levelRanking, { level, prepared, tier }, base);
      } else outcome = "LOWER_LEVEL";
      entries.push({
        level,
        pricelistId: prepared.pricelist.id,
        name: prepared.pricelist.name,
        outcome,
        decidedBy: rankedBy,
        tierMinQuantity: shown?.minQuantity ?? null,
        amount: shown && isPriceable(shown) ? shown.amount : null,
        priceUnit: shown?.priceUnit ?? null,
        usedForListPrice: is(list),
        derivedFrom: shown && isPriceable(shown) ? shown.derivedFrom : null,
      });
    }
  });
  return entries;
}

/** What `GET /customer/{code}` needs to pick a customer's primary pricelist. */
export interface OwnPricelist extends Validity {
  id: number;
  scope: PricelistScope;
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
