import { env } from "cloudflare:workers";
import { createDb, DbMeter, type Db } from "../../src/db/client";
import type { ListConfig, ListRequest } from "../../src/list";
import { parseListQuery } from "../../src/list/parse";
import { toOrderBy, toWhere } from "../../src/list/sql";

/** What a list route's middleware hands its handler for `query` (docs/list-queries.md §1). */
export function listRequest(config: ListConfig, query: string): ListRequest {
  const parsed = parseListQuery([...new URLSearchParams(query)], config);
  return {
    query: parsed,
    where: toWhere(config, parsed),
    orderBy: toOrderBy(config, parsed),
    limit: parsed.limit,
    offset: (parsed.page - 1) * parsed.limit,
    envelope: () => {
      throw new Error("not used");
    },
  };
}

/** A database handle that notes every statement a repository sends, with its parameters. */
function recordingDb() {
  const seen: { sql: string; params: unknown[] }[] = [];
  const client = {
    prepare: (sql: string) =>
      ({
        bind: (...params: unknown[]) => {
          seen.push({ sql, params });
          return env.DB.prepare(sql).bind(...params);
        },
      }) as unknown as D1PreparedStatement,
    batch: <T>(statements: D1PreparedStatement[]) => env.DB.batch<T>(statements),
  };
  return { db: createDb(client, new DbMeter()), seen };
}

/** EXPLAIN QUERY PLAN on D1 of each statement `read` sends, in order: the lines of each plan. */
export async function queryPlans(read: (db: Db) => Promise<unknown>): Promise<string[][]> {
  const { db, seen } = recordingDb();
  await read(db);
  return Promise.all(
    seen.map(async ({ sql, params }) => {
      const rows = await env.DB.prepare(`explain query plan ${sql}`)
        .bind(...params)
        .all<{ detail: string }>();
      return rows.results.map((r) => r.detail);
    }),
  );
}
