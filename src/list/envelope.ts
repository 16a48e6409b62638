import type { ListQuery } from "./parse";

export interface Meta {
  itemsPerPage: number;
  totalItems: number;
  currentPage: number;
  totalPages: number;
  sortBy: [string, "ASC" | "DESC"][];
  search?: string;
  searchBy?: string[];
  select?: string[];
  filter?: Record<string, string | string[]>;
}

export interface Links {
  first?: string;
  previous?: string;
  current: string;
  next?: string;
  last?: string;
}

/** Percent-encodes, but keeps `$`, `:` and `,` literal so `sortBy=name:ASC` reads as written. */
const encode = (value: string) =>
  encodeURIComponent(value).replace(/%24/g, "$").replace(/%3A/gi, ":").replace(/%2C/gi, ",");

function queryString(query: ListQuery, page: number): string {
  const parts: [string, string][] = [
    ["page", String(page)],
    ["limit", String(query.limit)],
    ...query.sortBy.map(([f, d]): [string, string] => ["sortBy", `${f}:${d}`]),
  ];
  if (query.search !== undefined) {
    parts.push(["search", query.search]);
    if (query.searchByGiven)
      parts.push(...query.searchBy.map((f): [string, string] => ["searchBy", f]));
  }
  if (query.select) parts.push(["select", query.select.join(",")]);
  parts.push(...query.filterInput.map(([f, v]): [string, string] => [`filter.${f}`, v]));
  return parts.map(([k, v]) => `${encode(k)}=${encode(v)}`).join("&");
}

/** With `select`, items carry only the chosen fields and id; their schema makes the rest optional. */
function project<T extends object>(item: T, select: string[] | undefined): T {
  if (!select) return item;
  const out: Record<string, unknown> = { id: (item as { id?: unknown }).id };
  for (const field of select) out[field] = (item as Record<string, unknown>)[field];
  return out as T;
}

export function envelope<T extends object>(
  url: URL,
  query: ListQuery,
  data: T[],
  totalItems: number,
) {
  const totalPages = Math.ceil(totalItems / query.limit);
  const page = query.page;
  const meta: Meta = {
    itemsPerPage: query.limit,
    totalItems,
    currentPage: page,
    totalPages,
    sortBy: query.sortBy,
  };
  if (query.search !== undefined) {
    meta.search = query.search;
    meta.searchBy = query.searchBy;
  }
  if (query.select) meta.select = query.select;
  if (query.filterInput.length) {
    const filter: Record<string, string | string[]> = {};
    for (const [field, value] of query.filterInput) {
      const prev = filter[field];
      filter[field] =
        prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
    }
    meta.filter = filter;
  }
  const base = `${url.origin}${url.pathname}?`;
  const link = (p: number) => base + queryString(query, p);
  const links: Links = {
    ...(page > 1 ? { first: link(1), previous: link(page - 1) } : {}),
    current: link(page),
    ...(page < totalPages ? { next: link(page + 1), last: link(totalPages) } : {}),
  };
  return { data: data.map((item) => project(item, query.select)), meta, links };
}
