import type { Status } from "../pricing/vocabulary";
import { conflict } from "./errors";

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
