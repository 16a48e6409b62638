import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  approvesAt,
  cutBpOf,
  decideSubmit,
  quoteMarginBpOf,
  withinEnvelope,
  type JudgedLine,
} from "../../src/pricing/quotes";
import { WORKED_EXAMPLE_F as EXAMPLE_F } from "../../scripts/lib/worked-examples.mjs";

/** The engine's judgement of a quote, pure (docs/pricing-rules.md §27). */

const policy = EXAMPLE_F.policy;
const line = (cutBp: number, marginBp: number | null, productId = 1): JudgedLine => ({
  productId,
  cutBp,
  marginBp,
});

describe("cut and margin (docs/pricing-rules.md §27)", () => {
  it.each([
    // regular, quoted, cost, cutBp, marginBp: worked example F (1049/1428, 793/1666, 1305/1176,
    // 1561/909) and the edges
    ...Object.values(EXAMPLE_F.quoted).flatMap((q): [number, number, number, number, number][] =>
      "cutBp" in q
        ? [[EXAMPLE_F.prices.sales, q.unitAmount, EXAMPLE_F.prices.cost, q.cutBp, q.marginBp]]
        : [],
    ),
    [391, 391, 300, 0, 2327],
    [391, 400, 300, 0, 2500],
    [100, 50, 60, 5000, -2000],
    [100, 30, 31, 7000, -334],
    [0, 0, null, 0, null],
    [1000, 0, 10, 10_000, null],
  ])("regular %i, quoted %i, cost %s → cut %i, margin %s", (regular, quoted, cost, cut, margin) => {
    expect(cutBpOf(regular, quoted)).toBe(cut);
    expect(quoteMarginBpOf(quoted, cost)).toBe(margin);
  });

  it("the cut is never below 0 nor understated; the margin never overstated (exact rationals)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        (regular, quoted, cost) => {
          const cut = cutBpOf(regular, quoted);
          expect(cut).toBeGreaterThanOrEqual(0);
          // cut × regular ≥ (regular − quoted) × 10000 > (cut − 1) × regular
          const saved = BigInt(Math.max(0, regular - quoted)) * 10_000n;
          expect(BigInt(cut) * BigInt(regular) >= saved).toBe(true);
          if (cut > 0) expect(BigInt(cut - 1) * BigInt(regular) < saved).toBe(true);
          const margin = quoteMarginBpOf(quoted, cost);
          if (quoted === 0) {
            expect(margin).toBeNull();
            return;
          }
          const left = BigInt(quoted - cost) * 10_000n;
          expect(BigInt(margin!) * BigInt(quoted) <= left).toBe(true);
          expect(BigInt(margin! + 1) * BigInt(quoted) > left).toBe(true);
        },
      ),
    );
  });
});

describe("the submit's decision (docs/quotes.md §4.2)", () => {
  const { first, envelope, manager, director } = EXAMPLE_F.quoted;
  const judged = (q: { cutBp: number; marginBp: number }) => line(q.cutBp, q.marginBp);
  it.each([
    [[line(100, 2600)], [], { kind: "APPROVED", approvedBy: "policy" }],
    [[line(400, 2100)], [], { kind: "PENDING_APPROVAL", tier: "REP" }],
    // Worked example F: revision 1, then revision 2 at 360, 340 and 330 after it.
    [[judged(first)], [], { kind: "PENDING_APPROVAL", tier: first.tier }],
    [[judged(envelope)], [[judged(first)]], { kind: "APPROVED", approvedBy: "envelope" }],
    [[judged(manager)], [[judged(first)]], { kind: "PENDING_APPROVAL", tier: manager.tier }],
    [[judged(director)], [[judged(first)]], { kind: "PENDING_APPROVAL", tier: director.tier }],
    [[line(2000, null)], [], { kind: "PENDING_APPROVAL", tier: "DIRECTOR" }],
    [[line(100, null)], [], { kind: "PENDING_APPROVAL", tier: "DIRECTOR" }],
    [[line(3001, 5000)], [], { kind: "NO_APPROVAL_TIER" }],
    // Another product than the approved revision's: no envelope.
    [
      [line(envelope.cutBp, envelope.marginBp, 2)],
      [[judged(first)]],
      { kind: "PENDING_APPROVAL", tier: "MANAGER" },
    ],
  ] as const)("%j after %j → %j", (lines, approved, expected) => {
    const decision = decideSubmit(lines, policy, approved);
    const shown =
      decision.kind === "PENDING_APPROVAL"
        ? { kind: decision.kind, tier: decision.tier.name }
        : decision;
    expect(shown).toEqual(expected);
  });

  it("the envelope: same products, no line worse, both margins null or both not", () => {
    const approved = [line(500, 1000, 1), line(0, null, 2)];
    expect(withinEnvelope([line(500, 1000, 1), line(0, null, 2)], approved)).toBe(true);
    expect(withinEnvelope([line(0, null, 2), line(400, 1200, 1)], approved)).toBe(true);
    expect(withinEnvelope([line(501, 1000, 1), line(0, null, 2)], approved)).toBe(false);
    expect(withinEnvelope([line(500, 999, 1), line(0, null, 2)], approved)).toBe(false);
    expect(withinEnvelope([line(500, 1000, 1), line(0, 10, 2)], approved)).toBe(false);
    expect(withinEnvelope([line(500, 1000, 1)], approved)).toBe(false);
  });

  it("approvers: a tier's owners approve at it and below, not above", () => {
    expect(approvesAt("manager", "MANAGER", policy.tiers)).toBe(true);
    expect(approvesAt("manager", "REP", policy.tiers)).toBe(true);
    expect(approvesAt("manager", "DIRECTOR", policy.tiers)).toBe(false);
    expect(approvesAt("rep-2", "MANAGER", policy.tiers)).toBe(false);
    expect(approvesAt("director", "MANAGER", policy.tiers)).toBe(true);
    expect(approvesAt("manager", "GONE", policy.tiers)).toBe(false);
  });
});
