import type { Schemas } from "../lib/api";
import { formatUtc as utc } from "../lib/instant";
import { formatBp } from "../lib/money";
import { Histogram } from "../simulation/Histogram";
import { marginRows } from "./margin";

type Impact = NonNullable<Schemas["ChangeRequestImpact"]>;

type Row = { label: string; field: string; value: string; tone?: string };

/** A row of a field that impacts stored before it was added lack: none then. */
const optional = (label: string, field: string, value: string | number | undefined): Row[] =>
  value === undefined ? [] : [{ label, field, value: String(value) }];

/** The cumulative change with the requests it stacks with (docs/api/change-requests.md §17.4). */
function cumulativeRows(cumulative: Impact["cumulative"]): Row[] {
  if (!cumulative) return [];
  const ids = (list: number[]) => (list.length ? list.map((id) => `#${id}`).join(", ") : "none");
  return [
    {
      label: "Stacks with (applied)",
      field: "cumulative.requestIds",
      value: cumulative.since
        ? `${ids(cumulative.requestIds)}, from ${utc(cumulative.since)}`
        : "none",
    },
    {
      label: "Pending on the same records",
      field: "cumulative.pendingRequestIds",
      value: ids(cumulative.pendingRequestIds),
    },
    {
      label: "Largest rise, cumulative",
      field: "cumulative.maxRaiseBp",
      value: formatBp(cumulative.maxRaiseBp, true),
      tone: cumulative.maxRaiseBp ? "rise" : undefined,
    },
    {
      label: "Largest cut, cumulative",
      field: "cumulative.maxCutBp",
      value: formatBp(-cumulative.maxCutBp, true),
      tone: cumulative.maxCutBp ? "cut" : undefined,
    },
  ];
}

/** The impact's figures, one a row, each with its field name (for tests). */
function figures(impact: Impact, format: (amount: number, signed?: boolean) => string): Row[] {
  const difference = impact.totalAfter - impact.totalBefore;
  return [
    { label: "Simulated at", field: "at", value: utc(impact.at) },
    {
      label: "Channels simulated",
      field: "channelCodes",
      value: impact.channelCodes.join(", ") || "none (no active channel prices these records)",
    },
    ...optional("Quantities priced", "quantities", impact.quantities?.join(", ")),
    { label: "Prices compared", field: "pricesCompared", value: String(impact.pricesCompared) },
    { label: "Prices changed", field: "pricesChanged", value: String(impact.pricesChanged) },
    ...optional("Prices that appear (none before)", "pricesAppeared", impact.pricesAppeared),
    ...optional("Prices that vanish (none after)", "pricesVanished", impact.pricesVanished),
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
    ...optional(
      "Customers left out (past the budget)",
      "customersOmitted",
      impact.customersOmitted,
    ),
    ...optional(
      "Tiers left out (past 10 quantities)",
      "quantitiesOmitted",
      impact.quantitiesOmitted,
    ),
    ...marginRows(impact.margin, format),
    ...cumulativeRows(impact.cumulative),
  ];
}

/**
 * The impact stored at submit (docs/api/change-requests.md §17.3) as a table (one figure a row,
 * each with its field name for tests) and the histogram of the changed prices by whole percent.
 */
export function ImpactView(props: {
  impact: Impact;
  format: (amount: number, signed?: boolean) => string;
}) {
  const { impact, format } = props;
  const rows = figures(impact, format);
  const withPercent = impact.distribution.reduce((n, b) => n + b.count, 0);
  return (
    <section aria-labelledby="impact-title" class="impact">
      <h2 id="impact-title">Impact</h2>
      <p class="muted">
        The publish simulation of this request at its effective date, computed when it was
        submitted: every active channel where it can price, the anonymous buyer and the customers of
        each (all of them within the budget), each product it touches at one unit and at every tier
        it touches. The margin is over the prices compared that have a cost. The cumulative figures
        run from before the applied requests it stacks with.
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
