import { and, type SQL } from "drizzle-orm";
import { assignByCodes, unassignByCodes } from "../../db/links";
import { FOREIGN_KEY } from "../../db/outcomes";
import type { Db } from "../../db/client";
// The longest chain of bases: a pricelist, its base, the base's base and one more.
import { MAX_DERIVATION_STEPS } from "../../db/pricing/facts";
import {
  badRequest,
  conflict,
  invalid,
  notFound,
  unknownCodesIssue,
  type FieldIssue,
} from "../../core/errors";
import { CHANGED, changesNothing, optimistically, patchOf } from "../../db/optimistic";
import {
  PRODUCT_GONE,
  readPriceRowFacts,
  STALE_FACTS,
  writePriceRows,
  writeUndatedRows,
} from "../../db/price-rows";
import { isTimelineOverlap, planTimelines, type TimelineOverlap } from "../../pricing/timeline";
import type { PricelistKind, PricelistScope, TierMode } from "../../pricing/vocabulary";
import { iso, isoOrNull } from "../../core/schemas";
import { assertNotArchived, assertTransition, windowIssues } from "../../core/status";
import {
  channelsOnly,
  checkPriceWrite,
  countFlatAmounts,
  createIndividualPricelist,
  createPricelist as insertPricelist,
  derivationColumns,
  derivationFits,
  notABase,
  readDerivation,
  type ChainLink,
  type DerivationFacts,
  deleteDraftIndividualPricelist,
  findCustomerId,
  findPricelist,
  findPricelistId,
  pricelistLinks,
  stillAssignable,
  updatePricelist as writePricelist,
  type PricelistRow,
} from "./pricelists.repo";
import type {
  Derivation,
  IndividualPricelistCreate,
  PriceUpsertRow,
  PricelistCreate,
  PricelistUpdate,
} from "./pricelists.schemas";

/** The derivation columns as the API shows them (all null together: checkDerivation below). */
function toDerivation(row: PricelistRow) {
  if (row.basePricelistId === null) return null;
  const rounding =
    row.roundingMode === null
      ? null
      : { mode: row.roundingMode, step: row.roundingStep!, ending: row.roundingEnding! };
  return { basePricelistId: row.basePricelistId, adjustmentBp: row.adjustmentBp!, rounding };
}

/**
 * A pricelist as the API shows it, wherever one is shown (its owner's code included). A key that
 * does not see costs never gets a FLOOR list derived from a COST list at all (src/db/visibility.ts).
 */
export const toPricelist = (row: PricelistRow) => ({
  id: row.id,
  name: row.name,
  scope: row.scope,
  status: row.status,
  currency: row.currency,
  priority: row.priority,
  validFrom: isoOrNull(row.validFrom),
  validTo: isoOrNull(row.validTo),
  taxInclusive: row.taxInclusive,
  allowsTradeDiscounts: row.allowsTradeDiscounts,
  customerCode: row.customerCode,
  kind: row.kind,
  derivation: toDerivation(row),
  tierMode: row.tierMode,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});

export const missingPricelist = (id: number) => notFound(`pricelist ${id} not found`);
const label = (id: number) => `pricelist ${id}`;

export const PRICELIST_NOT_ASSIGNABLE = "PRICELIST_NOT_ASSIGNABLE";

/** Where a pricelist is assigned: to a channel (one of its lists, or its primary), a customer group, a customer. */
export type AssignmentPlace = "CHANNEL" | "CHANNEL_PRIMARY" | "CUSTOMER_GROUP" | "CUSTOMER";

/**
 * "Can this pricelist be assigned here?", for channels, customer groups and customers alike
 * (`target` names the place: "channel WEB-DE"). ARCHIVED pricelists are assignable nowhere; a
 * FLOOR or COST pricelist only to channels, never as their primary (docs/api/relations.md §5.2); an
 * INDIVIDUAL one belongs to its owner, where it already applies. Answers whether a link must be
 * written (false: the owner's own pricelist), or refuses with 409 PRICELIST_NOT_ASSIGNABLE.
 */
export function assertAssignable(
  pricelist: PricelistRow,
  place: AssignmentPlace,
  target: string,
  customerId?: number,
): boolean {
  if (pricelist.status === "ARCHIVED") {
    throw conflict(
      `pricelist ${pricelist.id} is ARCHIVED and cannot be assigned to ${target}`,
      PRICELIST_NOT_ASSIGNABLE,
    );
  }
  if (pricelist.kind !== "SALES" && place !== "CHANNEL") {
    const as = place === "CHANNEL_PRIMARY" ? "made the primary pricelist of" : "assigned to";
    const { kind } = pricelist;
    throw conflict(
      `pricelist ${pricelist.id} is a ${kind} pricelist and cannot be ${as} ${target}; ` +
        `${kind} pricelists are assigned to channels only, never as their primary`,
      PRICELIST_NOT_ASSIGNABLE,
    );
  }
  if (pricelist.scope !== "INDIVIDUAL") return true;
  if (customerId !== undefined && pricelist.customerId === customerId) return false;
  throw conflict(
    `pricelist ${pricelist.id} is INDIVIDUAL (owned by customer ${pricelist.customerCode}) ` +
      `and cannot be assigned to ${target}`,
    PRICELIST_NOT_ASSIGNABLE,
  );
}

/**
 * The rule of `assertAssignable` as SQL (`stillAssignable` of the repository; its INDIVIDUAL part
 * stays with the check: a scope never changes), for the write that links the pricelist at `place`.
 * Without a place: not ARCHIVED, what every write of its prices carries (docs/api/resources.md §3).
 */
const assignableAt = (id: number, place?: AssignmentPlace) =>
  stillAssignable(id, place !== undefined && place !== "CHANNEL");

/**
 * A link written with `assignableAt` that wrote nothing (already linked, or refused): judged
 * again on the pricelist as it is now, the 404 or 409 a refusal would have been.
 */
async function judgeAgain(db: Db, id: number, place: AssignmentPlace, target: string) {
  const now = await findPricelist(db, id);
  if (!now) throw missingPricelist(id);
  assertAssignable(now, place, target);
}

/**
 * Links pricelist `id` to `target` by `write`, given the guard to carry; it answers whether it
 * wrote (or FOREIGN_KEY), and a write of nothing is judged again.
 */
export async function linkWhile<T>(
  db: Db,
  id: number,
  place: AssignmentPlace,
  target: string,
  write: (guard: SQL) => Promise<T>,
) {
  const linked = await write(assignableAt(id, place));
  if (!linked) await judgeAgain(db, id, place, target);
  return linked;
}

const unknownCustomer = (code: string) =>
  badRequest(`customer ${code} not found`, [
    { path: "body.customerCode", message: `unknown customer ${code}` },
  ]);

export async function createIndividual(db: Db, input: IndividualPricelistCreate) {
  const customerId = await findCustomerId(db, input.customerCode);
  if (customerId === undefined) throw unknownCustomer(input.customerCode);
  const row = await createIndividualPricelist(db, customerId, input);
  if (row === FOREIGN_KEY) throw unknownCustomer(input.customerCode);
  return row;
}

/** The rules a change must keep, checked against the stored record. */
function checkUpdate(current: PricelistRow, input: PricelistUpdate): void {
  if (input.status) assertTransition(label(current.id), current.status, input.status);
  assertNotArchived(label(current.id), current.status);
  for (const field of ["currency", "kind"] as const) {
    if (input[field] && input[field] !== current[field] && current.status !== "DRAFT") {
      throw conflict(
        `pricelist ${current.id} is ${current.status}; its ${field} can change only while DRAFT`,
      );
    }
  }
  const issues = windowIssues({
    validFrom: input.validFrom !== undefined ? input.validFrom : current.validFrom,
    validTo: input.validTo !== undefined ? input.validTo : current.validTo,
  });
  if (issues.length) throw invalid(issues);
}

/** The record a create or update would make, in the terms the derivation rules judge. */
interface Planned {
  id: number | null;
  scope: PricelistScope;
  kind: PricelistKind;
  currency: string;
  basePricelistId: number | null;
  tierMode: TierMode;
}

/** What a body may change of them. */
type Touched = Partial<Pick<PricelistUpdate, "currency" | "kind" | "derivation" | "tierMode">>;

/**
 * Which pricelists may derive, and of which kind they may be (400, naming the field the body
 * set): GENERAL SALES pricelists derive, and FLOOR ones (from a COST base, checkBase); a COST
 * pricelist never derives; an INDIVIDUAL pricelist is always SALES and never derives.
 */
function shapeIssues(next: Planned, body: Touched): FieldIssue[] {
  const issues: FieldIssue[] = [];
  // docs/pricing-rules.md §29: floors and costs are per piece; only prices come in bands.
  if (next.tierMode === "GRADUATED" && next.kind !== "SALES") {
    issues.push({
      path: body.tierMode ? "body.tierMode" : "body.kind",
      message: `GRADUATED tiers are for SALES pricelists only; this one is ${next.kind}`,
    });
  }
  if (next.scope === "INDIVIDUAL" && next.kind !== "SALES") {
    issues.push({
      path: "body.kind",
      message:
        "must be SALES for an INDIVIDUAL pricelist (FLOOR and COST pricelists are assigned to channels)",
    });
  }
  if (next.basePricelistId === null) return issues;
  if (next.scope === "INDIVIDUAL") {
    issues.push({
      path: "body.derivation",
      message: "only GENERAL SALES and FLOOR pricelists can be derived; this one is INDIVIDUAL",
    });
  } else if (next.kind === "COST") {
    issues.push(
      body.derivation
        ? {
            path: "body.derivation",
            message: "only GENERAL SALES and FLOOR pricelists can be derived; this one is COST",
          }
        : {
            path: "body.kind",
            message:
              "cannot be COST while the pricelist derives from a base (remove it: derivation null)",
          },
    );
  }
  return issues;
}

/**
 * What a base must be (docs/api/relations.md §5.8): a SALES list derives from a GENERAL SALES list,
 * a FLOOR list from a COST list ("never below cost + 10 %", docs/pricing-rules.md §24), and nothing
 * derives a price from a cost. The refusal names the base's scope and kind.
 */
function baseRefusal(next: Planned, base: ChainLink): string | undefined {
  const what = `pricelist ${base.id} is ${base.scope} ${base.kind}`;
  if (next.kind === "FLOOR") {
    return base.kind === "COST"
      ? undefined
      : `${what}; a FLOOR pricelist derives only from a COST pricelist`;
  }
  if (base.kind === "COST") {
    return `${what}; a cost is never a price: only a FLOOR pricelist can derive from a COST pricelist`;
  }
  if (base.scope !== "GENERAL" || base.kind !== "SALES") {
    return `${what}; only a GENERAL SALES pricelist can be the base of a SALES pricelist`;
  }
  return undefined;
}

const chainText = (ids: (number | string)[]) => `${ids.join(" → ")} (each pricelist → its base)`;

/**
 * The base (docs/api/relations.md §5.8): it exists (400), is not the pricelist itself, is a GENERAL
 * SALES pricelist (in any currency: its amounts are converted at the rate in force,
 * docs/pricing-rules.md §19), and the chain of bases through this pricelist has no cycle and
 * at most MAX_DERIVATION_STEPS steps (409 naming the chain). Returns the guard that repeats the
 * rule inside the write.
 */
function checkBase(next: Planned, facts: DerivationFacts) {
  const baseId = next.basePricelistId!;
  const [base] = facts.chain;
  const self = next.id === null ? "the pricelist" : `pricelist ${next.id}`;
  if (!base)
    throw invalid([
      { path: "body.derivation.basePricelistId", message: `unknown pricelist ${baseId}` },
    ]);
  if (base.id === next.id) throw conflict(`${self} cannot derive from itself`);
  const refusal = baseRefusal(next, base);
  if (refusal) throw conflict(refusal);
  const loop = facts.chain.findIndex((link) => link.id === next.id);
  if (loop >= 0) {
    const cycle = [next.id!, ...facts.chain.slice(0, loop + 1).map((link) => link.id)];
    throw conflict(
      `${self} cannot derive from pricelist ${baseId}: that makes a cycle ${chainText(cycle)}`,
    );
  }
  const steps = facts.below.depth + facts.chain.length;
  if (steps > MAX_DERIVATION_STEPS) {
    const chain = [
      next.id === null ? "new" : facts.below.path,
      ...facts.chain.map((link) => link.id),
    ];
    throw conflict(
      `${self} deriving from pricelist ${baseId} makes a chain of ${steps} steps, more than the ` +
        `${MAX_DERIVATION_STEPS} allowed: ${chainText(chain)}`,
    );
  }
  const baseKind = next.kind === "FLOOR" ? "COST" : "SALES";
  return derivationFits(next.id, baseId, MAX_DERIVATION_STEPS, baseKind);
}

/** The facts of a pricelist that names no base and has no record yet. */
const NO_FACTS: DerivationFacts = {
  chain: [],
  derivedFrom: { n: 0, ids: [] },
  below: { depth: 0, path: "" },
  assigned: { customerGroups: [], customers: [], primaryOf: [] },
};

const some = (n: number, ids: (number | string)[]) =>
  ids.join(", ") + (n > ids.length ? ` and ${n - ids.length} more` : "");

/**
 * What the pricelist is to others: a base whose currency or kind changes under the pricelists
 * deriving from it, or a pricelist made FLOOR or COST while assigned where those may not be.
 * Both 409, naming them; returns the guards that repeat the checks inside the write.
 */
function checkAsBase(current: PricelistRow, next: Planned, facts: DerivationFacts): SQL[] {
  const guards: SQL[] = [];
  const changed = (["currency", "kind"] as const).filter((field) => next[field] !== current[field]);
  if (changed.length) {
    const { n, ids } = facts.derivedFrom;
    if (n > 0) {
      throw conflict(
        `pricelist ${current.id} is the base of ${n === 1 ? "pricelist" : "pricelists"} ` +
          `${some(n, ids)}; its ${changed.join(" and ")} cannot change while they derive from it`,
      );
    }
    guards.push(notABase(current.id));
  }
  if (next.kind !== "SALES" && current.kind === "SALES") {
    const { customerGroups, customers, primaryOf } = facts.assigned;
    const places = [
      customerGroups.length ? `customer groups ${customerGroups.join(", ")}` : "",
      customers.length ? `customers ${customers.join(", ")}` : "",
      primaryOf.length ? `the primary of channels ${primaryOf.join(", ")}` : "",
    ].filter(Boolean);
    if (places.length) {
      throw conflict(
        `pricelist ${current.id} is assigned to ${places.join(" and ")}; a ${next.kind} ` +
          "pricelist is assigned to channels only and never primary: unassign it there first",
        PRICELIST_NOT_ASSIGNABLE,
      );
    }
    guards.push(channelsOnly(current.id));
  }
  return guards;
}

/** The derivation and kind rules of a create (current undefined) or an update. */
function checkDerivation(
  next: Planned,
  body: Touched,
  facts: DerivationFacts,
  current?: PricelistRow,
): SQL | undefined {
  const issues = shapeIssues(next, body);
  if (issues.length) throw invalid(issues);
  const guards = current ? checkAsBase(current, next, facts) : [];
  const touched =
    body.derivation !== undefined || body.currency !== undefined || body.kind !== undefined;
  if (next.basePricelistId !== null && touched) guards.push(checkBase(next, facts));
  return guards.length ? and(...guards) : undefined;
}

/** The columns a body sets: the derivation as its columns. */
function columnsOf<T extends { derivation?: Derivation | null }>(body: T) {
  const { derivation, ...rest } = body;
  return derivation === undefined ? rest : { ...rest, ...derivationColumns(derivation) };
}

/** One statement, or a read and a guarded insert when the pricelist derives from a base. */
export const createPricelist = (db: Db, input: PricelistCreate) =>
  optimistically("the pricelist", async () => {
    const { derivation = null, ...own } = input;
    const values = { ...own, ...derivationColumns(derivation) };
    const next: Planned = {
      id: null,
      scope: "GENERAL",
      kind: input.kind ?? "SALES",
      currency: input.currency,
      basePricelistId: values.basePricelistId,
      tierMode: input.tierMode ?? "VOLUME",
    };
    const facts = input.derivation
      ? (await readDerivation(db, undefined, input.derivation.basePricelistId)).facts
      : NO_FACTS;
    const guard = checkDerivation(next, input, facts);
    const row = await insertPricelist(db, values, guard);
    if (row === FOREIGN_KEY)
      throw conflict("the base pricelist was deleted meanwhile; nothing was written");
    return row ?? CHANGED;
  });

export const updatePricelist = (db: Db, id: number, input: PricelistUpdate) =>
  optimistically(label(id), async () => {
    const { current, facts } = await readDerivation(db, id, input.derivation?.basePricelistId);
    if (!current) throw missingPricelist(id);
    checkUpdate(current, input);
    if (current.tierMode === "GRADUATED" && input.tierMode === "VOLUME") {
      await assertNoFlatAmounts(db, id);
    }
    const set = columnsOf(patchOf(input));
    const next: Planned = { ...current, ...set };
    const guard = checkDerivation(next, input, facts, current);
    if (changesNothing(current, set)) return current;
    const row = await writePricelist(db, current, set, guard);
    if (row === FOREIGN_KEY) throw missingPricelist(id);
    return row;
  });

/**
 * A VOLUME list has no flat amounts (docs/pricing-rules.md §29): a GRADUATED one goes back to
 * VOLUME only once none of its rows has one, so no stored amount is silently ignored.
 */
async function assertNoFlatAmounts(db: Db, id: number) {
  const rows = await countFlatAmounts(db, id);
  if (rows === 0) return;
  throw conflict(
    `pricelist ${id} has ${rows} price row${rows === 1 ? "" : "s"} with a flatAmount; ` +
      `set them to 0 before making it VOLUME`,
    "FLAT_AMOUNTS_STORED",
  );
}

/** A VOLUME list refuses flat amounts (docs/pricing-rules.md §29): 400 naming each row's field. */
function assertFlatAmountsFit(tierMode: TierMode, id: number, prices: PriceUpsertRow[]) {
  if (tierMode === "GRADUATED") return;
  const issues = prices.flatMap((row, i) =>
    row.flatAmount === 0
      ? []
      : [
          {
            path: `body.prices.${i}.flatAmount`,
            message: `must be 0: pricelist ${id} is VOLUME (flat amounts are for GRADUATED pricelists)`,
          },
        ],
  );
  if (issues.length) throw invalid(issues);
}

/** Bulk assignment to customer groups, under the rule every other assignment follows. */
export async function assignCustomerGroups(db: Db, id: number, codes: string[]) {
  const pricelist = await findPricelist(db, id);
  if (!pricelist) throw missingPricelist(id);
  const place = "CUSTOMER_GROUP";
  const target = "customer groups";
  assertAssignable(pricelist, place, target);
  const link = pricelistLinks.links.customerGroupCodes;
  const result = await assignByCodes(db, link, id, codes, assignableAt(id, place));
  if (!result.assigned.length) await judgeAgain(db, id, place, target);
  return result;
}

/** Works in every status, so an ARCHIVED pricelist can still be detached. */
export async function unassignCustomerGroups(db: Db, id: number, codes: string[]) {
  if ((await findPricelistId(db, id)) === undefined) throw missingPricelist(id);
  return unassignByCodes(db, pricelistLinks.links.customerGroupCodes, id, codes);
}

export async function removeIndividual(db: Db, id: number) {
  if (await deleteDraftIndividualPricelist(db, id)) return;
  // Not deleted: find out why (a second round trip only on the error path).
  const row = await findPricelist(db, id);
  if (!row || row.scope !== "INDIVIDUAL") throw notFound(`individual pricelist ${id} not found`);
  throw conflict(
    `pricelist ${id} is ${row.status}; only a DRAFT individual pricelist can be deleted`,
  );
}

/** 404, then 409 (ARCHIVED), then the unknown product codes; one round trip. */
async function requirePriceWrite(db: Db, id: number, productCodes: string[]) {
  const check = await checkPriceWrite(db, id, productCodes);
  if (!check) throw missingPricelist(id);
  assertNotArchived(label(id), check.status);
  return check;
}

function unknownProductIssues(prices: { productCode: string }[], unknown: string[]) {
  const named = new Set(unknown);
  return [
    unknownCodesIssue("prices", "product", unknown),
    ...prices.flatMap((row, i) =>
      named.has(row.productCode)
        ? [{ path: `body.prices.${i}.productCode`, message: `unknown product ${row.productCode}` }]
        : [],
    ),
  ];
}

const shown = (instant: number | null, open: string) =>
  instant === null ? open : new Date(instant).toISOString();

/** The 409 of a write that would leave two rows of one timeline overlapping. */
function overlapConflict(overlap: TimelineOverlap) {
  const window = (row: { validFrom: number | null; validTo: number | null }) =>
    `${shown(row.validFrom, "always")} to ${shown(row.validTo, "open-ended")}`;
  return conflict(
    `prices of product ${overlap.productCode} from quantity ${overlap.minQuantity} would ` +
      `overlap: the row written (${window(overlap.written)}) and the row stored ` +
      `(${window(overlap.existing)}); nothing was written`,
    "PRICE_ROWS_OVERLAP",
  );
}

/**
 * Writes the rows by their timelines (docs/pricing-rules.md §17), all or nothing: 404, 409
 * ARCHIVED, 400 naming every unknown product, 409 PRICE_ROWS_OVERLAP. Rows already as written
 * are not rewritten, so re-sending an unchanged sheet writes nothing (no audit entry, no new
 * pricing version). A sheet of undated rows, as an ERP sends it every night, is one statement
 * that cannot overlap (`writeUndatedRows`); anything dated is judged on the stored timelines
 * and written in one batch guarded against concurrent changes.
 */
export async function upsertPrices(db: Db, id: number, prices: PriceUpsertRow[]) {
  const undated = prices.every((row) => row.validFrom === null && row.validTo === undefined);
  return undated ? upsertUndated(db, id, prices) : upsertDated(db, id, prices);
}

/** The write carries the status check: a list archived after it is judged again (409). */
const upsertUndated = (db: Db, id: number, prices: PriceUpsertRow[]) =>
  optimistically(label(id), async () => {
    const check = await requirePriceWrite(
      db,
      id,
      prices.map((row) => row.productCode),
    );
    if (check.unknownCodes.length) throw invalid(unknownProductIssues(prices, check.unknownCodes));
    assertFlatAmountsFit(check.tierMode, id, prices);
    const written = await writeUndatedRows(db, id, prices, assignableAt(id));
    if (written === FOREIGN_KEY) throw missingPricelist(id);
    if (written === PRODUCT_GONE) {
      throw conflict("a product was deleted while the prices were written; nothing was written");
    }
    return written === CHANGED ? written : { upserted: written, closed: 0 };
  });

async function upsertDated(db: Db, id: number, prices: PriceUpsertRow[]) {
  return optimistically("the pricelist's prices", async () => {
    const read = await readPriceRowFacts(
      db,
      id,
      prices.map((row) => row.productCode),
    );
    if (!read) throw missingPricelist(id);
    assertNotArchived(label(id), read.value.status);
    if (read.value.unknownCodes.length) {
      throw invalid(unknownProductIssues(prices, read.value.unknownCodes));
    }
    assertFlatAmountsFit(read.value.tierMode, id, prices);
    const plan = planTimelines(read.value.rows, prices);
    if (isTimelineOverlap(plan)) throw overlapConflict(plan);
    if (plan.inserts.length + plan.updates.length > 0) {
      if ((await writePriceRows(db, id, read, plan)) === STALE_FACTS) return CHANGED;
    }
    return { upserted: prices.length, closed: plan.closed };
  });
}

/** The delete carries the status check: a list archived after it is judged again (409). */
export const deletePrices = (db: Db, id: number, productCodes: string[]) =>
  optimistically(label(id), async () => {
    await requirePriceWrite(db, id, []);
    const link = pricelistLinks.links.productCodes;
    const result = await unassignByCodes(db, link, id, productCodes, assignableAt(id));
    return result === CHANGED ? result : { deleted: result.unassigned, notFound: result.notFound };
  });
