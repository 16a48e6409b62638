import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import { api, unwrap } from "../lib/api";
import { useDebounced, useLoad } from "../lib/hooks";

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

/** The channels, for a <select>: code and name, active ones only (an inactive one prices nothing). */
export function ChannelSelect(props: {
  id: string;
  value: string;
  onChange: (code: string) => void;
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
  // No channel chosen yet: the first one, so the page can price at once.
  useEffect(() => {
    if (!props.value && first) props.onChange(first);
  }, [props.value, first]);
  return (
    <Field
      id={props.id}
      label="Channel"
      hint={channels.state === "failed" ? channels.message : undefined}
    >
      <select
        id={props.id}
        value={props.value}
        onChange={(e) => props.onChange(e.currentTarget.value)}
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

type Suggest = "product" | "customer" | "productGroup";

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
