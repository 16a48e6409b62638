import type { Schemas } from "../lib/api";
import { formatBp, formatMoney } from "../lib/money";
import { Figures } from "../ui/fields";
import { ChangesTable } from "./ChangesTable";
import { Histogram } from "./Histogram";

type Simulation = Schemas["PriceSimulation"];

function Summary({ result, tenths }: { result: Simulation; tenths: number }) {
  const { summary } = result;
  return (
    <Figures
      items={[
        { label: "Prices compared", field: "evaluated", value: summary.evaluated },
        { label: "Changed", field: "changed", value: summary.changed },
        { label: "Raised", field: "raised", value: summary.raised, tone: "rise" },
        { label: "Lowered", field: "lowered", value: summary.lowered, tone: "cut" },
        { label: "Took", value: `${Math.floor(tenths / 10)}.${tenths % 10} s` },
      ]}
    />
  );
}

type Margin = Simulation["summary"]["margin"]["before"];

/** The margin of every evaluated line before and after (docs/simulation.md §4). */
function MarginSummary({ result }: { result: Simulation }) {
  const { before, after } = result.summary.margin;
  if (before.lines + after.lines === 0) {
    return <p>No cost: no COST pricelist of this channel has a cost for these prices.</p>;
  }
  const money = (amount: number | null) => formatMoney(amount, result.currency);
  const side = (label: string, m: Margin, field: string) => ({
    label: `Margin ${label}`,
    field,
    value: `${money(m.marginAmount)} (${formatBp(m.marginBp)}) on ${money(m.revenueAmount)}`,
  });
  return (
    <Figures
      class="margin"
      items={[
        side("before", before, "marginBefore"),
        side("after", after, "marginAfter"),
        {
          label: "Lines without a cost",
          field: "linesWithoutCost",
          value: `${before.linesWithoutCost} before, ${after.linesWithoutCost} after`,
        },
      ]}
    />
  );
}

function MostAffected({
  customers,
}: {
  customers: Simulation["summary"]["mostAffectedCustomers"];
}) {
  if (customers.length === 0) return null;
  return (
    <p>
      Most affected customers:{" "}
      {customers
        .map(
          (c) =>
            `${c.customerCode ?? "anonymous"} (${c.changed}: ${c.raised} up, ${c.lowered} down)`,
        )
        .join(", ")}
    </p>
  );
}

/** The answer of a simulation: its numbers, the spread of the changes, and every changed price. */
export function SimulationResults({ result, tenths }: { result: Simulation; tenths: number }) {
  const { summary, rows, rowsOmitted } = result;
  const withPercent = summary.distribution.reduce((n, b) => n + b.count, 0);
  return (
    <section aria-labelledby="results-title" class="results">
      <h2 id="results-title">
        Result: {result.channelCode} at {result.at}, {result.quantity} unit(s) a line
      </h2>
      <Summary result={result} tenths={tenths} />
      <MarginSummary result={result} />
      {summary.changed === 0 ? (
        <p>No price changes: the change set moves none of these prices.</p>
      ) : (
        <>
          <MostAffected customers={result.summary.mostAffectedCustomers} />
          <Histogram buckets={summary.distribution} unpriced={summary.changed - withPercent} />
          <ChangesTable rows={rows} currency={result.currency} />
          {rowsOmitted > 0 ? (
            <p class="notice">
              {rowsOmitted} more changed price(s) are not listed: the answer lists the first{" "}
              {rows.length}, largest change first (raise "Rows to list" to see more). The counts and
              the histogram cover them all.
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}
