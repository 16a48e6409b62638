import { FOREIGN_KEY } from "../../db/outcomes";
import type { Db } from "../../db/client";
import { conflict, invalid, notFound } from "../../core/errors";
import { changesNothing, optimistically, patchOf } from "../../db/optimistic";
import { assertNotArchived, assertTransition } from "../../core/status";
import { discountIssues, unknownCodeIssues } from "../trade-conditions/trade-conditions.service";
import {
  insertPromotion,
  promotionLinks,
  readForUpdate,
  updatePromotion as writePromotion,
} from "./promotions.repo";
import type { PromotionCreate, PromotionUpdate, Threshold } from "./promotions.schemas";

export const missingPromotion = (id: number) => notFound(`promotion ${id} not found`);
const label = (id: number) => `promotion ${id}`;

const goneMeanwhile = () =>
  conflict(
    "a named product, product group, channel or customer group was deleted meanwhile; nothing was written",
  );

/** The threshold as the two columns that store it, both null for none. */
const thresholdColumns = (threshold: Threshold | null) => ({
  thresholdBasis: threshold?.basis ?? null,
  thresholdMinimum: threshold?.minimum ?? null,
});

/**
 * A VALUE threshold compares amounts: then the promotion needs a currency (docs/api/resources.md
 * §2).
 */
const amountsOf = (t: { thresholdBasis: string | null }) =>
  t.thresholdBasis === "VALUE" ? "threshold.basis is VALUE" : undefined;

/** A body's threshold, when it names one, replaced by its columns. */
function ownColumns<T extends { threshold?: Threshold | null }>(body: T) {
  const { threshold, ...rest } = body;
  return threshold === undefined ? rest : { ...rest, ...thresholdColumns(threshold) };
}

/** One read resolves the codes (skipped when none are named), one batch writes everything. */
export async function createPromotion(db: Db, input: PromotionCreate) {
  const { threshold, ...rest } = input;
  const terms = {
    ...rest,
    ...thresholdColumns(threshold),
    currency: input.currency ?? null,
    validFrom: input.validFrom ?? null,
    validTo: input.validTo ?? null,
  };
  const issues = discountIssues(terms, amountsOf(terms));
  const { values, unknown } = await promotionLinks.resolveNamed(db, input);
  issues.push(...unknownCodeIssues(unknown));
  if (issues.length) throw invalid(issues);
  const row = await insertPromotion(db, promotionLinks.withoutLinks(terms), values);
  if (row === FOREIGN_KEY) throw goneMeanwhile();
  return row;
}

/**
 * One read loads the promotion and resolves the named codes; the merged record is checked with
 * the create rules; one batch writes under the version read. `undefined` when it does not exist.
 */
export const updatePromotion = (db: Db, id: number, input: PromotionUpdate) =>
  optimistically(label(id), async () => {
    const { current, values, unknown } = await readForUpdate(db, id, input);
    if (!current) return undefined;
    assertNotArchived(label(id), current.status);
    if (input.status) assertTransition(label(id), current.status, input.status);
    const patch = ownColumns(patchOf(input));
    const record = { ...current, ...patch };
    const issues = [...discountIssues(record, amountsOf(record)), ...unknownCodeIssues(unknown)];
    if (issues.length) throw invalid(issues);
    if (changesNothing(current, patch)) return current;
    const row = await writePromotion(db, current, promotionLinks.withoutLinks(patch), values);
    if (row === FOREIGN_KEY) throw goneMeanwhile();
    return row;
  });
