import { createRoute, type RouteConfig } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { H } from "hono/types";
import type { SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../db/client";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Declared, RefSet } from "../db/refs";
import type { FieldConfig, ListConfig } from "./config";
import { envelope } from "./envelope";
import { listParameters } from "./openapi";
import { parseListQuery, type ListQuery } from "./parse";
import { toOrderBy, toWhere } from "./sql";

export type { ListConfig } from "./config";
export { listOf } from "./openapi";
export { itemField, pageInMemory } from "./memory";

/** What a list handler receives: ready Drizzle clauses and the envelope builder. */
export interface ListRequest {
  query: ListQuery;
  where: SQL | undefined;
  orderBy: SQL[];
  limit: number;
  offset: number;
  envelope<T extends object>(data: T[], totalItems: number): ReturnType<typeof envelope<T>>;
}

/**
 * What the list middleware adds to a route's context. Only routes built by `defineList(…).route`
 * run it, so only their handlers see `c.var.list` in their type.
 */
export interface ListEnv {
  Variables: { list: ListRequest };
}

type ListMiddleware = MiddlewareHandler<ListEnv>;

/** Parses and validates the query from the raw URL, so repeated keys keep their order. */
function listMiddleware(config: ListConfig): ListMiddleware {
  return async (c, next) => {
    const url = new URL(c.req.url);
    const query = parseListQuery([...url.searchParams], config);
    c.set("list", {
      query,
      where: toWhere(config, query),
      orderBy: toOrderBy(config, query),
      limit: query.limit,
      // Past any real page the rows are empty anyway; keep the bound value a safe integer.
      offset: Math.min((query.page - 1) * query.limit, Number.MAX_SAFE_INTEGER),
      envelope: (data, total) => envelope(url, query, data, total),
    });
    await next();
  };
}

/** A route as createRoute() takes it, less what the list supplies. */
type ListRouteOptions<P extends string> = Omit<
  RouteConfig,
  "path" | "middleware" | "parameters"
> & {
  path: P;
  middleware?: never;
  parameters?: never;
};

/**
 * One list endpoint's behaviour from one config. `route` is the only way to mount it: it returns
 * the createRoute() object with the middleware that parses the query and the OpenAPI parameters
 * that document it, so a list route cannot get one without the other, and its handler's type
 * carries `c.var.list`. `guards` (e.g. requireAdmin) run before the query is parsed.
 */
export function defineList(config: ListConfig) {
  const middleware = listMiddleware(config);
  const parameters = listParameters(config);
  return {
    config,
    route<P extends string, R extends ListRouteOptions<P>, G extends H[] = []>(
      options: R,
      ...guards: G
    ) {
      const chain: [...G, ListMiddleware] = [...guards, middleware];
      return createRoute({ ...options, middleware: chain, parameters });
    },
  };
}

/**
 * The list fields of an entity's foreign keys by code (db/refs.ts): `filter.<field>=CODE` keeps the
 * records whose target has that code, `$null` those without one. Filters only: the code is shown
 * (and selectable) like any field of the record.
 */
export function refFilters<T extends SQLiteTable, R extends Declared<T>>(refs: RefSet<T, R>) {
  return Object.fromEntries(
    refs.fields.map((field): [string, FieldConfig] => [
      field,
      {
        column: refs.refs[field]!.to.code,
        type: "text",
        filter: ["$null"],
        through: (match, op) => refs.filter(field, match, op),
      },
    ]),
  ) as Record<keyof R & string, FieldConfig>;
}

/**
 * A page of what belongs to a record (a channel's customers), its count and whether the record
 * exists, in one round trip; undefined when it does not (the handler's 404).
 */
export async function readPageOf<T>(
  db: Db,
  parent: BatchItem<"sqlite"> & PromiseLike<unknown[]>,
  rows: BatchItem<"sqlite"> & PromiseLike<T[]>,
  count: BatchItem<"sqlite"> & PromiseLike<{ n: number }[]>,
): Promise<{ rows: T[]; total: number } | undefined> {
  const [found, page, counted] = (await db.batch([parent, rows, count])) as [
    unknown[],
    T[],
    { n: number }[],
  ];
  return found.length ? { rows: page, total: counted[0]?.n ?? 0 } : undefined;
}

/** The page and its count in one round trip. */
export async function readPage<T>(
  db: Db,
  rows: BatchItem<"sqlite"> & PromiseLike<T[]>,
  count: BatchItem<"sqlite"> & PromiseLike<{ n: number }[]>,
): Promise<{ rows: T[]; total: number }> {
  const [page, counted] = (await db.batch([rows, count])) as [T[], { n: number }[]];
  return { rows: page, total: counted[0]?.n ?? 0 };
}
