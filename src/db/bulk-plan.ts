import type { BatchItem } from "drizzle-orm/batch";
import { readFacts, STALE_FACTS, writeJudged, type FactParts } from "./bulk-facts";
import type { Db } from "./client";
import { invalid, type FieldIssue } from "../core/errors";
import { CHANGED, changesNothing, optimistically } from "./optimistic";
import type { BulkResult } from "../core/schemas";

/*
 * Bulk upserts by code (docs/api/relations.md §5.12), the rules half: the read-judge-write every
 * bulk PUT runs (the body and answer schemas are in src/core/schemas.ts, the facts and their guard
 * in db/bulk-facts.ts, the writes in db/bulk.ts). Each resource supplies its facts and a judge that
 * applies the resource's own rules to every row.
 */

/**
 * What the rows of one body come to: the issues (every bad row, by index and field), or which
 * codes are created and updated and how many are unchanged.
 */
export class BulkPlan<Stored extends object, Row extends { code: string }> {
  readonly issues: FieldIssue[] = [];
  readonly created: Row[] = [];
  readonly updated: Row[] = [];
  unchanged = 0;

  constructor(private readonly field: string) {}

  /** Where row `index` of the body is: `body.products.12`. */
  at(index: number) {
    return `body.${this.field}.${index}`;
  }

  /** An issue on a field of row `index`: `body.products.12.name`. */
  issue(index: number, key: string, message: string) {
    this.issues.push({ path: `${this.at(index)}.${key}`, message });
  }

  /** Files the record a row makes: created without a stored one, else updated unless nothing differs. */
  add(stored: Stored | undefined, row: Row) {
    if (!stored) this.created.push(row);
    else if (changesNothing(stored, row)) this.unchanged += 1;
    else this.updated.push(row);
  }
}

/** A judged body: its plan and the statements that write it (none when nothing changes). */
export interface Judged {
  plan: BulkPlan<object, { code: string }>;
  writes: () => BatchItem<"sqlite">[];
}

/**
 * The read-judge-write of every bulk upsert: one round trip reads the facts, `judge` applies the
 * resource's rules (any issue → 400 naming every bad row, nothing written), one batch writes what
 * changes, guarded by the facts; when they changed meanwhile, the body is judged again.
 */
export const upsertInBulk = <F>(
  db: Db,
  label: string,
  facts: FactParts,
  judge: (facts: F) => Judged,
): Promise<BulkResult> =>
  optimistically(label, async () => {
    const read = await readFacts<F>(db, facts);
    const { plan, writes } = judge(read.value);
    if (plan.issues.length) throw invalid(plan.issues);
    const statements = writes();
    if (statements.length && (await writeJudged(db, read, statements)) === STALE_FACTS) {
      return CHANGED;
    }
    return {
      created: plan.created.map((row) => row.code),
      updated: plan.updated.map((row) => row.code),
      unchanged: plan.unchanged,
    };
  });
