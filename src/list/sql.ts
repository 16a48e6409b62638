import {
  and,
  asc,
  between,
  desc,
  eq,
  gt,
  gte,
  isNull,
  lt,
  lte,
  not,
  or,
  sql,
  type SQL,
  type SQLWrapper,
} from "drizzle-orm";
import { inJsonList } from "../db/json-list";
import type { FieldConfig, ListConfig } from "./config";
import type { FilterValue, ListQuery, ParsedFilter } from "./parse";

/**
 * Values of every type but text were validated against a closed form (integers, enum members,
 * 0/1, epoch ms), so they are written into the SQL as literals. That keeps a request with a
 * thousand filters under D1's 100-bound-parameter limit; text values are always bound.
 */
function operand(field: FieldConfig, value: FilterValue): SQLWrapper | FilterValue {
  if (field.type === "text") return value;
  return typeof value === "number" ? sql.raw(String(value)) : sql.raw(`'${value}'`);
}

function comparison(field: FieldConfig, filter: ParsedFilter): SQL {
  const col = field.column;
  const [a, b] = filter.values.map((v) => operand(field, v));
  switch (filter.op) {
    case "$null":
      return isNull(col);
    case "$gt":
      return gt(col, a);
    case "$gte":
      return gte(col, a);
    case "$lt":
      return lt(col, a);
    case "$lte":
      return lte(col, a);
    case "$btw":
      return between(col, a, b);
    case "$in":
      return field.type === "text"
        ? inJsonList(col, filter.values)
        : sql`${col} in (${sql.join(
            filter.values.map((v) => operand(field, v) as SQL),
            sql`, `,
          )})`;
    default:
      return eq(col, a);
  }
}

export function toWhere(config: ListConfig, query: ListQuery): SQL | undefined {
  const conditions: (SQL | undefined)[] = query.filters.map((filter) => {
    const field = config.fields[filter.field]!;
    const compared = comparison(field, filter);
    const condition = field.through ? field.through(compared, filter.op) : compared;
    return filter.negate ? not(condition) : condition;
  });
  if (query.search !== undefined) {
    // instr, not LIKE: no wildcards to escape, and no 50-byte LIKE pattern limit on D1.
    conditions.push(
      or(
        ...query.searchBy.map(
          (name) => sql`instr(lower(${config.fields[name]!.column}), lower(${query.search})) > 0`,
        ),
      ),
    );
  }
  return and(...conditions);
}

export function toOrderBy(config: ListConfig, query: ListQuery): SQL[] {
  const terms = query.sortBy.map(([name, direction]) => {
    const field = config.fields[name]!;
    // Text sorts case-insensitively; the lower(name) indexes serve exactly this expression.
    const expr = field.type === "text" ? sql`lower(${field.column})` : sql`${field.column}`;
    return direction === "ASC" ? asc(expr) : desc(expr);
  });
  // A list computed in memory has no id: its items' own order breaks ties (list/memory.ts).
  const id = config.fields.id?.column;
  if (id && !query.sortBy.some(([name]) => name === "id")) {
    const last = query.sortBy[query.sortBy.length - 1]![1];
    terms.push(last === "ASC" ? asc(id) : desc(id));
  }
  return terms;
}
