import type { Db } from "../../db/client";
import type { TierAt } from "../../pricing/change-plan";
import { bucketsOf } from "../../pricing/simulation";
import { iso } from "../../core/schemas";
import { simulatePrices } from "../simulations/simulations.service";
import { readReach, type Reach, type Touch } from "./change-requests.repo";
import type { Related } from "./change-requests.related";
import type { Impact } from "./change-requests.schemas";
import { ChangeTally, LineDigest, marginTotals, type Priced } from "./change-requests.tally";

/*
 * The impact of a change request (docs/api/change-requests.md §17.3): the publish simulation of its
 * items at effectiveAt (or now), at quantity 1 and at every tier it touches, in every active
 * channel where a touched record can price (at most 10, by code), for the anonymous buyer and the
 * channel's customers (all of them, or as many as the pair budget allows), over the touched
 * products (at most 1,000, by code), summed over every pair the simulation prices. Beside the
 * request's own change, its cumulative change: from the prices in force before the applied requests
 * it stacks with (§17.4), to the prices with its items.
 */

export const MAX_IMPACT_CHANNELS = 10;
export const MAX_IMPACT_PRODUCTS = 1000;
/** The customers of a channel the impact prices at least, whatever the number of products. */
export const IMPACT_CUSTOMERS = 100;
/** The (buyer, product) pairs of one simulation: more customers when there are fewer products. */
export const MAX_IMPACT_PAIRS = 101_000;
/** The quantities priced at most (1 and the touched tiers, ascending). */
export const MAX_IMPACT_QUANTITIES = 10;

export interface ImpactInput {
  at: number;
  touch: Touch;
  /** The tiers the price items set at `at`. */
  tiers: readonly TierAt[];
  activate: Ids;
  deactivate: Ids;
  /** The requests it stacks with; null: its own change alone (approve's digest). */
  related: Related | null;
}

/** Records of the three kinds with a lifecycle, by id. */
export interface Ids {
  pricelistIds: number[];
  tradeConditionIds: number[];
  promotionIds: number[];
}

const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The products to price: the touched ones (price items' and records'), the first 1,000. */
function productsOf(tiers: readonly TierAt[], reach: Reach) {
  if (reach.everyProduct) {
    return { codes: reach.catalogue, omitted: reach.catalogueSize - reach.catalogue.length };
  }
  const all = [...new Set([...tiers.map((t) => t.productCode), ...reach.productCodes])].sort(
    byCode,
  );
  return {
    codes: all.slice(0, MAX_IMPACT_PRODUCTS),
    omitted: Math.max(0, all.length - MAX_IMPACT_PRODUCTS),
  };
}

/**
 * The quantities to price, each with its products: 1 and the tiers of the activated or
 * deactivated lists for every product; each tier a price item sets for its own products.
 */
function quantitiesOf(tiers: readonly TierAt[], reach: Reach, priced: readonly string[]) {
  const products = new Map<number, Set<string> | null>([[1, null]]);
  for (const q of reach.quantities) products.set(q, null);
  const pricedSet = new Set(priced);
  for (const { minQuantity, productCode } of tiers) {
    if (!pricedSet.has(productCode)) continue;
    const codes = products.get(minQuantity);
    if (codes === null) continue;
    products.set(minQuantity, (codes ?? new Set()).add(productCode));
  }
  const all = [...products.keys()].sort((a, b) => a - b);
  return {
    runs: all.slice(0, MAX_IMPACT_QUANTITIES).map((quantity) => {
      const codes = products.get(quantity);
      return { quantity, codes: codes ? priced.filter((c) => codes.has(c)) : priced };
    }),
    omitted: Math.max(0, all.length - MAX_IMPACT_QUANTITIES),
  };
}

interface Run {
  channel: Reach["channels"][number];
  quantity: number;
  codes: readonly string[];
  sample: number;
}

const pairKey = (buyer: string | null, productCode: string) => `${buyer ?? ""}\u0000${productCode}`;

/** Every pair of `run` at `at` as stored, by buyer and product (the cumulative change's base). */
async function baselineOf(db: Db, run: Run, at: number) {
  const lines = new Map<string, Priced>();
  await simulatePrices(
    db,
    request(run, at, { activate: none(), deactivate: none(), prices: [] }),
    (buyer, line) => {
      const { finalUnitAmount, priceUnit, status } = line;
      lines.set(pairKey(buyer, line.productCode), { finalUnitAmount, priceUnit, status });
    },
  );
  return lines;
}

const none = (): Ids => ({ pricelistIds: [], tradeConditionIds: [], promotionIds: [] });

const request = (
  run: Run,
  at: number,
  changes: { activate: Ids; deactivate: Ids; prices: readonly TierAt[] },
) => ({
  channelCode: run.channel.code,
  currency: run.channel.currency,
  at,
  quantity: run.quantity,
  customers: { sample: run.sample, anonymous: true },
  products: { codes: [...run.codes] },
  changes: { ...changes, prices: [...changes.prices] },
  maxRows: 0,
});

/** The figures of a tally that the own and the cumulative change both show. */
const changeFields = (tally: ChangeTally) => ({
  pricesChanged: tally.changed,
  pricesAppeared: tally.appeared,
  pricesVanished: tally.vanished,
  maxRaiseBp: tally.maxRaiseBp,
  maxCutBp: tally.maxCutBp,
  totalBefore: tally.totalBefore,
  totalAfter: tally.totalAfter,
});

export type ComputedImpact = Awaited<ReturnType<typeof computeImpact>>["impact"];

/** The impact, and the digest of every line it priced (stored for stale detection, §17.5). */
export async function computeImpact(db: Db, input: ImpactInput) {
  const lists = [...input.activate.pricelistIds, ...input.deactivate.pricelistIds];
  const reach = await readReach(db, input.touch, lists);
  const products = productsOf(input.tiers, reach);
  const quantities = quantitiesOf(input.tiers, reach, products.codes);
  const codes = [...new Set(reach.channels.map((c) => c.code))];
  const chosen = new Set(codes.slice(0, MAX_IMPACT_CHANNELS));
  const priced = new Set(products.codes);
  const prices = input.tiers.filter((t) => priced.has(t.productCode));
  const changes = { activate: input.activate, deactivate: input.deactivate, prices };
  const sample = Math.max(
    IMPACT_CUSTOMERS,
    Math.floor(MAX_IMPACT_PAIRS / Math.max(1, products.codes.length)) - 1,
  );
  const since = input.related?.since ?? null;
  const [own, cumulative, digest, margin] = [
    new ChangeTally(),
    new ChangeTally(),
    new LineDigest(),
    marginTotals(),
  ];
  const customersOmitted = new Map<string, number>();
  for (const channel of reach.channels.filter((c) => chosen.has(c.code))) {
    customersOmitted.set(channel.code, Math.max(0, channel.customers - sample));
    for (const { quantity, codes } of quantities.runs) {
      if (!codes.length) continue;
      const run: Run = { channel, quantity, codes, sample };
      const base = since === null ? null : await baselineOf(db, run, since - 1);
      const place = `${channel.code}|${channel.currency}|${quantity}`;
      const { summary } = await simulatePrices(db, request(run, input.at, changes), (b, x, y) => {
        own.add(x, y);
        cumulative.add(base?.get(pairKey(b, x.productCode)) ?? x, y);
        digest.add(`${place}|${b ?? ""}|${x.productCode}`, x, y);
      });
      margin.before.addSummary(summary.margin.before);
      margin.after.addSummary(summary.margin.after);
    }
  }
  const impact = {
    at: iso(input.at),
    channelCodes: [...chosen],
    quantities: quantities.runs.map((r) => r.quantity),
    pricesCompared: own.compared,
    ...changeFields(own),
    distribution: bucketsOf(own.buckets),
    channelsOmitted: codes.length - chosen.size,
    productsOmitted: products.omitted,
    customersOmitted: [...customersOmitted.values()].reduce((a, b) => a + b, 0),
    quantitiesOmitted: quantities.omitted,
    margin: { before: margin.before.result(), after: margin.after.result() },
    cumulative: {
      since: since === null ? null : iso(since),
      requestIds: input.related?.appliedIds ?? [],
      pendingRequestIds: input.related?.pendingIds ?? [],
      ...changeFields(cumulative),
    },
  } satisfies Impact;
  return { impact, digest: digest.text() };
}
