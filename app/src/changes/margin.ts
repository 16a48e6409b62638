import type { components } from "../../../client/pricing-api";
import { formatBp } from "../lib/money";

/*
 * The impact's margin as rows of its table (docs/api/change-requests.md §17.3, docs/app.md §1): a
 * pure function, no DOM, so test/app/app-changes.test.ts holds it against the figures.
 */

type Impact = NonNullable<components["schemas"]["ChangeRequestImpact"]>;
type Margin = NonNullable<Impact["margin"]>["before"];

export interface FigureRow {
  label: string;
  field: string;
  value: string;
}

/**
 * "Margin before", "Margin after" (amount, bp, on what revenue) and the lines left out, as the
 * simulation's page shows its summary's margin; one row saying why when there is none: an impact
 * stored before margins were reported, or no cost for any line compared.
 */
export function marginRows(
  margin: Impact["margin"],
  format: (amount: number, signed?: boolean) => string,
): FigureRow[] {
  if (!margin) {
    return [
      {
        label: "Margin",
        field: "margin",
        value: "not reported: computed before impacts had margins (submit it again to see it)",
      },
    ];
  }
  const { before, after } = margin;
  if (before.lines + after.lines === 0) {
    return [
      {
        label: "Margin",
        field: "margin",
        value: "no cost: no COST pricelist of these channels has a cost for these prices",
      },
    ];
  }
  const money = (amount: number | null) => (amount === null ? "–" : format(amount));
  const side = (m: Margin) =>
    `${money(m.marginAmount)} (${formatBp(m.marginBp)}) on ${money(m.revenueAmount)}`;
  return [
    { label: "Margin before", field: "marginBefore", value: side(before) },
    { label: "Margin after", field: "marginAfter", value: side(after) },
    {
      label: "Prices without a cost (left out)",
      field: "linesWithoutCost",
      value: `${before.linesWithoutCost} before, ${after.linesWithoutCost} after`,
    },
  ];
}
