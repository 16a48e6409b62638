import { useMemo } from "preact/hooks";
import type { Schemas } from "../lib/api";
import { ChangesTable } from "./ChangesTable";
import { Histogram } from "./Histogram";

type Simulation = Schemas["PriceSimulation"];

function Summary({ result, tenths }: { result: Simulation; tenths: number }) {
  const { summary } = result;
  return (
    <dl class="figures">
      <div>
        <dt>Prices compared</dt>
        <dd data-field="evaluated">{summary.evaluated}</dd>
      </div>
      <div>
        <dt>Changed</dt>
        <dd data-field="changed">{summary.changed}</dd>
      </div>
      <div>
        <dt>Raised</dt>
        <dd data-field="raised" class="rise">
          {summary.raised}
        </dd>
      </div>
      <div>
        <dt>Lowered</dt>
        <dd data-field="lowered" class="cut">
          {summary.lowered}
        </dd>
      </div>
      <div>
        <dt>Took</dt>
        <dd>
          {Math.floor(tenths / 10)}.{tenths % 10} s
        </dd>
      </div>
    </dl>
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
