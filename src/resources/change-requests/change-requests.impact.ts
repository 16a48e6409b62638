import type { Db } from "../../db/client";
import type { TierAt } from "../../pricing/change-plan";
import { bucketsOf, changeOf, MarginTotals, percentBucket } from "../../pricing/simulation";
import type { LinePrice } from "../../pricing/types";
import { iso } from "../../lib/core/schemas";
import { simulatePrices } from "../simulations/simulations.service";
import { readReach, type Touch } from "./change-requests.repo";
import type { Impact } from "./change-requests.schemas";

/*
 * The impact of a change request (docs/api.md §17.3): the publish simulation of its items at
 * effectiveAt (or now), quantity 1, in every active channel where a touched record can price (at
 * most 10, by code), for the anonymous buyer and the first 100 customers of each, over the
 * touched products (at most 1,000, by code), summed over every pair the simulation prices.
 */

export const MAX_IMPACT_CHANNELS = 10;
export const MAX_IMPACT_PRODUCTS = 1000;
export const IMPACT_CUSTOMERS = 100;

export interface ImpactInput {
  at: number;
  touch: Touch;
  /** The tiers the price items set at `at`. */
  tiers: readonly TierAt[];
  activate: Ids;
  deactivate: Ids;
}

/** Records of the three kinds with a lifecycle, by id. */
export interface Ids {
  pricelistIds: number[];
  tradeConditionIds: number[];
  promotionIds: number[];
}

/** Sums every (buyer, product) pair a simulation shows it. */
class Tally {
  compared = 0;
  changed = 0;
  maxRaiseBp = 0;
  maxCutBp = 0;
  totalBefore = 0;
  totalAfter = 0;
  readonly buckets = new Map<number, number>();
  /**
   * The margin before and after (docs/api.md §17.3): the sum of each channel's simulation
   * summary's margin, each line's cost rounded in its channel's mode. The mode given here rounds
   * nothing: only summaries are added.
   */
  readonly margin = { before: new MarginTotals("HALF_UP"), after: new MarginTotals("HALF_UP") };

  readonly observe = (_customer: string | null, before: LinePrice, after: LinePrice) => {
    this.compared += 1;
    const [b, a] = [before.finalUnitAmount, after.finalUnitAmount];
    if (b !== a) this.changed += 1;
    if (b === null || a === null) return;
    this.totalBefore += b;
    this.totalAfter += a;
    // docs/api.md §17.3: round_half_up((after − before) × 10000 / before), on the magnitude, per
    // piece when the two lines are priced per different units (docs/simulation.md §4).
    const bp = changeOf(before, after).differenceBp;
    if (bp === null || bp === 0) return;
    if (bp > 0) this.maxRaiseBp = Math.max(this.maxRaiseBp, bp);
    if (bp < 0) this.maxCutBp = Math.max(this.maxCutBp, -bp);
    const percent = percentBucket(bp);
    this.buckets.set(percent, (this.buckets.get(percent) ?? 0) + 1);
  };
}

const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The products to price: the touched ones (price items' and records'), the first 1,000. */
function productsOf(tiers: readonly TierAt[], reach: Awaited<ReturnType<typeof readReach>>) {
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

export async function computeImpact(db: Db, input: ImpactInput): Promise<Impact> {
  const lists = [...input.activate.pricelistIds, ...input.deactivate.pricelistIds];
  const reach = await readReach(db, input.touch, lists);
  const products = productsOf(input.tiers, reach);
  const codes = [...new Set(reach.channels.map((c) => c.code))];
  const chosen = new Set(codes.slice(0, MAX_IMPACT_CHANNELS));
  const priced = new Set(products.codes);
  const prices = input.tiers.filter((t) => priced.has(t.productCode));
  const tally = new Tally();
  for (const channel of reach.channels.filter((c) => chosen.has(c.code))) {
    if (!products.codes.length) break;
    const { summary } = await simulatePrices(
      db,
      {
        channelCode: channel.code,
        currency: channel.currency,
        at: input.at,
        quantity: 1,
        customers: { sample: IMPACT_CUSTOMERS, anonymous: true },
        products: { codes: products.codes },
        changes: { activate: input.activate, deactivate: input.deactivate, prices },
        maxRows: 0,
      },
      tally.observe,
    );
    tally.margin.before.addSummary(summary.margin.before);
    tally.margin.after.addSummary(summary.margin.after);
  }
  return {
    at: iso(input.at),
    channelCodes: [...chosen],
    pricesCompared: tally.compared,
    pricesChanged: tally.changed,
    maxRaiseBp: tally.maxRaiseBp,
    maxCutBp: tally.maxCutBp,
    totalBefore: tally.totalBefore,
    totalAfter: tally.totalAfter,
    distribution: bucketsOf(tally.buckets),
    channelsOmitted: codes.length - chosen.size,
    productsOmitted: products.omitted,
    margin: { before: tally.margin.before.result(), after: tally.margin.after.result() },
  };
}
