import type { Instant, PriceRequest, Validity } from "./types";

/** Half-open [validFrom, validTo), null = open: a record is valid at its validFrom, not at its validTo. */
export const isInWindow = (v: Validity, at: Instant): boolean =>
  (v.validFrom === null || v.validFrom <= at) && (v.validTo === null || at < v.validTo);

/**
 * Whether two half-open windows share an instant (null = open on that side). The SQL twin is
 * `windowsOverlap` of src/db/pricing/facts.ts.
 */
export const windowsOverlap = (a: Validity, b: Validity): boolean =>
  (a.validFrom === null || b.validTo === null || a.validFrom < b.validTo) &&
  (b.validFrom === null || a.validTo === null || b.validFrom < a.validTo);

/**
 * Collects the earliest validity edge strictly after `at` of the records looked at: the answer
 * cannot change by time alone before that instant, so callers may cache it until then.
 */
export class EdgeTracker {
  earliest: Instant | null = null;

  constructor(private readonly at: Instant) {}

  note(v: Validity): void {
    this.consider(v.validFrom);
    this.consider(v.validTo);
  }

  private consider(edge: Instant | null): void {
    if (edge !== null && edge > this.at && (this.earliest === null || edge < this.earliest)) {
      this.earliest = edge;
    }
  }
}

/**
 * The earliest validity edge after `at` of every record a request holds (its pricelists, floors,
 * COST lists, trade conditions, promotions, price rows, exchange rates and agreements), looked at or not: no later than
 * the answer's `validUntil`, and known before the engine runs, so a cached answer's tag can be
 * checked without pricing it (docs/api/prices.md §9).
 */
export function nextEdge(
  request: Pick<
    PriceRequest,
    | "at"
    | "pricelists"
    | "priceBases"
    | "floors"
    | "tradeConditions"
    | "promotions"
    | "exchangeRates"
    | "costs"
    | "quotes"
  >,
): Instant | null {
  const edges = new EdgeTracker(request.at);
  for (const records of [
    request.pricelists,
    request.floors,
    request.tradeConditions,
    request.promotions,
  ] as const) {
    for (const record of records) edges.note(record);
  }
  // COST lists arrive for admin keys only (docs/pricing-rules.md §23): a read key's edge never
  // depends on them.
  const costs = request.costs ?? [];
  for (const list of costs) edges.note(list);
  for (const lists of [request.pricelists, request.priceBases, request.floors, costs]) {
    for (const list of lists) for (const row of list.prices) edges.note(row);
  }
  for (const rate of request.exchangeRates ?? []) edges.note({ ...rate, validTo: null });
  // An agreement prices from its acceptance until its validTo (docs/pricing-rules.md §28.2).
  for (const quote of request.quotes ?? []) {
    if (quote.mode === "AGREEMENT")
      edges.note({ validFrom: quote.acceptedAt, validTo: quote.validTo });
  }
  return edges.earliest;
}
