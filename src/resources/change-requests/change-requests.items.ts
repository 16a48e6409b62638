import type { FieldIssue } from "../../core/errors";
import { iso } from "../../core/schemas";
import type { ChangeRequestTargetKind } from "../../pricing/vocabulary";
import type { Ids } from "./change-requests.impact";
import { TARGET_DOCS } from "../../core/targeting";
import { TARGET_FIELDS, type TargetField } from "../../pricing";
import {
  unknownIn,
  type ItemFacts,
  type RecordFacts,
  type RecordState,
  type Touch,
} from "./change-requests.repo";
import type { ChangeRequestItem } from "./change-requests.schemas";

/*
 * What the items of a change request name, and the rules they must keep
 * (docs/api/change-requests.md §17.1): every record, product and group they name exists (checked at
 * create, PATCH and submit), and at the moment they take effect each pricelist whose rows change is
 * not ARCHIVED, each record to activate is DRAFT or INACTIVE and each one to deactivate ACTIVE,
 * with a window left that is not empty (checked at submit and again at approve).
 */

const NOUNS: Record<ChangeRequestTargetKind, string> = {
  pricelist: "pricelist",
  tradeCondition: "trade condition",
  promotion: "promotion",
};

const sorted = <T extends string | number>(values: Iterable<T>) =>
  [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** The records, products, groups and price rows the items name. */
export function touchOf(items: readonly ChangeRequestItem[]): Touch {
  const ids: Record<ChangeRequestTargetKind, number[]> = {
    pricelist: [],
    tradeCondition: [],
    promotion: [],
  };
  const named = Object.fromEntries(TARGET_FIELDS.map((field) => [field, [] as string[]]));
  const selections: Touch["selections"] = [];
  for (const item of items) {
    if (item.kind === "ACTIVATE" || item.kind === "DEACTIVATE") {
      ids[item.target.kind].push(item.target.id);
      continue;
    }
    ids.pricelist.push(item.pricelistId);
    if (item.kind === "SET_PRICES") {
      const codes = sorted(item.rows.map((row) => row.productCode));
      named.productCodes!.push(...codes);
      selections.push({ pricelistId: item.pricelistId, productCodes: codes });
    } else {
      const lists: Partial<Record<TargetField, string[]>> = {};
      for (const field of TARGET_FIELDS) {
        named[field]!.push(...(item[field] ?? []));
        if (item[field]) lists[field] = item[field];
      }
      selections.push({ pricelistId: item.pricelistId, ...lists });
    }
  }
  const targets = {} as Record<TargetField, string[]>;
  for (const field of TARGET_FIELDS) targets[field] = sorted(named[field]!);
  return {
    pricelistIds: sorted(ids.pricelist),
    tradeConditionIds: sorted(ids.tradeCondition),
    promotionIds: sorted(ids.promotion),
    ...targets,
    selections,
  };
}

/** The records ACTIVATE and DEACTIVATE items name, by kind. */
export function targetsOf(
  items: readonly ChangeRequestItem[],
  kind: "ACTIVATE" | "DEACTIVATE",
): Ids {
  const of = (target: ChangeRequestTargetKind) =>
    items.flatMap((item) =>
      item.kind === kind && item.target.kind === target ? [item.target.id] : [],
    );
  return {
    pricelistIds: of("pricelist"),
    tradeConditionIds: of("tradeCondition"),
    promotionIds: of("promotion"),
  };
}

/** A record's facts by kind and id. */
export function recordOf(facts: ItemFacts, kind: ChangeRequestTargetKind, id: number) {
  const list: Record<ChangeRequestTargetKind, RecordFacts[]> = {
    pricelist: facts.pricelists,
    tradeCondition: facts.tradeConditions,
    promotion: facts.promotions,
  };
  return list[kind].find((record) => record.id === id);
}

/**
 * What ACTIVATE and DEACTIVATE make of a record at `at`: ACTIVE from max(validFrom, at); ACTIVE
 * until min(validTo, at).
 */
export function recordAfter(
  kind: "ACTIVATE" | "DEACTIVATE",
  before: RecordState,
  at: number,
): RecordState {
  if (kind === "ACTIVATE") {
    const validFrom = before.validFrom === null ? at : Math.max(before.validFrom, at);
    return { ...before, status: "ACTIVE", validFrom };
  }
  const validTo = before.validTo === null ? at : Math.min(before.validTo, at);
  return { ...before, validTo };
}

const shown = (instant: number) => iso(instant);

/** Why a record cannot be activated or deactivated at `at`; null when it can. */
function targetProblem(
  kind: "ACTIVATE" | "DEACTIVATE",
  record: RecordFacts,
  at: number,
): string | null {
  if (kind === "ACTIVATE") {
    if (record.status === "ACTIVE")
      return "is ACTIVE already; only a DRAFT or INACTIVE record can be activated";
    if (record.status === "ARCHIVED") return "is ARCHIVED and cannot become ACTIVE";
    const after = recordAfter(kind, record, at);
    if (after.validTo !== null && after.validTo <= after.validFrom!) {
      return `ends at ${shown(after.validTo)}, before the change takes effect: it would never be in force`;
    }
    return null;
  }
  if (record.status !== "ACTIVE") return `is ${record.status}, not ACTIVE`;
  const after = recordAfter(kind, record, at);
  if (after.validFrom !== null && after.validTo! <= after.validFrom) {
    return `starts at ${shown(after.validFrom)}, not before the change takes effect: its window would be empty (change its status instead)`;
  }
  return null;
}

/** Issues of one SET_PRICES or ADJUST_PRICES item. */
function priceItemIssues(
  item: Extract<ChangeRequestItem, { pricelistId: number }>,
  facts: ItemFacts,
  at: number | null,
  path: string,
): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const unknownProducts = new Set(unknownIn(facts, "productCodes"));
  const list = recordOf(facts, "pricelist", item.pricelistId);
  if (!list)
    issues.push({ path: `${path}.pricelistId`, message: `unknown pricelist ${item.pricelistId}` });
  else if (at !== null && list.status === "ARCHIVED") {
    const message = `pricelist ${item.pricelistId} is ARCHIVED and can no longer be edited`;
    issues.push({ path: `${path}.pricelistId`, message });
  }
  const unknown = (code: string) => unknownProducts.has(code);
  if (item.kind === "SET_PRICES") {
    item.rows.forEach((row, j) => {
      if (unknown(row.productCode)) {
        issues.push({
          path: `${path}.rows.${j}.productCode`,
          message: `unknown product ${row.productCode}`,
        });
      }
      // A VOLUME list takes no flat amounts, as its row write refuses them (docs/pricing-rules.md §29).
      if (list?.tierMode === "VOLUME" && (row.flatAmount ?? 0) !== 0) {
        issues.push({
          path: `${path}.rows.${j}.flatAmount`,
          message: `must be 0: pricelist ${item.pricelistId} is VOLUME (flat amounts are for GRADUATED pricelists)`,
        });
      }
    });
    return issues;
  }
  for (const field of TARGET_FIELDS) {
    const unknownCodes = new Set(unknownIn(facts, field));
    (item[field] ?? []).forEach((code, j) => {
      if (unknownCodes.has(code)) {
        issues.push({
          path: `${path}.${field}.${j}`,
          message: `unknown ${TARGET_DOCS[field].noun} ${code}`,
        });
      }
    });
  }
  return issues;
}

/**
 * Every issue of the items against their facts, each on its field under `prefix`
 * (`body.items` for a body, `items` for a stored request). `at` null: only whether what they
 * name exists (create, PATCH); an instant: also whether they can take effect then.
 */
export function itemIssues(
  items: readonly ChangeRequestItem[],
  facts: ItemFacts,
  at: number | null,
  prefix: string,
): FieldIssue[] {
  return items.flatMap((item, i): FieldIssue[] => {
    const path = `${prefix}.${i}`;
    if (item.kind === "SET_PRICES" || item.kind === "ADJUST_PRICES") {
      return priceItemIssues(item, facts, at, path);
    }
    const { kind, id } = item.target;
    const record = recordOf(facts, kind, id);
    if (!record) return [{ path: `${path}.target.id`, message: `unknown ${NOUNS[kind]} ${id}` }];
    const problem = at === null ? null : targetProblem(item.kind, record, at);
    return problem ? [{ path: `${path}.target`, message: `${NOUNS[kind]} ${id} ${problem}` }] : [];
  });
}

/** Codes a feed entry names at most per list; more, and the dimension is left open. */
export const MAX_AFFECTS_CODES = 1000;

/**
 * Whose prices applying the items moves, in the change feed's `affects` form
 * (docs/api/feed-and-webhooks.md §13.2): the pricelists, and the products when every price item
 * names them; a condition or a promotion leaves every dimension open.
 */
export function affectsOf(items: readonly ChangeRequestItem[]): Record<string, unknown> {
  const touch = touchOf(items);
  if (touch.tradeConditionIds.length || touch.promotionIds.length) return {};
  const everyProduct = items.some(
    (item) =>
      item.kind === "ACTIVATE" ||
      item.kind === "DEACTIVATE" ||
      (item.kind === "ADJUST_PRICES" && TARGET_FIELDS.every((field) => !item[field])),
  );
  const products = TARGET_FIELDS.reduce((n, field) => n + touch[field].length, 0);
  if (everyProduct || products > MAX_AFFECTS_CODES) return { pricelistIds: touch.pricelistIds };
  // The products' list always (maybe empty: none), the other dimensions when they name some.
  const lists = TARGET_FIELDS.filter((field) => field === "productCodes" || touch[field].length);
  return {
    pricelistIds: touch.pricelistIds,
    ...Object.fromEntries(lists.map((field) => [field, touch[field]])),
  };
}
