import type { ComponentChildren, JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { api, unwrap } from "../lib/api";
import { INSTANT_FORMAT, parseInstant } from "../lib/instant";
import { type Loaded, useDebounced, useLoad } from "../lib/hooks";

/** A labelled control: the label is a real <label for>, the hint is the control's description. */
export function Field(props: {
  id: string;
  label: string;
  hint?: string;
  children: ComponentChildren;
}) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      {props.children}
      {props.hint ? (
        <small id={`${props.id}-hint`} class="hint">
          {props.hint}
        </small>
      ) : null}
    </div>
  );
}

type InputProps = Omit<JSX.IntrinsicElements["input"], "id" | "value" | "onInput" | "label"> & {
  id: string;
  label: string;
  hint?: string;
  value: string;
  onValue: (value: string) => void;
};

/**
 * A labelled <input> whose hint describes it (aria-describedby); codes are typed as they are
 * (no autocomplete or spell check).
 */
export function InputField({ id, label, hint, value, onValue, ...input }: InputProps) {
  return (
    <Field id={id} label={label} hint={hint}>
      <input
        id={id}
        value={value}
        autocomplete="off"
        spellcheck={false}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onInput={(e) => onValue(e.currentTarget.value)}
        {...input}
      />
    </Field>
  );
}

/**
 * An instant typed as ISO 8601 in UTC, 24-hour (lib/instant.ts), with what is wrong with it said
 * under it as it is typed.
 */
export function InstantField(props: {
  id: string;
  value: string;
  onValue: (value: string) => void;
  label?: string;
  /** What empty means */
  empty?: string;
}) {
  const { id, value, onValue, label = "Price at (UTC)", empty = "now" } = props;
  const parsed = parseInstant(value);
  const problem = parsed.ok ? "" : parsed.error;
  return (
    <Field id={id} label={label} hint={`${INSTANT_FORMAT}, 24-hour; empty: ${empty}`}>
      <input
        id={id}
        value={value}
        placeholder={INSTANT_FORMAT}
        autocomplete="off"
        spellcheck={false}
        inputMode="numeric"
        size={17}
        aria-invalid={problem ? true : undefined}
        aria-describedby={`${id}-hint ${id}-error`}
        onInput={(e) => onValue(e.currentTarget.value)}
      />
      <small id={`${id}-error`} class="error" role="alert">
        {problem}
      </small>
    </Field>
  );
}

/** A change of a form's state: the fields to set, or a function of the state as it is then. */
export type Update<F> = (patch: Partial<F> | ((current: F) => Partial<F>)) => void;

/** The `update` of a form kept with useState. */
export const updaterOf =
  <F,>(setForm: (next: (current: F) => F) => void): Update<F> =>
  (patch) =>
    setForm((current) => ({
      ...current,
      ...(typeof patch === "function" ? patch(current) : patch),
    }));

/** Figures as a description list: a label and a value each, `field` naming the value for tests. */
export function Figures(props: {
  items: { label: string; value: ComponentChildren; field?: string; tone?: string }[];
  class?: string;
}) {
  return (
    <dl class={`figures ${props.class ?? ""}`.trim()}>
      {props.items.map((item) => (
        <div key={item.label}>
          <dt>{item.label}</dt>
          <dd data-field={item.field} class={item.tone}>
            {item.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** What a load shows until it is ready: a status while loading, an alert when it failed. */
export function LoadNote({ loaded, loading }: { loaded: Loaded<unknown>; loading: string }) {
  if (loaded.state === "loading") return <p role="status">{loading}</p>;
  if (loaded.state === "failed") {
    return (
      <p role="alert" class="error">
        {loaded.message}
      </p>
    );
  }
  return null;
}

/** The channels, for a <select>: code and name, active ones only (an inactive one prices nothing). */
export function ChannelSelect(props: {
  id: string;
  value: string;
  /** Called with how to change the current code: a choice replaces it, the default fills it */
  onChange: (pick: (current: string) => string) => void;
}) {
  const channels = useLoad(
    (signal) =>
      unwrap(
        api.GET("/v1/api/channel", {
          params: { query: { limit: 100, sortBy: ["code:ASC"] } },
          signal,
        }),
      ),
    [],
  );
  const options = channels.state === "ready" ? channels.value.data.filter((c) => c.isActive) : [];
  const first = options[0]?.code;
  // No channel chosen yet: the first one, so the page can price at once. Applied to the state as
  // it is then, so a channel picked in the meantime stays.
  useEffect(() => {
    if (first) props.onChange((current) => current || first);
  }, [first]);
  return (
    <Field
      id={props.id}
      label="Channel"
      hint={channels.state === "failed" ? channels.message : undefined}
    >
      <select
        id={props.id}
        value={props.value}
        onChange={(e) => {
          const code = e.currentTarget.value;
          props.onChange(() => code);
        }}
        disabled={channels.state !== "ready"}
      >
        {options.map((c) => (
          <option key={c.code} value={c.code}>
            {c.code} · {c.name}
          </option>
        ))}
      </select>
    </Field>
  );
}

type Suggest = "product" | "customer" | "productGroup" | "brand";

async function suggestions(
  kind: Suggest,
  search: string,
  channelCode: string,
  signal: AbortSignal,
) {
  const query = { limit: 20, search, sortBy: ["code:ASC" as const] };
  if (kind === "customer" && channelCode) {
    const page = await unwrap(
      api.GET("/v1/api/channel/{code}/customers", {
        params: { path: { code: channelCode }, query },
        signal,
      }),
    );
    return page.data.map((c) => ({ code: c.code, name: c.name }));
  }
  if (kind === "brand") {
    const page = await unwrap(api.GET("/v1/api/brand", { params: { query }, signal }));
    return page.data.map((b) => ({ code: b.code, name: b.name }));
  }
  if (kind === "productGroup") {
    const page = await unwrap(api.GET("/v1/api/product-group", { params: { query }, signal }));
    return page.data.map((g) => ({ code: g.code, name: g.name }));
  }
  const page = await unwrap(api.GET("/v1/api/product", { params: { query }, signal }));
  return page.data.map((p) => ({ code: p.code, name: p.name }));
}

/**
 * A <datalist> of codes matching what is typed (products, a channel's customers, product
 * groups), looked up a moment after typing stops. The input stays free text: a code the list
 * does not show is still sent, and the API says if it is unknown.
 */
export function useSuggestions(kind: Suggest, typed: string, channelCode = "") {
  const [listId] = useState(() => `${kind}-options-${Math.random().toString(36).slice(2)}`);
  const search = useDebounced(typed.trim(), 250);
  const found = useLoad(
    (signal) => suggestions(kind, search, channelCode, signal),
    [kind, search, channelCode],
  );
  const list = (
    <datalist id={listId}>
      {found.state === "ready"
        ? found.value.map((o) => (
            <option key={o.code} value={o.code}>
              {o.name}
            </option>
          ))
        : null}
    </datalist>
  );
  return { listId, list };
}
