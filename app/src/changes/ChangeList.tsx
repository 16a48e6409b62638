import { useState } from "preact/hooks";
import { api, type Schemas, unwrap } from "../lib/api";
import { useLoad } from "../lib/hooks";
import { formatUtc as utc } from "../lib/instant";
import { formatBp } from "../lib/money";
import { hrefOf } from "../lib/route";
import { LoadNote } from "../ui/fields";
import { Pager, StatusFilter } from "../ui/lifecycle";
import { PageHeading } from "../ui/PageHeading";
import { type ChangeRequestStatus, STATUS_TEXT, selfApprovalText } from "./lifecycle";

type Summary = Schemas["ChangeRequestSummary"];
type Policy = Schemas["ChangeRequestPolicy"];
type PolicyState = Schemas["ChangeRequestPolicyState"];

const PAGE_SIZE = 50;

/** The approval policy in a sentence (docs/api/change-requests.md §17.4). */
function policyText({ autoApproveMaxRaiseBp: raise, autoApproveMaxCutBp: cut }: Policy): string {
  if (raise === null || cut === null) {
    return "Approval policy: every request needs a second admin key.";
  }
  return (
    `Approval policy: a request whose prices rise by at most ${formatBp(raise)} and fall by at ` +
    `most ${formatBp(cut)}, with nothing left out of its impact, is applied when it is submitted; ` +
    "any other needs a second admin key."
  );
}

/** Who set the limits in force, and a loosening that waits for another owner (§17.4). */
function policyOrigin({ setBy, approvedBy, proposal }: PolicyState): string {
  const set = setBy ? ` Set by ${setBy}${approvedBy ? `, approved by ${approvedBy}` : ""}.` : "";
  if (!proposal) return set;
  const limits =
    `at most ${formatBp(proposal.autoApproveMaxRaiseBp ?? 0)} up and ` +
    `${formatBp(proposal.autoApproveMaxCutBp ?? 0)} down`;
  const who = proposal.proposedByCaller
    ? "an admin key of another owner must approve it"
    : "awaiting approval by an admin key of another owner than its proposer";
  return `${set} ${proposal.proposedBy} proposed ${limits}: ${who}.`;
}

function PolicyLine() {
  const policy = useLoad(
    (signal) => unwrap(api.GET("/v1/api/change-requests/policy", { signal })),
    [],
  );
  if (policy.state !== "ready") return <LoadNote loaded={policy} loading="Reading the policy…" />;
  return (
    <p class="notice" data-field="policy">
      {policyText(policy.value)}
      {policyOrigin(policy.value)}
    </p>
  );
}

function StatusCell({ request }: { request: Summary }) {
  const self = selfApprovalText(request);
  return (
    <td data-field="status">
      <span class={`badge change-${request.status}`}>{STATUS_TEXT[request.status]}</span>
      {self ? <small class="hint"> · another admin key must approve it</small> : null}
    </td>
  );
}

function RequestsTable({ requests }: { requests: Summary[] }) {
  return (
    <table class="change-requests">
      <caption>Change requests, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Request</th>
          <th scope="col">Status</th>
          <th scope="col">Effective</th>
          <th scope="col">Author</th>
          <th scope="col">Approved by</th>
          <th scope="col" class="num">
            Items
          </th>
          <th scope="col" class="num">
            Largest rise
          </th>
          <th scope="col" class="num">
            Largest cut
          </th>
        </tr>
      </thead>
      <tbody>
        {requests.map((r) => (
          <tr key={r.id} data-id={r.id}>
            <td>
              <a href={hrefOf({ page: "change", id: r.id })}>
                {r.id} · {r.title}
              </a>
            </td>
            <StatusCell request={r} />
            <td>{r.effectiveAt ? utc(r.effectiveAt) : "when approved"}</td>
            <td>{r.author}</td>
            <td>{r.approvedBy ?? "–"}</td>
            <td class="num">{r.itemCount}</td>
            <td class="num rise">{r.impact ? formatBp(r.impact.maxRaiseBp, true) : "–"}</td>
            <td class="num cut">{r.impact ? formatBp(-r.impact.maxCutBp, true) : "–"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The change requests (newest first, by status), the approval policy and the two forms. */
export function ChangeList() {
  const [status, setStatus] = useState<"" | ChangeRequestStatus>("");
  const [page, setPage] = useState(1);
  const list = useLoad(
    (signal) =>
      unwrap(
        api.GET("/v1/api/change-requests", {
          params: {
            query: {
              page,
              limit: PAGE_SIZE,
              sortBy: ["id:DESC"],
              ...(status ? { "filter.status": [status] } : {}),
            },
          },
          signal,
        }),
      ),
    [status, page],
  );
  return (
    <>
      <PageHeading title="Changes">
        Price changes on a date, approved by a second person: prepare a mass adjustment or paste
        price rows, submit to see the impact on every customer's prices, and let another admin key
        approve it. Approved changes are written at once, dated, and take effect on their date.
      </PageHeading>
      <p class="field-row">
        <a class="button" href={hrefOf({ page: "new-change", kind: "adjust" })}>
          New mass adjustment
        </a>
        <a class="button" href={hrefOf({ page: "new-change", kind: "rows" })}>
          New price rows
        </a>
      </p>
      <PolicyLine />
      <StatusFilter
        id="changes-status"
        status={status}
        words={STATUS_TEXT}
        onStatus={(s) => (setStatus(s), setPage(1))}
      />
      <LoadNote loaded={list} loading="Loading the change requests…" />
      {list.state === "ready" && list.value.data.length === 0 ? (
        <p>No change requests{status ? " in this status" : ""} yet.</p>
      ) : null}
      {list.state === "ready" && list.value.data.length > 0 ? (
        <>
          <RequestsTable requests={list.value.data} />
          <Pager page={page} pages={list.value.meta.totalPages} onPage={setPage} />
        </>
      ) : null}
    </>
  );
}
