import { useState } from "preact/hooks";
import { api, type Schemas, unwrap } from "../lib/api";
import { useLoad } from "../lib/hooks";
import { Field, LoadNote } from "../ui/fields";
import { PageHeading } from "../ui/PageHeading";
import { RecordLink } from "../ui/RecordLink";

type Finding = Schemas["LintFinding"];
type Severity = Schemas["LintSeverity"];

const SEVERITIES: readonly Severity[] = ["ERROR", "WARNING", "INFO"];

/** Every finding, page by page (100 a page), in the API's order: severity, then code. */
async function allFindings(signal: AbortSignal): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (let page = 1; ; page++) {
    const answer = await unwrap(
      api.GET("/v1/api/pricing/lint", { params: { query: { page, limit: 100 } }, signal }),
    );
    findings.push(...answer.data);
    if (page >= answer.meta.totalPages) return findings;
  }
}

function Counts({ findings }: { findings: Finding[] }) {
  return (
    <p class="counts">
      {SEVERITIES.map((s) => (
        <span key={s} class={`badge severity-${s}`}>
          {findings.filter((f) => f.severity === s).length} {s}
        </span>
      ))}
    </p>
  );
}

function FindingsTable({ findings }: { findings: Finding[] }) {
  return (
    <table class="findings">
      <caption>Findings of the pricing rules in force</caption>
      <thead>
        <tr>
          <th scope="col">Severity</th>
          <th scope="col">Code</th>
          <th scope="col">Message</th>
          <th scope="col">Records</th>
        </tr>
      </thead>
      <tbody>
        {findings.map((f, i) => (
          <tr key={i} data-code={f.code}>
            <td>
              <span class={`badge severity-${f.severity}`}>{f.severity}</span>
            </td>
            <td>
              <code>{f.code}</code>
            </td>
            <td>{f.message}</td>
            <td>
              <ul class="records">
                {f.records.map((r) => (
                  <li key={`${r.kind}:${r.id ?? r.code}`}>
                    <RecordLink kind={r.kind} id={(r.id ?? r.code)!} />
                  </li>
                ))}
              </ul>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The findings of GET /v1/api/pricing/lint, with links to the records they name. */
export function Lint() {
  const [reload, setReload] = useState(0);
  const [severity, setSeverity] = useState<"" | Severity>("");
  const findings = useLoad((signal) => allFindings(signal), [reload]);
  const shown =
    findings.state === "ready"
      ? findings.value.filter((f) => severity === "" || f.severity === severity)
      : [];
  return (
    <>
      <PageHeading title="Pricing lint">
        What in the pricing rules in force does not do what it says: terms that never apply, ties
        decided by id, price gaps, floors above list prices, tiers where fewer pieces cost more,
        lists derived across currencies without a rate (docs/pricing-lint.md explains each code and
        its fix).
      </PageHeading>
      <form class="panel field-row" onSubmit={(e) => (e.preventDefault(), setReload((n) => n + 1))}>
        <Field id="lint-severity" label="Severity">
          <select
            id="lint-severity"
            value={severity}
            onChange={(e) => setSeverity(e.currentTarget.value as "" | Severity)}
          >
            <option value="">All</option>
            {SEVERITIES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </Field>
        <button type="submit">Lint again</button>
      </form>
      <LoadNote loaded={findings} loading="Linting…" />
      {findings.state === "ready" ? (
        <>
          <Counts findings={findings.value} />
          {findings.value.length === 0 ? (
            <p>No findings: the rules do what they say.</p>
          ) : (
            <FindingsTable findings={shown} />
          )}
        </>
      ) : null}
    </>
  );
}
