import { parseInstant } from "../lib/schemas";
import { invalid, type FieldIssue } from "../lib/errors";
import {
  OPERATORS,
  type Direction,
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
  return n >= 1 && Number.isSafeInteger(n) ? n : fallback;
}

const splitList = (values: string[]) =>
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

function parseFilter(
  field: string,
  raw: string,
  config: ListConfig,
  issues: FieldIssue[],
): ParsedFilter | undefined {
  const path = `query.filter.${field}`;
  const spec = config.fields[field];
  const allowed = spec?.filter;
  if (!spec || !allowed) {
    const filterable = Object.keys(config.fields).filter((f) => config.fields[f]!.filter);
    issues.push({
      path,
      message: filterable.length
        ? `is not filterable; filterable fields: ${filterable.join(", ")}`
        : "this endpoint has no filterable fields",
    });
    return undefined;
  }
  // [$not:][$op:]value; only the first two tokens may be operators, so values may contain ':'.
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
      issues.push({
        path,
        message: `unknown operator ${next.token}; known: $not, ${OPERATORS.join(", ")}`,
      });
      return undefined;
    }
    op = next.token as Operator;
    rest = next.hasColon ? next.after : "";
  }
  const permitted = new Set<string>(["$eq", ...allowed]);
  if (negate && !permitted.has("$not")) {
    issues.push({ path, message: `$not is not allowed; allowed: ${[...permitted].join(", ")}` });
    return undefined;
  }
  if (!permitted.has(op)) {
    issues.push({ path, message: `${op} is not allowed; allowed: ${[...permitted].join(", ")}` });
    return undefined;
  }
  if (op === "$null") return { field, negate, op, values: [] };
  const parts = op === "$in" || op === "$btw" ? rest.split(",") : [rest];
  if (op === "$btw" && parts.length !== 2) {
    issues.push({ path, message: "$btw needs two values: $btw:from,to" });
    return undefined;
  }
  const values: FilterValue[] = [];
  for (const part of parts) {
    const value = convertValue(spec.type, part);
    if (value === undefined) {
      issues.push({
        path,
        message: `value ${JSON.stringify(part)} must be ${describeType(spec.type)}`,
      });
      return undefined;
    }
    values.push(value);
  }
  return { field, negate, op, values };
}

/** Parses the raw query pairs (in URL order) by the rules of the list contract; throws one 400 with every issue. */
export function parseListQuery(entries: [string, string][], config: ListConfig): ListQuery {
  const issues: FieldIssue[] = [];
  const all = (key: string) => entries.filter(([k]) => k === key).map(([, v]) => v);
  const fieldNames = Object.keys(config.fields);
  const sortable = fieldNames.filter((f) => config.fields[f]!.sortable);
  const searchable = fieldNames.filter((f) => config.fields[f]!.searchable);
  const selectable = config.selectable ?? [];

  const page = positiveInt(all("page")[0], 1);
  const limit = Math.min(positiveInt(all("limit")[0], DEFAULT_LIMIT), MAX_LIMIT);

  const sortBy: [string, Direction][] = [];
  for (const term of splitList(all("sortBy"))) {
    const [field = "", direction, extra] = term.split(":");
    const dir = direction?.toUpperCase();
    if (!sortable.includes(field)) {
      issues.push({
        path: "query.sortBy",
        message: `${JSON.stringify(field)} is not sortable; sortable fields: ${sortable.join(", ")}`,
      });
    } else if ((dir !== "ASC" && dir !== "DESC") || extra !== undefined) {
      issues.push({
        path: "query.sortBy",
        message: `${JSON.stringify(term)} must be field:ASC or field:DESC; sortable fields: ${sortable.join(", ")}`,
      });
    } else if (!sortBy.some(([f]) => f === field)) {
      sortBy.push([field, dir]);
    }
  }
  if (sortBy.length === 0)
    sortBy.push(...((config.defaultSortBy ?? [["id", "DESC"]]) as [string, Direction][]));

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
          message: `${JSON.stringify(field)} is not searchable; searchable fields: ${searchable.join(", ")}`,
        });
      }
    }
  }
  const searchBy = searchByInput.length
    ? [...new Set(searchByInput)]
    : [...(config.defaultSearchBy ?? searchable)];

  let select: string[] | undefined;
  const selectInput = splitList(all("select"));
  if (selectInput.length) {
    if (selectable.length === 0) {
      issues.push({ path: "query.select", message: "this endpoint does not support select" });
    } else {
      for (const field of selectInput) {
        if (!selectable.includes(field)) {
          issues.push({
            path: "query.select",
            message: `${JSON.stringify(field)} is not selectable; selectable fields: ${selectable.join(", ")}`,
          });
        }
      }
      select = [...new Set(selectInput)];
    }
  }

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

  if (issues.length) throw invalid(issues);
  return { page, limit, sortBy, search, searchBy, searchByGiven, select, filters, filterInput };
}
