import { useEffect, useState } from "preact/hooks";
import { api, describeError, unwrap } from "../lib/api";
import { formatUtc as utc } from "../lib/instant";
import { formatBp, formatMoney, formatPer } from "../lib/money";
import { hrefOf } from "../lib/route";
import { Figures, LoadNote, updaterOf } from "../ui/fields";
import { ActionButtons, OutcomeNote, RejectForm, useActions, useRecord } from "../ui/lifecycle";
import { PageHeading } from "../ui/PageHeading";
import type { Me } from "../ui/roles";
import { TierWithPolicy, TierWithoutPolicy, usePolicy } from "./Approval";
import { Editor, usePricing } from "./Editor";
import {
  type PageAction,
  type Quote,
  type QuoteForm,
  type QuotePolicy,
  STATUS_TEXT,
  formOf,
  offerOf,
  quoteBodyOf,
} from "./quote";

/** One action through the API: the quote as it answers it. */
function act(action: PageAction, id: number, reason: string): Promise<Quote> {
  const path = { params: { path: { id } } };
  switch (action) {
    case "submit":
      return unwrap(api.POST("/v1/api/quotes/{id}/submit", path));
    case "approve":
      return unwrap(api.POST("/v1/api/quotes/{id}/approve", path));
    case "reject":
      return unwrap(api.POST("/v1/api/quotes/{id}/reject", { ...path, body: { reason } }));
    case "send":
      return unwrap(api.POST("/v1/api/quotes/{id}/send", path));
    case "withdraw":
      return unwrap(api.POST("/v1/api/quotes/{id}/withdraw", path));
  }
}

const LABEL: Record<Exclude<PageAction, "reject">, string> = {
  submit: "Submit for approval",
  approve: "Approve",
  send: "Send to the buyer",
  withdraw: "Withdraw",
};

const HELP: Record<PageAction, string> = {
  submit:
    "Prices the lines again; the quote policy approves it at once, by the envelope of an approved revision, or sends it to the tier it needs.",
  approve:
    "The regular prices and floors must be those of the submit (else STALE_QUOTE: a draft again).",
  reject: "Back to draft; the rep reads your reason.",
  send: "The buyer may accept or decline it in the storefront; it never changes again.",
  withdraw: "Ends it.",
};

function doneText(action: PageAction, after: Quote): string {
  if (action !== "submit") return `${STATUS_TEXT[after.status]}.`;
  if (after.status === "APPROVED") {
    return after.approvedBy === "envelope"
      ? "Submitted and approved at once: no worse than a revision approved before (envelope)."
      : "Submitted and approved at once: within the policy's auto-approval.";
  }
  return `Submitted: it waits for approval by tier ${after.requiredTier}.`;
}

function Facts({ quote }: { quote: Quote }) {
  const items = [
    { label: "Status", field: "status", value: STATUS_TEXT[quote.status] },
    { label: "Revision", field: "revision", value: String(quote.revision) },
    { label: "Customer", field: "customerCode", value: quote.customerCode },
    { label: "Channel", field: "channelCode", value: `${quote.channelCode} (${quote.currency})` },
    { label: "Mode", field: "mode", value: `${quote.mode} · ${quote.lock}` },
    { label: "Valid to", field: "validTo", value: utc(quote.validTo) },
    { label: "Total", field: "totalAmount", value: formatMoney(quote.totalAmount, quote.currency) },
    { label: "Author", field: "author", value: quote.author },
    { label: "Written by", field: "writers", value: quote.writers.join(", ") },
    { label: "Needs", field: "requiredTier", value: quote.requiredTier ?? "–" },
    { label: "Approved by", field: "approvedBy", value: quote.approvedBy ?? "–" },
    { label: "Sent", field: "sentAt", value: utc(quote.sentAt) },
  ];
  return <Figures items={items} class="quote-facts" />;
}

function SavedHead(props: { showMargin: boolean; showCost: boolean }) {
  const { showMargin, showCost } = props;
  return (
    <thead>
      <tr>
        <th scope="col">Product</th>
        <th scope="col" class="num">
          Quantity
        </th>
        <th scope="col" class="num">
          Regular price
        </th>
        {showMargin ? (
          <th scope="col" class="num">
            Floor
          </th>
        ) : null}
        <th scope="col" class="num">
          Quoted price
        </th>
        <th scope="col" class="num">
          Line
        </th>
        <th scope="col" class="num">
          Cut
        </th>
        {showMargin ? (
          <th scope="col" class="num">
            Margin
          </th>
        ) : null}
        {showCost ? (
          <th scope="col" class="num">
            Cost
          </th>
        ) : null}
      </tr>
    </thead>
  );
}

/** The lines as the engine priced and judged them (a quote that can no longer change). */
function Lines({ quote, me }: { quote: Quote; me: Me | null }) {
  // A read key is answered neither margin nor floor (docs/quotes.md §2); cost: admin keys only.
  const showMargin = me?.role !== "read";
  const showCost = quote.lines.some((l) => l.costUnitAmount !== undefined);
  const money = (amount: number | null, unit: number) => formatPer(amount, quote.currency, unit);
  return (
    <table class="quote-lines">
      <caption>Lines as priced on {utc(quote.pricedAt)}</caption>
      <SavedHead showMargin={showMargin} showCost={showCost} />
      <tbody>
        {quote.lines.map((l) => (
          <tr key={l.productCode} data-product={l.productCode}>
            <td>{l.productCode}</td>
            <td class="num">{l.quantity}</td>
            <td class="num" data-field="regular">
              {money(l.regularUnitAmount, l.priceUnit)}
            </td>
            {showMargin ? (
              <td class="num" data-field="floor">
                {money(l.floorUnitAmount ?? null, l.priceUnit)}
              </td>
            ) : null}
            <td class="num" data-field="quoted">
              {money(l.quotedUnitAmount, l.priceUnit)}
            </td>
            <td class="num" data-field="lineAmount">
              {formatMoney(l.lineAmount, quote.currency)}
            </td>
            <td class="num" data-field="cut">
              {formatBp(l.cutBp)}
            </td>
            {showMargin ? (
              <td class="num" data-field="margin">
                {formatBp(l.marginBp ?? null)}
              </td>
            ) : null}
            {showCost ? (
              <td class="num" data-field="cost">
                {money(l.costUnitAmount ?? null, l.priceUnit)}
              </td>
            ) : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The tier it needs and why; how it was approved; why it was rejected. */
function ApprovalNote(props: { quote: Quote; policy: QuotePolicy | null; me: Me | null }) {
  const { quote, policy, me } = props;
  if (me?.role === "read") return null;
  const judged = quote.lines.map((l) => ({
    productCode: l.productCode,
    cutBp: l.cutBp,
    marginBp: l.marginBp ?? null,
  }));
  let body = null;
  if (quote.status === "PENDING_APPROVAL" && quote.requiredTier) {
    body = policy ? (
      <TierWithPolicy lines={judged} policy={policy} />
    ) : (
      <TierWithoutPolicy tier={quote.requiredTier} lines={judged} />
    );
  } else if (quote.approvedBy && quote.approvedAt) {
    const by =
      quote.approvedBy === "policy"
        ? "the policy: every line within auto-approval"
        : quote.approvedBy === "envelope"
          ? "the envelope: every line no worse than in a revision approved before"
          : quote.approvedBy;
    body = (
      <p data-field="approval">
        Approved by {by}, {utc(quote.approvedAt)}.
      </p>
    );
  } else if (quote.status === "DRAFT" && quote.rejectionReason) {
    body = (
      <p data-field="rejection" class="notice">
        Rejected by {quote.rejectedBy ?? "an approver"}: {quote.rejectionReason}
      </p>
    );
  }
  if (!body) return null;
  return (
    <section class="panel approval" aria-labelledby="approval-title">
      <h2 id="approval-title">Approval</h2>
      {body}
    </section>
  );
}

function Actions(props: {
  quote: Quote;
  me: Me;
  unsaved: boolean;
  onAnswer: (q: Quote | null) => void;
}) {
  const { quote, me, unsaved } = props;
  // A refusal may have moved it (STALE_QUOTE makes it a draft again): it is read again.
  const { busy, outcome, reason, setReason, run } = useActions(
    (action: PageAction, why) => act(action, quote.id, why),
    doneText,
    props.onAnswer,
  );
  const { offered, absent } = offerOf(quote, me);
  return (
    <section aria-labelledby="actions-title" class="panel actions">
      <h2 id="actions-title">Actions</h2>
      <ActionButtons
        actions={offered}
        label={LABEL}
        help={HELP}
        secondary={["withdraw"]}
        blockedBy={(a) => (a === "submit" && unsaved ? "unsaved-note" : null)}
        busy={busy !== null}
        run={run}
      />
      {offered.includes("submit") && unsaved ? (
        <p id="unsaved-note" class="notice">
          Save the changes first: a submit judges the quote as saved.
        </p>
      ) : null}
      {offered.includes("reject") ? (
        <RejectForm
          reason={reason}
          onReason={setReason}
          help={HELP.reject}
          busy={busy !== null}
          onReject={() => run("reject")}
        />
      ) : null}
      {absent.length ? (
        <ul class="absent" id="absent-actions" data-field="absent">
          {absent.map((a) => (
            <li key={a}>{a}</li>
          ))}
        </ul>
      ) : null}
      {busy ? <p role="status">Working…</p> : null}
      <OutcomeNote outcome={outcome} />
    </section>
  );
}

/** The revisions approved so far, oldest first, and the one shown. */
function Revisions({ quote }: { quote: Quote }) {
  return (
    <section aria-labelledby="revisions-title">
      <h2 id="revisions-title">Revisions</h2>
      <p>
        This is revision {quote.revision}
        {quote.revision > 1 ? ": the buyer declined an earlier one to renegotiate" : ""}.
      </p>
      {quote.revisions.length ? (
        <table class="quote-revisions">
          <caption>Approved revisions: a later one no worse than these is approved at once</caption>
          <thead>
            <tr>
              <th scope="col">Revision</th>
              <th scope="col">Approved by</th>
              <th scope="col">Approved</th>
              <th scope="col">Valid to</th>
              <th scope="col" class="num">
                Total
              </th>
            </tr>
          </thead>
          <tbody>
            {quote.revisions.map((r) => (
              <tr key={r.revision} data-revision={r.revision}>
                <td>{r.revision}</td>
                <td>{r.approvedBy}</td>
                <td>{utc(r.approvedAt)}</td>
                <td>{utc(r.validTo)}</td>
                <td class="num">{formatMoney(r.totalAmount, quote.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p class="muted">No revision approved yet.</p>
      )}
    </section>
  );
}

/** A DRAFT or RENEGOTIATING quote's form, saved with PATCH (which prices every line again). */
function Edit(props: {
  quote: Quote;
  me: Me | null;
  policy: QuotePolicy | null;
  form: QuoteForm;
  setForm: (next: (f: QuoteForm) => QuoteForm) => void;
  unsaved: boolean;
  onAnswer: (q: Quote) => void;
}) {
  const { quote, form, unsaved } = props;
  const update = updaterOf(props.setForm);
  const pricing = usePricing(form);
  const [sending, setSending] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);
  const save = async () => {
    const built = quoteBodyOf(form, quote.currency, Date.now());
    if (!built.ok) return setProblems(built.problems);
    const { validTo, mode, lock, lines } = built.body;
    setSending(true);
    setProblems([]);
    try {
      const after = await unwrap(
        api.PATCH("/v1/api/quotes/{id}", {
          params: { path: { id: quote.id } },
          body: { validTo, mode, lock, lines },
        }),
      );
      props.onAnswer(after);
    } catch (error) {
      setProblems([describeError(error)]);
    } finally {
      setSending(false);
    }
  };
  return (
    <form
      class="quote-form"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <Editor
        form={form}
        update={update}
        saved={quote}
        pricing={pricing}
        policy={props.policy}
        me={props.me}
      />
      <p class="field-row">
        {/* In RENEGOTIATING a save starts the next revision, even with the same prices. */}
        <button type="submit" disabled={sending || (!unsaved && quote.status !== "RENEGOTIATING")}>
          {quote.status === "RENEGOTIATING"
            ? `Save as revision ${quote.revision + 1}`
            : "Save and price"}
        </button>
        {unsaved ? (
          <small class="hint">Saving prices every line with the engine.</small>
        ) : (
          <small class="hint" data-field="saved">
            Saved: priced {utc(quote.pricedAt)}.
          </small>
        )}
      </p>
      {problems.length ? (
        <ul role="alert" class="error problems">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      ) : null}
    </form>
  );
}

function Loaded(props: { quote: Quote; me: Me | null; onAnswer: (q: Quote | null) => void }) {
  const { quote, me } = props;
  const policy = usePolicy(me);
  const [form, setForm] = useState<QuoteForm>(() => formOf(quote));
  // A new answer (saved, acted on) is the form again.
  useEffect(() => setForm(formOf(quote)), [quote.updatedAt, quote.status, quote.revision]);
  const editable =
    me !== null &&
    me.role !== "read" &&
    (quote.status === "DRAFT" || quote.status === "RENEGOTIATING");
  const unsaved = editable && JSON.stringify(form) !== JSON.stringify(formOf(quote));
  const rules = policy.state === "ready" ? policy.value : null;
  return (
    <>
      <Facts quote={quote} />
      {editable ? (
        <Edit
          quote={quote}
          me={me}
          policy={rules}
          form={form}
          setForm={setForm}
          unsaved={unsaved}
          onAnswer={props.onAnswer}
        />
      ) : (
        <Lines quote={quote} me={me} />
      )}
      <ApprovalNote quote={quote} policy={rules} me={me} />
      {me ? <Actions quote={quote} me={me} unsaved={unsaved} onAnswer={props.onAnswer} /> : null}
      <Revisions quote={quote} />
    </>
  );
}

/** One quote: its lines (a form while it may change), the tier it needs, the actions, revisions. */
export function QuotePage({ id, me }: { id: number; me: Me | null }) {
  const {
    record: quote,
    read,
    onAnswer,
  } = useRecord(id, (signal) =>
    unwrap(api.GET("/v1/api/quotes/{id}", { params: { path: { id } }, signal })),
  );
  return (
    <>
      <PageHeading title={quote ? `Quote ${id}: ${quote.customerCode}` : `Quote ${id}`}>
        <a href={hrefOf({ page: "quotes" })}>All quotes</a>
      </PageHeading>
      {quote ? (
        <Loaded quote={quote} me={me} onAnswer={onAnswer} />
      ) : (
        <LoadNote loaded={read} loading="Loading the quote…" />
      )}
    </>
  );
}
