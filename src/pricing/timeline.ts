import type { Instant } from "./types";
import { windowsOverlap } from "./validity";

/*
 * Price row timelines (docs/pricing-rules.md §17): the rows of one pricelist, product and
 * minQuantity never overlap. Writing a row R that starts at f (null: from always):
 * 1. a row starting at f is replaced;
 * 2. else the row C that contains f (started earlier, ends after f or never) is cut: its validTo
 *    becomes f, and R, when it has no validTo of its own, takes C's former one;
 * 3. an R still without validTo ends where the next row of the timeline begins, if one does;
 * 4. any overlap left is refused, naming both intervals; nothing of the request is written.
 * Pure: the caller reads the stored timelines, writes what `writeTimeline` answers.
 */

/** A stored row of one timeline: its window, and its amount per `priceUnit` pieces (§20). */
export interface TimelineRow {
  validFrom: Instant | null;
  validTo: Instant | null;
  amount: number;
  priceUnit: number;
  /** A GRADUATED list's flat amount of the row's band (§29); 0 elsewhere. */
  flatAmount: number;
}

/** A row to write; `validTo` undefined: not given (rules 2 and 3 decide it). */
export interface TimelineWrite {
  validFrom: Instant | null;
  validTo?: Instant | null;
  amount: number;
  priceUnit: number;
  flatAmount: number;
}

/** Two rows that would overlap: the one written and one already there. */
export interface Overlap {
  written: TimelineRow;
  existing: TimelineRow;
}

export interface TimelineResult {
  /** The timeline after the writes, by validFrom (from always first). */
  rows: TimelineRow[];
  /** Rows cut (rule 2): each cut of a row that was there counts once. */
  closed: number;
}

const start = (from: Instant | null) => from ?? -Infinity;

/** The validFrom of the first row starting after `from`, or null. */
function nextStart(rows: readonly TimelineRow[], from: Instant | null): Instant | null {
  let next: Instant | null = null;
  for (const row of rows) {
    if (row.validFrom === null || start(row.validFrom) <= start(from)) continue;
    if (next === null || row.validFrom < next) next = row.validFrom;
  }
  return next;
}

/** One write on the timeline; the rows it cut are added to `cut` (by their validFrom). */
function writeOne(
  rows: TimelineRow[],
  write: TimelineWrite,
  cut: Set<Instant | null>,
): Overlap | undefined {
  const f = write.validFrom;
  let validTo = write.validTo;
  const same = rows.findIndex((row) => row.validFrom === f);
  if (same >= 0) rows.splice(same, 1);
  else if (f !== null) {
    const container = rows.find(
      (row) => start(row.validFrom) < f && (row.validTo === null || row.validTo > f),
    );
    if (container) {
      if (validTo === undefined) validTo = container.validTo;
      container.validTo = f;
      cut.add(container.validFrom);
    }
  }
  const written = {
    validFrom: f,
    validTo: validTo === undefined ? nextStart(rows, f) : validTo,
    amount: write.amount,
    priceUnit: write.priceUnit,
    flatAmount: write.flatAmount,
  };
  const existing = rows.find((row) => windowsOverlap(row, written));
  if (existing) return { written, existing };
  rows.push(written);
  return undefined;
}

/**
 * The timeline after `writes`, in order, or the first overlap they would leave. `stored` is not
 * changed.
 */
export function writeTimeline(
  stored: readonly TimelineRow[],
  writes: readonly TimelineWrite[],
): TimelineResult | Overlap {
  const rows = stored.map((row) => ({ ...row }));
  const cut = new Set<Instant | null>();
  for (const write of writes) {
    const overlap = writeOne(rows, write, cut);
    if (overlap) return overlap;
  }
  const before = new Set(stored.map((row) => row.validFrom));
  rows.sort((a, b) => start(a.validFrom) - start(b.validFrom));
  return { rows, closed: [...cut].filter((from) => before.has(from)).length };
}

/** Whether `writeTimeline` refused. */
export const isOverlap = (result: TimelineResult | Overlap): result is Overlap =>
  "existing" in result;

/** A price row of a pricelist as stored or written: a product's tier over a window. */
export interface KeyedRow extends TimelineRow {
  productCode: string;
  minQuantity: number;
}

/** What a write of rows to one pricelist does: rows to insert, rows to change, rows cut. */
export interface TimelinePlan {
  inserts: KeyedRow[];
  /** Stored rows (keyed by product, minQuantity, validFrom) with their new validTo, amount, unit. */
  updates: { before: KeyedRow; after: KeyedRow }[];
  closed: number;
}

/** The overlap a write would leave, on the timeline of `productCode` from `minQuantity`. */
export interface TimelineOverlap extends Overlap {
  productCode: string;
  minQuantity: number;
}

const timelineKey = (row: { productCode: string; minQuantity: number }) =>
  JSON.stringify([row.productCode, row.minQuantity]);

/**
 * Every timeline `writes` touch, written in body order (`writeTimeline`), as inserts and updates
 * against `stored` (the stored rows of those products); or the first overlap, nothing planned.
 */
export function planTimelines(
  stored: readonly KeyedRow[],
  writes: readonly (TimelineWrite & { productCode: string; minQuantity: number })[],
): TimelinePlan | TimelineOverlap {
  const timelines = new Map<string, { stored: KeyedRow[]; writes: TimelineWrite[] }>();
  const of = (row: { productCode: string; minQuantity: number }) => {
    const key = timelineKey(row);
    let timeline = timelines.get(key);
    if (!timeline) timelines.set(key, (timeline = { stored: [], writes: [] }));
    return timeline;
  };
  for (const row of writes) of(row).writes.push(row);
  for (const row of stored) if (timelines.has(timelineKey(row))) of(row).stored.push(row);
  const plan: TimelinePlan = { inserts: [], updates: [], closed: 0 };
  for (const [key, timeline] of timelines) {
    const [productCode, minQuantity] = JSON.parse(key) as [string, number];
    const overlap = planTimeline(
      plan,
      { productCode, minQuantity },
      timeline.stored,
      timeline.writes,
    );
    if (overlap) return overlap;
  }
  return plan;
}

/**
 * One timeline's writes (`writeTimeline`) added to `plan` as inserts and updates against
 * `stored` (that timeline's stored rows); or its overlap, nothing added.
 */
export function planTimeline(
  plan: TimelinePlan,
  { productCode, minQuantity }: { productCode: string; minQuantity: number },
  stored: readonly KeyedRow[],
  writes: readonly TimelineWrite[],
): TimelineOverlap | undefined {
  const result = writeTimeline(stored, writes);
  if (isOverlap(result)) return { ...result, productCode, minQuantity };
  plan.closed += result.closed;
  const before = new Map(stored.map((row) => [row.validFrom, row]));
  for (const row of result.rows) {
    const after = { productCode, minQuantity, ...row };
    const was = before.get(row.validFrom);
    if (!was) plan.inserts.push(after);
    else if (
      was.validTo !== row.validTo ||
      was.amount !== row.amount ||
      was.priceUnit !== row.priceUnit ||
      was.flatAmount !== row.flatAmount
    ) {
      plan.updates.push({ before: was, after });
    }
  }
  return undefined;
}

/** Whether `planTimelines` refused. */
export const isTimelineOverlap = (
  result: TimelinePlan | TimelineOverlap,
): result is TimelineOverlap => "existing" in result;
