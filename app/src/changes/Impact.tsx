import type { Schemas } from "../lib/api";
import { formatBp } from "../lib/money";
import { Histogram } from "../simulation/Histogram";
import { marginRows } from "./margin";

type Impact = NonNullable<Schemas["ChangeRequestImpact"]>;

const utc = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

/**
 * The impact stored at submit (docs/api.md §17.3) as a table (one figure a row, each with its
 * field name for tests) and the histogram of the changed prices by whole percent.
 */
export function ImpactView(props: {
  impact: Impact;
  format: (amount: number, signed?: boolean) => string;
}) {
  const { impact, format } = props;
  const difference = impact.totalAfter - impact.totalBefore;
  const rows: { label: string; field: string; value: string; tone?: string }[] = [
    { label: "Simulated at", field: "at", value: utc(impact.at) },
    {
      label: "Channels simulated",
      field: "channelCodes",
      value: impact.channelCodes.join(", ") || "none (no active channel prices these records)",
    },
    { label: "Prices compared", field: "pricesCompared", value: String(impact.pricesCompared) },
    { label: "Prices changed", field: "pricesChanged", value: String(impact.pricesChanged) },
    {
      label: "Largest rise",
      field: "maxRaiseBp",
      value: formatBp(impact.maxRaiseBp, true),
      tone: impact.maxRaiseBp ? "rise" : undefined,
    },
    {
      label: "Largest cut",
      field: "maxCutBp",
      value: formatBp(-impact.maxCutBp, true),
      tone: impact.maxCutBp ? "cut" : undefined,
    },
    { label: "Sum of the prices before", field: "totalBefore", value: format(impact.totalBefore) },
    { label: "Sum of the prices after", field: "totalAfter", value: format(impact.totalAfter) },
    { label: "Difference of the sums", field: "totalDifference", value: format(difference, true) },
    {
      label: "Channels left out (past the first 10)",
      field: "channelsOmitted",
      value: String(impact.channelsOmitted),
    },
    {
      label: "Products left out (past the first 1,000)",
      field: "productsOmitted",
      value: String(impact.productsOmitted),
    },
    ...marginRows(impact.margin, format),
  ];
  const withPercent = impact.distribution.reduce((n, b) => n + b.count, 0);
  return (
    <section aria-labelledby="impact-title" class="impact">
      <h2 id="impact-title">Impact</h2>
      <p class="muted">
        The publish simulation of this request at its effective date, computed when it was
        submitted: every active channel where it can price, the anonymous buyer and the first 100
        customers of each, one unit of each product it touches. The margin is over the prices
        compared that have a cost.
      </p>
      <table class="impact">
        <caption>The impact in figures</caption>
        <tbody>
          {rows.map((r) => (
            <tr key={r.field}>
              <th scope="row">{r.label}</th>
              <td class={`num ${r.tone ?? ""}`.trim()} data-field={r.field}>
                {r.value}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {impact.pricesChanged === 0 ? (
        <p>No price changes.</p>
      ) : (
        <Histogram buckets={impact.distribution} unpriced={impact.pricesChanged - withPercent} />
      )}
    </section>
  );
}
