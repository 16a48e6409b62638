import type { SQL, SQLWrapper } from "drizzle-orm";

export const OPERATORS = ["$eq", "$gt", "$gte", "$lt", "$lte", "$in", "$null", "$btw"] as const;
export type Operator = (typeof OPERATORS)[number];
export type Direction = "ASC" | "DESC";

/** Text values are bound; the other types are validated and converted before they reach SQL. */
export type FieldType = "number" | "text" | "boolean" | "datetime" | readonly string[];

export interface FieldConfig {
  column: SQLWrapper;
  type: FieldType;
  sortable?: boolean;
  searchable?: boolean;
  /** Allowed operators; `$not` must be listed to allow negation. `$eq` is implied. */
  filter?: readonly (Operator | "$not")[];
  /**
   * For a field of another table (a customer's group codes, a product's group code), a filter
   * only: turns the comparison on `column` (a column of that table) into the record's condition,
   * `id IN (records with a value that matches)`; `$not` then means "has no value that matches".
   * `op` is the filter's operator: `$null` may mean "has none" rather than a NULL column there.
   */
  through?: (comparison: SQL, op: Operator) => SQL;
}

export interface ListConfig {
  /** Public field name -> column and capabilities. Must contain `id`, unless paged in memory. */
  fields: Record<string, FieldConfig>;
  /** Fields `select` may name (`id` is always returned). */
  selectable?: readonly string[];
  defaultSortBy?: readonly [string, Direction][];
  /** Fields a search covers when `searchBy` is absent; default: every searchable field. */
  defaultSearchBy?: readonly string[];
}

/** The names of the fields that may be sorted by, or searched. */
export const fieldsWhere = (config: ListConfig, capability: "sortable" | "searchable") =>
  Object.keys(config.fields).filter((name) => config.fields[name]![capability]);
