import type { Instant, Validity } from "./types";

/** Half-open [validFrom, validTo), null = open: a record is valid at its validFrom, not at its validTo. */
export const isInWindow = (v: Validity, at: Instant): boolean =>
  (v.validFrom === null || v.validFrom <= at) && (v.validTo === null || at < v.validTo);

/**
 * Collects the earliest validity edge strictly after `at` of the records looked at: the answer
 * cannot change by time alone before that instant, so callers may cache it until then.
 */
export class EdgeTracker {
  earliest: Instant | null = null;

  constructor(private readonly at: Instant) {}

  note(v: Validity): void {
    this.consider(v.validFrom);
    this.consider(v.validTo);
  }

  private consider(edge: Instant | null): void {
    if (edge !== null && edge > this.at && (this.earliest === null || edge < this.earliest)) {
      this.earliest = edge;
    }
  }
}
