import { useState } from "preact/hooks";
import { LINT_CODES, LINT_SEVERITIES } from "../../../src/pricing/vocabulary";
import { api, unwrap } from "../lib/api";
import { type Loaded, useLoad } from "../lib/hooks";
import { type Pricelist, useEditablePricelists } from "../changes/pricelists";
import { Field, InputField, LoadNote, useSuggestions } from "../ui/fields";
import { PageHeading } from "../ui/PageHeading";
import { GroupCard } from "./Findings";
import {
  type Finding,
  type LintFilters,
  countsBySeverity,
  groupFindings,
  lintQueryOf,
  noFilters,
  unfiltered,
} from "./groups";

/** Every finding the filters keep, page by page (100 a page), in the API's order. */
async function allFindings(filters: LintFilters, signal: AbortSignal): Promise<Finding[]> {
  const built = lintQueryOf(filters);
  if ("problem" in built) throw new Error(built.problem);
  const findings: Finding[] = [];
  for (let page = 1; ; page++) {
    const answer = await unwrap(
      api.GET("/v1/api/pricing/lint", {
        params: { query: { ...built.query, page, limit: 100 } },
        signal,
      }),
    );
    findings.push(...answer.data);
    if (page >= answer.meta.totalPages) return findings;
  }
}

function Counts({ findings, groups }: { findings: Finding[]; groups: number }) {
  return (
    <p class="counts" data-total={findings.length}>
      <span>
        {findings.length} {findings.length === 1 ? "finding" : "findings"} in {groups}{" "}
        {groups === 1 ? "group" : "groups"}:
      </span>
      {countsBySeverity(findings, LINT_SEVERITIES).map(({ severity, count }) => (
        <span key={severity} class={`badge severity-${severity}`}>
          {count} {severity}
        </span>
      ))}
    </p>
  );
}

function FilterForm(props: {
  typed: LintFilters;
  onTyped: (patch: Partial<LintFilters>) => void;
  onApply: (patch?: Partial<LintFilters>) => void;
  onClear: () => void;
  lists: Loaded<Pricelist[]>;
}) {
  const { typed, onTyped, onApply, lists } = props;
  const products = useSuggestions("product", typed.productCode);
  // A choice in a list applies at once; a typed product code with Enter or "Lint".
  const choose = (patch: Partial<LintFilters>) => (onTyped(patch), onApply(patch));
  return (
    <form class="panel field-row" onSubmit={(e) => (e.preventDefault(), onApply())}>
      <Field id="lint-severity" label="Severity">
        <select
          id="lint-severity"
          value={typed.severity}
          onChange={(e) => choose({ severity: e.currentTarget.value as LintFilters["severity"] })}
        >
          <option value="">All</option>
          {LINT_SEVERITIES.map((s) => (
            <option key={s}>{s}</option>
          ))}
        </select>
      </Field>
      <Field id="lint-code" label="Code">
        <select
          id="lint-code"
          value={typed.code}
          onChange={(e) => choose({ code: e.currentTarget.value as LintFilters["code"] })}
        >
          <option value="">All</option>
          {LINT_CODES.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </select>
      </Field>
      <Field id="lint-pricelist" label="Pricelist">
        <select
          id="lint-pricelist"
          value={typed.pricelistId}
          onChange={(e) => choose({ pricelistId: e.currentTarget.value })}
        >
          <option value="">All</option>
          {lists.state === "ready"
            ? lists.value.map((p) => (
                <option key={p.id} value={String(p.id)}>
                  {p.id} · {p.name}
                </option>
              ))
            : null}
        </select>
      </Field>
      <InputField
        id="lint-product"
        label="Product"
        hint="A product code; empty: every product"
        list={products.listId}
        value={typed.productCode}
        onValue={(productCode) => onTyped({ productCode })}
      />
      {products.list}
      <button type="submit">Lint</button>
      <button type="button" class="secondary" onClick={props.onClear}>
        Clear filters
      </button>
    </form>
  );
}

/**
 * The findings of GET /v1/api/pricing/lint, filtered by the API (severity, code, pricelist,
 * product) and grouped here by code and pricelist, with counts (docs/app.md §1).
 */
export function Lint() {
  const [typed, setTyped] = useState<LintFilters>(noFilters);
  const [applied, setApplied] = useState<{ filters: LintFilters; run: number }>({
    filters: noFilters,
    run: 0,
  });
  const findings = useLoad((signal) => allFindings(applied.filters, signal), [applied]);
  const lists = useEditablePricelists();
  const names = new Map(lists.state === "ready" ? lists.value.map((p) => [p.id, p.name]) : []);
  const groups = findings.state === "ready" ? groupFindings(findings.value) : [];
  const apply = (patch: Partial<LintFilters> = {}) =>
    setApplied((a) => ({ filters: { ...typed, ...patch }, run: a.run + 1 }));
  return (
    <>
      <PageHeading title="Pricing lint">
        What in the pricing rules in force does not do what it says: terms that never apply, ties
        decided by id, price gaps, floors above list prices, tiers where fewer pieces cost more,
        lists derived across currencies without a rate (docs/pricing-lint.md explains each code and
        its fix). Grouped by code and pricelist.
      </PageHeading>
      <FilterForm
        typed={typed}
        onTyped={(patch) => setTyped((t) => ({ ...t, ...patch }))}
        onApply={apply}
        lists={lists}
        onClear={() => (
          setTyped(noFilters),
          setApplied((a) => ({ filters: noFilters, run: a.run + 1 }))
        )}
      />
      <LoadNote loaded={findings} loading="Linting…" />
      {findings.state === "ready" ? (
        <>
          <Counts findings={findings.value} groups={groups.length} />
          {findings.value.length === 0 ? (
            <p>
              {unfiltered(applied.filters)
                ? "No findings: the rules do what they say."
                : "No findings match these filters."}
            </p>
          ) : (
            groups.map((g) => (
              <GroupCard
                key={g.key}
                group={g}
                pricelistName={g.pricelistId === null ? undefined : names.get(g.pricelistId)}
              />
            ))
          )}
        </>
      ) : null}
    </>
  );
}
