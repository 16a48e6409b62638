import { useMemo, useState } from "preact/hooks";
import { api, describeError, unwrap } from "../lib/api";
import { go, hrefOf, type NewChangeKind } from "../lib/route";
import { Field, InputField, InstantField, LoadNote, type Update, updaterOf } from "../ui/fields";
import { PageHeading } from "../ui/PageHeading";
import { type Pricelist, pricelistLabel, useEditablePricelists } from "./pricelists";
import {
  type AdjustmentForm,
  type ChangeRequestCreate,
  type RowsForm,
  adjustmentRequestOf,
  emptyAdjustment,
  emptyRows,
  parsePriceRows,
  rowsRequestOf,
  withRounding,
} from "./request";
import { GroupPicker } from "./GroupPicker";

/** The fields both forms have: title, pricelist, effective date. */
interface Common {
  title: string;
  pricelistId: string;
  effectiveAt: string;
}

function CommonFields<F extends Common>(props: {
  prefix: string;
  form: F;
  update: Update<F>;
  lists: Pricelist[];
}) {
  const { prefix, form, update, lists } = props;
  return (
    <div class="field-row">
      <InputField
        id={`${prefix}-title`}
        label="Title"
        hint="What the change is, for the approver"
        value={form.title}
        maxLength={200}
        onValue={(title) => update({ title } as Partial<F>)}
      />
      <Field id={`${prefix}-pricelist`} label="Pricelist">
        <select
          id={`${prefix}-pricelist`}
          value={form.pricelistId}
          onChange={(e) => update({ pricelistId: e.currentTarget.value } as Partial<F>)}
        >
          <option value="">Choose a pricelist…</option>
          {lists.map((p) => (
            <option key={p.id} value={String(p.id)}>
              {pricelistLabel(p)}
            </option>
          ))}
        </select>
      </Field>
      <InstantField
        id={`${prefix}-effective`}
        label="Effective from (UTC)"
        empty="as soon as it is approved"
        value={form.effectiveAt}
        onValue={(effectiveAt) => update({ effectiveAt } as Partial<F>)}
      />
    </div>
  );
}

/** The products an adjustment selects: groups, brands (docs/brands.md) and product codes. */
function ProductsFields(props: { form: AdjustmentForm; update: Update<AdjustmentForm> }) {
  const { form, update } = props;
  return (
    <fieldset>
      <legend>Products</legend>
      <div class="field-row">
        <GroupPicker
          id="adjust-groups"
          value={form.productGroupCodes}
          onValue={(productGroupCodes) => update({ productGroupCodes })}
        />
        <GroupPicker
          id="adjust-brands"
          kind="brand"
          value={form.brandCodes}
          onValue={(brandCodes) => update({ brandCodes })}
        />
        <InputField
          id="adjust-products"
          label="Products"
          hint="Codes, separated by commas; none of the three: every product of the list"
          value={form.productCodes}
          onValue={(productCodes) => update({ productCodes })}
        />
      </div>
    </fieldset>
  );
}

function AdjustmentFields(props: {
  form: AdjustmentForm;
  update: Update<AdjustmentForm>;
  currency: string;
}) {
  const { form, update, currency } = props;
  const rounded = form.roundingMode !== "";
  return (
    <>
      <ProductsFields form={form} update={update} />
      <fieldset>
        <legend>Change</legend>
        <div class="field-row">
          <InputField
            id="adjust-percent"
            label="Change in percent"
            hint="3 raises by 3 %, -2.5 lowers by 2.5 %"
            inputMode="decimal"
            value={form.percent}
            onValue={(percent) => update({ percent })}
          />
          <Field id="adjust-rounding" label="Rounding">
            <select
              id="adjust-rounding"
              value={form.roundingMode}
              onChange={(e) =>
                update((f) =>
                  withRounding(f, e.currentTarget.value as AdjustmentForm["roundingMode"]),
                )
              }
            >
              <option value="">None: the adjusted amount</option>
              <option value="UP">Up</option>
              <option value="DOWN">Down</option>
              <option value="NEAREST">To the nearest</option>
            </select>
          </Field>
          <InputField
            id="adjust-step"
            label={`Rounding step (${currency})`}
            hint={rounded ? "Prices become multiples of it (0.10)" : "No rounding chosen"}
            inputMode="decimal"
            value={form.step}
            disabled={!rounded}
            onValue={(step) => update({ step })}
          />
          <InputField
            id="adjust-ending"
            label={`Price ending (${currency})`}
            hint={rounded ? "Then they end in it (0.09: …9)" : "No rounding chosen"}
            inputMode="decimal"
            value={form.ending}
            disabled={!rounded}
            onValue={(ending) => update({ ending })}
          />
        </div>
      </fieldset>
    </>
  );
}

function RowsField(props: { form: RowsForm; update: Update<RowsForm>; currency: string }) {
  const { form, update, currency } = props;
  const parsed = useMemo(() => parsePriceRows(form.rows, currency), [form.rows, currency]);
  return (
    <div class="field">
      <label for="rows-text">Price rows</label>
      <textarea
        id="rows-text"
        rows={10}
        spellcheck={false}
        aria-describedby="rows-hint rows-read"
        value={form.rows}
        onInput={(e) => update({ rows: e.currentTarget.value })}
      />
      <small id="rows-hint" class="hint">
        One row a line, pasted from a spreadsheet or typed: product code, minimum quantity
        (optional, default 1) and price in {currency}, separated by tabs, semicolons or commas
        (P-1⇥5.19 or P-2;10;9.29). A first line naming the columns is skipped.
      </small>
      <small id="rows-read" class="hint" role="status">
        {form.rows.trim() === ""
          ? ""
          : `${parsed.rows.length} row(s) read${parsed.problems.length ? `, ${parsed.problems.length} problem(s)` : ""}.`}
      </small>
    </div>
  );
}

type Sent = { state: "idle" } | { state: "sending" } | { state: "failed"; problems: string[] };

/** Creates the request (DRAFT) and opens it, where it is submitted. */
async function create(request: ChangeRequestCreate, setSent: (s: Sent) => void) {
  setSent({ state: "sending" });
  try {
    const created = await unwrap(api.POST("/v1/api/change-requests", { body: request }));
    go({ page: "change", id: created.id });
  } catch (error) {
    setSent({ state: "failed", problems: [describeError(error)] });
  }
}

function Problems({ sent }: { sent: Sent }) {
  if (sent.state !== "failed") return null;
  return (
    <div role="alert" class="error">
      <p>Not created:</p>
      <ul>
        {sent.problems.map((p) => (
          <li key={p}>{p}</li>
        ))}
      </ul>
    </div>
  );
}

function Form(props: { kind: NewChangeKind; lists: Pricelist[] }) {
  const now = useMemo(() => Date.now(), []);
  const [adjust, setAdjust] = useState(() => emptyAdjustment(now));
  const [rows, setRows] = useState(() => emptyRows(now));
  const [sent, setSent] = useState<Sent>({ state: "idle" });
  const form = props.kind === "adjust" ? adjust : rows;
  const list = props.lists.find((p) => String(p.id) === form.pricelistId);
  const currency = list?.currency ?? "EUR";
  const submit = (e: Event) => {
    e.preventDefault();
    if (sent.state === "sending") return;
    const built =
      props.kind === "adjust"
        ? adjustmentRequestOf(adjust, currency)
        : rowsRequestOf(rows, currency);
    if (!built.ok) return setSent({ state: "failed", problems: built.problems });
    void create(built.request, setSent);
  };
  return (
    <form class="panel new-change" onSubmit={submit} aria-busy={sent.state === "sending"}>
      {props.kind === "adjust" ? (
        <>
          <CommonFields
            prefix="adjust"
            form={adjust}
            update={updaterOf(setAdjust)}
            lists={props.lists}
          />
          <AdjustmentFields form={adjust} update={updaterOf(setAdjust)} currency={currency} />
        </>
      ) : (
        <>
          <CommonFields prefix="rows" form={rows} update={updaterOf(setRows)} lists={props.lists} />
          <RowsField form={rows} update={updaterOf(setRows)} currency={currency} />
        </>
      )}
      <button type="submit" disabled={sent.state === "sending"}>
        {sent.state === "sending" ? "Creating…" : "Create draft"}
      </button>
      <Problems sent={sent} />
    </form>
  );
}

const TITLES: Record<NewChangeKind, [string, string]> = {
  adjust: [
    "New mass adjustment",
    "Raise or lower every price of a pricelist's products, or of some product groups, by a percentage from a date, rounded to a price ending.",
  ],
  rows: [
    "New price rows",
    "Set the prices of a pricelist from a date, pasted from a spreadsheet: each row replaces the price in force then.",
  ],
};

/** A new change request: a mass adjustment (ADJUST_PRICES) or pasted price rows (SET_PRICES). */
export function NewChange({ kind }: { kind: NewChangeKind }) {
  const lists = useEditablePricelists();
  const other: NewChangeKind = kind === "adjust" ? "rows" : "adjust";
  return (
    <>
      <PageHeading title={TITLES[kind][0]}>
        {TITLES[kind][1]} It is created as a draft; submitting it shows its impact.{" "}
        <a href={hrefOf({ page: "new-change", kind: other })}>{TITLES[other][0]} instead</a> ·{" "}
        <a href={hrefOf({ page: "changes" })}>All change requests</a>
      </PageHeading>
      {lists.state === "ready" ? (
        <Form key={kind} kind={kind} lists={lists.value} />
      ) : (
        <LoadNote loaded={lists} loading="Loading the pricelists…" />
      )}
    </>
  );
}
