import type { Status } from "../pricing/vocabulary";
import { conflict, type FieldIssue } from "./errors";

/*
 * A record's lifecycle, the same for pricelists, trade conditions and promotions: its status
 * moves along allowed edges, ARCHIVED is final, and its validity window ends after it starts.
 */

const ALLOWED: Record<Status, readonly Status[]> = {
  DRAFT: ["ACTIVE", "ARCHIVED"],
  ACTIVE: ["INACTIVE", "ARCHIVED"],
  INACTIVE: ["ACTIVE", "ARCHIVED"],
  ARCHIVED: [],
};

/** Staying in the same status is a no-op; anything else must be an allowed edge. ARCHIVED is final. */
export function assertTransition(entity: string, from: Status, to: Status): void {
  if (from === to || ALLOWED[from].includes(to)) return;
  throw conflict(
    `${entity} cannot change status from ${from} to ${to}` +
      (ALLOWED[from].length ? ` (allowed: ${ALLOWED[from].join(", ")})` : " (ARCHIVED is final)"),
    "INVALID_STATUS_TRANSITION",
  );
}

/** The one refusal of any change to an ARCHIVED record: its fields, links, targets or prices. */
export function assertNotArchived(entity: string, status: Status): void {
  if (status === "ARCHIVED") throw conflict(`${entity} is ARCHIVED and can no longer be edited`);
}

/** The validity window [validFrom, validTo): when both ends are set, the end comes after the start. */
export function windowIssues(
  window: { validFrom?: number | null; validTo?: number | null },
  path = "body.validTo",
): FieldIssue[] {
  const { validFrom, validTo } = window;
  return validFrom != null && validTo != null && validFrom >= validTo
    ? [{ path, message: "must be after validFrom" }]
    : [];
}
