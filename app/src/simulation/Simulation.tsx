import { useState } from "preact/hooks";
import { api, describeError, type Schemas, unwrap } from "../lib/api";
import { useElapsedTenths } from "../lib/hooks";
import { ChannelSelect, Field } from "../ui/fields";
import { PageHeading } from "../ui/PageHeading";
import { DraftChoices, type DraftKind, useDrafts } from "./drafts";
import { SimulationResults } from "./Results";
import { type SimulationForm, emptyForm, simulationRequestOf } from "./request";

type Update = (patch: Partial<SimulationForm>) => void;

function Radio(props: {
  name: string;
  value: string;
  checked: boolean;
  label: string;
  onPick: () => void;
}) {
  const id = `${props.name}-${props.value}`;
  return (
    <label class="choice" for={id}>
      <input
        id={id}
        type="radio"
        name={props.name}
        value={props.value}
        checked={props.checked}
        onChange={props.onPick}
      />
      {props.label}
    </label>
  );
}

function Changes({ form, update }: { form: SimulationForm; update: Update }) {
  const drafts = useDrafts();
  if (drafts.state === "loading") return <p role="status">Loading the DRAFT records…</p>;
  if (drafts.state === "failed")
    return (
      <p class="error" role="alert">
        {drafts.message}
      </p>
    );
  const pick = (kind: DraftKind) => (ids: number[]) =>
    update({ activate: { ...form.activate, [kind]: ids } });
  return (
    <fieldset>
      <legend>Activate (the change set)</legend>
      <div class="field-row">
        {(["pricelists", "tradeConditions", "promotions"] as const).map((kind) => (
          <DraftChoices
            key={kind}
            kind={kind}
            records={drafts.value[kind]}
            chosen={form.activate[kind]}
            onChange={pick(kind)}
          />
        ))}
      </div>
    </fieldset>
  );
}

function Customers({ form, update }: { form: SimulationForm; update: Update }) {
  const mode = form.customers;
  return (
    <fieldset>
      <legend>Customers</legend>
      <Radio
        name="sim-customers"
        value="sample"
        checked={mode === "sample"}
        label="The first customers of the channel, by code"
        onPick={() => update({ customers: "sample" })}
      />
      <Radio
        name="sim-customers"
        value="codes"
        checked={mode === "codes"}
        label="These customers"
        onPick={() => update({ customers: "codes" })}
      />
      <Radio
        name="sim-customers"
        value="anonymous"
        checked={mode === "anonymous"}
        label="Only the anonymous buyer"
        onPick={() => update({ customers: "anonymous" })}
      />
      <div class="field-row">
        <Field id="sim-customer-sample" label="How many customers (1–100)">
          <input
            id="sim-customer-sample"
            type="number"
            min={1}
            max={100}
            value={form.customerSample}
            disabled={mode !== "sample"}
            onInput={(e) => update({ customerSample: e.currentTarget.value })}
          />
        </Field>
        <Field id="sim-customer-codes" label="Customer codes" hint="Separated by commas or spaces">
          <input
            id="sim-customer-codes"
            value={form.customerCodes}
            disabled={mode !== "codes"}
            aria-describedby="sim-customer-codes-hint"
            spellcheck={false}
            onInput={(e) => update({ customerCodes: e.currentTarget.value })}
          />
        </Field>
        <label class="choice" for="sim-anonymous">
          <input
            id="sim-anonymous"
            type="checkbox"
            checked={form.anonymous || mode === "anonymous"}
            disabled={mode === "anonymous"}
            onChange={(e) => update({ anonymous: e.currentTarget.checked })}
          />
          Also the anonymous buyer
        </label>
      </div>
    </fieldset>
  );
}

function Products({ form, update }: { form: SimulationForm; update: Update }) {
  const mode = form.products;
  return (
    <fieldset>
      <legend>Products</legend>
      <Radio
        name="sim-products"
        value="sample"
        checked={mode === "sample"}
        label="The first products, by code"
        onPick={() => update({ products: "sample" })}
      />
      <Radio
        name="sim-products"
        value="codes"
        checked={mode === "codes"}
        label="These products"
        onPick={() => update({ products: "codes" })}
      />
      <Radio
        name="sim-products"
        value="groups"
        checked={mode === "groups"}
        label="The products of these groups (and their subgroups)"
        onPick={() => update({ products: "groups" })}
      />
      <div class="field-row">
        <Field id="sim-product-sample" label="How many products (1–1,000)">
          <input
            id="sim-product-sample"
            type="number"
            min={1}
            max={1000}
            value={form.productSample}
            disabled={mode !== "sample"}
            onInput={(e) => update({ productSample: e.currentTarget.value })}
          />
        </Field>
        <Field id="sim-product-codes" label="Product codes" hint="Separated by commas or spaces">
          <input
            id="sim-product-codes"
            value={form.productCodes}
            disabled={mode !== "codes"}
            aria-describedby="sim-product-codes-hint"
            spellcheck={false}
            onInput={(e) => update({ productCodes: e.currentTarget.value })}
          />
        </Field>
        <Field
          id="sim-group-codes"
          label="Product group codes"
          hint="Separated by commas or spaces"
        >
          <input
            id="sim-group-codes"
            value={form.groupCodes}
            disabled={mode !== "groups"}
            aria-describedby="sim-group-codes-hint"
            spellcheck={false}
            onInput={(e) => update({ groupCodes: e.currentTarget.value })}
          />
        </Field>
      </div>
    </fieldset>
  );
}

function Scope({ form, update }: { form: SimulationForm; update: Update }) {
  return (
    <div class="field-row">
      <ChannelSelect
        id="sim-channel"
        value={form.channelCode}
        onChange={(channelCode) => update({ channelCode })}
      />
      <Field id="sim-at" label="Price at (UTC)" hint="Empty: now">
        <input
          id="sim-at"
          type="datetime-local"
          step={1}
          value={form.at}
          aria-describedby="sim-at-hint"
          onInput={(e) => update({ at: e.currentTarget.value })}
        />
      </Field>
      <Field id="sim-quantity" label="Quantity of every line">
        <input
          id="sim-quantity"
          type="number"
          min={1}
          value={form.quantity}
          onInput={(e) => update({ quantity: e.currentTarget.value })}
        />
      </Field>
    </div>
  );
}

type Run =
  | { state: "idle" }
  | { state: "running" }
  | { state: "failed"; message: string }
  | { state: "done"; result: Schemas["PriceSimulation"]; tenths: number };

function Progress({ running }: { running: boolean }) {
  const tenths = useElapsedTenths(running);
  if (!running) return null;
  return (
    <div class="progress">
      <progress aria-label="Simulation running" />
      <span role="status">Simulating…</span>
      <span aria-hidden="true">
        {Math.floor(tenths / 10)}.{tenths % 10} s
      </span>
    </div>
  );
}

/** What activating DRAFT records would do to prices: POST /v1/api/simulations/prices, shown. */
export function Simulation() {
  const [form, setForm] = useState(emptyForm);
  const [run, setRun] = useState<Run>({ state: "idle" });
  const update: Update = (patch) => setForm((f) => ({ ...f, ...patch }));
  const running = run.state === "running";
  const submit = async (e: Event) => {
    e.preventDefault();
    if (running) return;
    const asked = simulationRequestOf(form);
    if ("problem" in asked) return setRun({ state: "failed", message: asked.problem });
    setRun({ state: "running" });
    const started = performance.now();
    try {
      const result = await unwrap(api.POST("/v1/api/simulations/prices", { body: asked.request }));
      setRun({ state: "done", result, tenths: Math.round((performance.now() - started) / 100) });
    } catch (error) {
      setRun({ state: "failed", message: describeError(error) });
    }
  };
  return (
    <>
      <PageHeading title="Simulation">
        Before a DRAFT pricelist, trade condition or promotion goes live: every price of the chosen
        customers and products, priced twice on the same data, without and with the change set.
        Nothing is written.
      </PageHeading>
      <form class="panel" onSubmit={submit} aria-busy={running}>
        <Scope form={form} update={update} />
        <Changes form={form} update={update} />
        <Customers form={form} update={update} />
        <Products form={form} update={update} />
        <button type="submit" disabled={running}>
          {running ? "Simulating…" : "Simulate"}
        </button>
      </form>
      <Progress running={running} />
      {run.state === "failed" ? (
        <p class="error" role="alert">
          {run.message}
        </p>
      ) : null}
      {run.state === "done" ? <SimulationResults result={run.result} tenths={run.tenths} /> : null}
    </>
  );
}
