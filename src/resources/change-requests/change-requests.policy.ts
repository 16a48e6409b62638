import type { ComputedImpact } from "./change-requests.impact";

/* The approval policy's one judgement of an impact (docs/api.md §17.4). */

/**
 * The policy's judgement (docs/api.md §17.4): both limits set; the request's own change and its
 * cumulative change within them, no price appearing or vanishing in either; nothing omitted; no
 * pending request on a record it names.
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
