import { sql, type SQLWrapper } from "drizzle-orm";
import type { FieldConfig, ListConfig } from "./config";
import type { FilterValue, ListQuery, ParsedFilter } from "./parse";

/**
 * Lists the Worker computes instead of reading them from a table (the pricing lint's findings,
 * docs/list-queries.md §12): the same query, parsed, validated and documented by `defineList`
 * from the same configuration, applied to an array with SQLite's rules (null matches neither
 * `x` nor `$not:x`; text compares case-insensitively for ASCII letters, as `lower()` does).
 * Two differences, because there is no table: an enum field sorts in its vocabulary's order, and
 * ties keep the array's order, which must therefore be deterministic.
 */

/** The column of an in-memory field: its item property's name, never sent to D1. */
export const itemField = (name: string): SQLWrapper => sql.identifier(name);

type Value = string | number | null;

/** SQLite's lower() without ICU: ASCII letters only. */
const lower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

function valueOf(item: object, field: string): Value {
  const value = (item as Record<string, unknown>)[field];
  if (typeof value === "boolean") return value ? 1 : 0;
  return typeof value === "string" || typeof value === "number" ? value : null;
}

const compare = (a: Value | FilterValue, b: Value | FilterValue) =>
  a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1;

function comparison(filter: ParsedFilter, value: Value): boolean | null {
  if (filter.op === "$null") return value === null;
  if (value === null) return null; // SQL: unknown, so neither the comparison nor its negation
  const [a, b] = filter.values;
  const order = compare(value, a!);
  switch (filter.op) {
    case "$gt":
      return order > 0;
    case "$gte":
      return order >= 0;
    case "$lt":
      return order < 0;
    case "$lte":
      return order <= 0;
    case "$btw":
      return order >= 0 && compare(value, b!) <= 0;
    case "$in":
      return filter.values.includes(value);
    default:
      return order === 0;
  }
}

/**
 * A field whose item property is an array (the records a finding names) is a set, as a field of
 * another table is in SQL (`through`): it matches when one of its values does, `$not` when none
 * does, and an empty set is null (neither).
 */
function test(filter: ParsedFilter, item: object): boolean | null {
  const property = (item as Record<string, unknown>)[filter.field];
  if (!Array.isArray(property)) return comparison(filter, valueOf(item, filter.field));
  const values = property.filter((v): v is string | number => typeof v !== "object");
  if (filter.op === "$null") return values.length === 0;
  return values.length === 0 ? null : values.some((v) => comparison(filter, v) === true);
}

function matches(query: ListQuery, item: object): boolean {
  for (const filter of query.filters) {
    const result = test(filter, item);
    if (result === null || result === filter.negate) return false;
  }
  if (query.search === undefined) return true;
  const term = lower(query.search);
  return query.searchBy.some((field) => {
    const value = valueOf(item, field);
    return value !== null && lower(String(value)).includes(term);
  });
}

function sortKey(field: FieldConfig, value: Value): Value {
  if (value === null) return null;
  if (Array.isArray(field.type)) return field.type.indexOf(value as string);
  return field.type === "text" ? lower(String(value)) : value;
}

/** The page `query` asks for of `items`, and how many match; `items` in their tie-break order. */
export function pageInMemory<T extends object>(
  config: ListConfig,
  list: { query: ListQuery; limit: number; offset: number },
  items: readonly T[],
): { rows: T[]; total: number } {
  const kept = items.filter((item) => matches(list.query, item));
  const terms = list.query.sortBy.map(([name, direction]) => ({
    name,
    field: config.fields[name]!,
    sign: direction === "ASC" ? 1 : -1,
  }));
  // Array.prototype.sort is stable: ties keep the items' order.
  kept.sort((a, b) => {
    for (const { name, field, sign } of terms) {
      const order = compare(sortKey(field, valueOf(a, name)), sortKey(field, valueOf(b, name)));
      if (order) return sign * order;
    }
    return 0;
  });
  return { rows: kept.slice(list.offset, list.offset + list.limit), total: kept.length };
}
