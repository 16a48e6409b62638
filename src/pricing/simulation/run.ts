import { prepareOneLineOrders, priceOneLineOrders, type PreparedOrders } from "../resolve";
import type {
  Instant,
  LinePrice,
  PriceLineRequest,
  PricelistCandidate,
  ProductFacts,
} from "../types";
import type { ChannelRoundingMode, PricelistLevel } from "../vocabulary";
import {
  compareLines,
  differenceOf,
  FirstInOrder,
  MarginTotals,
  rowOrder,
  SummaryTally,
  type PriceChangeItem,
  type PriceChangeRow,
  type PriceChangeSummary,
} from "./compare";
import { applyChangeSet, type ChangeSet, type PricingRecords } from "./overlay";

/** Who a buyer is to the engine: its groups in the channel, and which lists reach it at which level. */
export interface BuyerReach {
  groupCodes: readonly string[];
  reach: readonly { pricelistId: number; level: PricelistLevel }[];
}

/** Everything one simulation prices (docs/simulation.md §1), read once. */
export interface SimulationInput {
  at: Instant;
  currency: string;
  /** How the channel rounds percentages and line amounts (docs/pricing-rules.md §21). */
  roundingMode: ChannelRoundingMode;
  channelCode: string;
  quantity: number;
  /** null: the anonymous buyer. */
  buyers: readonly (string | null)[];
  productCodes: readonly string[];
  products: ReadonlyMap<string, ProductFacts>;
  /** By buyer; a buyer without an entry has no groups and no lists of its own. */
  audiences: ReadonlyMap<string | null, BuyerReach>;
  /** As stored: the pricelist candidates without levels (each audience gives them). */
  records: PricingRecords;
  changes: ChangeSet;
  maxRows: number;
}

/**
 * Products priced in one step (docs/simulation.md §8): one buyer's lines for them before and
 * after, some 100 engine lines, about half a millisecond.
 */
export const PRODUCTS_PER_STEP = 50;

/**
 * Sees every (buyer, product) pair's two lines in the first pass, changed or not: the impact of
 * a change request (docs/api/change-requests.md §17.3) sums over them all.
 */
export type PairObserver = (
  customerCode: string | null,
  before: LinePrice,
  after: LinePrice,
) => void;

/** What a simulation answers besides its head (docs/simulation.md §4). */
export interface SimulationResult<Row = PriceChangeRow> {
  /** The first `maxRows` changed pairs in row order, each as `keep` made it. */
  rows: Row[];
  rowsOmitted: number;
  summary: PriceChangeSummary;
}

/** The records of one side (as stored, or with the change set), its pricelists by id. */
interface Side {
  records: PricingRecords;
  lists: ReadonlyMap<number, PricelistCandidate>;
}

const NO_REACH: BuyerReach = { groupCodes: [], reach: [] };

/** One buyer's engine set-up on one side: the side's records, its lists at their levels. */
function prepareFor(
  input: SimulationInput,
  customerCode: string | null,
  { records, lists }: Side,
): PreparedOrders {
  const audience = input.audiences.get(customerCode) ?? NO_REACH;
  // Each list at every level it reaches this buyer; the engine merges them by id.
  const pricelists: PricelistCandidate[] = audience.reach.flatMap(({ pricelistId, level }) => {
    const list = lists.get(pricelistId);
    return list ? [{ ...list, levels: [level] }] : [];
  });
  return prepareOneLineOrders({
    ...records,
    pricelists,
    // The simulation is for admin keys: every line with its cost and margin (§26).
    margin: true,
    at: input.at,
    currency: input.currency,
    roundingMode: input.roundingMode,
    channel: { code: input.channelCode },
    customer: customerCode === null ? null : { code: customerCode },
    groupCodes: audience.groupCodes,
    products: input.products,
  });
}

/** A buyer's set-up before and after, a step each. */
function* bothSides(input: SimulationInput, customerCode: string | null, sides: readonly Side[]) {
  const before = prepareFor(input, customerCode, sides[0]!);
  yield;
  const after = prepareFor(input, customerCode, sides[1]!);
  yield;
  return { before, after };
}

/** A changed pair and where it is: the indexes of its buyer and its product. */
interface Pair extends PriceChangeItem {
  buyer: number;
  product: number;
}

/**
 * The simulation's comparison (docs/simulation.md §4): every buyer's line of every product as
 * stored and with the change set, each product a one-line order as GET /v1/api/prices prices
 * it; the rows of the pairs that differ (the first `maxRows`) and the summary over all.
 *
 * In two passes, so that what is held stays small whatever the number of changed pairs: the
 * first prices every pair and keeps the summary's counts and which pairs make the first
 * `maxRows` rows (a few numbers each); the second prices those pairs again and builds their rows
 * (the engine is pure: the same lines). A generator that pauses after each set-up and each
 * `productsPerStep` products of a buyer, so its caller can let other work run between steps
 * (the Worker yields to the event loop: docs/simulation.md §8); run without pausing, it answers
 * the same. Each row is held as `keep` makes it (the Worker keeps its JSON, a string, rather than
 * the objects of its two lines); by default as it is. `observe`, when given, sees every pair of
 * the first pass.
 */
export function* comparePrices<Row = PriceChangeRow>(
  input: SimulationInput,
  {
    productsPerStep = PRODUCTS_PER_STEP,
    keep = (row: PriceChangeRow) => row as Row,
    observe,
  }: {
    productsPerStep?: number;
    keep?: (row: PriceChangeRow) => Row;
    observe?: PairObserver;
  } = {},
): Generator<void, SimulationResult<Row>> {
  const sides: Side[] = [input.records, applyChangeSet(input.records, input.changes)].map(
    (records) => ({ records, lists: new Map(records.pricelists.map((p) => [p.id, p])) }),
  );
  const lines: PriceLineRequest[] = input.productCodes.map((productCode) => ({
    productCode,
    quantity: input.quantity,
  }));
  const summary = new SummaryTally();
  const margin = {
    before: new MarginTotals(input.roundingMode),
    after: new MarginTotals(input.roundingMode),
  };
  const first = new FirstInOrder<Pair>(input.maxRows, rowOrder);
  for (const [buyer, customerCode] of input.buyers.entries()) {
    const { before, after } = yield* bothSides(input, customerCode, sides);
    for (let start = 0; start < lines.length; start += productsPerStep) {
      const step = lines.slice(start, start + productsPerStep);
      const later = priceOneLineOrders(after, step);
      priceOneLineOrders(before, step).forEach((line, i) => {
        margin.before.add(line);
        margin.after.add(later[i]!);
        observe?.(customerCode, line, later[i]!);
        const item = differenceOf(customerCode, line, later[i]!);
        if (!item) return;
        summary.add(item);
        first.add({ ...item, buyer, product: start + i });
      });
      yield;
    }
  }
  const pairs = first.sorted();
  const rows = yield* rowsOf(input, sides, lines, pairs, { productsPerStep, keep });
  return {
    rows,
    rowsOmitted: summary.changed - rows.length,
    summary: summary.result(input.buyers.length * input.productCodes.length, {
      before: margin.before.result(),
      after: margin.after.result(),
    }),
  };
}

/** The second pass: the rows of `pairs` (in row order), their lines priced again buyer by buyer. */
function* rowsOf<Row>(
  input: SimulationInput,
  sides: readonly Side[],
  lines: readonly PriceLineRequest[],
  pairs: readonly Pair[],
  { productsPerStep, keep }: { productsPerStep: number; keep: (row: PriceChangeRow) => Row },
) {
  const rows = new Array<Row>(pairs.length);
  const byBuyer = new Map<number, number[]>();
  pairs.forEach((pair, at) => {
    const places = byBuyer.get(pair.buyer);
    if (places) places.push(at);
    else byBuyer.set(pair.buyer, [at]);
  });
  for (const [buyer, places] of byBuyer) {
    const customerCode = input.buyers[buyer]!;
    const { before, after } = yield* bothSides(input, customerCode, sides);
    for (let start = 0; start < places.length; start += productsPerStep) {
      const step = places.slice(start, start + productsPerStep);
      const asked = step.map((at) => lines[pairs[at]!.product]!);
      const later = priceOneLineOrders(after, asked);
      priceOneLineOrders(before, asked).forEach((line, i) => {
        const row = compareLines(customerCode, line, later[i]!);
        // The first pass found these lines different; the same engine cannot find them equal.
        if (!row) throw new Error(`simulation: ${customerCode} ${line.productCode} priced apart`);
        rows[step[i]!] = keep(row);
      });
      yield;
    }
  }
  return rows;
}
