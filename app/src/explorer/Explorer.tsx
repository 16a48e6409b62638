import { useEffect, useRef, useState } from "preact/hooks";
import { api, type Schemas, unwrap } from "../lib/api";
import { useLoad } from "../lib/hooks";
import { utcInstant } from "../lib/instant";
import { formatMoney } from "../lib/money";
import { ChannelSelect, Field, useSuggestions } from "../ui/fields";
import { PageHeading } from "../ui/PageHeading";
import { LineCard } from "./LineCard";

interface Line {
  key: number;
  productCode: string;
  quantity: string;
}

export interface ExplorerForm {
  channelCode: string;
  customerCode: string;
  /** datetime-local value, read as UTC; empty = now */
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
  if (!form.channelCode || lines.length === 0) return null;
  const customerCode = form.customerCode.trim();
  const currency = form.currency.trim().toUpperCase();
  return {
    channelCode: form.channelCode,
    ...(customerCode ? { customerCode } : {}),
    ...(currency ? { currency } : {}),
    ...(form.at ? { at: utcInstant(form.at) } : {}),
    explain: true,
    lines,
  };
}

type PriceRequest = Schemas["PriceResolveRequest"];

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
      <Field id={`line-${line.key}-product`} label="Product code">
        <input
          id={`line-${line.key}-product`}
          list={products.listId}
          value={line.productCode}
          autocomplete="off"
          spellcheck={false}
          onInput={(e) => props.onChange({ ...line, productCode: e.currentTarget.value })}
        />
      </Field>
      {products.list}
      <Field id={`line-${line.key}-quantity`} label="Quantity">
        <input
          id={`line-${line.key}-quantity`}
          type="number"
          min={1}
          max={1000000}
          step={1}
          value={line.quantity}
          onInput={(e) => props.onChange({ ...line, quantity: e.currentTarget.value })}
        />
      </Field>
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
    <dl class="figures totals">
      <div>
        <dt>Total</dt>
        <dd data-field="totalAmount">{money(answer.totalAmount)}</dd>
      </div>
      <div>
        <dt>Priced lines</dt>
        <dd data-field="pricedTotalAmount">{money(answer.pricedTotalAmount)}</dd>
      </div>
      <div>
        <dt>Complete</dt>
        <dd>{answer.complete ? "yes" : "no: a line is not OK"}</dd>
      </div>
      <div>
        <dt>Priced at · valid until</dt>
        <dd>
          {answer.at} · {answer.validUntil ?? "no known end"}
        </dd>
      </div>
    </dl>
  );
}

function ExplorerFields({
  form,
  update,
}: {
  form: ExplorerForm;
  update: (f: Partial<ExplorerForm>) => void;
}) {
  const customers = useSuggestions("customer", form.customerCode, form.channelCode);
  return (
    <div class="field-row">
      <ChannelSelect
        id="explorer-channel"
        value={form.channelCode}
        onChange={(channelCode) => update({ channelCode })}
      />
      <Field id="explorer-customer" label="Customer code" hint="Empty: anonymous (public) prices">
        <input
          id="explorer-customer"
          list={customers.listId}
          value={form.customerCode}
          autocomplete="off"
          spellcheck={false}
          aria-describedby="explorer-customer-hint"
          onInput={(e) => update({ customerCode: e.currentTarget.value })}
        />
      </Field>
      {customers.list}
      <Field id="explorer-at" label="Price at (UTC)" hint="Empty: now">
        <input
          id="explorer-at"
          type="datetime-local"
          step={1}
          value={form.at}
          aria-describedby="explorer-at-hint"
          onInput={(e) => update({ at: e.currentTarget.value })}
        />
      </Field>
      <Field id="explorer-currency" label="Currency" hint="Empty: the primary pricelist's">
        <input
          id="explorer-currency"
          value={form.currency}
          maxLength={3}
          size={4}
          autocomplete="off"
          aria-describedby="explorer-currency-hint"
          onInput={(e) => update({ currency: e.currentTarget.value })}
        />
      </Field>
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
  const update = (patch: Partial<ExplorerForm>) => setForm((f) => ({ ...f, ...patch }));
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
            <LineCard key={`${i}:${line.productCode}`} line={line} index={i} />
          ))}
        </section>
      ) : null}
    </>
  );
}
