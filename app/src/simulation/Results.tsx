import type { Schemas } from "../lib/api";
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
