import { useMemo } from "preact/hooks";
import { type BarConfig, BarChart } from "../lib/charts";
import { formatCount, formatMoney } from "../lib/money";
import { Figures } from "../ui/fields";
import { RecordLink } from "../ui/RecordLink";
import { Candidates } from "./Candidates";
import { MarginFigures } from "./Margin";
import { type LinePrice, namesOf } from "./explain";
import { type Step, stepsOf } from "./steps";

const COLOURS = {
  total: "#4a5d7e",
  down: "#1b7f4b",
  up: "#b3401a",
  accrual: "#8a5a00",
  pocket: "#5b3f8c",
  cost: "#6b6b6b",
};

const colourOf = (step: Step) =>
  step.margin
    ? COLOURS[step.margin]
    : step.change === null
      ? COLOURS.total
      : step.change < 0
        ? COLOURS.down
        : COLOURS.up;

/**
 * Where the amount axis starts: about a fifth below the lowest amount a step reaches, down to a
 * round number, so that an adjustment of a few cents on a large price is still a visible bar
 * (the totals' bars, which start at zero, are cut at the axis, as in any waterfall with a
 * broken axis).
 */
function axisMin(steps: Step[]): number | undefined {
  const lowest = Math.min(...steps.flatMap((s) => (s.change === null ? [s.to] : [s.from, s.to])));
  if (lowest <= 0) return undefined;
  let round = 1;
  while (round * 10 <= lowest / 5) round *= 10;
  return Math.floor((lowest * 4) / 5 / round) * round;
}

/** Floating bars (Chart.js `[from, to]` data) from the base through each adjustment to the final price. */
function waterfallConfig(steps: Step[], currency: string): BarConfig {
  return {
    type: "bar",
    data: {
      labels: steps.map((s) => (s.record ? `${s.label} ${s.record.id}` : s.label)),
      datasets: [
        {
          label: "Unit amount",
          data: steps.map((s) => [s.from, s.to] as [number, number]),
          backgroundColor: steps.map(colourOf),
        },
      ],
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      plugins: {
        tooltip: {
          callbacks: {
            label: (item) => {
              const step = steps[item.dataIndex]!;
              return step.change === null
                ? formatMoney(step.to, currency)
                : `${formatMoney(step.change, currency, true)} → ${formatMoney(step.to, currency)}`;
            },
          },
        },
      },
      scales: {
        y: {
          min: axisMin(steps),
          // Whole minor units only: a tick between two cents has no amount to show.
          ticks: {
            precision: 0,
            includeBounds: false,
            callback: (value) =>
              Number.isInteger(value) ? formatMoney(Number(value), currency) : "",
          },
        },
      },
    },
  };
}

function StepsTable({ steps, line, caption }: { steps: Step[]; line: LinePrice; caption: string }) {
  const names = namesOf(line.explain);
  return (
    <table class="steps">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Step</th>
          <th scope="col">Record</th>
          <th scope="col">Detail</th>
          <th scope="col" class="num">
            Change
          </th>
          <th scope="col" class="num">
            Unit amount
          </th>
        </tr>
      </thead>
      <tbody>
        {steps.map((step, i) => (
          <tr key={i} data-step={step.label}>
            <th scope="row">{step.label}</th>
            <td>
              {step.record ? (
                <RecordLink
                  {...step.record}
                  name={names.get(`${step.record.kind}:${step.record.id}`)}
                />
              ) : null}
            </td>
            <td>{step.detail}</td>
            <td class="num">
              {step.change === null ? "" : formatMoney(step.change, line.currency, true)}
            </td>
            <td class="num" data-amount={step.to}>
              {formatMoney(step.to, line.currency)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function LineFigures({ line }: { line: LinePrice }) {
  const money = (amount: number | null) => formatMoney(amount, line.currency);
  const unit = line.priceUnit ?? 1;
  return (
    <Figures
      items={[
        {
          label: "Final unit amount",
          field: "finalUnitAmount",
          value: money(line.finalUnitAmount),
        },
        { label: "Line amount", field: "lineAmount", value: money(line.lineAmount) },
        {
          label: "Regular unit amount",
          field: "regularUnitAmount",
          value: money(line.regularUnitAmount),
        },
        { label: "List price", field: "listUnitAmount", value: money(line.listUnitAmount) },
        // docs/pricing-rules.md §20: every unit amount of the line is per this many pieces.
        ...(unit === 1
          ? []
          : [
              {
                label: "Unit amounts per",
                field: "priceUnit",
                value: `${formatCount(unit)} pieces`,
              },
            ]),
      ]}
    />
  );
}

/**
 * "50 pieces cost less" (docs/pricing-rules.md §22): buying up to the next tier costs no more
 * than this line; a button makes the cart's line that quantity.
 */
function PriceBreak({ line, onQuantity }: { line: LinePrice; onQuantity?: (q: number) => void }) {
  const advice = line.priceBreak;
  if (!advice || line.lineAmount === null) return null;
  const money = (amount: number) => formatMoney(amount, line.currency);
  const [more, now] = [formatCount(advice.quantity), formatCount(line.quantity)];
  const text =
    advice.lineAmount < line.lineAmount
      ? `${more} pieces cost less: ${money(advice.lineAmount)} instead of ${money(line.lineAmount)} for ${now}.`
      : `${more} pieces cost no more: ${money(advice.lineAmount)}, as for ${now}.`;
  return (
    <p class="price-break" data-field="priceBreak" data-quantity={advice.quantity}>
      <span>{text}</span>
      {onQuantity ? (
        <button type="button" class="secondary" onClick={() => onQuantity(advice.quantity)}>
          Buy {more}
        </button>
      ) : null}
    </p>
  );
}

/**
 * A GRADUATED line's lot (docs/pricing-rules.md §29): each band the quantity reaches, its pieces,
 * its tier's amount and flat amount and what it adds, drawn as a bar of its share of the lot.
 */
function Bands({ line }: { line: LinePrice }) {
  const bands = line.source?.bands;
  if (!bands || bands.length === 0 || line.source === null) return null;
  const total = line.source.baseUnitAmount;
  const money = (amount: number) => formatMoney(amount, line.currency);
  const per = (amount: number, unit: number) =>
    unit === 1 ? money(amount) : `${money(amount)} per ${formatCount(unit)}`;
  return (
    <table class="bands" data-field="bands">
      <caption>
        Graduated bands: {formatCount(line.quantity)} pieces as one lot of {money(total)}
      </caption>
      <thead>
        <tr>
          <th scope="col">Pieces</th>
          <th scope="col">In the line</th>
          <th scope="col">Tier amount</th>
          <th scope="col">Flat</th>
          <th scope="col">Band</th>
          <th scope="col">Share</th>
        </tr>
      </thead>
      <tbody>
        {bands.map((band) => (
          <tr key={band.fromQuantity} data-from={band.fromQuantity}>
            <th scope="row">
              {formatCount(band.fromQuantity)}–
              {band.toQuantity === null ? "" : formatCount(band.toQuantity)}
            </th>
            <td>{formatCount(band.quantity)}</td>
            <td>{per(band.unitAmount, band.priceUnit)}</td>
            <td>{band.flatAmount === 0 ? "—" : money(band.flatAmount)}</td>
            <td>{money(band.amount)}</td>
            <td>
              <span
                class="band-bar"
                style={{ width: `${total > 0 ? Math.round((band.amount * 100) / total) : 0}%` }}
                aria-hidden="true"
              />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const UNPRICED: Record<Exclude<LinePrice["status"], "OK">, string> = {
  NO_PRICE:
    "No price: no pricelist reaching this line has a price for this product at this quantity.",
  UNKNOWN_PRODUCT: "No such product.",
  OUT_OF_RANGE: "No price: an amount would exceed 2^53 − 1 minor units.",
  QUANTITY_NOT_ALLOWED: "This quantity is not allowed.",
};

function Unpriced({ line }: { line: LinePrice }) {
  const suggested = line.suggestedQuantities;
  const nearest = suggested
    ? ` Nearest allowed: ${suggested.below ?? "none"} below, ${suggested.above ?? "none"} above.`
    : "";
  return <p class="status">{line.status === "OK" ? "" : UNPRICED[line.status] + nearest}</p>;
}

/**
 * One priced line: its figures, the price-break advice, its waterfall (chart and table) and the
 * candidates that lost. `onQuantity` sets the cart's line to another quantity.
 */
export function LineCard({
  line,
  index,
  onQuantity,
}: {
  line: LinePrice;
  index: number;
  onQuantity?: (quantity: number) => void;
}) {
  const steps = useMemo(() => stepsOf(line), [line]);
  const config = useMemo(
    () => (steps ? waterfallConfig(steps, line.currency) : null),
    [steps, line.currency],
  );
  const title = `${line.productCode} × ${line.quantity}`;
  const id = `line-${index}`;
  const summary =
    steps?.map((s) => `${s.label} ${formatMoney(s.to, line.currency)}`).join(", ") ?? "";
  return (
    <article class="line" aria-labelledby={`${id}-title`} data-product={line.productCode}>
      <h3 id={`${id}-title`}>
        {title} <span class={`badge status-${line.status}`}>{line.status}</span>
      </h3>
      {line.status === "OK" ? <LineFigures line={line} /> : <Unpriced line={line} />}
      {line.status === "OK" ? <MarginFigures line={line} /> : null}
      <PriceBreak line={line} onQuantity={onQuantity} />
      <Bands line={line} />
      <div class="line-body">
        {steps && config ? (
          <div class="waterfall">
            <div class="chart">
              <BarChart config={config} label={`Waterfall of ${title}: ${summary}`} />
            </div>
            <StepsTable steps={steps} line={line} caption={`How ${title} is priced`} />
          </div>
        ) : null}
        <Candidates line={line} headingId={`${id}-candidates`} />
      </div>
    </article>
  );
}
