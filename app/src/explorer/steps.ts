import type { Schemas } from "../lib/api";
import { formatBp } from "../lib/money";
import type { LinePrice, RecordRef } from "./explain";

type Adjustment = Schemas["PriceAdjustment"];

/** One bar of a line's waterfall: from `from` to `to` (minor units), and what moved it. */
export interface Step {
  label: string;
  record: RecordRef | null;
  detail: string;
  /** The signed change; null for the base and the final amount, which are totals */
  change: number | null;
  from: number;
  to: number;
  /** Past the price (admin keys only): an accrual, the pocket price, the cost. */
  margin?: "accrual" | "pocket" | "cost";
}

const KIND_LABEL: Record<Adjustment["kind"], string> = {
  NET_PRICE: "Net price",
  DISCOUNT: "Discount",
  SURCHARGE: "Surcharge",
  PROMOTION: "Promotion",
  FLOOR: "Floor",
};

/**
 * The record an adjustment names; none for a floor a read key may not see (docs/api/access.md §18).
 */
const recordOf = (adjustment: Adjustment): RecordRef | null =>
  adjustment.id === null
    ? null
    : {
        kind:
          adjustment.kind === "FLOOR"
            ? "pricelist"
            : adjustment.kind === "PROMOTION"
              ? "promotion"
              : "tradeCondition",
        id: adjustment.id,
      };

const detailOf = (a: Adjustment) =>
  [
    a.scope,
    a.rung === null ? null : `rung ${a.rung}`,
    a.valueBp === null ? null : formatBp(a.valueBp),
  ]
    .filter((part) => part !== null)
    .join(", ");

/**
 * The waterfall of a priced line (docs/pricing-rules.md §8): the base price, every adjustment in
 * applied order, the final unit amount. base + Σ adjustments = final, so the bars meet; the page
 * only adds integers. Null for a line without a base price.
 */
export function stepsOf(line: LinePrice): Step[] | null {
  const { source, finalUnitAmount } = line;
  if (!source || finalUnitAmount === null) return null;
  const rate = source.derivedFrom?.exchangeRate;
  // docs/pricing-rules.md §19: the rate a derived list converted its base's amount at.
  const converted = rate ? ` at ${rate.from} → ${rate.to} ${rate.rate}` : "";
  const derived = source.derivedFrom
    ? `, derived from pricelist ${source.derivedFrom.pricelistId}${converted}`
    : "";
  const steps: Step[] = [
    {
      label: "Base",
      record: { kind: "pricelist", id: source.pricelistId },
      detail: `${source.level}, tier ${source.tierMinQuantity}+${derived}`,
      change: null,
      from: 0,
      to: source.baseUnitAmount,
    },
  ];
  let running = source.baseUnitAmount;
  for (const adjustment of line.adjustments) {
    const from = running;
    running += adjustment.amount;
    steps.push({
      label: KIND_LABEL[adjustment.kind],
      record: recordOf(adjustment),
      detail: detailOf(adjustment),
      change: adjustment.amount,
      from,
      to: running,
    });
  }
  steps.push({
    label: "Final",
    record: null,
    detail: "",
    change: null,
    from: 0,
    to: finalUnitAmount,
  });
  return [...steps, ...marginStepsOf(line, finalUnitAmount)];
}

/**
 * Past the final price, what an admin key's answer adds (docs/pricing-rules.md §25, §26): each
 * accrual down to the pocket price, the pocket price, and the cost, so the gap between the last
 * two bars is the pocket margin. A read key's line has none of these fields: no step.
 */
function marginStepsOf(line: LinePrice, final: number): Step[] {
  if (line.pocketUnitAmount === undefined || line.pocketUnitAmount === null) return [];
  const steps: Step[] = [];
  let running = final;
  for (const accrual of line.accruals ?? []) {
    const from = running;
    running -= accrual.amount;
    steps.push({
      label: "Accrual",
      record: { kind: "tradeCondition", id: accrual.id },
      detail: "off invoice",
      change: -accrual.amount,
      from,
      to: running,
      margin: "accrual",
    });
  }
  steps.push({
    label: "Pocket price",
    record: null,
    detail: `margin ${formatBp(line.pocketMarginBp ?? null)}`,
    change: null,
    from: 0,
    to: line.pocketUnitAmount,
    margin: "pocket",
  });
  if (line.costUnitAmount !== undefined && line.costUnitAmount !== null) {
    steps.push({
      label: "Cost",
      record: null,
      detail: `margin on the final price ${formatBp(line.marginBp ?? null)}`,
      change: null,
      from: 0,
      to: line.costUnitAmount,
      margin: "cost",
    });
  }
  return steps;
}
