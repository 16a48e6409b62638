import { sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { readScalarFacts, scalarFacts, STALE_FACTS, writeJudged } from "../../db/bulk-facts";
import type { Db } from "../../db/client";
import { holdingD1 } from "../../db/holding";
import { CHANGED, optimistically } from "../../db/optimistic";
import {
  appliedFromStaged,
  discardFailed,
  divergedWritesSql,
  restoreStagedWrites,
  stageWrites,
  stagedWritesOf,
  type Attempt,
} from "../../db/price-rows";
import { ApiError, conflict, invalid, notFound } from "../../core/errors";
import { iso } from "../../core/schemas";
import { runInSteps } from "../../core/steps";
import { withWriter, writersOf, wroteIt } from "../../core/writers";
import {
  ChangeAmountOutOfRange,
  isChangeOverlap,
  planChangesInSteps,
  type ChangePlan,
  type SelectedItem,
} from "../../pricing/change-plan";
import {
  CHANGE_REQUEST_ACTIONS,
  type ChangeRequestAction,
  type ChangeRequestStatus,
  type ChangeRequestTargetKind,
} from "../../pricing/vocabulary";
import { toChangeRequest, toItem } from "./change-requests.answers";
import { computeImpact } from "./change-requests.impact";
import { approvedByPolicy } from "./change-requests.policy";
import { readRelated, type Related } from "./change-requests.related";
import {
  findChangeRequest,
  insertChangeRequest,
  readItemFacts,
  readPolicy,
  readTouch,
  recordEffective,
  recordsDivergedSql,
  replaceItems,
  requestState,
  updateRequest,
  writeRecords,
  type ChangeRequestRow,
  type FoundRequest,
  type RecordState,
  type StoredItem,
  type Touched,
} from "./change-requests.repo";
import type {
  ChangeRequestCreate,
  ChangeRequestItem,
  ChangeRequestUpdate,
} from "./change-requests.schemas";
import {
  affectsOf,
  itemIssues,
  recordAfter,
  recordOf,
  targetsOf,
  touchOf,
} from "./change-requests.items";

/*
 * The rules of change requests (docs/api/change-requests.md §17): who may do what in which status,
 * the impact and the policy at submit, stale detection and the apply at approve, the exact restore
 * of a cancel. Every write is guarded by the request's state (and, when it writes prices, by the
 * facts of what the items touch), so two actions at once cannot both pass.
 */

export const missingChangeRequest = (id: number) => notFound(`change request ${id} not found`);

const label = (id: number) => `change request ${id}`;

/** The one refusal of an action in the wrong status: 409 INVALID_TRANSITION naming both. */
function assertAction(row: ChangeRequestRow, action: ChangeRequestAction) {
  const allowed: readonly ChangeRequestStatus[] = CHANGE_REQUEST_ACTIONS[action];
  if (allowed.includes(row.status)) return;
  throw conflict(
    `change request ${row.id} is ${row.status}; ${action} is allowed only when it is ` +
      allowed.join(" or "),
    "INVALID_TRANSITION",
  );
}

const effectiveInPast = (row: ChangeRequestRow) =>
  conflict(
    `change request ${row.id} was to take effect at ${iso(row.effectiveAt!)}, which has passed; ` +
      "PATCH a new effectiveAt while it is DRAFT and submit it again",
    "EFFECTIVE_IN_PAST",
  );

const toStored = ({ kind, ...body }: ChangeRequestItem): StoredItem => ({ kind, body });

/** An instant a body names must not have passed (400 on the field). */
function assertFuture(effectiveAt: number | null | undefined, now: number) {
  if (effectiveAt != null && effectiveAt <= now) {
    throw invalid([{ path: "body.effectiveAt", message: "must not be in the past" }]);
  }
}

/** Unknown pricelists, products, groups and records of a body's items: 400 naming each. */
async function assertKnown(db: Db, items: readonly ChangeRequestItem[]) {
  const touch = { ...touchOf(items), selections: [] };
  const { value } = await readItemFacts(db, touch);
  const issues = itemIssues(items, value, null, "body.items");
  if (issues.length) throw invalid(issues);
}

/** `owner`: the owner of the calling key (its author; docs/api/change-requests.md §17.2). */
export async function createChangeRequest(db: Db, input: ChangeRequestCreate, owner: string) {
  assertFuture(input.effectiveAt, Date.now());
  await assertKnown(db, input.items);
  return insertChangeRequest(
    db,
    {
      title: input.title,
      effectiveAt: input.effectiveAt,
      author: owner,
      editors: JSON.stringify([owner]),
    },
    input.items.map(toStored),
  );
}

/**
 * Runs `writes` only while the request is still in the state `row` holds (status and
 * updatedAt): CHANGED when another action got in first.
 */
async function writeIfUnchanged(
  db: Db,
  row: ChangeRequestRow,
  writes: BatchItem<"sqlite">[],
): Promise<number | typeof CHANGED> {
  const state = requestState(row.id);
  const text = JSON.stringify({ status: row.status, updatedAt: row.updatedAt });
  const result = await writeJudged(db, scalarFacts(state, text), writes);
  return result === STALE_FACTS ? CHANGED : row.id;
}

/**
 * Go-live, run by the per-minute Cron Trigger (src/index.ts; docs/api/change-requests.md §17.6):
 * each APPLIED request whose effective moment has come is recorded as effective once, which the
 * change feed announces; the ids recorded.
 */
export const recordEffectiveChangeRequests = (db: Db, now: number) => recordEffective(db, now);

/** The request as read, or 404. */
async function requireRequest(db: Db, id: number) {
  const found = await findChangeRequest(db, id);
  if (!found) throw missingChangeRequest(id);
  return found;
}

export const updateChangeRequest = (
  db: Db,
  id: number,
  input: ChangeRequestUpdate,
  owner: string,
) =>
  optimistically<number>(label(id), async () => {
    const { row } = await requireRequest(db, id);
    assertAction(row, "update");
    assertFuture(input.effectiveAt, Date.now());
    if (input.items) await assertKnown(db, input.items);
    const set: Partial<ChangeRequestRow> = {
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(input.effectiveAt !== undefined ? { effectiveAt: input.effectiveAt } : {}),
      editors: withWriter(row.editors, owner),
    };
    return writeIfUnchanged(db, row, [
      updateRequest(db, id, set),
      ...(input.items ? replaceItems(db, id, input.items.map(toStored)) : []),
    ]);
  });

/** The items and the facts of what they touch; CHANGED when the request moved meanwhile. */
async function readItems(db: Db, found: FoundRequest) {
  const items = found.items.map(toItem);
  const touch = touchOf(items);
  const read = await readTouch(db, found.row.id, touch);
  const state = read.value.request;
  if (!state || state.status !== found.row.status || state.updatedAt !== found.row.updatedAt) {
    return CHANGED;
  }
  return { items, touch, read };
}

type ReadItems = Exclude<Awaited<ReturnType<typeof readItems>>, typeof CHANGED>;

/** The items judged at `at` (400 naming each issue) and planned: what applying them writes. */
async function judge(readItems: ReadItems, at: number) {
  const { items, read } = readItems;
  const issues = itemIssues(items, read.value.items, at, "items");
  if (issues.length) throw invalid(issues);
  const plan = await planOf(items, read, at);
  return { ...readItems, plan, records: recordChanges(items, read, at) };
}

type Prepared = Awaited<ReturnType<typeof judge>>;

/**
 * The plan of the price items on the stored rows they select, in steps between which the
 * isolate's other requests run (docs/api/change-requests.md §17.7): 409 on an overlap, 400 naming
 * the item whose adjusted amount would pass 2^53 − 1.
 */
async function planOf(
  items: readonly ChangeRequestItem[],
  read: Touched,
  at: number,
): Promise<ChangePlan> {
  // The rows by the selection that read them (one pass); identical selections share theirs.
  const bySelection = read.sameAs.map((): Touched["rows"] => []);
  for (const row of read.rows) bySelection[row.selection]!.push(row);
  const positions: number[] = [];
  const selected: SelectedItem[] = [];
  items.forEach((item, position) => {
    if (item.kind !== "SET_PRICES" && item.kind !== "ADJUST_PRICES") return;
    const rows = bySelection[read.sameAs[positions.length]!]!;
    positions.push(position);
    const it = item.kind === "SET_PRICES" ? item : { ...item, rounding: item.rounding ?? null };
    selected.push({ item: it, rows });
  });
  let plan;
  try {
    plan = await runInSteps(planChangesInSteps(selected, at));
  } catch (error) {
    if (!(error instanceof ChangeAmountOutOfRange)) throw error;
    const { item, productCode, minQuantity } = error;
    const message =
      `would take the price of product ${productCode} from quantity ${minQuantity} past ` +
      `9007199254740991 minor units (2^53 − 1), the largest amount a price can have`;
    throw invalid([{ path: `items.${positions[item]}.adjustmentBp`, message }]);
  }
  if (isChangeOverlap(plan)) {
    throw conflict(
      `the rows of product ${plan.productCode} from quantity ${plan.minQuantity} in pricelist ` +
        `${plan.pricelistId} would overlap; nothing was written`,
      "PRICE_ROWS_OVERLAP",
    );
  }
  return plan;
}

interface RecordChange {
  kind: ChangeRequestTargetKind;
  before: RecordState;
  after: RecordState;
}

/** What ACTIVATE and DEACTIVATE make of their records at `at`, with each one's state before. */
function recordChanges(items: readonly ChangeRequestItem[], read: Touched, at: number) {
  return items.flatMap((item): RecordChange[] => {
    if (item.kind !== "ACTIVATE" && item.kind !== "DEACTIVATE") return [];
    const { id, status, validFrom, validTo } = recordOf(
      read.value.items,
      item.target.kind,
      item.target.id,
    )!;
    const before = { id, status, validFrom, validTo };
    return [{ kind: item.target.kind, before, after: recordAfter(item.kind, before, at) }];
  });
}

const KINDS = ["pricelist", "tradeCondition", "promotion"] as const;

/**
 * Applies a prepared request: its price rows staged under an attempt of its own, in round trips
 * before the batch (`stageWrites`), then ONE batch under the guard of its facts (the request's
 * state, the records and rows its items touch) and of the attempt's staged rows: the price rows
 * written from the staged ones, the records changed, the request APPLIED with `set` and the
 * attempt recorded as its `appliedAttempt` (docs/api/change-requests.md §17.7). CHANGED when
 * anything moved since the read; an attempt that did not apply is discarded.
 */
async function applyPrepared(
  db: Db,
  row: ChangeRequestRow,
  prepared: Prepared,
  set: Partial<ChangeRequestRow>,
): Promise<number | typeof CHANGED> {
  const { read, plan, records } = prepared;
  function* writes() {
    for (const [pricelistId, lists] of plan.lists) {
      yield* stagedWritesOf(pricelistId, lists, read.productIds);
    }
  }
  const staged = await stageWrites(db, row.id, writes());
  const batch = [
    ...(staged ? appliedFromStaged(db, staged) : []),
    ...KINDS.flatMap((kind) =>
      writeRecords(
        db,
        kind,
        records.filter((r) => r.kind === kind).map((r) => r.after),
      ),
    ),
    updateRequest(db, row.id, {
      ...set,
      status: "APPLIED",
      appliedAt: Date.now(),
      appliedAttempt: staged?.attempt ?? null,
      affects: JSON.stringify(affectsOf(prepared.items)),
      restore: JSON.stringify(records),
    }),
  ];
  let applied = false;
  try {
    applied = (await writeJudged(db, scalarFacts(read.facts, read.text), batch)) !== STALE_FACTS;
  } finally {
    if (!applied) await discardFailed(db, staged);
  }
  return applied ? row.id : CHANGED;
}

/**
 * The facts stored at submit: the digest of every line the impact priced (anything it depended
 * on: rates, derivations, conditions, promotions, floors, costs), then the items' facts.
 */
const submittedFactsOf = (digest: string, itemsText: string) => `${digest} ${itemsText}`;

/** The impact of a judged request at `at`; `related`: the requests it stacks with, or none. */
const impactOf = (db: Db, prepared: Prepared, at: number, related: Related | null) =>
  computeImpact(db, {
    at,
    touch: prepared.touch,
    tiers: prepared.plan.tiers,
    activate: targetsOf(prepared.items, "ACTIVATE"),
    deactivate: targetsOf(prepared.items, "DEACTIVATE"),
    related,
  });

/**
 * A submit, approve or cancel: retried on a concurrent change, and counted as this isolate's long
 * D1 work while it runs, so its price lookups wait less for D1 behind it (db/holding.ts).
 */
const longWork = (id: number, attempt: () => Promise<number | typeof CHANGED>) =>
  holdingD1(() => optimistically<number>(label(id), attempt));

/**
 * DRAFT → the impact computed at effectiveAt (or now) and stored with the facts of what the
 * items touch; APPLIED at once when the policy approves it, else PENDING_APPROVAL.
 */
export const submitChangeRequest = (db: Db, id: number) =>
  longWork(id, async () => {
    const found = await requireRequest(db, id);
    const { row } = found;
    assertAction(row, "submit");
    const now = Date.now();
    if (row.effectiveAt !== null && row.effectiveAt <= now) throw effectiveInPast(row);
    const at = row.effectiveAt ?? now;
    const read = await readItems(db, found);
    if (read === CHANGED) return CHANGED;
    const prepared = await judge(read, at);
    const writers = writersOf(row.editors);
    const related = await readRelated(db, { id, at, now, writers, touch: prepared.touch });
    const { impact, digest } = await impactOf(db, prepared, at, related);
    const submitted = {
      submittedAt: now,
      impact: JSON.stringify(impact),
      submittedFacts: submittedFactsOf(digest, prepared.read.itemsText),
    };
    if (approvedByPolicy(await readPolicy(db), impact)) {
      return applyPrepared(db, row, prepared, {
        ...submitted,
        approvedBy: "policy",
        approvedAt: now,
      });
    }
    return writeIfUnchanged(db, row, [
      updateRequest(db, id, { ...submitted, status: "PENDING_APPROVAL" }),
    ]);
  });

/** Back to DRAFT (a stale or late approval), then the refusal. */
async function backToDraft(
  db: Db,
  row: ChangeRequestRow,
  refusal: ApiError,
): Promise<typeof CHANGED> {
  const reset = { status: "DRAFT" as const, submittedAt: null, impact: null, submittedFacts: null };
  if ((await writeIfUnchanged(db, row, [updateRequest(db, row.id, reset)])) === CHANGED) {
    return CHANGED;
  }
  throw refusal;
}

/**
 * PENDING_APPROVAL → APPLIED by a key of another owner than any that wrote it (403
 * SELF_APPROVAL: a rotated key is still its owner's); a passed
 * effectiveAt (409 EFFECTIVE_IN_PAST), or a touched record or any line of its impact changed
 * since the submit (409 STALE_CHANGE_REQUEST: the impact is computed again and its digest
 * compared), sends it back to DRAFT instead.
 */
export const approveChangeRequest = (db: Db, id: number, owner: string) =>
  longWork(id, async () => {
    const found = await requireRequest(db, id);
    const { row } = found;
    assertAction(row, "approve");
    if (wroteIt(row.editors, owner)) {
      throw new ApiError(
        403,
        "SELF_APPROVAL",
        `change request ${id} was written by ${owner}; an admin key of another owner must approve it`,
      );
    }
    const now = Date.now();
    if (row.effectiveAt !== null && row.effectiveAt <= now) {
      return backToDraft(db, row, effectiveInPast(row));
    }
    const read = await readItems(db, found);
    if (read === CHANGED) return CHANGED;
    const stale = () =>
      backToDraft(
        db,
        row,
        conflict(
          `a record, a price or anything its impact depends on (a rate, a derived list, a trade ` +
            `condition, a promotion, a floor or a cost in its channels) changed after change ` +
            `request ${id} was submitted; it is back in DRAFT: submit it again to see its impact now`,
          "STALE_CHANGE_REQUEST",
        ),
      );
    if (!row.submittedFacts?.endsWith(` ${read.read.itemsText}`)) return stale();
    const at = row.effectiveAt ?? now;
    const prepared = await judge(read, at);
    const { digest } = await impactOf(db, prepared, at, null);
    if (submittedFactsOf(digest, read.read.itemsText) !== row.submittedFacts) return stale();
    return applyPrepared(db, row, prepared, { approvedBy: owner, approvedAt: now });
  });

export const rejectChangeRequest = (db: Db, id: number, reason: string, owner: string) =>
  optimistically<number>(label(id), async () => {
    const { row } = await requireRequest(db, id);
    assertAction(row, "reject");
    const set = { status: "REJECTED" as const, rejectedBy: owner, rejectionReason: reason };
    return writeIfUnchanged(db, row, [updateRequest(db, id, set)]);
  });

export const withdrawChangeRequest = (db: Db, id: number) =>
  optimistically<number>(label(id), async () => {
    const { row } = await requireRequest(db, id);
    assertAction(row, "withdraw");
    return writeIfUnchanged(db, row, [updateRequest(db, id, { status: "CANCELLED" })]);
  });

/** The attempt whose staged rows an APPLIED request wrote (0: applied before migration 0031). */
const appliedAttemptOf = (row: ChangeRequestRow): Attempt => ({
  changeRequestId: row.id,
  attempt: row.appliedAttempt ?? 0,
});

/** The facts a cancel is judged on, and re-read by its guard. */
function cancelFacts(row: ChangeRequestRow, records: readonly RecordChange[]): SQL<string> {
  const moment = row.effectiveAt ?? row.appliedAt!;
  const diverged = KINDS.map((kind) =>
    recordsDivergedSql(
      kind,
      records.filter((r) => r.kind === kind).map((r) => r.after),
    ),
  );
  return sql<string>`json_object('request', json(${requestState(row.id)}),
    'rows', ${divergedWritesSql(appliedAttemptOf(row))},
    'records', ${sql.join(diverged, sql` + `)},
    'pending', ${moment} > cast(unixepoch('subsec') * 1000 as integer)
      and (select effective_recorded_at is null from change_requests where id = ${row.id}))`;
}

/**
 * APPLIED → CANCELLED before effectiveAt (409 ALREADY_EFFECTIVE from then on): the rows it
 * inserted deleted, the rows it cut or replaced and the records it changed put back exactly, in
 * one batch. Anything of it changed since by another write: 409, nothing restored.
 */
export const cancelChangeRequest = (db: Db, id: number) =>
  longWork(id, async () => {
    const { row } = await requireRequest(db, id);
    assertAction(row, "cancel");
    const alreadyEffective = () =>
      conflict(
        `change request ${id} took effect at ${iso(row.effectiveAt ?? row.appliedAt!)}; ` +
          "it can no longer be cancelled (write a new one to undo it)",
        "ALREADY_EFFECTIVE",
      );
    // In effect: its date has come, or the scheduled job has announced it (and let go of the
    // rows kept for a cancel), whichever clock got there first.
    const moment = row.effectiveAt ?? row.appliedAt!;
    if (moment <= Date.now() || row.effectiveRecordedAt !== null) throw alreadyEffective();
    const records = JSON.parse(row.restore ?? "[]") as RecordChange[];
    const facts = cancelFacts(row, records);
    const read = await readScalarFacts<{
      request: { status: string; updatedAt: number } | null;
      rows: number;
      records: number;
      pending: number;
    }>(db, facts);
    const { value } = read;
    if (value.request?.status !== row.status || value.request.updatedAt !== row.updatedAt) {
      return CHANGED;
    }
    if (!value.pending) throw alreadyEffective();
    if (value.rows + value.records > 0) {
      throw conflict(
        `${value.rows} price rows and ${value.records} records change request ${id} wrote were ` +
          "changed since by other writes; it cannot restore exactly what was there, so nothing " +
          "was restored",
      );
    }
    const batch = [
      ...restoreStagedWrites(db, appliedAttemptOf(row)),
      ...KINDS.flatMap((kind) =>
        writeRecords(
          db,
          kind,
          records.filter((r) => r.kind === kind).map((r) => r.before),
        ),
      ),
      updateRequest(db, id, { status: "CANCELLED" }),
    ];
    return (await writeJudged(db, read, batch)) === STALE_FACTS ? CHANGED : id;
  });

/** The request as the keys of `owner` read it after a write, or 404 when it is gone. */
export async function answerOf(db: Db, id: number, owner: string) {
  return toChangeRequest(await requireRequest(db, id), owner);
}
