import { api, unwrap } from "../lib/api";
import { useElapsedTenths } from "../lib/hooks";
import { formatUtc as utc } from "../lib/instant";
import { hrefOf } from "../lib/route";
import { Figures, LoadNote } from "../ui/fields";
import { ActionButtons, OutcomeNote, RejectForm, useActions, useRecord } from "../ui/lifecycle";
import { PageHeading } from "../ui/PageHeading";
import { ImpactView } from "./Impact";
import { Items } from "./Items";
import {
  type Action,
  type ChangeRequest,
  STATUS_TEXT,
  actionsOf,
  inEffectFrom,
  selfApprovalText,
} from "./lifecycle";
import { amountFormat, type Pricelist, pricelistIdsOf, useNamedPricelists } from "./pricelists";

/** One action through the API: the request as it answers it. */
function send(action: Action, id: number, reason: string): Promise<ChangeRequest> {
  const path = { params: { path: { id } } };
  switch (action) {
    case "submit":
      return unwrap(api.POST("/v1/api/change-requests/{id}/submit", path));
    case "approve":
      return unwrap(api.POST("/v1/api/change-requests/{id}/approve", path));
    case "reject":
      return unwrap(api.POST("/v1/api/change-requests/{id}/reject", { ...path, body: { reason } }));
    case "withdraw":
      return unwrap(api.POST("/v1/api/change-requests/{id}/withdraw", path));
    case "cancel":
      return unwrap(api.POST("/v1/api/change-requests/{id}/cancel", path));
  }
}

/** What the page says once an action is through, by the status the request is then in. */
const doneText = (action: Action, after: ChangeRequest) =>
  action === "submit"
    ? after.status === "APPLIED"
      ? "Submitted and applied at once: the approval policy approved it."
      : "Submitted: it waits for another admin key's approval."
    : DONE[action];

const DONE: Record<Action, string> = {
  submit: "Submitted.",
  approve: "Approved and applied.",
  reject: "Rejected.",
  withdraw: "Withdrawn.",
  cancel: "Cancelled: what it wrote is restored.",
};

const BUSY: Record<Action, string> = {
  submit: "Computing the impact…",
  approve: "Approving…",
  reject: "Rejecting…",
  withdraw: "Withdrawing…",
  cancel: "Cancelling…",
};

const LABEL: Record<Exclude<Action, "reject">, string> = {
  submit: "Submit for approval",
  approve: "Approve and apply",
  withdraw: "Withdraw",
  cancel: "Cancel and restore",
};

const HELP: Record<Action, string> = {
  submit:
    "Computes the impact; the approval policy may apply it at once, else it waits for a second admin key.",
  approve: "Writes every change in one batch, dated its effective date.",
  reject: "Ends it; the author sees your reason.",
  withdraw: "Ends it; nothing was written.",
  cancel: "Before its effective date only: puts back exactly what was there.",
};

function Busy({ action }: { action: Action | null }) {
  const tenths = useElapsedTenths(action !== null);
  if (!action) return null;
  return (
    <div class="progress">
      <progress aria-label="Action running" />
      <span role="status">{BUSY[action]}</span>
      <span aria-hidden="true">
        {Math.floor(tenths / 10)}.{tenths % 10} s
      </span>
    </div>
  );
}

/** The actions the status allows, the sentence when this key may not approve, the outcome. */
function Actions(props: { request: ChangeRequest; onAnswer: (r: ChangeRequest | null) => void }) {
  const { request } = props;
  // A refusal may have moved it (a stale approval goes back to DRAFT): it is read again.
  const { busy, outcome, reason, setReason, run } = useActions(
    (action: Action, why) => send(action, request.id, why),
    doneText,
    props.onAnswer,
  );
  const actions = actionsOf(request, Date.now());
  const selfApproval = selfApprovalText(request);
  return (
    <section aria-labelledby="actions-title" class="panel actions">
      <h2 id="actions-title">Actions</h2>
      {actions.length === 0 ? (
        <p class="muted">
          {request.status === "APPLIED"
            ? `In effect since ${utc(inEffectFrom(request))}: it can no longer be cancelled (write a new request to undo it).`
            : "None: this request is closed."}
        </p>
      ) : null}
      {selfApproval ? (
        <p id="self-approval" class="notice" data-field="selfApproval">
          {selfApproval}
        </p>
      ) : null}
      <ActionButtons
        actions={actions}
        label={LABEL}
        help={HELP}
        secondary={["withdraw", "cancel"]}
        blockedBy={(a) => (a === "approve" && selfApproval !== null ? "self-approval" : null)}
        busy={busy !== null}
        run={run}
      />
      {actions.includes("reject") ? (
        <RejectForm
          reason={reason}
          onReason={setReason}
          help={HELP.reject}
          busy={busy !== null}
          onReject={() => run("reject")}
        />
      ) : null}
      <Busy action={busy} />
      <OutcomeNote outcome={outcome} />
    </section>
  );
}

function Facts({ request }: { request: ChangeRequest }) {
  const items = [
    { label: "Status", field: "status", value: STATUS_TEXT[request.status] },
    {
      label: "Effective",
      field: "effectiveAt",
      value: request.effectiveAt ? utc(request.effectiveAt) : "when approved",
    },
    { label: "Author", field: "author", value: request.author },
    { label: "Written by", field: "writers", value: request.writers.join(", ") },
    { label: "Submitted", field: "submittedAt", value: utc(request.submittedAt) },
    { label: "Approved by", field: "approvedBy", value: request.approvedBy ?? "–" },
    { label: "Applied", field: "appliedAt", value: utc(request.appliedAt) },
  ];
  if (request.status === "REJECTED") {
    items.push(
      { label: "Rejected by", field: "rejectedBy", value: request.rejectedBy ?? "–" },
      { label: "Reason", field: "rejectionReason", value: request.rejectionReason ?? "–" },
    );
  }
  return <Figures items={items} />;
}

function Loaded(props: { request: ChangeRequest; onAnswer: (r: ChangeRequest | null) => void }) {
  const { request } = props;
  const lists = useNamedPricelists(pricelistIdsOf(request));
  // Amounts wait for their currency; without the lists they are shown in minor units.
  if (lists.state === "loading") return <LoadNote loaded={lists} loading="Loading…" />;
  const named = lists.state === "ready" ? lists.value : new Map<number, Pricelist>();
  const { format } = amountFormat(request, named);
  return (
    <>
      <Facts request={request} />
      <Items items={request.items} lists={named} format={format} />
      {request.impact ? (
        <ImpactView impact={request.impact} format={format} />
      ) : (
        <p class="muted">The impact is computed when the request is submitted.</p>
      )}
      <Actions request={request} onAnswer={props.onAnswer} />
    </>
  );
}

/** One change request: what it changes, its impact, and the actions its status allows. */
export function ChangeRequestPage({ id }: { id: number }) {
  const {
    record: request,
    read,
    onAnswer,
  } = useRecord(id, (signal) =>
    unwrap(api.GET("/v1/api/change-requests/{id}", { params: { path: { id } }, signal })),
  );
  return (
    <>
      <PageHeading
        title={request ? `Change request ${id}: ${request.title}` : `Change request ${id}`}
      >
        <a href={hrefOf({ page: "changes" })}>All change requests</a>
      </PageHeading>
      {request ? (
        <Loaded request={request} onAnswer={onAnswer} />
      ) : (
        <LoadNote loaded={read} loading="Loading the request…" />
      )}
    </>
  );
}
