import { parseInstant } from "../core/schemas";
import { echo, invalid, quote, type FieldIssue } from "../core/errors";
import {
  fieldsWhere,
  OPERATORS,
  type Direction,
  type FieldConfig,
  type FieldType,
  type ListConfig,
  type Operator,
} from "./config";

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
export const MAX_SEARCH_LENGTH = 100;
/** Text filter values are bound parameters; D1 allows 100 per statement. */
export const MAX_BOUND_FILTER_VALUES = 80;

export type FilterValue = string | number;

export interface ParsedFilter {
  field: string;
  negate: boolean;
  op: Operator;
  values: FilterValue[];
}

export interface ListQuery {
  page: number;
  limit: number;
  sortBy: [string, Direction][];
  search?: string;
  /** Effective search fields (all searchable ones unless `searchBy` narrowed them). */
  searchBy: string[];
  searchByGiven: boolean;
  select?: string[];
  filters: ParsedFilter[];
  /** `filter.<field>` values exactly as received, in request order (for meta and links). */
  filterInput: [string, string][];
}

const DIGITS = /^\d+$/;

function positiveInt(raw: string | undefined, fallback: number): number {
  if (raw === undefined || !DIGITS.test(raw)) return fallback;
  const n = Number(raw);
  // Digits past 2^53 - 1 are still a large number: a page past the end, the largest limit.
  return n >= 1 ? Math.min(n, Number.MAX_SAFE_INTEGER) : fallback;
}

/** Comma-joined and repeated values as one list: pieces trimmed, empty ones dropped. */
export const splitList = (values: string[]) =>
  values
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter((v) => v !== "");

function describeType(type: FieldType): string {
  return Array.isArray(type)
    ? `one of ${type.join(", ")}`
    : type === "datetime"
      ? "an ISO 8601 date-time or date"
      : `a ${type}`;
}

/** Converts one filter value to the field's type; undefined when it does not fit. */
export function convertValue(type: FieldType, raw: string): FilterValue | undefined {
  if (Array.isArray(type)) return type.includes(raw) ? raw : undefined;
  switch (type) {
    case "number":
      return /^-?\d{1,15}$/.test(raw) ? Number(raw) : undefined;
    case "boolean": {
      const v = raw.toLowerCase();
      return v === "true" || v === "1" ? 1 : v === "false" || v === "0" ? 0 : undefined;
    }
    case "datetime":
      return parseInstant(raw);
    default:
      return raw;
  }
}

/** `"x" is not sortable; sortable fields: a, b`: a field named where the endpoint does not take it. */
export const notAmong = (field: string, what: string, fields: readonly string[]) =>
  `${quote(field)} is not ${what}; ${what} fields: ${fields.join(", ")}`;

function notFilterable(config: ListConfig): string {
  const filterable = Object.keys(config.fields).filter((f) => config.fields[f]!.filter);
  return filterable.length
    ? `is not filterable; filterable fields: ${filterable.join(", ")}`
    : "this endpoint has no filterable fields";
}

/**
 * `[$not:][$op:]value`; only the first two tokens may be operators, so values may contain ':'.
 * A string is the reason the term is refused.
 */
function splitTerm(raw: string): { negate: boolean; op: Operator; rest: string } | string {
  let rest = raw;
  let negate = false;
  let op: Operator = "$eq";
  const take = () => {
    const i = rest.indexOf(":");
    const token = i === -1 ? rest : rest.slice(0, i);
    return { token, after: i === -1 ? "" : rest.slice(i + 1), hasColon: i !== -1 };
  };
  let next = take();
  if (next.token === "$not") {
    negate = true;
    rest = next.after;
    next = take();
  }
  if (next.token.startsWith("$")) {
    if (!(OPERATORS as readonly string[]).includes(next.token)) {
      // After $not, $not is not one of them.
      return `unknown operator ${echo(next.token)}; known: ${negate ? "" : "$not, "}${OPERATORS.join(", ")}`;
    }
    op = next.token as Operator;
    rest = next.hasColon ? next.after : "";
  }
  return { negate, op, rest };
}

function notPermitted(allowed: NonNullable<FieldConfig["filter"]>, negate: boolean, op: Operator) {
  const permitted = new Set<string>(["$eq", ...allowed]);
  if (negate && !permitted.has("$not")) {
    return `$not is not allowed; allowed: ${[...permitted].join(", ")}`;
  }
  if (!permitted.has(op)) return `${op} is not allowed; allowed: ${[...permitted].join(", ")}`;
  return undefined;
}

/** The operand(s) after the operators, converted to the field's type; a string is the reason not. */
function filterValues(type: FieldType, op: Operator, rest: string): FilterValue[] | string {
  if (op === "$null") return [];
  const parts = op === "$in" || op === "$btw" ? rest.split(",") : [rest];
  if (op === "$btw" && parts.length !== 2) return "$btw needs two values: $btw:from,to";
  const values: FilterValue[] = [];
  for (const part of parts) {
    const value = convertValue(type, part);
    if (value === undefined) return `value ${quote(part)} must be ${describeType(type)}`;
    values.push(value);
  }
  return values;
}

function parseFilter(
  field: string,
  raw: string,
  config: ListConfig,
  issues: FieldIssue[],
): ParsedFilter | undefined {
  const fail = (message: string) => {
    issues.push({ path: `query.filter.${field}`, message });
    return undefined;
  };
  const spec = config.fields[field];
  if (!spec?.filter) return fail(notFilterable(config));
  const term = splitTerm(raw);
  if (typeof term === "string") return fail(term);
  const refused = notPermitted(spec.filter, term.negate, term.op);
  if (refused) return fail(refused);
  const values = filterValues(spec.type, term.op, term.rest);
  if (typeof values === "string") return fail(values);
  return { field, negate: term.negate, op: term.op, values };
}

type Lookup = (key: string) => string[];

/** Invalid page and limit values fall back to the defaults instead of failing. */
function parsePaging(all: Lookup) {
  return {
    page: positiveInt(all("page")[0], 1),
    limit: Math.min(positiveInt(all("limit")[0], DEFAULT_LIMIT), MAX_LIMIT),
  };
}

function parseSortBy(input: string[], config: ListConfig, issues: FieldIssue[]) {
  const sortable = fieldsWhere(config, "sortable");
  const sortBy: [string, Direction][] = [];
  for (const term of splitList(input)) {
    const [field = "", direction, extra] = term.split(":");
    const dir = direction?.toUpperCase();
    if (!sortable.includes(field)) {
      issues.push({
        path: "query.sortBy",
        message: notAmong(field, "sortable", sortable),
      });
    } else if ((dir !== "ASC" && dir !== "DESC") || extra !== undefined) {
      issues.push({
        path: "query.sortBy",
        message: `${quote(term)} must be field:ASC or field:DESC; sortable fields: ${sortable.join(", ")}`,
      });
    } else if (!sortBy.some(([f]) => f === field)) {
      sortBy.push([field, dir]);
    }
  }
  if (sortBy.length === 0)
    sortBy.push(...((config.defaultSortBy ?? [["id", "DESC"]]) as [string, Direction][]));
  return sortBy;
}

function parseSearch(all: Lookup, config: ListConfig, issues: FieldIssue[]) {
  const searchable = fieldsWhere(config, "searchable");
  const searchValue = all("search")[0];
  const search = searchValue ? searchValue : undefined;
  const searchByInput = splitList(all("searchBy"));
  // An empty searchBy is absent, like an empty search.
  const searchByGiven = searchByInput.length > 0;
  if (searchable.length === 0) {
    if (search !== undefined)
      issues.push({ path: "query.search", message: "this endpoint is not searchable" });
    if (searchByGiven)
      issues.push({ path: "query.searchBy", message: "this endpoint is not searchable" });
  } else {
    // Characters, not UTF-16 units: 100 emoji are 100 characters.
    if (search !== undefined && [...search].length > MAX_SEARCH_LENGTH) {
      issues.push({
        path: "query.search",
        message: `must be at most ${MAX_SEARCH_LENGTH} characters`,
      });
    }
    for (const field of searchByInput) {
      if (!searchable.includes(field)) {
        issues.push({
          path: "query.searchBy",
          message: notAmong(field, "searchable", searchable),
        });
      }
    }
  }
  const searchBy = searchByInput.length
    ? [...new Set(searchByInput)]
    : [...(config.defaultSearchBy ?? searchable)];
  return { search, searchBy, searchByGiven };
}

function parseSelect(input: string[], config: ListConfig, issues: FieldIssue[]) {
  const selectable = config.selectable ?? [];
  const selectInput = splitList(input);
  if (!selectInput.length) return undefined;
  if (selectable.length === 0) {
    issues.push({ path: "query.select", message: "this endpoint does not support select" });
    return undefined;
  }
  for (const field of selectInput) {
    if (!selectable.includes(field)) {
      issues.push({
        path: "query.select",
        message: notAmong(field, "selectable", selectable),
      });
    }
  }
  return [...new Set(selectInput)];
}

function parseFilters(entries: [string, string][], config: ListConfig, issues: FieldIssue[]) {
  const filters: ParsedFilter[] = [];
  const filterInput: [string, string][] = [];
  const seen = new Set<string>();
  for (const [key, raw] of entries) {
    if (!key.startsWith("filter.")) continue;
    const field = key.slice("filter.".length);
    filterInput.push([field, raw]);
    // Repeats of the same term AND to the same thing: keep one.
    if (seen.has(`${field}\u0000${raw}`)) continue;
    seen.add(`${field}\u0000${raw}`);
    const filter = parseFilter(field, raw, config, issues);
    if (filter) filters.push(filter);
  }
  const bound = filters
    .filter((f) => config.fields[f.field]!.type === "text")
    // A text $in list travels as one JSON parameter.
    .reduce((n, f) => n + (f.op === "$in" ? 1 : f.values.length), 0);
  if (bound > MAX_BOUND_FILTER_VALUES) {
    issues.push({
      path: "query.filter",
      message: `at most ${MAX_BOUND_FILTER_VALUES} distinct text filter values per request (an $in list counts once)`,
    });
  }
  return { filters, filterInput };
}

/** Parses the raw query pairs (in URL order) by the rules of the list contract; throws one 400 with every issue. */
export function parseListQuery(entries: [string, string][], config: ListConfig): ListQuery {
  const issues: FieldIssue[] = [];
  const all: Lookup = (key) => entries.filter(([k]) => k === key).map(([, v]) => v);
  // In this order, so the issues are listed as before: sort, search, select, filters.
  const query: ListQuery = {
    ...parsePaging(all),
    sortBy: parseSortBy(all("sortBy"), config, issues),
    ...parseSearch(all, config, issues),
    select: parseSelect(all("select"), config, issues),
    ...parseFilters(entries, config, issues),
  };
  if (issues.length) throw invalid(issues);
  return query;
}
