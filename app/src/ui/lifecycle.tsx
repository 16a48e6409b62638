import { useEffect, useState } from "preact/hooks";
import { describeError } from "../lib/api";
import { type Loaded, useLoad } from "../lib/hooks";
import { Field } from "./fields";

/*
 * What the pages of a record with a lifecycle share (a change request, a quote): the record as last
 * read or as an action answered it, the actions its status allows with a sentence each, a reason
 * to reject, the outcome, and the list's status filter and pager.
 */

/**
 * The record with `id`: read by `load`, then replaced by each action's answer (`onAnswer(record)`)
 * or read again (`onAnswer(null)`, after a refusal that may have moved it). The shown record stays
 * while it is read again, so a refusal stays on screen beside it.
 */
export function useRecord<T extends { id: number }>(
  id: number,
  load: (signal: AbortSignal) => Promise<T>,
): { record: T | null; read: Loaded<T>; onAnswer: (record: T | null) => void } {
  const [reload, setReload] = useState(0);
  const [shown, setShown] = useState<T | null>(null);
  const read = useLoad(load, [id, reload]);
  useEffect(() => {
    if (read.state === "ready") setShown(read.value);
  }, [read]);
  return {
    record: shown?.id === id ? shown : null,
    read,
    onAnswer: (record) => (record ? setShown(record) : setReload((n) => n + 1)),
  };
}

export type Outcome = { ok: boolean; text: string };

/**
 * Runs one action at a time: `perform` calls the API, `done` says what happened, `onAnswer` gets
 * the record as answered (or null on a refusal: read it again). The reason is reject's.
 */
export function useActions<A extends string, T>(
  perform: (action: A, reason: string) => Promise<T>,
  done: (action: A, after: T) => string,
  onAnswer: (after: T | null) => void,
) {
  const [busy, setBusy] = useState<A | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [reason, setReason] = useState("");
  const run = async (action: A) => {
    if (busy) return;
    setBusy(action);
    setOutcome(null);
    try {
      const after = await perform(action, reason.trim());
      onAnswer(after);
      setOutcome({ ok: true, text: done(action, after) });
    } catch (error) {
      setOutcome({ ok: false, text: describeError(error) });
      onAnswer(null);
    } finally {
      setBusy(null);
    }
  };
  return { busy, outcome, reason, setReason, run: (action: A) => void run(action) };
}

/**
 * A button per action but reject, each described by what it does; `blockedBy(action)` names the
 * element that says why it cannot run now (the button is then disabled and described by it).
 */
export function ActionButtons<A extends string>(props: {
  actions: readonly A[];
  label: Record<Exclude<A, "reject">, string>;
  help: Record<A, string>;
  secondary: readonly A[];
  blockedBy?: (action: A) => string | null;
  busy: boolean;
  run: (action: A) => void;
}) {
  const { label, help, busy, run, blockedBy = () => null } = props;
  return (
    <div class="field-row">
      {props.actions
        .filter((a): a is Exclude<A, "reject"> => a !== "reject")
        .map((action) => {
          const blocked = blockedBy(action);
          return (
            <div key={action} class="action">
              <button
                type="button"
                class={props.secondary.includes(action) ? "secondary" : undefined}
                disabled={busy || blocked !== null}
                aria-describedby={blocked ?? `help-${action}`}
                onClick={() => run(action)}
              >
                {label[action]}
              </button>
              <small id={`help-${action}`} class="hint">
                {help[action]}
              </small>
            </div>
          );
        })}
    </div>
  );
}

/** The reason to reject, and the button, enabled once a reason is typed. */
export function RejectForm(props: {
  reason: string;
  onReason: (reason: string) => void;
  help: string;
  busy: boolean;
  onReject: () => void;
}) {
  return (
    <form
      class="reject field-row"
      onSubmit={(e) => {
        e.preventDefault();
        props.onReject();
      }}
    >
      <div class="field">
        <label for="reject-reason">Reason for rejecting</label>
        <textarea
          id="reject-reason"
          rows={2}
          value={props.reason}
          aria-describedby="help-reject"
          onInput={(e) => props.onReason(e.currentTarget.value)}
        />
        <small id="help-reject" class="hint">
          {props.help}
        </small>
      </div>
      <button type="submit" class="secondary" disabled={props.busy || props.reason.trim() === ""}>
        Reject
      </button>
    </form>
  );
}

/** What the last action did, or why it was refused. */
export function OutcomeNote({ outcome }: { outcome: Outcome | null }) {
  if (!outcome) return null;
  return (
    <p role={outcome.ok ? "status" : "alert"} class={outcome.ok ? "done" : "error"}>
      {outcome.text}
    </p>
  );
}

/** A list's status filter: "All", then each status by its words. */
export function StatusFilter<S extends string>(props: {
  id: string;
  status: "" | S;
  words: Record<S, string>;
  onStatus: (status: "" | S) => void;
}) {
  return (
    <div class="panel field-row">
      <Field id={props.id} label="Status">
        <select
          id={props.id}
          value={props.status}
          onChange={(e) => props.onStatus(e.currentTarget.value as "" | S)}
        >
          <option value="">All</option>
          {(Object.keys(props.words) as S[]).map((s) => (
            <option key={s} value={s}>
              {props.words[s]}
            </option>
          ))}
        </select>
      </Field>
    </div>
  );
}

/** Newer and older pages of a list sorted newest first; nothing when it has one page. */
export function Pager(props: { page: number; pages: number; onPage: (page: number) => void }) {
  const { page, pages, onPage } = props;
  if (pages <= 1) return null;
  return (
    <p class="field-row">
      <button type="button" class="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Newer
      </button>
      <span>
        Page {page} of {pages}
      </span>
      <button
        type="button"
        class="secondary"
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
      >
        Older
      </button>
    </p>
  );
}
