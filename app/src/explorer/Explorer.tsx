import { useEffect, useRef, useState } from "preact/hooks";
import { api, type Schemas, unwrap } from "../lib/api";
import { useLoad } from "../lib/hooks";
import { parseInstant } from "../lib/instant";
import { formatMoney } from "../lib/money";
import {
  ChannelSelect,
  Figures,
  InputField,
  InstantField,
  type Update,
  updaterOf,
  useSuggestions,
} from "../ui/fields";
import { PageHeading } from "../ui/PageHeading";
import type { LinePrice } from "./explain";
import { LineCard } from "./LineCard";

interface Line {
  key: number;
  productCode: string;
  quantity: string;
}

export interface ExplorerForm {
  channelCode: string;
  customerCode: string;
  /** "2025-06-15 10:00", UTC (lib/instant.ts); empty = now */
  at: string;
  currency: string;
  lines: Line[];
}

let nextKey = 1;
const newLine = (productCode = "", quantity = "1"): Line => ({
  key: nextKey++,
  productCode,
  quantity,
});

const QUANTITY = /^[1-9][0-9]{0,6}$/;

/** The lookup the form describes, or null while it names no product yet. */
export function requestOf(form: ExplorerForm): Schemas["PriceResolveRequest"] | null {
  const lines = form.lines
    .filter((l) => l.productCode.trim() !== "" && QUANTITY.test(l.quantity))
    .map((l) => ({ productCode: l.productCode.trim(), quantity: Number(l.quantity) }));
  const at = parseInstant(form.at);
  // An instant that is not one yet (still being typed) prices nothing; its field says why.
  if (!form.channelCode || lines.length === 0 || !at.ok) return null;
  const customerCode = form.customerCode.trim();
  // Typed as it is read; the service checks it against the currencies of /doc and a code it
  // does not know comes back as its 400, shown like any other.
  const currency = form.currency.trim().toUpperCase() as Schemas["Currency"] | "";
  return {
    channelCode: form.channelCode,
    ...(customerCode ? { customerCode } : {}),
    ...(currency ? { currency } : {}),
    ...(at.value ? { at: at.value } : {}),
    explain: true,
    lines,
  };
}

type PriceRequest = Schemas["PriceResolveRequest"];

/**
 * The cart's lines with the first line of `priced`'s product and quantity set to `quantity` (the
 * price-break advice's "Buy 50"); unchanged when the cart no longer has that line.
 */
function withQuantity(
  lines: Line[],
  priced: { productCode: string; quantity: number },
  quantity: number,
): Line[] {
  const target = lines.find(
    (l) => l.productCode.trim() === priced.productCode && Number(l.quantity) === priced.quantity,
  );
  return lines.map((l) => (l === target ? { ...l, quantity: String(quantity) } : l));
}

/**
 * The request to send: the form's, 300 ms after the last change, or at once on submit (Enter).
 * Compared as JSON text, so that an unchanged request is not sent again.
 */
function useAskedRequest(form: ExplorerForm) {
  const request = requestOf(form);
  const text = request ? JSON.stringify(request) : "";
  const [asked, setAsked] = useState<{ text: string; request: PriceRequest | null }>({
    text,
    request,
  });
  const ask = () => setAsked((current) => (current.text === text ? current : { text, request }));
  useEffect(() => {
    const timer = setTimeout(ask, 300);
    return () => clearTimeout(timer);
  }, [text]);
  return { asked, askNow: ask };
}

function LineRow(props: {
  line: Line;
  n: number;
  onChange: (line: Line) => void;
  onRemove: (() => void) | null;
}) {
  const { line, n } = props;
  const products = useSuggestions("product", line.productCode);
  return (
    <fieldset class="line-row">
      <legend>Line {n}</legend>
      <InputField
        id={`line-${line.key}-product`}
        label="Product code"
        list={products.listId}
        value={line.productCode}
        onValue={(productCode) => props.onChange({ ...line, productCode })}
      />
      {products.list}
      <InputField
        id={`line-${line.key}-quantity`}
        label="Quantity"
        type="number"
        min={1}
        max={1000000}
        step={1}
        value={line.quantity}
        onValue={(quantity) => props.onChange({ ...line, quantity })}
      />
      {props.onRemove ? (
        <button
          type="button"
          class="secondary"
          onClick={props.onRemove}
          aria-label={`Remove line ${n}`}
        >
          Remove
        </button>
      ) : null}
    </fieldset>
  );
}

function LinesEditor({ lines, onChange }: { lines: Line[]; onChange: (lines: Line[]) => void }) {
  const replace = (index: number, line: Line) =>
    onChange(lines.map((l, i) => (i === index ? line : l)));
  return (
    <div class="lines">
      {lines.map((line, i) => (
        <LineRow
          key={line.key}
          line={line}
          n={i + 1}
          onChange={(l) => replace(i, l)}
          onRemove={lines.length > 1 ? () => onChange(lines.filter((_, j) => j !== i)) : null}
        />
      ))}
      <button type="button" class="secondary" onClick={() => onChange([...lines, newLine()])}>
        Add line
      </button>
    </div>
  );
}

function Totals({ answer }: { answer: Schemas["PriceAnswer"] }) {
  const money = (amount: number | null) => formatMoney(amount, answer.currency);
  return (
    <Figures
      class="totals"
      items={[
        { label: "Total", field: "totalAmount", value: money(answer.totalAmount) },
        {
          label: "Priced lines",
          field: "pricedTotalAmount",
          value: money(answer.pricedTotalAmount),
        },
        { label: "Complete", value: answer.complete ? "yes" : "no: a line is not OK" },
        {
          label: "Priced at · valid until",
          value: `${answer.at} · ${answer.validUntil ?? "no known end"}`,
        },
        // Admin keys only (docs/pricing-rules.md §26): a read key's answer has neither.
        ...(answer.costAmount === undefined
          ? []
          : [
              { label: "Cost", field: "costAmount", value: money(answer.costAmount) },
              { label: "Margin", field: "marginAmount", value: money(answer.marginAmount ?? null) },
            ]),
      ]}
    />
  );
}

function ExplorerFields({ form, update }: { form: ExplorerForm; update: Update<ExplorerForm> }) {
  const customers = useSuggestions("customer", form.customerCode, form.channelCode);
  return (
    <div class="field-row">
      <ChannelSelect
        id="explorer-channel"
        value={form.channelCode}
        onChange={(pick) => update((f) => ({ channelCode: pick(f.channelCode) }))}
      />
      <InputField
        id="explorer-customer"
        label="Customer code"
        hint="Empty: anonymous (public) prices"
        list={customers.listId}
        value={form.customerCode}
        onValue={(customerCode) => update({ customerCode })}
      />
      {customers.list}
      <InstantField id="explorer-at" value={form.at} onValue={(at) => update({ at })} />
      <InputField
        id="explorer-currency"
        label="Currency"
        hint="Empty: the primary pricelist's"
        maxLength={3}
        size={4}
        value={form.currency}
        onValue={(currency) => update({ currency })}
      />
    </div>
  );
}

/** The price explorer: a cart priced with explain as it is typed, each line as a waterfall. */
export function Explorer() {
  const [form, setForm] = useState<ExplorerForm>(() => ({
    channelCode: "",
    customerCode: "",
    at: "",
    currency: "",
    lines: [newLine()],
  }));
  const update = updaterOf(setForm);
  const { asked, askNow } = useAskedRequest(form);
  const answer = useLoad(
    (signal) =>
      asked.request
        ? unwrap(api.POST("/v1/api/prices/resolve", { body: asked.request, signal }))
        : Promise.resolve(null),
    [asked.text],
  );
  // While the next answer loads, the last one stays on screen (dimmed) instead of flickering away.
  const shown = useRef<Schemas["PriceAnswer"] | null>(null);
  if (answer.state === "ready") shown.current = answer.value;
  if (answer.state === "failed") shown.current = null;
  const status =
    answer.state === "loading"
      ? "Pricing…"
      : answer.state === "failed"
        ? answer.message
        : answer.value
          ? `Priced ${answer.value.lines.length} line(s).`
          : "Choose a channel and type a product code.";
  return (
    <>
      <PageHeading title="Price explorer">
        Prices a cart as the API does, with explain, and redraws it as you type: every line from its
        base price through each adjustment to the final price, beside the candidates that lost and
        why.
      </PageHeading>
      <form
        class="panel"
        onSubmit={(e) => {
          e.preventDefault();
          askNow();
        }}
      >
        <ExplorerFields form={form} update={update} />
        <LinesEditor lines={form.lines} onChange={(lines) => update({ lines })} />
        <button type="submit">Price now</button>
      </form>
      <p role="status" class={answer.state === "failed" ? "error" : "muted"} id="explorer-status">
        {status}
      </p>
      {shown.current ? (
        <section
          aria-label="Answer"
          aria-busy={answer.state === "loading"}
          class={answer.state === "loading" ? "stale" : ""}
        >
          <Totals answer={shown.current} />
          {shown.current.lines.map((line, i) => (
            <LineCard
              key={`${i}:${line.productCode}`}
              // Asked without `select`: every field of every line (docs/api/prices.md §9).
              line={line as LinePrice}
              index={i}
              onQuantity={(quantity) =>
                update((f) => ({ lines: withQuantity(f.lines, line, quantity) }))
              }
            />
          ))}
        </section>
      ) : null}
    </>
  );
}
