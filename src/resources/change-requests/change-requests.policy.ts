import { CHANGED, optimistically } from "../../db/optimistic";
import { ApiError, conflict } from "../../core/errors";
import { iso } from "../../core/schemas";
import { readPolicy, writePolicy, type PolicyRow } from "./change-requests.repo";
import type { Policy } from "./change-requests.policy.schemas";
import type { ComputedImpact } from "./change-requests.impact";

/*
 * Who may change the approval policy (docs/api/change-requests.md §17.4). The policy decides which
 * requests skip the second key, so loosening it is itself a four-eyes change: a PUT that would
 * approve more than the policy in force only proposes it, and an admin key of another owner
 * approves the proposal. A PUT that approves nothing more (tighter, equal, or off) applies at once:
 * making approval stricter never needs a second person. Either way a PUT replaces any waiting
 * proposal.
 */

const LABEL = "the approval policy";

const isOn = (p: Policy) => p.autoApproveMaxRaiseBp !== null && p.autoApproveMaxCutBp !== null;

const limitsOf = (row: PolicyRow): Policy => ({
  autoApproveMaxRaiseBp: row.autoApproveMaxRaiseBp,
  autoApproveMaxCutBp: row.autoApproveMaxCutBp,
});

/** Whether `next` approves no request that `current` would not approve. */
export const approvesNoMore = (next: Policy, current: Policy) =>
  !isOn(next) ||
  (isOn(current) &&
    next.autoApproveMaxRaiseBp! <= current.autoApproveMaxRaiseBp! &&
    next.autoApproveMaxCutBp! <= current.autoApproveMaxCutBp!);

const sameLimits = (a: Policy, b: Policy) =>
  a.autoApproveMaxRaiseBp === b.autoApproveMaxRaiseBp &&
  a.autoApproveMaxCutBp === b.autoApproveMaxCutBp;

const noProposal = {
  proposedMaxRaiseBp: null,
  proposedMaxCutBp: null,
  proposedBy: null,
  proposedAt: null,
};

const proposalOf = (row: PolicyRow): Policy | undefined =>
  row.proposedBy === null
    ? undefined
    : { autoApproveMaxRaiseBp: row.proposedMaxRaiseBp, autoApproveMaxCutBp: row.proposedMaxCutBp };

/** The policy as a key of `owner` reads it (`proposedByCaller` is about that owner). */
export const toPolicyState = (row: PolicyRow, owner: string) => {
  const proposal = proposalOf(row);
  return {
    ...limitsOf(row),
    setBy: row.setBy,
    approvedBy: row.approvedBy,
    updatedAt: iso(row.updatedAt),
    proposal: proposal
      ? {
          ...proposal,
          proposedBy: row.proposedBy!,
          proposedAt: iso(row.proposedAt!),
          proposedByCaller: row.proposedBy === owner,
        }
      : null,
  };
};

/**
 * PUT: `limits` in force at once when they approve no more than the policy in force (`applied`),
 * else the waiting proposal of `owner`. Guarded by the policy's updatedAt, so a tightening and
 * a loosening at once cannot both be judged against the same policy.
 */
export const putPolicy = (db: Parameters<typeof readPolicy>[0], limits: Policy, owner: string) =>
  optimistically(LABEL, async () => {
    const row = await readPolicy(db);
    const inForce = limitsOf(row);
    if (approvesNoMore(limits, inForce)) {
      // The same limits again keep who set and approved them; only a waiting proposal goes.
      const who = sameLimits(limits, inForce) ? {} : { setBy: owner, approvedBy: null };
      const written = await writePolicy(db, row.updatedAt, { ...limits, ...who, ...noProposal });
      return written ? { row: written, applied: true } : CHANGED;
    }
    const written = await writePolicy(db, row.updatedAt, {
      proposedMaxRaiseBp: limits.autoApproveMaxRaiseBp,
      proposedMaxCutBp: limits.autoApproveMaxCutBp,
      proposedBy: owner,
      proposedAt: Date.now(),
    });
    return written ? { row: written, applied: false } : CHANGED;
  });

/**
 * The waiting proposal in force, approved by `owner`: another owner than the one that proposed
 * it (403 SELF_APPROVAL), naming the limits it approves (409 when the proposal is not, or no
 * longer, those: a PUT may have replaced it since it was read).
 */
export const approvePolicy = (
  db: Parameters<typeof readPolicy>[0],
  limits: Policy,
  owner: string,
) =>
  optimistically(LABEL, async () => {
    const row = await readPolicy(db);
    const proposal = proposalOf(row);
    if (!proposal) {
      throw conflict("no change of the approval policy waits for approval", "NO_POLICY_PROPOSAL");
    }
    if (!sameLimits(proposal, limits)) {
      throw conflict(
        `the proposal waiting for approval is { autoApproveMaxRaiseBp: ${proposal.autoApproveMaxRaiseBp}, ` +
          `autoApproveMaxCutBp: ${proposal.autoApproveMaxCutBp} } by ${row.proposedBy}, not the ` +
          "limits sent; nothing was approved",
        "POLICY_PROPOSAL_CHANGED",
      );
    }
    if (row.proposedBy === owner) {
      throw new ApiError(
        403,
        "SELF_APPROVAL",
        `the policy change was proposed by ${owner}; an admin key of another owner must approve it`,
      );
    }
    const written = await writePolicy(db, row.updatedAt, {
      ...proposal,
      setBy: row.proposedBy,
      approvedBy: owner,
      ...noProposal,
    });
    return written ?? CHANGED;
  });

/**
 * The policy's judgement (docs/api/change-requests.md §17.4): both limits set; the request's own
 * change and its cumulative change within them, no price appearing or vanishing in either; nothing
 * omitted; no pending request on a record it names.
 */
export function approvedByPolicy(
  policy: { autoApproveMaxRaiseBp: number | null; autoApproveMaxCutBp: number | null },
  impact: ComputedImpact,
) {
  const { autoApproveMaxRaiseBp: raise, autoApproveMaxCutBp: cut } = policy;
  if (raise === null || cut === null) return false;
  const within = (change: ComputedImpact | ComputedImpact["cumulative"]) =>
    change.maxRaiseBp <= raise &&
    change.maxCutBp <= cut &&
    change.pricesAppeared === 0 &&
    change.pricesVanished === 0;
  const omitted =
    impact.channelsOmitted +
    impact.productsOmitted +
    impact.customersOmitted +
    impact.quantitiesOmitted;
  return (
    within(impact) &&
    within(impact.cumulative) &&
    omitted === 0 &&
    impact.cumulative.pendingRequestIds.length === 0
  );
}
