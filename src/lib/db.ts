import type { SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";

/** Counts D1 round trips and their time for the Server-Timing header. */
export class DbMeter {
  calls = 0;
  millis = 0;

  async time<T>(call: () => Promise<T>): Promise<T> {
    const start = performance.now();
    try {
      return await call();
    } finally {
      this.calls += 1;
      this.millis += performance.now() - start;
    }
  }

  serverTiming(): string {
    const queries = this.calls === 1 ? "1 query" : `${this.calls} queries`;
    return `db;desc="${queries}";dur=${this.millis.toFixed(1)}`;
  }
}

type Executor = Pick<D1PreparedStatement, "first" | "run" | "all" | "raw">;

/** A statement whose every execution is one round trip; batches unwrap it. */
class MeteredStatement implements Executor {
  constructor(
    readonly inner: D1PreparedStatement,
    private readonly meter: DbMeter,
  ) {}
  bind(...values: unknown[]) {
    return new MeteredStatement(this.inner.bind(...values), this.meter);
  }
  first<T>(column?: string) {
    return this.meter.time(() => (column ? this.inner.first<T>(column) : this.inner.first<T>()));
  }
  run<T>() {
    return this.meter.time(() => this.inner.run<T>());
  }
  all<T>() {
    return this.meter.time(() => this.inner.all<T>());
  }
  raw<T>(options?: { columnNames?: boolean }) {
    // D1's raw() overloads differ only in the header row; pass the option through untouched.
    return this.meter.time(() => this.inner.raw<T>(options as { columnNames: true })) as never;
  }
}

/** What D1 and a D1 session have in common: the two calls Drizzle and rawBatch make. */
type D1Client = Pick<D1Database, "prepare" | "batch">;

function metered(d1: D1Client, meter: DbMeter): D1Database {
  const unwrap = (s: D1PreparedStatement) => (s as unknown as MeteredStatement).inner ?? s;
  const wrapper: D1Client = {
    prepare: (query: string) =>
      new MeteredStatement(d1.prepare(query), meter) as unknown as D1PreparedStatement,
    batch: <T>(statements: D1PreparedStatement[]) =>
      meter.time(() => d1.batch<T>(statements.map(unwrap))),
  };
  // Drizzle types its client as D1Database; it only ever calls prepare and batch.
  return wrapper as D1Database;
}

/**
 * The request's database handle: Drizzle over a metered client, normally a D1 session
 * (`env.DB.withSession(...)`, see lib/context.ts) so reads may be served by a replica. No
 * relational schema: the query builder is all the repositories use, and set-up stays cheap.
 */
export const createDb = (d1: D1Client, meter: DbMeter) => drizzle(metered(d1, meter));

export type Db = ReturnType<typeof createDb>;

function messages(err: unknown): string {
  const parts: string[] = [];
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    parts.push(String((e as { message?: unknown }).message ?? e));
  }
  return parts.join(" | ");
}

export const isUniqueViolation = (err: unknown) =>
  messages(err).includes("UNIQUE constraint failed");
export const isForeignKeyViolation = (err: unknown) =>
  messages(err).includes("FOREIGN KEY constraint failed");

const dialect = new SQLiteSyncDialect();

/**
 * Runs hand-written statements as ONE D1 batch (one round trip, atomic). Drizzle's own batch
 * cannot take raw `sql` statements with parameters, so they are compiled here and sent to the
 * metered client directly; rows come back as plain objects keyed by the SQL column names.
 */
export async function rawBatch<T extends unknown[]>(db: Db, statements: SQL[]): Promise<T> {
  const client = db.$client;
  const prepared = statements.map((statement) => {
    const { sql: text, params } = dialect.sqlToQuery(statement);
    return client.prepare(text).bind(...params);
  });
  const results = await client.batch(prepared);
  return results.map((result) => result.results) as T;
}
