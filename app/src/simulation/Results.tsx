import { useMemo } from "preact/hooks";
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
  const percentages = useMemo(
    () => result.rows.flatMap((r) => (r.differenceBp === null ? [] : [r.differenceBp])),
    [result],
  );
  return (
    <section aria-labelledby="results-title" class="results">
      <h2 id="results-title">
        Result: {result.channelCode} at {result.at}, {result.quantity} unit(s) a line
      </h2>
      <Summary result={result} tenths={tenths} />
      {result.rows.length === 0 ? (
        <p>No price changes: the change set moves none of these prices.</p>
      ) : (
        <>
          <MostAffected customers={result.summary.mostAffectedCustomers} />
          <Histogram values={percentages} unpriced={result.rows.length - percentages.length} />
          <ChangesTable rows={result.rows} currency={result.currency} />
        </>
      )}
    </section>
  );
}
