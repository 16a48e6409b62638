import { AmountOutOfRange, scale } from "./money";

/**
 * The engine's judgement of a quote (docs/pricing-rules.md §27, docs/quotes.md §2–4): how far
 * each quoted price cuts into the customer's regular price and what margin it leaves, whether a
 * quote stays within a set of limits, the tier of the approval policy it needs, and whether a new
 * revision stays within the envelope of one approved before. Pure and integer-only: every ratio
 * is in basis points, rounded once, towards the safe side of the approval.
 */

/** The limits of auto-approval or of an approval tier; `minMarginBp` null: no margin test. */
export interface QuoteLimits {
  maxCutBp: number;
  minMarginBp: number | null;
}

export interface QuoteTier extends QuoteLimits {
  name: string;
  /** The owners of the sales keys that approve at this tier (admin keys approve at every tier). */
  approvers: string[];
}

export interface QuotePolicyRules {
  autoApprove: QuoteLimits | null;
  /** In rising authority. */
  tiers: QuoteTier[];
}

/** What the approval compares of a line. */
export interface JudgedLine {
  productId: number;
  cutBp: number;
  marginBp: number | null;
}

/**
 * max(0, ⌈(regular − quoted) × 10000 / regular⌉): rounded up, so a cut never looks smaller than
 * it is. 0 when the quoted price is not below the regular one (a regular price of 0 included).
 */
export function cutBpOf(regular: number, quoted: number): number {
  if (quoted >= regular) return 0;
  return scale(regular - quoted, 10_000, regular, "UP");
}

/**
 * ⌊(quoted − cost) × 10000 / quoted⌋: rounded down (towards −∞), so a margin never looks larger
 * than it is. null without a cost, when the quoted price is 0, or past 2^53 − 1.
 */
export function quoteMarginBpOf(quoted: number, cost: number | null): number | null {
  if (cost === null || quoted === 0) return null;
  const difference = quoted - cost;
  try {
    return difference >= 0
      ? scale(difference, 10_000, quoted, "DOWN")
      : -scale(-difference, 10_000, quoted, "UP");
  } catch (error) {
    if (!(error instanceof AmountOutOfRange)) throw error;
    return null;
  }
}

/** A line is within limits when its cut is at most maxCutBp and its margin at least minMarginBp. */
export const lineWithin = (line: JudgedLine, limits: QuoteLimits): boolean =>
  line.cutBp <= limits.maxCutBp &&
  (limits.minMarginBp === null || (line.marginBp !== null && line.marginBp >= limits.minMarginBp));

/** A quote is within limits when every line is. */
export const quoteWithin = (lines: readonly JudgedLine[], limits: QuoteLimits): boolean =>
  lines.every((line) => lineWithin(line, limits));

/** The first tier, in rising authority, whose limits the quote is within; undefined: none. */
export const requiredTierOf = (lines: readonly JudgedLine[], tiers: readonly QuoteTier[]) =>
  tiers.find((tier) => quoteWithin(lines, tier));

/**
 * Whether the quote's lines are no worse than an approved revision's: the same products, and per
 * product a cut no larger and a margin no smaller (or both null).
 */
export function withinEnvelope(
  lines: readonly JudgedLine[],
  approved: readonly JudgedLine[],
): boolean {
  if (lines.length !== approved.length) return false;
  const before = new Map(approved.map((line) => [line.productId, line]));
  return lines.every((line) => {
    const earlier = before.get(line.productId);
    if (!earlier || line.cutBp > earlier.cutBp) return false;
    if (line.marginBp === null || earlier.marginBp === null) {
      return line.marginBp === null && earlier.marginBp === null;
    }
    return line.marginBp >= earlier.marginBp;
  });
}

/** How a submit decides (docs/quotes.md §4): in this order, the first that applies. */
export type SubmitDecision =
  | { kind: "APPROVED"; approvedBy: "policy" | "envelope" }
  | { kind: "PENDING_APPROVAL"; tier: QuoteTier }
  | { kind: "NO_APPROVAL_TIER" };

export function decideSubmit(
  lines: readonly JudgedLine[],
  policy: QuotePolicyRules,
  approvedRevisions: readonly (readonly JudgedLine[])[],
): SubmitDecision {
  if (policy.autoApprove && quoteWithin(lines, policy.autoApprove)) {
    return { kind: "APPROVED", approvedBy: "policy" };
  }
  if (approvedRevisions.some((approved) => withinEnvelope(lines, approved))) {
    return { kind: "APPROVED", approvedBy: "envelope" };
  }
  const tier = requiredTierOf(lines, policy.tiers);
  return tier ? { kind: "PENDING_APPROVAL", tier } : { kind: "NO_APPROVAL_TIER" };
}

/**
 * Whether a sales key's owner may approve a quote needing `required`: named in that tier or a
 * later one (higher authority approves what lower authority could).
 */
export function approvesAt(owner: string, required: string, tiers: readonly QuoteTier[]): boolean {
  const from = tiers.findIndex((tier) => tier.name === required);
  if (from < 0) return false;
  return tiers.slice(from).some((tier) => tier.approvers.includes(owner));
}
