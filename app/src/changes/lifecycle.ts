import type { components } from "../../../client/pricing-api";
import { CHANGE_REQUEST_ACTIONS, type ChangeRequestAction } from "../../../src/pricing/vocabulary";

/*
 * What the Changes page offers a change request in each status: the actions of
 * docs/api/change-requests.md §17.2, read off the service's own table (CHANGE_REQUEST_ACTIONS), so
 * a button is shown only when the API would take the action. The API decides all the same; a
 * refusal (a stale request, an effective date that passed meanwhile) is shown as it comes.
 */

type Schemas = components["schemas"];
export type ChangeRequest = Schemas["ChangeRequest"];
export type ChangeRequestStatus = ChangeRequest["status"];
/** The actions of the page: every one of the API's but PATCH. */
export type Action = Exclude<ChangeRequestAction, "update">;

/** Every status in the API's vocabulary, with the words the page uses for it. */
export const STATUS_TEXT: Record<ChangeRequestStatus, string> = {
  DRAFT: "Draft",
  PENDING_APPROVAL: "Waiting for approval",
  APPLIED: "Applied",
  REJECTED: "Rejected",
  CANCELLED: "Cancelled",
};

/** The page's actions (PATCH is not one of them), in the order it offers them. */
const ACTIONS: readonly Action[] = ["submit", "approve", "reject", "withdraw", "cancel"];

/** When an APPLIED request is in effect: its effectiveAt, or without one the moment it applied. */
export const inEffectFrom = (request: Pick<ChangeRequest, "effectiveAt" | "appliedAt">) =>
  request.effectiveAt ?? request.appliedAt;

/**
 * The actions the status allows; an APPLIED request only until it is in effect (`now`, epoch ms).
 * Approve stays listed for a key that wrote the request: the page shows it disabled, with why.
 */
export function actionsOf(
  request: Pick<ChangeRequest, "status" | "effectiveAt" | "appliedAt">,
  now: number,
): Action[] {
  const allowed = ACTIONS.filter((action) =>
    (CHANGE_REQUEST_ACTIONS[action] as readonly ChangeRequestStatus[]).includes(request.status),
  );
  const from = inEffectFrom(request);
  if (request.status === "APPLIED" && (from === null || Date.parse(from) <= now)) return [];
  return allowed;
}

/** Why this key may not approve the request, as the page says it; null when it may. */
export function selfApprovalText(
  request: Pick<ChangeRequest, "status" | "writtenByCaller" | "writers">,
): string | null {
  if (request.status !== "PENDING_APPROVAL" || !request.writtenByCaller) return null;
  const writers = request.writers.join(", ");
  return (
    `You cannot approve this request: the owner of the key you are signed in with wrote it ` +
    `(written by ${writers}), and a change needs a second person. An admin key of another owner ` +
    "must approve it."
  );
}
