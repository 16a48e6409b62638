import { agreementAcceptedWrites } from "../../db/agreements";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../db/client";
import { CHANGED, optimistically } from "../../db/optimistic";
import { ApiError, conflict, invalid, notFound, type FieldIssue } from "../../core/errors";
import { iso, isoOrNull } from "../../core/schemas";
import { withWriter, writerFields, writersOf, wroteIt } from "../../core/writers";
import type { Role } from "../../http/env";
import {
  approvesAt,
  decideSubmit,
  type JudgedLine,
  type QuotePolicyRules,
  type QuoteTier,
} from "../../pricing/quotes";
import { QUOTE_ACTIONS, type QuoteAction, type QuoteStoredStatus } from "../../pricing/vocabulary";
import { lineIssues, priceQuote, unprocessable, type StoredAdjustment } from "./quotes.pricing";
import {
  findQuote,
  idsByCode,
  insertQuote,
  MOVED_ON,
  readQuotePolicy,
  recordRevision,
  replaceLines,
  transition,
  writeQuotePolicy,
  type FoundQuote,
  type NewQuoteLine,
  type QuoteLineRow,
  type QuotePolicyRow,
  type QuoteRow,
  type QuoteSet,
} from "./quotes.repo";
import {
  MAX_VALIDITY_MS,
  type QuoteCreate,
  type QuoteLineInput,
  type QuotePolicyInput,
  type QuoteUpdate,
} from "./quotes.schemas";

/*
 * The rules of quotes (docs/quotes.md): who may do what in which status, pricing and judging
 * the lines, the approval by authority at submit and approve, stale detection, expiry. Every
 * transition is a guarded write (quotes.repo.ts `transition`) read and judged again when another
 * request moved the quote first, so of two concurrent actions one wins and the other meets the
 * new status (409).
 */

/** The calling key: its name (the trail, `author`, `approvedBy`), owner (four eyes) and role. */
export interface Caller {
  name: string;
  owner: string;
  role: Role;
}

/**
 * What the caller may see of a quote's lines (docs/quotes.md §2): `margin` (admin and sales keys)
 * the floor and the margin, `cost` (admin keys) the cost and a cost-derived floor's id too; and
 * whose key asks (`owner`: `writtenByCaller` is about it).
 */
export interface QuoteView {
  margin: boolean;
  cost: boolean;
  owner: string;
}

export const missingQuote = (id: number) => notFound(`quote ${id} not found`);

const label = (id: number) => `quote ${id}`;

async function requireQuote(db: Db, id: number) {
  const found = await findQuote(db, id);
  if (!found) throw missingQuote(id);
  return found;
}

/**
 * The one refusal of an action in the wrong status: 409 QUOTE_EXPIRED on a quote that reads
 * EXPIRED, QUOTE_REDEEMED on a redeemed one's redeem, else INVALID_TRANSITION naming both.
 */
function assertAction(row: QuoteRow, action: QuoteAction) {
  if (row.readStatus === "EXPIRED") {
    throw conflict(
      `quote ${row.id} expired at ${iso(row.validTo)} (it was ${row.status}); no action applies to it`,
      "QUOTE_EXPIRED",
    );
  }
  if (action === "redeem" && row.status === "REDEEMED") {
    throw conflict(
      `quote ${row.id} was redeemed at ${isoOrNull(row.redeemedAt)} for order ${row.orderRef}`,
      "QUOTE_REDEEMED",
    );
  }
  const allowed: readonly QuoteStoredStatus[] = QUOTE_ACTIONS[action];
  if (allowed.includes(row.status)) return;
  throw conflict(
    `quote ${row.id} is ${row.status}; ${action} is allowed only when it is ${allowed.join(" or ")}`,
    "INVALID_TRANSITION",
  );
}

/** validTo in the future and at most 366 days ahead: else 422 naming it. */
function assertValidTo(validTo: number, now: number) {
  const problem =
    validTo <= now
      ? "must lie in the future"
      : validTo > now + MAX_VALIDITY_MS
        ? "must lie at most 366 days ahead"
        : undefined;
  if (problem) {
    throw unprocessable("VALID_TO_OUT_OF_RANGE", `validTo ${iso(validTo)} ${problem}`, [
      { path: "body.validTo", message: problem },
    ]);
  }
}

/** Unknown customer, channel or products, and products named twice: 400 naming each. */
async function knownIds(
  db: Db,
  parties: { customerCode?: string; channelCode?: string },
  lines: readonly QuoteLineInput[],
) {
  const ids = await idsByCode(db, { ...parties, productCodes: lines.map((l) => l.productCode) });
  const issues: FieldIssue[] = [];
  if (parties.customerCode !== undefined && ids.customerId === undefined) {
    issues.push({ path: "body.customerCode", message: `unknown customer ${parties.customerCode}` });
  }
  if (parties.channelCode !== undefined && ids.channelId === undefined) {
    issues.push({ path: "body.channelCode", message: `unknown channel ${parties.channelCode}` });
  }
  issues.push(...lineIssues(lines, ids.productIds));
  if (issues.length) throw invalid(issues);
  return ids;
}

export async function createQuote(db: Db, input: QuoteCreate, caller: Caller) {
  assertValidTo(input.validTo, Date.now());
  const ids = await knownIds(db, input, input.lines);
  const priced = await priceQuote(db, input, input.lines, ids.productIds);
  return insertQuote(
    db,
    {
      customerId: ids.customerId!,
      channelId: ids.channelId!,
      currency: priced.currency,
      mode: input.mode,
      lock: input.lock,
      validTo: input.validTo,
      totalAmount: priced.totalAmount,
      author: caller.name,
      authorOwner: caller.owner,
      writers: JSON.stringify([caller.owner]),
      pricedAt: Date.now(),
    },
    priced.lines,
  );
}

/** The stored lines as a body would name them: the quoted prices kept. */
const inputsOf = (lines: readonly QuoteLineRow[]): QuoteLineInput[] =>
  lines.map((line) => ({
    productCode: line.productCode,
    quantity: line.quantity,
    unitAmount: line.quotedUnitAmount,
  }));

/** Prices the quote's lines (or `lines`) again for its customer and channel. */
async function reprice(db: Db, found: FoundQuote, lines = inputsOf(found.lines)) {
  const { productIds } = await knownIds(db, {}, lines);
  const parties = { customerCode: found.row.customerCode, channelCode: found.row.channelCode };
  return priceQuote(db, parties, lines, productIds);
}

/**
 * Runs one action: reads the quote, checks the action is allowed, lets `decide` judge it and name
 * the writes, and writes them guarded; read and judged again when another request moved it first.
 */
function act(
  db: Db,
  id: number,
  action: QuoteAction,
  decide: (found: FoundQuote) => Promise<{ set: QuoteSet; writes?: BatchItem<"sqlite">[] }>,
) {
  return optimistically<number>(label(id), async () => {
    const found = await requireQuote(db, id);
    assertAction(found.row, action);
    const { set, writes } = await decide(found);
    const moved = await transition(db, found.row, set, writes);
    return moved === MOVED_ON ? CHANGED : id;
  });
}

/**
 * PATCH (DRAFT, RENEGOTIATING): replaces what it names and prices everything again; the owner of
 * the key joins the quote's writers.
 */
export const updateQuote = (db: Db, id: number, input: QuoteUpdate, owner: string) =>
  act(db, id, "update", async (found) => {
    if (input.validTo !== undefined) assertValidTo(input.validTo, Date.now());
    const priced = await reprice(db, found, input.lines);
    const next: QuoteSet =
      found.row.status === "RENEGOTIATING"
        ? { status: "DRAFT", revision: found.row.revision + 1, ...clearedApproval }
        : {};
    return {
      set: {
        ...next,
        validTo: input.validTo,
        mode: input.mode,
        lock: input.lock,
        currency: priced.currency,
        totalAmount: priced.totalAmount,
        pricedAt: Date.now(),
        writers: withWriter(found.row.writers, owner),
      },
      writes: replaceLines(db, id, priced.lines),
    };
  });

/** What a new revision or a return to DRAFT clears. */
const clearedApproval = {
  requiredTier: null,
  approvedBy: null,
  approvedAt: null,
  sentAt: null,
} satisfies QuoteSet;

const judged = (lines: readonly Pick<NewQuoteLine, "productId" | "cutBp" | "marginBp">[]) =>
  lines.map((l): JudgedLine => ({
    productId: l.productId,
    cutBp: l.cutBp,
    marginBp: l.marginBp ?? null,
  }));

/** The policy as the engine reads it. */
export const rulesOf = (row: QuotePolicyRow): QuotePolicyRules => ({
  autoApprove: row.autoApproveEnabled
    ? { maxCutBp: row.autoApproveMaxCutBp!, minMarginBp: row.autoApproveMinMarginBp }
    : null,
  tiers: JSON.parse(row.tiers) as QuoteTier[],
});

/** A revision as approved: what a later one's envelope compares with. */
function approvedRevision(row: QuoteRow, lines: readonly NewQuoteLine[], by: string, at: number) {
  const snapshot = lines.map((l) => ({
    productId: l.productId,
    quantity: l.quantity,
    quotedUnitAmount: l.quotedUnitAmount,
    priceUnit: l.priceUnit ?? 1,
    cutBp: l.cutBp,
    marginBp: l.marginBp ?? null,
  }));
  return {
    quoteId: row.id,
    revision: row.revision,
    approvedBy: by,
    approvedAt: at,
    totalAmount: lines.reduce((sum, l) => sum + l.lineAmount, 0),
    validTo: row.validTo,
    lines: JSON.stringify(snapshot),
  };
}

/**
 * Submit (DRAFT): prices again (422 BELOW_FLOOR when a floor rose above a quoted price), then
 * auto-approval, the envelope of an approved revision, the required tier, or 422
 * NO_APPROVAL_TIER (docs/quotes.md §4).
 */
export const submitQuote = (db: Db, id: number) =>
  act(db, id, "submit", async (found) => {
    const priced = await reprice(db, found);
    const policy = rulesOf(await readQuotePolicy(db));
    const earlier = found.revisions
      .filter((r) => r.revision < found.row.revision)
      .map((r) => judged(JSON.parse(r.lines) as NewQuoteLine[]));
    const decision = decideSubmit(judged(priced.lines), policy, earlier);
    if (decision.kind === "NO_APPROVAL_TIER") {
      throw unprocessable(
        "NO_APPROVAL_TIER",
        `quote ${id} is within no tier of the quote policy: no one may approve it; quote a ` +
          "smaller cut or a larger margin",
        [{ path: "body", message: "no approval tier allows these prices" }],
      );
    }
    const now = Date.now();
    const base: QuoteSet = {
      currency: priced.currency,
      totalAmount: priced.totalAmount,
      pricedAt: now,
      submittedAt: now,
      rejectedBy: null,
      rejectionReason: null,
    };
    const lines = replaceLines(db, id, priced.lines);
    if (decision.kind === "PENDING_APPROVAL") {
      return {
        set: { ...base, status: "PENDING_APPROVAL", requiredTier: decision.tier.name },
        writes: lines,
      };
    }
    const revision = approvedRevision(found.row, priced.lines, decision.approvedBy, now);
    return {
      set: {
        ...base,
        status: "APPROVED",
        requiredTier: null,
        approvedBy: decision.approvedBy,
        approvedAt: now,
      },
      writes: [...lines, recordRevision(db, revision)],
    };
  });

/**
 * Who may approve or reject a quote: never a key of an owner among its writers (403 SELF_APPROVAL,
 * checked first); admin keys at every tier; a sales key whose owner the required tier or a later
 * one names (else 403 NOT_AN_APPROVER).
 */
async function assertApprover(db: Db, row: QuoteRow, caller: Caller) {
  if (wroteIt(row.writers, caller.owner)) {
    throw new ApiError(
      403,
      "SELF_APPROVAL",
      `quote ${row.id} was written by ${writersOf(row.writers).join(", ")}; a key of another ` +
        "owner must approve or reject it",
    );
  }
  if (caller.role === "admin") return;
  const { tiers } = rulesOf(await readQuotePolicy(db));
  if (!approvesAt(caller.owner, row.requiredTier ?? "", tiers)) {
    throw new ApiError(
      403,
      "NOT_AN_APPROVER",
      `quote ${row.id} needs the approval of tier ${row.requiredTier}; ${caller.owner} is no ` +
        "approver of that tier or a later one",
    );
  }
}

/** What moved since the submit: a line's regular price, price unit or floor (docs/quotes.md §4). */
function staleLines(stored: readonly QuoteLineRow[], now: readonly NewQuoteLine[]) {
  return stored.flatMap((line, i) => {
    const fresh = now[i]!;
    const moved =
      fresh.regularUnitAmount !== line.regularUnitAmount ||
      (fresh.priceUnit ?? 1) !== line.priceUnit ||
      (fresh.floorUnitAmount ?? null) !== line.floorUnitAmount;
    return moved
      ? [
          `${line.productCode}: regular ${line.regularUnitAmount} → ${fresh.regularUnitAmount}, ` +
            `floor ${line.floorUnitAmount ?? "none"} → ${fresh.floorUnitAmount ?? "none"}`,
        ]
      : [];
  });
}

/** The lines priced now, or why they cannot be (a line lost its price, a floor rose above it). */
async function repricedOrWhy(db: Db, found: FoundQuote) {
  try {
    return { priced: await reprice(db, found) };
  } catch (error) {
    if (error instanceof ApiError && error.status === 422) return { why: error.detail };
    throw error;
  }
}

/**
 * Approve (PENDING_APPROVAL): the approver's checks, then the lines priced again; a regular price
 * or floor that moved since the submit sends the quote back to DRAFT with its new prices (409
 * STALE_QUOTE), else APPROVED and the revision recorded.
 */
export async function approveQuote(db: Db, id: number, caller: Caller) {
  let stale: string | undefined;
  await act(db, id, "approve", async (found) => {
    await assertApprover(db, found.row, caller);
    const { priced, why } = await repricedOrWhy(db, found);
    const moved = priced ? staleLines(found.lines, priced.lines) : [why!];
    const now = Date.now();
    if (moved.length) {
      stale = moved.join("; ");
      return {
        set: { status: "DRAFT", ...clearedApproval, ...(priced ? pricedSet(priced, now) : {}) },
        writes: priced ? replaceLines(db, id, priced.lines) : [],
      };
    }
    stale = undefined;
    const lines = priced!.lines;
    return {
      set: { status: "APPROVED", requiredTier: null, approvedBy: caller.name, approvedAt: now },
      writes: [recordRevision(db, approvedRevision(found.row, lines, caller.name, now))],
    };
  });
  if (stale !== undefined) {
    throw conflict(
      `quote ${id} changed since it was submitted (${stale}); it is DRAFT again: check the ` +
        "prices and submit it again",
      "STALE_QUOTE",
    );
  }
  return id;
}

const pricedSet = (priced: { currency: string; totalAmount: number }, now: number) => ({
  currency: priced.currency,
  totalAmount: priced.totalAmount,
  pricedAt: now,
});

/** Reject (PENDING_APPROVAL), by a key that may approve it: DRAFT with the reason. */
export const rejectQuote = (db: Db, id: number, reason: string, caller: Caller) =>
  act(db, id, "reject", async (found) => {
    await assertApprover(db, found.row, caller);
    return {
      set: {
        status: "DRAFT",
        ...clearedApproval,
        rejectedBy: caller.name,
        rejectionReason: reason,
      },
    };
  });

export const sendQuote = (db: Db, id: number) =>
  act(db, id, "send", async () => ({ set: { status: "SENT", sentAt: Date.now() } }));

/**
 * Accept (SENT): ACCEPTED; an AGREEMENT's acceptance also moves the pricing data version and
 * writes its EFFECTIVE feed entry in the same batch (docs/quotes-honouring.md §3).
 */
export const acceptQuote = (db: Db, id: number) =>
  act(db, id, "accept", async () => {
    const acceptedAt = Date.now();
    return {
      set: { status: "ACCEPTED", acceptedAt },
      writes: agreementAcceptedWrites(db, id, acceptedAt),
    };
  });

export const declineQuote = (
  db: Db,
  id: number,
  input: { reason?: string; renegotiate: boolean },
) =>
  act(db, id, "decline", async () => ({
    set: {
      status: input.renegotiate ? "RENEGOTIATING" : "DECLINED",
      declinedAt: Date.now(),
      declineReason: input.reason ?? null,
    },
  }));

export const withdrawQuote = (db: Db, id: number) =>
  act(db, id, "withdraw", async () => ({
    set: { status: "WITHDRAWN", withdrawnAt: Date.now() },
  }));

/** Redeem (ACCEPTED ONCE): REDEEMED with the order; again → 409 QUOTE_REDEEMED. */
export const redeemQuote = (db: Db, id: number, orderRef: string) =>
  act(db, id, "redeem", async (found) => {
    if (found.row.mode !== "ONCE") {
      throw conflict(
        `quote ${id} is an AGREEMENT: it holds until validTo and is not redeemed`,
        "INVALID_TRANSITION",
      );
    }
    return { set: { status: "REDEEMED", redeemedAt: Date.now(), orderRef } };
  });

// ---------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------

const quoteFieldsOf = (row: QuoteRow, view: QuoteView) => ({
  id: row.id,
  status: row.readStatus,
  revision: row.revision,
  customerCode: row.customerCode,
  channelCode: row.channelCode,
  currency: row.currency,
  mode: row.mode,
  lock: row.lock,
  validTo: iso(row.validTo),
  totalAmount: row.totalAmount,
  requiredTier: row.requiredTier,
  author: row.author,
  ...writerFields(row.writers, view.owner),
  submittedAt: isoOrNull(row.submittedAt),
  approvedBy: row.approvedBy,
  approvedAt: isoOrNull(row.approvedAt),
  rejectedBy: row.rejectedBy,
  rejectionReason: row.rejectionReason,
  sentAt: isoOrNull(row.sentAt),
  acceptedAt: isoOrNull(row.acceptedAt),
  declinedAt: isoOrNull(row.declinedAt),
  declineReason: row.declineReason,
  withdrawnAt: isoOrNull(row.withdrawnAt),
  redeemedAt: isoOrNull(row.redeemedAt),
  orderRef: row.orderRef,
  pricedAt: iso(row.pricedAt),
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});

/** The receipt as the caller may see it: a hidden floor's id only for a key that sees costs. */
const adjustmentsOf = (text: string, view: QuoteView) =>
  (JSON.parse(text) as StoredAdjustment[]).map(({ hidden, ...a }) =>
    hidden && !view.cost ? { ...a, id: null } : a,
  );

function toLine(line: QuoteLineRow, view: QuoteView) {
  return {
    productCode: line.productCode,
    quantity: line.quantity,
    regularUnitAmount: line.regularUnitAmount,
    priceUnit: line.priceUnit,
    // The seller's own limits: a floor may derive from cost (docs/api/access.md §18), never the buyer's.
    ...(view.margin ? { floorUnitAmount: line.floorUnitAmount } : {}),
    quotedUnitAmount: line.quotedUnitAmount,
    lineAmount: line.lineAmount,
    cutBp: line.cutBp,
    ...(view.margin ? { marginBp: line.marginBp } : {}),
    ...(view.cost ? { costUnitAmount: line.costUnitAmount } : {}),
    adjustments: adjustmentsOf(line.adjustments, view),
  };
}

export const toQuote = ({ row, lines, revisions }: FoundQuote, view: QuoteView) => ({
  ...quoteFieldsOf(row, view),
  lines: lines.map((line) => toLine(line, view)),
  revisions: revisions.map((r) => ({
    revision: r.revision,
    approvedBy: r.approvedBy,
    approvedAt: iso(r.approvedAt),
    validTo: iso(r.validTo),
    totalAmount: r.totalAmount,
  })),
});

export const toQuoteSummary = (row: QuoteRow & { lineCount: number }, view: QuoteView) => ({
  ...quoteFieldsOf(row, view),
  lineCount: row.lineCount,
});

export const answerOf = async (db: Db, id: number, view: QuoteView) =>
  toQuote(await requireQuote(db, id), view);

// ---------------------------------------------------------------------------------------------
// The policy
// ---------------------------------------------------------------------------------------------

export const toPolicyState = (row: QuotePolicyRow) => ({
  ...rulesOf(row),
  setBy: row.setBy,
  updatedAt: iso(row.updatedAt),
});

export const getQuotePolicy = async (db: Db) => toPolicyState(await readQuotePolicy(db));

/** PUT the policy: tier names unique (400 naming the second); in force at once. */
export async function putQuotePolicy(db: Db, input: QuotePolicyInput, caller: Caller) {
  const seen = new Set<string>();
  const issues = input.tiers.flatMap((tier, i) => {
    if (!seen.has(tier.name)) return seen.add(tier.name) && [];
    return [{ path: `body.tiers.${i}.name`, message: `names tier ${tier.name} again` }];
  });
  if (issues.length) throw invalid(issues);
  const row = await writeQuotePolicy(db, {
    autoApproveEnabled: input.autoApprove !== null,
    autoApproveMaxCutBp: input.autoApprove?.maxCutBp ?? null,
    autoApproveMinMarginBp: input.autoApprove?.minMarginBp ?? null,
    tiers: JSON.stringify(input.tiers),
    setBy: caller.name,
  });
  return toPolicyState(row);
}
