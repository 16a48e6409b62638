import { codesFrom, unassignByCodes, type UnknownCodes } from "../../db/links";
import { FOREIGN_KEY } from "../../db/outcomes";
import type { Db } from "../../db/client";
import { conflict, invalid, notFound, unknownCodesIssue, type FieldIssue } from "../../core/errors";
import { changesNothing, optimistically, patchOf } from "../../db/optimistic";
import { assertNotArchived, assertTransition, windowIssues } from "../../core/status";
import {
  assignTargets as linkTargets,
  conditionLinks,
  findTradeConditionState,
  insertTradeCondition,
  readForUpdate,
  scalesFrom,
  targetLink,
  updateTradeCondition as writeTradeCondition,
  type TargetScope,
  type TradeConditionRow,
} from "./trade-conditions.repo";
import type {
  ConditionScope,
  ConditionType,
  DiscountType,
  ScaleBasis,
} from "../../pricing/vocabulary";
import type { Scale, TradeConditionCreate, TradeConditionUpdate } from "./trade-conditions.schemas";

export const missingCondition = (id: number) => notFound(`trade condition ${id} not found`);
const label = (id: number) => `trade condition ${id}`;

// ---------------------------------------------------------------------------------------------
// The cross-field rules (docs/api/resources.md §2); promotions share the discount terms.

/** The fields the cross-field rules look at, instants as epoch ms. */
export interface DiscountTerms {
  discountType: DiscountType | undefined;
  value: number;
  currency: string | null;
  /** The pieces an ABSOLUTE value is for (docs/pricing-rules.md §20). */
  priceUnit: number;
  validFrom: number | null;
  validTo: number | null;
}

export interface TradeConditionTerms extends DiscountTerms {
  scope: ConditionScope;
  type: ConditionType;
  stackable: boolean;
  channelCodes: string[];
  scaleBasis: ScaleBasis;
  scales: Scale[];
}

function valueIssues(discountType: DiscountType, value: number, path: string): FieldIssue[] {
  if (discountType === "PERCENTAGE" && (value < 1 || value > 10_000)) {
    return [{ path, message: "must be 1-10000 basis points for a PERCENTAGE value" }];
  }
  if (discountType === "ABSOLUTE" && value < 0) {
    return [{ path, message: "must be >= 0 minor units for an ABSOLUTE value" }];
  }
  return [];
}

/**
 * The rules shared by trade conditions and promotions (docs/api/resources.md §2, its cross-field
 * rules), applied to the whole record: on create to the body, on update to the body merged over the
 * stored record. `amounts` says why the record compares amounts besides an ABSOLUTE value
 * ("scaleBasis is ORDER_VALUE"): then it needs a currency, which a PERCENTAGE value may then have
 * too.
 */
export function discountIssues(t: DiscountTerms, amounts?: string): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (t.discountType) issues.push(...valueIssues(t.discountType, t.value, "body.value"));
  if (t.discountType === "ABSOLUTE" && t.currency === null) {
    issues.push({ path: "body.currency", message: "is required for ABSOLUTE values" });
  } else if (amounts && t.currency === null) {
    issues.push({ path: "body.currency", message: `is required when ${amounts}` });
  }
  if (t.discountType === "PERCENTAGE" && t.currency !== null && !amounts) {
    issues.push({ path: "body.currency", message: "must be absent or null for PERCENTAGE values" });
  }
  if (t.discountType === "PERCENTAGE" && t.priceUnit !== 1) {
    issues.push({
      path: "body.priceUnit",
      message: "must be absent or 1 for PERCENTAGE values (a percentage is of any quantity)",
    });
  }
  issues.push(...windowIssues(t));
  return issues;
}

/** Scale rows: distinct minimums, values of the discount type. */
function scaleIssues(t: TradeConditionTerms): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const seen = new Set<number>();
  t.scales.forEach((row, i) => {
    if (seen.has(row.minimum)) {
      issues.push({ path: `body.scales.${i}.minimum`, message: `repeats minimum ${row.minimum}` });
    }
    seen.add(row.minimum);
    if (t.discountType) {
      issues.push(...valueIssues(t.discountType, row.value, `body.scales.${i}.value`));
    }
  });
  return issues;
}

export function tradeConditionIssues(t: TradeConditionTerms): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (t.type === "NET_PRICE" && t.discountType === "PERCENTAGE") {
    issues.push({
      path: "body.discountType",
      message: "must be ABSOLUTE for a NET_PRICE condition (its value is the net unit price)",
    });
  } else if (t.discountType === undefined) {
    issues.push({ path: "body.discountType", message: "is required unless type is NET_PRICE" });
  }
  // Every accrual that reaches a line applies (docs/pricing-rules.md §25): none competes.
  if (t.type === "ACCRUAL" && t.stackable) {
    issues.push({
      path: "body.stackable",
      message: "must be false for an ACCRUAL condition (every accrual reaching a line applies)",
    });
  }
  const byValue = t.scaleBasis === "ORDER_VALUE" ? "scaleBasis is ORDER_VALUE" : undefined;
  issues.push(...discountIssues(t, byValue));
  if (t.scope === "CHANNEL" && t.channelCodes.length === 0) {
    issues.push({
      path: "body.channelCodes",
      message: "must name at least one channel for a CHANNEL-scope condition",
    });
  }
  issues.push(...scaleIssues(t));
  return issues;
}

/** Codes a body named that name nothing: one issue per field. */
export const unknownCodeIssues = (unknown: UnknownCodes[]) =>
  unknown.map((u) => unknownCodesIssue(u.field, u.noun, u.codes));

// ---------------------------------------------------------------------------------------------
// Create and update.

const goneMeanwhile = () =>
  conflict("a named product, product group or channel was deleted meanwhile; nothing was written");

/** One read resolves the codes (skipped when none are named), one batch writes everything. */
export async function createTradeCondition(db: Db, input: TradeConditionCreate) {
  const discountType = input.discountType ?? (input.type === "NET_PRICE" ? "ABSOLUTE" : undefined);
  const terms = {
    ...input,
    discountType,
    currency: input.currency ?? null,
    validFrom: input.validFrom ?? null,
    validTo: input.validTo ?? null,
  };
  const issues = tradeConditionIssues(terms);
  const { values, unknown } = await conditionLinks.resolveNamed(db, input);
  issues.push(...unknownCodeIssues(unknown));
  if (issues.length || !discountType) throw invalid(issues);
  const row = await insertTradeCondition(
    db,
    conditionLinks.withoutLinks({ ...terms, discountType }),
    values,
  );
  if (row === FOREIGN_KEY) throw goneMeanwhile();
  return row;
}

/** The TARGET links each scope may have; the others would be meaningless. */
const TARGETS = {
  CUSTOMER_GROUP: { field: "customerGroupCodes", noun: "customer groups", path: "customer-groups" },
  CUSTOMER: { field: "customerCodes", noun: "customers", path: "customers" },
} as const;

/**
 * A scope change away from CUSTOMER_GROUP or CUSTOMER is refused while the condition still has
 * targets of the old scope: silently dropping them would lose data the caller may still want.
 */
function assertNoStrandedTargets(current: TradeConditionRow, scope: ConditionScope) {
  if (scope === current.scope || !(current.scope in TARGETS)) return;
  const target = TARGETS[current.scope as TargetScope];
  const codes = codesFrom(current[target.field]);
  if (codes.length === 0) return;
  throw conflict(
    `trade condition ${current.id} still targets ${codes.length} ${target.noun}; ` +
      `unassign them (POST /v1/api/trade-conditions/${current.id}/${target.path}/unassign) ` +
      `before changing its scope from ${current.scope} to ${scope}`,
  );
}

/** The record the patch would make, in the terms the create rules check. */
const merged = (current: TradeConditionRow, patch: TradeConditionUpdate): TradeConditionTerms => ({
  ...current,
  channelCodes: codesFrom(current.channelCodes),
  scales: scalesFrom(current.scales),
  ...patch,
});

/**
 * One read loads the record and resolves the named codes; the merged record is checked with the
 * create rules; one batch writes under the version read. `undefined` when it does not exist.
 */
export const updateTradeCondition = (db: Db, id: number, input: TradeConditionUpdate) =>
  optimistically(label(id), async () => {
    const { current, values, unknown } = await readForUpdate(db, id, input);
    if (!current) return undefined;
    assertNotArchived(label(id), current.status);
    if (input.status) assertTransition(label(id), current.status, input.status);
    if (input.scope) assertNoStrandedTargets(current, input.scope);
    const patch = patchOf(input);
    const issues = [...tradeConditionIssues(merged(current, patch)), ...unknownCodeIssues(unknown)];
    if (issues.length) throw invalid(issues);
    if (changesNothing(current, patch)) return current;
    const row = await writeTradeCondition(db, current, conditionLinks.withoutLinks(patch), values);
    if (row === FOREIGN_KEY) throw goneMeanwhile();
    return row;
  });

// ---------------------------------------------------------------------------------------------
// Targets of CUSTOMER_GROUP- and CUSTOMER-scope conditions.

/**
 * The condition whose targets change: it must exist (404) and not be ARCHIVED (409); an
 * assignment also needs the scope that the targets belong to (409 naming the actual scope).
 */
async function requireTargetable(db: Db, id: number, scope?: TargetScope) {
  const state = await findTradeConditionState(db, id);
  if (!state) throw missingCondition(id);
  assertNotArchived(label(id), state.status);
  if (scope && state.scope !== scope) {
    throw conflict(
      `trade condition ${id} has scope ${state.scope}; only ${scope}-scope conditions take ` +
        TARGETS[scope].noun,
    );
  }
}

/** A miss of the insert's re-check is reported as the 409 it would have been. */
export async function assignTargets(db: Db, id: number, scope: TargetScope, codes: string[]) {
  await requireTargetable(db, id, scope);
  const result = await linkTargets(db, id, scope, codes);
  if (result.assigned.length === 0 && result.notFound.length < codes.length) {
    await requireTargetable(db, id, scope);
  }
  return result;
}

export async function unassignTargets(db: Db, id: number, scope: TargetScope, codes: string[]) {
  await requireTargetable(db, id);
  return unassignByCodes(db, targetLink(scope), id, codes);
}
