import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { api, describeError, type Schemas, unwrap } from "../lib/api";
import { useElapsedTenths } from "../lib/hooks";
import {
  ChannelSelect,
  InputField,
  InstantField,
  LoadNote,
  type Update,
  updaterOf,
} from "../ui/fields";
import { PageHeading } from "../ui/PageHeading";
import { DraftChoices, type DraftKind, useDrafts } from "./drafts";
import { SimulationResults } from "./Results";
import { type SimulationForm, emptyForm, simulationRequestOf } from "./request";

/** A fieldset of radio buttons choosing how to select (`mode`), then the fields of the modes. */
function Selection<M extends string>(props: {
  legend: string;
  name: string;
  mode: M;
  onMode: (mode: M) => void;
  options: { value: M; label: string }[];
  children: ComponentChildren;
}) {
  return (
    <fieldset>
      <legend>{props.legend}</legend>
      {props.options.map((option) => {
        const id = `${props.name}-${option.value}`;
        return (
          <label key={id} class="choice" for={id}>
            <input
              id={id}
              type="radio"
              name={props.name}
              value={option.value}
              checked={props.mode === option.value}
              onChange={() => props.onMode(option.value)}
            />
            {option.label}
          </label>
        );
      })}
      <div class="field-row">{props.children}</div>
    </fieldset>
  );
}

function Changes({ form, update }: { form: SimulationForm; update: Update<SimulationForm> }) {
  const drafts = useDrafts();
  if (drafts.state !== "ready")
    return <LoadNote loaded={drafts} loading="Loading the DRAFT records…" />;
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

const CODES_HINT = "Separated by commas or spaces";

function Customers({ form, update }: { form: SimulationForm; update: Update<SimulationForm> }) {
  const mode = form.customers;
  return (
    <Selection
      legend="Customers"
      name="sim-customers"
      mode={mode}
      onMode={(customers) => update({ customers })}
      options={[
        { value: "sample", label: "The first customers of the channel, by code" },
        { value: "codes", label: "These customers" },
        { value: "anonymous", label: "Only the anonymous buyer" },
      ]}
    >
      <InputField
        id="sim-customer-sample"
        label="How many customers (1–100)"
        type="number"
        min={1}
        max={100}
        value={form.customerSample}
        disabled={mode !== "sample"}
        onValue={(customerSample) => update({ customerSample })}
      />
      <InputField
        id="sim-customer-codes"
        label="Customer codes"
        hint={CODES_HINT}
        value={form.customerCodes}
        disabled={mode !== "codes"}
        onValue={(customerCodes) => update({ customerCodes })}
      />
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
    </Selection>
  );
}

function Products({ form, update }: { form: SimulationForm; update: Update<SimulationForm> }) {
  const mode = form.products;
  return (
    <Selection
      legend="Products"
      name="sim-products"
      mode={mode}
      onMode={(products) => update({ products })}
      options={[
        { value: "sample", label: "The first products, by code" },
        { value: "codes", label: "These products" },
        { value: "groups", label: "The products of these groups (and their subgroups)" },
        { value: "brands", label: "The products of these brands" },
      ]}
    >
      <InputField
        id="sim-product-sample"
        label="How many products (1–1,000)"
        type="number"
        min={1}
        max={1000}
        value={form.productSample}
        disabled={mode !== "sample"}
        onValue={(productSample) => update({ productSample })}
      />
      <InputField
        id="sim-product-codes"
        label="Product codes"
        hint={CODES_HINT}
        value={form.productCodes}
        disabled={mode !== "codes"}
        onValue={(productCodes) => update({ productCodes })}
      />
      <InputField
        id="sim-group-codes"
        label="Product group codes"
        hint={CODES_HINT}
        value={form.groupCodes}
        disabled={mode !== "groups"}
        onValue={(groupCodes) => update({ groupCodes })}
      />
      <InputField
        id="sim-brand-codes"
        label="Brand codes"
        hint={CODES_HINT}
        value={form.brandCodes}
        disabled={mode !== "brands"}
        onValue={(brandCodes) => update({ brandCodes })}
      />
    </Selection>
  );
}

function Scope({ form, update }: { form: SimulationForm; update: Update<SimulationForm> }) {
  return (
    <div class="field-row">
      <ChannelSelect
        id="sim-channel"
        value={form.channelCode}
        onChange={(pick) => update((f) => ({ channelCode: pick(f.channelCode) }))}
      />
      <InstantField id="sim-at" value={form.at} onValue={(at) => update({ at })} />
      <InputField
        id="sim-quantity"
        label="Quantity of every line"
        type="number"
        min={1}
        value={form.quantity}
        onValue={(quantity) => update({ quantity })}
      />
      <InputField
        id="sim-max-rows"
        label="Rows to list (1–10,000)"
        hint="Largest changes first; the counts cover all"
        type="number"
        min={1}
        max={10000}
        value={form.maxRows}
        onValue={(maxRows) => update({ maxRows })}
      />
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
  const update = updaterOf(setForm);
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
