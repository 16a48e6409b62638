import { useMemo } from "preact/hooks";
import { type BarConfig, BarChart } from "../lib/charts";
import { formatBp } from "../lib/money";
import { type Bin, type Bucket, binsOf } from "./bins";

const percent = (n: number) => formatBp(n * 100, true);

const labelOf = (bin: Bin) =>
  bin.from === bin.to ? percent(bin.from) : `${percent(bin.from)} to ${percent(bin.to)}`;

const colourOf = (bin: Bin) => (bin.to < 0 ? "#1b7f4b" : bin.from > 0 ? "#b3401a" : "#4a5d7e");

function histogramConfig(bins: Bin[]): BarConfig {
  return {
    type: "bar",
    data: {
      labels: bins.map(labelOf),
      datasets: [
        {
          label: "Changed prices",
          data: bins.map((b) => b.count),
          backgroundColor: bins.map(colourOf),
        },
      ],
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      plugins: { tooltip: { callbacks: { label: (item) => `${item.raw} price(s)` } } },
      scales: {
        x: {
          title: {
            display: true,
            text: "Change of the final unit amount, rounded to whole percent",
          },
        },
        y: { beginAtZero: true, ticks: { precision: 0 }, title: { display: true, text: "Prices" } },
      },
    },
  };
}

/**
 * How the changes spread: a histogram of summary.distribution (differenceBp by whole percent, over
 * every changed price, also those the rows leave out), as a chart and as a table.
 */
export function Histogram({ buckets, unpriced }: { buckets: Bucket[]; unpriced: number }) {
  const bins = useMemo(() => binsOf(buckets), [buckets]);
  const config = useMemo(() => histogramConfig(bins), [bins]);
  if (bins.length === 0) return null;
  const summary = bins
    .filter((b) => b.count > 0)
    .map((b) => `${labelOf(b)}: ${b.count}`)
    .join("; ");
  return (
    <section aria-labelledby="histogram-title">
      <h3 id="histogram-title">Distribution of the changes</h3>
      <div class="chart histogram">
        <BarChart config={config} label={`Histogram of the price changes in percent. ${summary}`} />
      </div>
      {unpriced > 0 ? (
        <p class="muted">
          {unpriced} changed row(s) have no percentage: a price appeared, vanished or was 0 before.
        </p>
      ) : null}
      <details>
        <summary>The distribution as a table</summary>
        <table>
          <caption>Changed prices per range of change</caption>
          <thead>
            <tr>
              <th scope="col">Change</th>
              <th scope="col" class="num">
                Prices
              </th>
            </tr>
          </thead>
          <tbody>
            {bins.map((b) => (
              <tr key={b.from}>
                <td>{labelOf(b)}</td>
                <td class="num">{b.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </section>
  );
}
