import type { components, paths } from "../../../client/pricing-api";

type Schemas = components["schemas"];

export type Finding = Schemas["LintFinding"];
export type Severity = Schemas["LintSeverity"];
export type LintCode = Schemas["LintCode"];

/** The page's filters, as typed: "" = any. */
export interface LintFilters {
  severity: "" | Severity;
  code: "" | LintCode;
  /** A pricelist id */
  pricelistId: string;
  /** A product code */
  productCode: string;
}

export const noFilters: LintFilters = { severity: "", code: "", pricelistId: "", productCode: "" };

/** Whether `filters` keep every finding. */
export const unfiltered = (filters: LintFilters) =>
  Object.values(filters).every((value) => value.trim() === "");

type LintQuery = NonNullable<paths["/v1/api/pricing/lint"]["get"]["parameters"]["query"]>;

/**
 * The list query of GET /v1/api/pricing/lint for `filters` (docs/pricing-lint.md §12): the API
 * filters, the page groups what it answers. A pricelist that is not an id is a sentence.
 */
export function lintQueryOf(filters: LintFilters): { query: LintQuery } | { problem: string } {
  const query: LintQuery = {};
  if (filters.severity) query["filter.severity"] = [filters.severity];
  if (filters.code) query["filter.code"] = [filters.code];
  const pricelistId = filters.pricelistId.trim();
  if (pricelistId) {
    if (!/^[1-9][0-9]{0,14}$/.test(pricelistId)) {
      return { problem: "Pricelist: type a pricelist id, a whole number from 1." };
    }
    query["filter.pricelistId"] = [pricelistId];
  }
  const productCode = filters.productCode.trim();
  if (productCode) query["filter.productCode"] = [productCode];
  return { query };
}

/** The findings of one code in one pricelist (or naming none), in the API's order. */
export interface FindingGroup {
  key: string;
  code: LintCode;
  severity: Severity;
  /** The first pricelist the findings name; null: they name none */
  pricelistId: number | null;
  findings: Finding[];
}

/** The first pricelist a finding names: the one its group is under. */
export const pricelistOf = (finding: Finding): number | null =>
  finding.records.find((r) => r.kind === "pricelist" && r.id !== undefined)?.id ?? null;

/**
 * The findings grouped by code and pricelist, the groups in the order of their first finding (the
 * API's: severity, then code), the findings of a group in the API's order.
 */
export function groupFindings(findings: readonly Finding[]): FindingGroup[] {
  const groups = new Map<string, FindingGroup>();
  for (const finding of findings) {
    const pricelistId = pricelistOf(finding);
    const key = `${finding.code}:${pricelistId ?? "-"}`;
    let group = groups.get(key);
    if (!group) {
      group = { key, code: finding.code, severity: finding.severity, pricelistId, findings: [] };
      groups.set(key, group);
    }
    group.findings.push(finding);
  }
  return [...groups.values()];
}

/** How many findings of each severity, in the vocabulary's order. */
export const countsBySeverity = (findings: readonly Finding[], severities: readonly Severity[]) =>
  severities.map((severity) => ({
    severity,
    count: findings.filter((f) => f.severity === severity).length,
  }));
