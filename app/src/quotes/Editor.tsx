import { api, unwrap } from "../lib/api";
import { type Loaded, useDebounced, useLoad } from "../lib/hooks";
import { formatBp, formatPer } from "../lib/money";
import {
  ChannelSelect,
  Field,
  InputField,
  InstantField,
  type Update,
  useSuggestions,
} from "../ui/fields";
import type { Me } from "../ui/roles";
import { TierWithPolicy } from "./Approval";
import {
  type JudgedQuoteLine,
  type LineForm,
  type LinePreview,
  type Quote,
  type QuoteForm,
  type QuotePolicy,
  type Resolved,
  emptyLine,
  previewLine,
  pricedLinesOf,
} from "./quote";

/** What the debounced resolve answered: each line's regular price by product, and the currency. */
export interface Pricing {
  lines: Map<string, Resolved>;
  currency: string | null;
}

/**
 * The lines priced as the rep types, without writing anything: one resolve of the customer in the
 * channel with every line (as the quote will be priced: order-level scales count the whole
 * quote), a moment after typing stops. The quote itself is priced by the engine on save.
 */
export function usePricing(form: QuoteForm): Loaded<Pricing | null> {
  const asked = useDebounced(
    JSON.stringify({
      channelCode: form.channelCode.trim(),
      customerCode: form.customerCode.trim(),
      lines: pricedLinesOf(form.lines).filter(
        (l, i, all) => all.findIndex((o) => o.productCode === l.productCode) === i,
      ),
    }),
    400,
  );
  return useLoad(
    async (signal) => {
      const { channelCode, customerCode, lines } = JSON.parse(asked) as {
        channelCode: string;
        customerCode: string;
        lines: { productCode: string; quantity: number }[];
      };
      if (channelCode === "" || lines.length === 0) return null;
      const answer = await unwrap(
        api.POST("/v1/api/prices/resolve", {
          body: { channelCode, ...(customerCode ? { customerCode } : {}), lines },
          signal,
        }),
      );
      return {
        currency: answer.currency ?? answer.lines[0]?.currency ?? null,
        lines: new Map(
          answer.lines.map((l) => [
            l.productCode,
            {
              status: l.status,
              // Asked without `select`: both are there (docs/api/prices.md §9).
              regularUnitAmount: l.finalUnitAmount ?? null,
              priceUnit: l.priceUnit ?? null,
              costUnitAmount: l.costUnitAmount ?? null,
            },
          ]),
        ),
      };
    },
    [asked],
  );
}

/** The lines as the engine would judge them, once every one has a cut and a known margin. */
export function judgedOf(
  lines: readonly LineForm[],
  previews: readonly LinePreview[],
): JudgedQuoteLine[] | null {
  const judged: JudgedQuoteLine[] = [];
  for (const [i, p] of previews.entries()) {
    const code = lines[i]!.productCode.trim();
    if (code === "") continue;
    if (p.cutBp === null || p.marginFrom === "save" || p.marginFrom === "none") return null;
    judged.push({ productCode: code, cutBp: p.cutBp, marginBp: p.marginBp });
  }
  return judged.length ? judged : null;
}

function MarginCell({ p }: { p: LinePreview }) {
  if (p.marginFrom === "save") {
    return (
      <td class="num muted" data-field="margin">
        on save
      </td>
    );
  }
  return (
    <td
      class={`num ${p.marginBp !== null && p.marginBp < 0 ? "error" : ""}`}
      data-field="margin"
      title={p.marginFrom === "cost" ? "From the line's cost: the engine confirms it on save" : ""}
    >
      {formatBp(p.marginBp)}
    </td>
  );
}

/** What is wrong with a line, or that it is not saved; and its remove button. */
function NoteCell(props: {
  n: number;
  p: LinePreview;
  typed: boolean;
  onRemove: (() => void) | null;
}) {
  const { n, p } = props;
  return (
    <td>
      <small id={`line-${n}-note`} class={p.error || p.belowFloor ? "error" : "hint"}>
        {p.error
          ? p.error
          : p.belowFloor
            ? "below the floor: the API refuses it (BELOW_FLOOR)"
            : p.changed && props.typed
              ? "not saved"
              : ""}
      </small>
      {props.onRemove ? (
        <button type="button" class="secondary" onClick={props.onRemove}>
          Remove line {n}
        </button>
      ) : null}
    </td>
  );
}

function LineRow(props: {
  index: number;
  line: LineForm;
  preview: LinePreview;
  currency: string | null;
  priceUnit: number | null;
  showMargin: boolean;
  onLine: (patch: Partial<LineForm>) => void;
  onRemove: (() => void) | null;
  productList: string;
}) {
  const { index: i, line, preview: p, currency, priceUnit, showMargin } = props;
  const n = i + 1;
  const money = (amount: number | null) =>
    currency === null ? "–" : formatPer(amount, currency, priceUnit);
  return (
    <tr data-line={n} data-product={line.productCode.trim()}>
      <td>
        <label class="visually-hidden" for={`line-${n}-product`}>
          Line {n} product
        </label>
        <input
          id={`line-${n}-product`}
          value={line.productCode}
          list={props.productList}
          size={12}
          autocomplete="off"
          spellcheck={false}
          onInput={(e) => props.onLine({ productCode: e.currentTarget.value })}
        />
      </td>
      <td>
        <label class="visually-hidden" for={`line-${n}-quantity`}>
          Line {n} quantity
        </label>
        <input
          id={`line-${n}-quantity`}
          value={line.quantity}
          inputMode="numeric"
          size={6}
          autocomplete="off"
          onInput={(e) => props.onLine({ quantity: e.currentTarget.value })}
        />
      </td>
      <td class="num" data-field="regular">
        {money(p.regular)}
      </td>
      <td class="num" data-field="floor">
        {p.floorKnown ? money(p.floor) : <span class="muted">on save</span>}
      </td>
      <td>
        <label class="visually-hidden" for={`line-${n}-price`}>
          Line {n} quoted price
        </label>
        <input
          id={`line-${n}-price`}
          value={line.price}
          inputMode="decimal"
          size={9}
          placeholder={p.regular !== null && currency ? "regular" : ""}
          autocomplete="off"
          aria-invalid={p.error || p.belowFloor ? true : undefined}
          aria-describedby={`line-${n}-note`}
          onInput={(e) => props.onLine({ price: e.currentTarget.value })}
        />
      </td>
      <td class="num cut" data-field="cut">
        {formatBp(p.cutBp)}
      </td>
      {showMargin ? <MarginCell p={p} /> : null}
      <NoteCell n={n} p={p} typed={line.productCode.trim() !== ""} onRemove={props.onRemove} />
    </tr>
  );
}

/** Customer and channel: chosen for a new quote, fixed once it exists (PATCH keeps them). */
function PartyFields(props: { form: QuoteForm; update: Update<QuoteForm> }) {
  const { form, update } = props;
  const customers = useSuggestions("customer", form.customerCode, form.channelCode);
  return (
    <div class="field-row">
      <ChannelSelect
        id="quote-channel"
        value={form.channelCode}
        onChange={(pick) => update((f) => ({ channelCode: pick(f.channelCode) }))}
      />
      <InputField
        id="quote-customer"
        label="Customer"
        hint="The buyer's code, assigned to the channel"
        value={form.customerCode}
        list={customers.listId}
        onValue={(customerCode) => update({ customerCode })}
      />
      {customers.list}
    </div>
  );
}

/** Mode, lock and valid to. */
function TermsFields(props: { form: QuoteForm; update: Update<QuoteForm> }) {
  const { form, update } = props;
  return (
    <div class="field-row">
      <Field id="quote-mode" label="Mode">
        <select
          id="quote-mode"
          value={form.mode}
          onChange={(e) => update({ mode: e.currentTarget.value as QuoteForm["mode"] })}
        >
          <option value="ONCE">Once: one order names it, then it is redeemed</option>
          <option value="AGREEMENT">Agreement: the customer's price until valid to</option>
        </select>
      </Field>
      <Field id="quote-lock" label="Lock">
        <select
          id="quote-lock"
          value={form.lock}
          onChange={(e) => update({ lock: e.currentTarget.value as QuoteForm["lock"] })}
        >
          <option value="FIXED">Fixed: the quoted price is the price</option>
          <option value="BETTER_OF">Better of: the lower of it and the usual price</option>
        </select>
      </Field>
      <InstantField
        id="quote-valid-to"
        label="Valid to (UTC)"
        empty="not allowed: a quote holds until a date, at most 366 days ahead"
        value={form.validTo}
        onValue={(validTo) => update({ validTo })}
      />
    </div>
  );
}

function LinesHead({ showMargin }: { showMargin: boolean }) {
  return (
    <thead>
      <tr>
        <th scope="col">Product</th>
        <th scope="col">Quantity</th>
        <th scope="col" class="num">
          Regular price
        </th>
        <th scope="col" class="num">
          Floor
        </th>
        <th scope="col">Quoted price</th>
        <th scope="col" class="num">
          Cut
        </th>
        {showMargin ? (
          <th scope="col" class="num">
            Margin
          </th>
        ) : null}
        <th scope="col">Note</th>
      </tr>
    </thead>
  );
}

/** A line more (at most 100), and why the lines are not priced when the resolve failed. */
function AddLine(props: {
  form: QuoteForm;
  update: Update<QuoteForm>;
  pricing: Loaded<Pricing | null>;
}) {
  const { form, update, pricing } = props;
  return (
    <p class="field-row">
      <button
        type="button"
        class="secondary"
        disabled={form.lines.length >= 100}
        onClick={() => update((f) => ({ lines: [...f.lines, emptyLine()] }))}
      >
        Add a line
      </button>
      {pricing.state === "failed" ? (
        <span role="alert" class="error">
          Pricing the lines: {pricing.message}
        </span>
      ) : null}
    </p>
  );
}

/**
 * The quote's form: customer and channel (new quotes), mode, lock, valid to, and the lines, each
 * showing its regular price, floor, cut and margin as the rep types the quoted price; below, the
 * tier it would need when the key may read the policy.
 */
export function Editor(props: {
  form: QuoteForm;
  update: Update<QuoteForm>;
  saved: Quote | null;
  pricing: Loaded<Pricing | null>;
  policy: QuotePolicy | null;
  me: Me | null;
}) {
  const { form, update, saved, pricing, policy, me } = props;
  const priced = pricing.state === "ready" ? pricing.value : null;
  const currency = saved?.currency ?? priced?.currency ?? null;
  const products = useSuggestions("product", "");
  const previews = form.lines.map((line) =>
    previewLine(
      line,
      saved?.lines.find((l) => l.productCode === line.productCode.trim()),
      priced?.lines.get(line.productCode.trim()),
      currency,
    ),
  );
  const judged = judgedOf(form.lines, previews);
  const showMargin = me?.role !== "read";
  const setLine = (i: number, patch: Partial<LineForm>) =>
    update((f) => ({ lines: f.lines.map((l, j) => (j === i ? { ...l, ...patch } : l)) }));
  return (
    <>
      {saved ? null : <PartyFields form={form} update={update} />}
      <TermsFields form={form} update={update} />
      {products.list}
      <table class="quote-lines">
        <caption>
          Lines{currency ? ` (${currency})` : ""}: regular price and cut as you type; the floor, and
          the margin where the key sees no cost, from the engine when the quote is saved
        </caption>
        <LinesHead showMargin={showMargin} />
        <tbody>
          {form.lines.map((line, i) => (
            <LineRow
              key={i}
              index={i}
              line={line}
              preview={previews[i]!}
              currency={currency}
              priceUnit={
                priced?.lines.get(line.productCode.trim())?.priceUnit ??
                saved?.lines.find((l) => l.productCode === line.productCode.trim())?.priceUnit ??
                1
              }
              showMargin={showMargin}
              productList={products.listId}
              onLine={(patch) => setLine(i, patch)}
              onRemove={
                form.lines.length > 1
                  ? () => update((f) => ({ lines: f.lines.filter((_, j) => j !== i) }))
                  : null
              }
            />
          ))}
        </tbody>
      </table>
      <AddLine form={form} update={update} pricing={pricing} />
      {policy && judged ? (
        <section class="panel" aria-label="The tier it needs">
          <TierWithPolicy lines={judged} policy={policy} />
        </section>
      ) : null}
    </>
  );
}
