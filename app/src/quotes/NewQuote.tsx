import { useState } from "preact/hooks";
import { api, describeError, unwrap } from "../lib/api";
import { go, hrefOf } from "../lib/route";
import { updaterOf } from "../ui/fields";
import { PageHeading } from "../ui/PageHeading";
import type { Me } from "../ui/roles";
import { usePolicy } from "./Approval";
import { Editor, usePricing } from "./Editor";
import { type QuoteForm, emptyQuoteForm, quoteBodyOf } from "./quote";

/** A new quote: the form, created as a DRAFT priced by the engine (POST /v1/api/quotes). */
export function NewQuote({ me }: { me: Me | null }) {
  const [form, setForm] = useState<QuoteForm>(() => emptyQuoteForm(Date.now()));
  const update = updaterOf(setForm);
  const pricing = usePricing(form);
  const policy = usePolicy(me);
  const [sending, setSending] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);
  const heading = (
    <PageHeading title="New quote">
      Choose the buyer and the products; type a quoted price per line (empty: the regular price).
      The regular price and the cut show as you type; creating the draft prices every line with the
      engine (floor and margin too). <a href={hrefOf({ page: "quotes" })}>All quotes</a>
    </PageHeading>
  );
  if (me?.role === "read") {
    return (
      <>
        {heading}
        <p class="notice" id="quotes-read-key">
          A read key writes no quotes: sign in with a sales or admin key to create one.
        </p>
      </>
    );
  }
  const priced = pricing.state === "ready" ? pricing.value : null;
  const create = async () => {
    const built = quoteBodyOf(form, priced?.currency ?? null, Date.now());
    if (!built.ok) return setProblems(built.problems);
    setSending(true);
    setProblems([]);
    try {
      const quote = await unwrap(api.POST("/v1/api/quotes", { body: built.body }));
      go({ page: "quote", id: quote.id });
    } catch (error) {
      setProblems([describeError(error)]);
    } finally {
      setSending(false);
    }
  };
  return (
    <>
      {heading}
      <form
        class="quote-form"
        onSubmit={(e) => {
          e.preventDefault();
          void create();
        }}
      >
        <Editor
          form={form}
          update={update}
          saved={null}
          pricing={pricing}
          policy={policy.state === "ready" ? policy.value : null}
          me={me}
        />
        <p class="field-row">
          <button type="submit" disabled={sending}>
            Create draft
          </button>
        </p>
        {problems.length ? (
          <ul role="alert" class="error problems">
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        ) : null}
      </form>
    </>
  );
}
