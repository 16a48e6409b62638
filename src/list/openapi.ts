import { z } from "@hono/zod-openapi";
import { fieldsWhere, type FieldConfig, type ListConfig } from "./config";
import { filterPattern, selectPattern } from "./patterns";
import { DEFAULT_LIMIT, MAX_LIMIT, MAX_SEARCH_LENGTH } from "./parse";

type Parameter = {
  name: string;
  in: "query";
  required: false;
  description: string;
  schema: Record<string, unknown>;
  style?: "form";
  explode?: boolean;
  example?: unknown;
};

const list = (items: Record<string, unknown>) => ({ type: "array", items });

const PAGE: Parameter = {
  name: "page",
  in: "query",
  required: false,
  description: "Page number, from 1. Anything that is not a whole number >= 1 falls back to 1.",
  schema: { type: "integer", minimum: 1, default: 1 },
};

const LIMIT: Parameter = {
  name: "limit",
  in: "query",
  required: false,
  description: `Page size. Larger values are capped at ${MAX_LIMIT}; anything that is not a whole number >= 1 falls back to ${DEFAULT_LIMIT}.`,
  schema: { type: "integer", minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
};

function sortByParameter(config: ListConfig): Parameter {
  const sortable = fieldsWhere(config, "sortable");
  const [defaultField, defaultDir] = config.defaultSortBy?.[0] ?? ["id", "DESC"];
  return {
    name: "sortBy",
    in: "query",
    required: false,
    description: `Sort terms \`field:ASC|DESC\` (direction in any case), repeated or comma-joined; URL order is precedence. Sortable: ${sortable.join(", ")}. Text sorts case-insensitively; ties always break on the record's unique key, so pages never overlap.`,
    schema: list({ type: "string", enum: sortable.flatMap((f) => [`${f}:ASC`, `${f}:DESC`]) }),
    style: "form",
    explode: true,
    example: [`${defaultField}:${defaultDir}`],
  };
}

function searchParameters(config: ListConfig): Parameter[] {
  const searchable = fieldsWhere(config, "searchable");
  if (!searchable.length) return [];
  return [
    {
      name: "search",
      in: "query",
      required: false,
      description: `Case-insensitive substring matched against the searchBy fields (OR; searchable: ${searchable.join(", ")}). \`%\`, \`_\` and \`\\\` match themselves.`,
      schema: { type: "string", maxLength: MAX_SEARCH_LENGTH },
    },
    {
      name: "searchBy",
      in: "query",
      required: false,
      description: `The fields the search covers (repeated or comma-joined); default: ${(config.defaultSearchBy ?? searchable).join(", ")}.`,
      schema: list({ type: "string", enum: searchable }),
      style: "form",
      explode: true,
    },
  ];
}

function selectParameters(config: ListConfig): Parameter[] {
  if (!config.selectable?.length) return [];
  return [
    {
      name: "select",
      in: "query",
      required: false,
      description: `Comma-separated fields to return (id is always included): ${config.selectable.join(", ")}. Example: \`select=${config.selectable.slice(0, 2).join(",")}\`.`,
      schema: { type: "string", pattern: selectPattern(config.selectable) },
    },
  ];
}

/** An example value for the description, where one says more than the syntax. */
function filterSample(field: FieldConfig, ops: string[]): string | undefined {
  if (Array.isArray(field.type)) return field.type[0];
  if (!ops.includes("$gte")) return undefined;
  if (field.type === "datetime") return "$gte:2025-01-01";
  return field.type === "number" ? "$gte:10" : undefined;
}

function filterParameter(
  name: string,
  field: FieldConfig,
  allowed: NonNullable<FieldConfig["filter"]>,
): Parameter {
  const ops = ["$eq", ...allowed.filter((o) => o !== "$eq")];
  const type = Array.isArray(field.type) ? `one of ${field.type.join(", ")}` : field.type;
  const sample = filterSample(field, ops);
  return {
    name: `filter.${name}`,
    in: "query",
    required: false,
    description:
      `Filter on ${name} (${type}): \`[$not:][$op:]value\`, no operator meaning $eq. Allowed: ${ops.join(", ")}. ` +
      "Repeated values and different fields are AND-ed. As in SQL, a record whose field is null matches neither `x` nor `$not:x`." +
      (sample ? ` Example: \`filter.${name}=${sample}\`.` : ""),
    schema: list({ type: "string", pattern: filterPattern(field.type, ops) }),
    style: "form",
    explode: true,
  };
}

/**
 * The OpenAPI query parameters of a list endpoint, generated from the same config that parses them.
 * Only `sortBy` carries an `example` (the default sort): Swagger UI fills examples into "Try it
 * out", and a pre-filled filter or select would narrow the page a reader asked for. The other
 * parameters show their syntax in the description.
 */
export function listParameters(config: ListConfig): Parameter[] {
  const filters = Object.entries(config.fields).flatMap(([name, field]) =>
    field.filter ? [filterParameter(name, field, field.filter)] : [],
  );
  return [
    PAGE,
    LIMIT,
    sortByParameter(config),
    ...searchParameters(config),
    ...selectParameters(config),
    ...filters,
  ];
}

/**
 * `[field, direction]`. JSON Schema 2020-12 writes a pair as `prefixItems`; `items` plus the
 * length bounds say the same to tools that look for `items` (Spectral's array-items).
 */
const SortTerm = z
  .tuple([
    z.string().openapi({ description: "The field" }),
    z.enum(["ASC", "DESC"]).openapi({ description: "The direction" }),
  ])
  .openapi({
    description: "A sort term: field and direction",
    items: { type: "string" },
    minItems: 2,
    maxItems: 2,
  });

export const ListMetaSchema = z
  .object({
    itemsPerPage: z.number().int().openapi({ description: "The effective limit" }),
    totalItems: z.number().int().openapi({ description: "Records matching filters and search" }),
    currentPage: z.number().int().openapi({ description: "The requested page, even past the end" }),
    totalPages: z.number().int().openapi({ description: "ceil(totalItems / itemsPerPage)" }),
    sortBy: z
      .array(SortTerm)
      .openapi({ description: "The effective sort", example: [["id", "DESC"]] }),
    search: z.string().optional().openapi({ description: "The search term, when one was given" }),
    searchBy: z
      .array(z.string())
      .optional()
      .openapi({ description: "The fields the search covered, when a search was given" }),
    select: z
      .array(z.string())
      .optional()
      .openapi({ description: "The selected fields, when `select` was given" }),
    filter: z
      .record(z.string(), z.union([z.string(), z.array(z.string())]))
      .optional()
      .openapi({
        description: "The filters as given, per field (an array when a field was repeated)",
        example: { status: "ACTIVE" },
      }),
  })
  .openapi("ListMeta", { description: "Where this page sits in the whole result" });

export const ListLinksSchema = z
  .object({
    first: z.string().optional().openapi({ description: "The first page; absent on it" }),
    previous: z
      .string()
      .optional()
      .openapi({ description: "The page before; absent on the first" }),
    current: z.string().openapi({ description: "This page" }),
    next: z.string().optional().openapi({ description: "The page after; absent on the last" }),
    last: z.string().optional().openapi({ description: "The last page; absent on it" }),
  })
  .openapi("ListLinks", {
    description:
      "Absolute URLs of neighbouring pages, with the same query (page and limit explicit)",
  });

/** What a list schema's example shows: one page of the given items at the list's default sort. */
export interface ListExample {
  /** The list's path, e.g. `/v1/api/product`. */
  path: string;
  data: unknown[];
  /** Default `[["id", "DESC"]]`. */
  sortBy?: [string, "ASC" | "DESC"][];
}

/** The origin examples show: local development (`npm run dev`). */
const EXAMPLE_ORIGIN = "http://localhost:8787";

function listExample({ path, data, sortBy = [["id", "DESC"]] }: ListExample) {
  const sort = sortBy.map(([f, d]) => `&sortBy=${f}:${d}`).join("");
  return {
    data,
    meta: {
      itemsPerPage: DEFAULT_LIMIT,
      totalItems: data.length,
      currentPage: 1,
      totalPages: 1,
      sortBy,
    },
    links: { current: `${EXAMPLE_ORIGIN}${path}?page=1&limit=${DEFAULT_LIMIT}${sort}` },
  };
}

/** `{ data, meta, links }` around an item schema; with an example, the page it shows. */
export const listOf = <T extends z.ZodType>(item: T, name: string, example?: ListExample) =>
  z
    .object({
      data: z.array(item).openapi({ description: "The records of this page" }),
      meta: ListMetaSchema,
      links: ListLinksSchema,
    })
    .openapi(name, {
      description: "One page of a list",
      ...(example ? { example: listExample(example) } : {}),
    });
