import type { MiddlewareHandler } from "hono";
import type { SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../lib/db";
import type { AppEnv } from "../lib/env";
import type { ListConfig } from "./config";
import { envelope } from "./envelope";
import { listParameters } from "./openapi";
import { parseListQuery, type ListQuery } from "./parse";
import { toOrderBy, toWhere } from "./sql";

export type { ListConfig } from "./config";
export { listOf } from "./openapi";

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
 * One list endpoint's behaviour from one config: the route middleware that parses and validates
 * the query (it reads the raw URL, so repeated keys keep their order), and the OpenAPI parameters
 * that document it.
 */
export function defineList(config: ListConfig) {
  const middleware: MiddlewareHandler<AppEnv> = async (c, next) => {
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
  return { config, middleware, parameters: listParameters(config) };
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
