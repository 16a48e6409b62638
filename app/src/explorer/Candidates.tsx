import type { Schemas } from "../lib/api";
import { formatBp, formatPer } from "../lib/money";
import { RecordLink } from "../ui/RecordLink";
import { type LinePrice, type RecordKind, reasonOf } from "./explain";

type Explain = NonNullable<LinePrice["explain"]>;

interface Loser {
  kind: RecordKind;
  id: number;
  name: string;
  outcome: string;
  reason: string;
  /** What it holds or would have done */
  detail: string;
}

const won = (outcome: string) => outcome === "USED" || outcome === "APPLIED";

const tier = (
  min: number | null,
  amount: number | null,
  currency: string,
  priceUnit: number | null,
) =>
  min === null || amount === null ? "" : `tier ${min}+: ${formatPer(amount, currency, priceUnit)}`;

const valueOf = (
  discountType: string,
  value: number | null,
  currency: string,
  priceUnit: number,
) =>
  value === null
    ? ""
    : discountType === "PERCENTAGE"
      ? formatBp(value)
      : formatPer(value, currency, priceUnit);

type Outcome = Parameters<typeof reasonOf>[0];
type DecidedBy = Parameters<typeof reasonOf>[1];

const loser = (
  kind: RecordKind,
  id: number,
  name: string,
  entry: { outcome: Outcome; decidedBy: DecidedBy },
  detail: string,
): Loser => ({
  kind,
  id,
  name,
  outcome: entry.outcome,
  reason: reasonOf(entry.outcome, entry.decidedBy),
  detail,
});

const pricelistLoser = (p: Schemas["PricelistExplain"], currency: string) =>
  loser(
    "pricelist",
    p.pricelistId,
    p.name,
    p,
    [p.level, tier(p.tierMinQuantity, p.amount, currency, p.priceUnit)].filter(Boolean).join(", "),
  );

function conditionLoser(t: Schemas["TradeConditionExplain"], currency: string): Loser {
  const terms = [
    `${t.type} ${valueOf(t.discountType, t.value, currency, t.priceUnit)}`,
    t.scope,
    `rung ${t.rung}`,
  ];
  if (t.stackable) terms.push("stackable");
  return loser("tradeCondition", t.id, t.name, t, terms.join(", "));
}

function promotionLoser(p: Schemas["PromotionExplain"], currency: string): Loser {
  const threshold = p.threshold
    ? `, threshold ${p.threshold.basis} ${p.threshold.sum} of ${p.threshold.minimum}`
    : "";
  return loser(
    "promotion",
    p.id,
    p.name,
    p,
    `${p.stacking} ${valueOf(p.discountType, p.value, currency, p.priceUnit)}${threshold}`,
  );
}

const floorLoser = (f: Schemas["FloorExplain"], currency: string) =>
  loser(
    "pricelist",
    f.pricelistId,
    f.name,
    f,
    tier(f.tierMinQuantity, f.amount, currency, f.priceUnit),
  );

/** Every candidate of the line that did not win, by kind, with its reason (docs/pricing-rules.md §9). */
export function losersOf(explain: Explain, currency: string): { title: string; items: Loser[] }[] {
  return [
    {
      title: "Pricelists",
      items: explain.pricelists
        .filter((p) => !won(p.outcome))
        .map((p) => pricelistLoser(p, currency)),
    },
    {
      title: "Trade conditions",
      items: explain.tradeConditions
        .filter((t) => !won(t.outcome))
        .map((t) => conditionLoser(t, currency)),
    },
    {
      title: "Promotions",
      items: explain.promotions
        .filter((p) => !won(p.outcome))
        .map((p) => promotionLoser(p, currency)),
    },
    {
      title: "Floors",
      items: explain.floors.filter((f) => !won(f.outcome)).map((f) => floorLoser(f, currency)),
    },
  ].filter((group) => group.items.length > 0);
}

/**
 * Outcomes of candidates that never came near the line (another product, currency, channel or
 * audience): listed apart, folded, so the ones that did compete stand out.
 */
const FAR = new Set([
  "NO_PRICE_FOR_PRODUCT",
  "OTHER_CURRENCY",
  "OTHER_CHANNEL",
  "NOT_TARGETED",
  "OTHER_PRODUCT",
]);

function LoserList({ groups }: { groups: { title: string; items: Loser[] }[] }) {
  return (
    <>
      {groups.map((group) => (
        <div key={group.title}>
          <h5>{group.title}</h5>
          <ul>
            {group.items.map((item) => (
              <li key={`${item.kind}:${item.id}`}>
                <RecordLink kind={item.kind} id={item.id} name={item.name} />
                <span class="reason">{item.reason}</span>
                {item.detail ? <span class="detail">{item.detail}</span> : null}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </>
  );
}

const split = (groups: { title: string; items: Loser[] }[], far: boolean) =>
  groups
    .map((g) => ({ ...g, items: g.items.filter((i) => FAR.has(i.outcome) === far) }))
    .filter((g) => g.items.length > 0);

/** The losing candidates of one line, beside its waterfall: the close ones, then the far ones folded. */
export function Candidates({ line, headingId }: { line: LinePrice; headingId: string }) {
  if (!line.explain) return null;
  const groups = losersOf(line.explain, line.currency);
  const close = split(groups, false);
  const far = split(groups, true);
  const farCount = far.reduce((n, g) => n + g.items.length, 0);
  if (close.length === 0 && farCount === 0) return null;
  return (
    <section class="candidates" aria-labelledby={headingId}>
      <h4 id={headingId}>Candidates that lost</h4>
      {close.length === 0 ? (
        <p>None came close: every candidate that reached this line applied.</p>
      ) : null}
      <LoserList groups={close} />
      {farCount > 0 ? (
        <details>
          <summary>{farCount} more that do not reach this line</summary>
          <LoserList groups={far} />
        </details>
      ) : null}
    </section>
  );
}
