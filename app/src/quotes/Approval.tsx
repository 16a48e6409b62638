import { api, unwrap } from "../lib/api";
import { type Loaded, useLoad } from "../lib/hooks";
import { formatBp } from "../lib/money";
import type { Me } from "../ui/roles";
import {
  type Exceeded,
  type JudgedQuoteLine,
  type LimitCheck,
  type QuotePolicy,
  extremesOf,
  tierOf,
} from "./quote";

/** The quote policy when the key may read it (admin keys; docs/quotes.md §4), else null. */
export function usePolicy(me: Me | null): Loaded<QuotePolicy | null> {
  return useLoad(
    async (signal) =>
      me?.role === "admin" ? await unwrap(api.GET("/v1/api/quotes/policy", { signal })) : null,
    [me?.role],
  );
}

const limitsText = ({ limits }: LimitCheck) =>
  `cut at most ${formatBp(limits.maxCutBp)}` +
  (limits.minMarginBp === null ? "" : `, margin at least ${formatBp(limits.minMarginBp)}`);

function exceededText(e: Exceeded): string {
  const parts: string[] = [];
  if (e.overCut) parts.push(`cut ${formatBp(e.cutBp)} over ${formatBp(e.maxCutBp)}`);
  if (e.underMargin) {
    parts.push(
      e.marginBp === null
        ? `no margin (no cost) where ${formatBp(e.minMarginBp)} is asked`
        : `margin ${formatBp(e.marginBp)} under ${formatBp(e.minMarginBp)}`,
    );
  }
  return `${e.productCode}: ${parts.join(", ")}`;
}

/** Each set of limits passed over, with the lines beyond it: the why of a tier. */
function Checks({ checks }: { checks: LimitCheck[] }) {
  if (checks.length === 0) return null;
  return (
    <ul class="tier-why" data-field="tierWhy">
      {checks.map((c) => (
        <li key={c.name} data-limits={c.name}>
          Beyond {c.name === "auto-approval" ? "auto-approval" : `tier ${c.name}`} ({limitsText(c)}
          ): {c.exceeded.map(exceededText).join("; ")}.
        </li>
      ))}
    </ul>
  );
}

/**
 * The tier `lines` need under the policy, and why: the limits of auto-approval and of every lower
 * tier each line exceeds. `submitted`: the tier the API set on submit (it also approves by the
 * envelope of an earlier revision, which this does not judge).
 */
export function TierWithPolicy(props: { lines: JudgedQuoteLine[]; policy: QuotePolicy }) {
  const answer = tierOf(props.lines, props.policy);
  return (
    <>
      <p data-field="tier">
        {answer.kind === "AUTO"
          ? "Within auto-approval: a submit approves it at once."
          : answer.kind === "TIER"
            ? `Needs tier ${answer.tier}: approved by ${answer.approvers.join(", ") || "no sales key"} or an admin key.`
            : "Within no tier: no one may approve it (a submit answers NO_APPROVAL_TIER); quote a higher price."}
      </p>
      <Checks checks={answer.checks} />
    </>
  );
}

/**
 * Why a quote needs `tier`, for a key that may not read the policy (sales keys): the policy sends a
 * quote to the first tier all its lines are within; the lines that decide it are the deepest cut
 * and the thinnest margin.
 */
export function TierWithoutPolicy(props: { tier: string; lines: JudgedQuoteLine[] }) {
  const { deepest, thinnest, noMargin } = extremesOf(props.lines);
  const facts = [
    deepest ? `its deepest cut is ${deepest.productCode}'s ${formatBp(deepest.cutBp)}` : "",
    thinnest
      ? `its thinnest margin is ${thinnest.productCode}'s ${formatBp(thinnest.marginBp)}`
      : "",
    noMargin.length ? `${noMargin.join(", ")} have no margin (no cost)` : "",
  ].filter((f) => f !== "");
  return (
    <>
      <p data-field="tier">
        Needs tier {props.tier}: an approver of {props.tier} or a later tier, or an admin key, must
        approve it.
      </p>
      <p class="tier-why" data-field="tierWhy">
        Why: {facts.join("; ")}. That is beyond auto-approval and beyond every tier before{" "}
        {props.tier}, and within {props.tier}'s limits. The limits are the quote policy's, which
        only admin keys read.
      </p>
    </>
  );
}
