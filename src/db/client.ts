import { is, SQL, type Query } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { isWriteSql, type AuditSource, type IdempotencyClaim } from "./audit";

/**
 * The modelled latency of a D1 round trip in ms (`D1_DELAY_MS`, for the bench and local runs
 * only): a whole number from 1 to 1000, anything else (unset, 0, not a number) none.
 */
export function d1DelayMs(value: string | undefined): number {
  const ms = Number(value);
  return Number.isInteger(ms) && ms > 0 && ms <= 1000 ? ms : 0;
}

/**
 * Counts D1 round trips and their time for the Server-Timing header. With a delay (`d1DelayMs`)
 * every round trip first waits that long, inside its measured time: a local D1 then answers as a
 * distant one would (docs/performance.md "Remote latency").
 */
export class DbMeter {
  calls = 0;
  millis = 0;
  /** Write batches that committed (the webhook queue is told after the request, src/webhooks). */
  writes = 0;

  /** Round trips sent and not yet answered (a lookup through a D1 stall answers before its own). */
  inFlight = 0;

  constructor(private readonly delayMs = 0) {}

  async time<T>(call: () => Promise<T>): Promise<T> {
    const start = performance.now();
    this.inFlight += 1;
    try {
      if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
      return await call();
    } finally {
      this.inFlight -= 1;
      this.calls += 1;
      this.millis += performance.now() - start;
    }
  }

  /** Further Server-Timing entries, after the db one (`ctx;desc="hit"`, src/resources/prices). */
  private readonly notes: string[] = [];

  note(name: string, description: string) {
    this.notes.push(`${name};desc="${description}"`);
  }

  serverTiming(): string {
    const queries = this.calls === 1 ? "1 query" : `${this.calls} queries`;
    return [`db;desc="${queries}";dur=${this.millis.toFixed(1)}`, ...this.notes].join(", ");
  }
}

type Executor = Pick<D1PreparedStatement, "first" | "run" | "all" | "raw">;

/** What D1 and a D1 session have in common: the two calls Drizzle and rawBatch make. */
type D1Client = Pick<D1Database, "prepare" | "batch">;

/**
 * A statement whose every execution is one round trip; batches unwrap it. A write executed on
 * its own runs as a batch of three (audit context, the write, context cleared): the same single
 * round trip, atomic, and the answer is the write's own.
 */
class MeteredStatement implements Executor {
  constructor(
    readonly inner: D1PreparedStatement,
    readonly text: string,
    private readonly client: MeteredClient,
  ) {}
  bind(...values: unknown[]) {
    return new MeteredStatement(this.inner.bind(...values), this.text, this.client);
  }
  private audited(): Promise<D1Result> | undefined {
    return this.client.writes([this]) ? this.client.auditedOne(this) : undefined;
  }
  first<T>(column?: string) {
    const write = this.audited();
    if (write) {
      return write.then((r) => {
        const row = (r.results[0] ?? null) as Record<string, unknown> | null;
        return (column ? (row?.[column] ?? null) : row) as T | null;
      });
    }
    return this.client.meter.time(() =>
      column ? this.inner.first<T>(column) : this.inner.first<T>(),
    );
  }
  run<T>() {
    return (this.audited() ?? this.client.meter.time(() => this.inner.run<T>())) as Promise<
      D1Result<T>
    >;
  }
  all<T>() {
    return (this.audited() ?? this.client.meter.time(() => this.inner.all<T>())) as Promise<
      D1Result<T>
    >;
  }
  raw<T>(options?: { columnNames?: boolean }) {
    const write = this.audited();
    if (write) {
      // The rows as arrays in column order, as D1's raw() and Drizzle's batch mapping give them.
      return write.then((r) => {
        const rows = r.results as Record<string, unknown>[];
        const values = rows.map((row) => Object.values(row));
        return options?.columnNames ? [Object.keys(rows[0] ?? {}), ...values] : values;
      }) as never;
    }
    // D1's raw() overloads differ only in the header row; pass the option through untouched.
    return this.client.meter.time(() =>
      this.inner.raw<T>(options as { columnNames: true }),
    ) as never;
  }
}

/**
 * The D1 client Drizzle and rawBatch talk to: counts round trips and, when the request has an
 * audit source, brackets every batch that writes with the audit context (db/audit.ts): its row
 * is written first and deleted last in the same batch, so the audit triggers of migration 0005
 * record each changed row with the request's key name and operation, in the write's transaction.
 */
class MeteredClient implements D1Client {
  constructor(
    private readonly d1: D1Client,
    readonly meter: DbMeter,
    private readonly audit?: AuditSource,
  ) {}

  prepare(query: string) {
    return new MeteredStatement(
      this.d1.prepare(query),
      query,
      this,
    ) as unknown as D1PreparedStatement;
  }

  writes(statements: MeteredStatement[]) {
    return this.audit !== undefined && statements.some((s) => isWriteSql(s.text));
  }

  batch<T>(statements: D1PreparedStatement[]) {
    const metered = statements as unknown as MeteredStatement[];
    const inner = metered.map((s) => s.inner ?? (s as unknown as D1PreparedStatement));
    if (!this.writes(metered)) return this.meter.time(() => this.d1.batch<T>(inner));
    return this.bracketed<T>(inner);
  }

  auditedOne(statement: MeteredStatement): Promise<D1Result> {
    return this.bracketed([statement.inner]).then((results) => results[0]!);
  }

  /**
   * The statements between the audit context's opening and closing (answering their results
   * only), plus, when the request holds an Idempotency-Key, the statement that marks the key
   * COMMITTED: in the same batch, so the write and the mark commit together or not at all.
   */
  private async bracketed<T>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    const who = this.audit!();
    const open = this.d1
      .prepare(
        "INSERT OR REPLACE INTO audit_context " +
          "(id, at, request_id, correlation_id, key_name, operation, method, path) " +
          "VALUES (1, cast(unixepoch('subsec') * 1000 as integer), ?, ?, ?, ?, ?, ?)",
      )
      .bind(who.requestId, who.correlationId, who.keyName, who.operation, who.method, who.path);
    const close = [this.d1.prepare("DELETE FROM audit_context")];
    const claim = who.idempotency;
    if (claim) close.push(this.commitMark(claim));
    const results = await this.meter.time(() => this.d1.batch<T>([open, ...statements, ...close]));
    this.meter.writes += 1;
    const answered = results.slice(1, 1 + statements.length);
    // A batch that changed no row (an update or delete of a record that is not there) wrote
    // nothing: the request's error answer then frees its key (src/http/idempotency.ts).
    if (claim && answered.some((result) => (result.meta?.changes ?? 0) > 0)) claim.committed = true;
    return answered;
  }

  private commitMark(claim: IdempotencyClaim) {
    return this.d1
      .prepare(
        "UPDATE idempotency_keys SET state = 'COMMITTED', " +
          "updated_at = cast(unixepoch('subsec') * 1000 as integer) " +
          "WHERE key_name = ? AND idempotency_key = ? AND request_id = ? AND state = 'PENDING'",
      )
      .bind(claim.keyName, claim.idempotencyKey, claim.requestId);
  }
}

/**
 * The request's database handle: Drizzle over a metered client, normally a D1 session
 * (`env.DB.withSession(...)`, see src/http/context.ts) so reads may be served by a replica. No
 * relational schema: the query builder is all the repositories use, and set-up stays cheap.
 * With an audit source every write is recorded in the audit trail (see MeteredClient); without
 * one (scripts, tests of the client itself) writes go through unrecorded.
 */
export const createDb = (d1: D1Client, meter: DbMeter, audit?: AuditSource) =>
  // Drizzle types its client as D1Database; it only ever calls prepare and batch.
  drizzle(new MeteredClient(d1, meter, audit) as unknown as D1Database);

export type Db = ReturnType<typeof createDb>;

function messages(err: unknown): string {
  const parts: string[] = [];
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    parts.push(String((e as { message?: unknown }).message ?? e));
  }
  return parts.join(" | ");
}

/** Whether the error, or one of its causes, says `text`. */
export const errorMentions = (err: unknown, text: string) => messages(err).includes(text);

export const isUniqueViolation = (err: unknown) => errorMentions(err, "UNIQUE constraint failed");
export const isForeignKeyViolation = (err: unknown) =>
  errorMentions(err, "FOREIGN KEY constraint failed");

const dialect = new SQLiteSyncDialect();

/** The text and parameters of a hand-written statement (placeholders stay until bound). */
export const compileSql = (statement: SQL): Query => dialect.sqlToQuery(statement);

/**
 * Runs hand-written statements as ONE D1 batch (one round trip, atomic). Drizzle's own batch
 * cannot take raw `sql` statements with parameters, so they are compiled here (or were already,
 * by `compileSql`) and sent to the metered client directly; rows come back as plain objects
 * keyed by the SQL column names.
 */
export async function rawBatch<T extends unknown[]>(
  db: Db,
  statements: readonly (SQL | Query)[],
): Promise<T> {
  const client = db.$client;
  const prepared = statements.map((statement) => {
    const { sql: text, params } = is(statement, SQL) ? compileSql(statement) : statement;
    return client.prepare(text).bind(...params);
  });
  const results = await client.batch(prepared);
  return results.map((result) => result.results) as T;
}
