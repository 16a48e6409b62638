import { formatBp, formatMoney } from "../lib/money";
import { Figures } from "../ui/fields";
import type { LinePrice } from "./explain";

/**
 * What a priced line leaves (docs/pricing-rules.md §26), from the fields only an admin key's
 * answer has: the cost, the margin, the accruals and the pocket price. A read key's answer has
 * none of them, and the page then shows nothing here (docs/app.md §5).
 */
export function MarginFigures({ line }: { line: LinePrice }) {
  if (line.pocketUnitAmount === undefined) return null;
  const money = (amount: number | null | undefined) => formatMoney(amount ?? null, line.currency);
  const accrued = (line.accruals ?? []).reduce((sum, a) => sum + a.amount, 0);
  return (
    <Figures
      class="margin"
      items={[
        { label: "Cost", field: "costUnitAmount", value: money(line.costUnitAmount) },
        { label: "Margin", field: "marginAmount", value: money(line.marginAmount) },
        { label: "Margin %", field: "marginBp", value: formatBp(line.marginBp ?? null) },
        { label: "Accruals", field: "accruals", value: money(accrued) },
        { label: "Pocket price", field: "pocketUnitAmount", value: money(line.pocketUnitAmount) },
        {
          label: "Pocket margin %",
          field: "pocketMarginBp",
          value: formatBp(line.pocketMarginBp ?? null),
        },
      ]}
    />
  );
}
