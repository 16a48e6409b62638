import { useState } from "preact/hooks";
import { api, unwrap } from "../lib/api";
import { useLoad } from "../lib/hooks";
import { formatUtc as utc } from "../lib/instant";
import { formatMoney } from "../lib/money";
import { hrefOf } from "../lib/route";
import { LoadNote } from "../ui/fields";
import { Pager, StatusFilter } from "../ui/lifecycle";
import { PageHeading } from "../ui/PageHeading";
import type { Me } from "../ui/roles";
import { STATUS_TEXT, type QuoteStatus, type QuoteSummary } from "./quote";

const PAGE_SIZE = 50;

function QuotesTable({ quotes }: { quotes: QuoteSummary[] }) {
  return (
    <table class="quotes">
      <caption>Quotes, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Quote</th>
          <th scope="col">Status</th>
          <th scope="col">Channel</th>
          <th scope="col">Mode</th>
          <th scope="col" class="num">
            Lines
          </th>
          <th scope="col" class="num">
            Total
          </th>
          <th scope="col">Needs</th>
          <th scope="col">Author</th>
          <th scope="col">Valid to</th>
        </tr>
      </thead>
      <tbody>
        {quotes.map((q) => (
          <tr key={q.id} data-id={q.id}>
            <td>
              <a href={hrefOf({ page: "quote", id: q.id })}>
                {q.id} · {q.customerCode}
                {q.revision > 1 ? ` (revision ${q.revision})` : ""}
              </a>
            </td>
            <td data-field="status">
              <span class={`badge quote-${q.status}`}>{STATUS_TEXT[q.status]}</span>
            </td>
            <td>{q.channelCode}</td>
            <td>
              {q.mode} · {q.lock}
            </td>
            <td class="num">{q.lineCount}</td>
            <td class="num">{formatMoney(q.totalAmount, q.currency)}</td>
            <td>{q.requiredTier ?? "–"}</td>
            <td>{q.author}</td>
            <td>{utc(q.validTo)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The quotes (newest first, by status) and, for a key that writes them, a new quote's form. */
export function QuoteList({ me }: { me: Me | null }) {
  const [status, setStatus] = useState<"" | QuoteStatus>("");
  const [page, setPage] = useState(1);
  const list = useLoad(
    (signal) =>
      unwrap(
        api.GET("/v1/api/quotes", {
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
  const pages = list.state === "ready" ? list.value.meta.totalPages : 1;
  return (
    <>
      <PageHeading title="Quotes">
        Prices a sales rep negotiates for one customer: the engine prices every line (regular price,
        floor, cut and margin), the quote policy says who must approve it, and the buyer answers it
        in the storefront once it is sent.
      </PageHeading>
      {me?.role === "read" ? (
        <p class="notice" id="quotes-read-key">
          A read key sees the quotes without margin, and writes none: creating, submitting,
          approving and sending quotes need a sales or admin key.
        </p>
      ) : (
        <p class="field-row">
          <a class="button" href={hrefOf({ page: "new-quote" })}>
            New quote
          </a>
        </p>
      )}
      <StatusFilter
        id="quotes-status"
        status={status}
        words={STATUS_TEXT}
        onStatus={(s) => (setStatus(s), setPage(1))}
      />
      <LoadNote loaded={list} loading="Loading the quotes…" />
      {list.state === "ready" && list.value.data.length === 0 ? (
        <p>No quotes{status ? " in this status" : ""} yet.</p>
      ) : null}
      {list.state === "ready" && list.value.data.length > 0 ? (
        <QuotesTable quotes={list.value.data} />
      ) : null}
      <Pager page={page} pages={pages} onPage={setPage} />
    </>
  );
}
