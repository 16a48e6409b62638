import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "../fuzz/worker";
import { api, expectProblem, issuePaths, KEYS, roundTrips, uid, type ApiResponse } from "./helpers";

/** A row of a bulk upsert body. */
export type Row = Record<string, unknown>;

/**
 * One bulk upsert by code (docs/api/relations.md §5.12): `PUT <path> { <field>: [rows] }` answering
 * `{ created, updated, unchanged }`. Every such endpoint shares the rules below.
 */
export interface BulkUpsertEndpoint {
  path: string;
  field: string;
  /** The table its records live in, counted straight from D1. */
  table: string;
  /** Prefix of the fresh codes. */
  prefix: string;
  /** A valid row for the fresh code `code`. */
  row: (code: string, i: number) => Row;
  /** The same record with something changed. */
  change: (row: Row) => Row;
  /**
   * A row that breaks a rule, and the issue it gets: one judged on stored data where the
   * resource has such rules (found after one round trip), else one of the schema's (none).
   */
  bad: { row: (code: string) => Row; key: string; message: string; roundTrips: 0 | 1 };
  /** The path of one record, to read it back. */
  recordPath: (code: string) => string;
}

/** An audit entry's action and entity, in write order, for one request. */
export async function auditOf(res: ApiResponse) {
  const requestId = res.headers.get("x-request-id")!;
  const list = await api(
    "GET",
    `/v1/api/audit?filter.requestId=${encodeURIComponent(requestId)}&sortBy=id:ASC&limit=100`,
  );
  expect(list.status).toBe(200);
  return { total: list.body.meta.totalItems as number, entries: list.body.data as any[] };
}

export const pricingVersion = async () =>
  (await env.DB.prepare("select version from pricing_version where id = 1").first<{
    version: number;
  }>())!.version;

/** How many of `codes` have a row in `table`. */
export async function stored(table: string, codes: string[]) {
  const row = await env.DB.prepare(
    `select count(*) as n from ${table} where code in (select value from json_each(?))`,
  )
    .bind(JSON.stringify(codes))
    .first<{ n: number }>();
  return row!.n;
}

/** Registers the shared cases of one bulk upsert endpoint. */
export function describeBulkUpsert(label: string, spec: BulkUpsertEndpoint) {
  const put = (
    rows: Row[],
    options: { key?: string | null; headers?: Record<string, string> } = {},
  ) => api("PUT", spec.path, { body: { [spec.field]: rows }, ...options });
  const codes = (n: number) => Array.from({ length: n }, () => uid(spec.prefix));
  const rowsFor = (list: string[]) => list.map((code, i) => spec.row(code, i));
  const at = (i: number, key: string) => `body.${spec.field}.${i}.${key}`;

  describe(`${label}: bulk upsert by code`, () => {
    it("creates, then updates what changed, and counts the rest unchanged", async () => {
      const [a, b, c] = codes(3);
      const first = await put(rowsFor([a!, b!]));
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(first.body).toEqual({ created: [a, b], updated: [], unchanged: 0 });
      expect(roundTrips(first)).toBeLessThanOrEqual(3);
      const [rowA, rowB] = rowsFor([a!, b!]);
      expect((await api("GET", spec.recordPath(a!))).body).toMatchObject(rowA!);

      const changed = spec.change(rowB!);
      const second = await put([rowA!, changed, spec.row(c!, 2)]);
      expect(second.body).toEqual({ created: [c], updated: [b], unchanged: 1 });
      expect((await api("GET", spec.recordPath(b!))).body).toMatchObject(changed);
      // One entry per row that changed: a's row wrote nothing.
      const audit = await auditOf(second);
      expect(audit.entries.some((e) => JSON.stringify(e.entityKey).includes(a!))).toBe(false);
    });

    it("is idempotent: the same body again writes nothing (no audit entry, same pricing version)", async () => {
      const rows = rowsFor(codes(50));
      const first = await put(rows);
      expect(first.body.created).toHaveLength(50);
      const version = await pricingVersion();
      const again = await put(rows);
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ created: [], updated: [], unchanged: 50 });
      expect(roundTrips(again)).toBe(1);
      expect((await auditOf(again)).total).toBe(0);
      expect(await pricingVersion()).toBe(version);
    });

    it("writes 1000 rows, and changes 1000, in at most 3 round trips", async () => {
      const rows = rowsFor(codes(1000));
      const first = await put(rows);
      expect(first.status, JSON.stringify(first.body).slice(0, 500)).toBe(200);
      expect(first.body.created).toHaveLength(1000);
      expect(roundTrips(first)).toBeLessThanOrEqual(3);
      expect(
        await stored(
          spec.table,
          rows.map((r) => r.code as string),
        ),
      ).toBe(1000);
      const second = await put(rows.map(spec.change));
      expect(second.body).toMatchObject({ created: [], unchanged: 0 });
      expect(second.body.updated).toHaveLength(1000);
      expect(roundTrips(second)).toBeLessThanOrEqual(3);
    });

    it("is atomic: 999 good rows and one that breaks a rule write nothing; the 400 names the row", async () => {
      const [known] = codes(1);
      await put([spec.row(known!, 0)]);
      const before = (await api("GET", spec.recordPath(known!))).body;
      const fresh = codes(998);
      const rows = [spec.change(spec.row(known!, 0)), ...rowsFor(fresh)];
      rows.splice(517, 0, spec.bad.row(uid(spec.prefix)));
      const res = await put(rows);
      expect(expectProblem(res, 400, "VALIDATION_FAILED").errors).toEqual([
        { path: at(517, spec.bad.key), message: spec.bad.message },
      ]);
      expect(roundTrips(res)).toBe(spec.bad.roundTrips);
      expect(await stored(spec.table, fresh)).toBe(0);
      expect((await api("GET", spec.recordPath(known!))).body).toEqual(before);
    });

    it("is atomic on schema errors too, naming every bad row by index and field", async () => {
      const fresh = codes(999);
      const rows = rowsFor(fresh);
      rows[3] = { ...rows[3], name: " " };
      rows[998] = { ...rows[998], surprise: 1 };
      const res = await put([...rows, { name: "no code" }]);
      expect(expectProblem(res, 400, "VALIDATION_FAILED").errors).toEqual([
        { path: at(3, "name"), message: "must not be empty" },
        { path: at(998, "surprise"), message: "is not a known field" },
        { path: at(999, "code"), message: expect.any(String) },
      ]);
      expect(roundTrips(res)).toBe(0);
      expect(await stored(spec.table, fresh)).toBe(0);
    });

    it("refuses a code twice in one body, an empty body, more than 1000 rows and unknown fields", async () => {
      const [a, b] = codes(2);
      const twice = await put(rowsFor([a!, b!, a!]));
      expect(expectProblem(twice, 400, "VALIDATION_FAILED").errors).toEqual([
        { path: at(2, "code"), message: `repeats code ${a} of row 0` },
      ]);
      expect(issuePaths(await put([]))).toEqual([`body.${spec.field}`]);
      expect(issuePaths(await put(rowsFor(codes(1001))))).toEqual([`body.${spec.field}`]);
      expect(issuePaths(await api("PUT", spec.path, { body: {} }))).toEqual([`body.${spec.field}`]);
      const extra = await api("PUT", spec.path, { body: { [spec.field]: rowsFor([a!]), x: 1 } });
      expect(issuePaths(extra)).toEqual(["body.x"]);
      expect(await stored(spec.table, [a!, b!])).toBe(0);
    });

    it("races: bodies creating the same codes at once each answer as if alone, one after another", async () => {
      const list = codes(20);
      const body = (i: number) => ({
        [spec.field]: list.map((code, j) => ({ ...spec.row(code, j), name: `Race ${i}` })),
      });
      const answers = await Promise.all(
        [0, 1, 2, 3, 4, 5].map((i) => call("PUT", spec.path, { body: body(i) })),
      );
      const done = answers.filter((res) => res.status === 200);
      for (const res of answers) {
        if (res.status !== 200) expectProblem(res, 409, "CONCURRENT_UPDATE");
      }
      expect(
        done.filter((res) => res.body.created.length > 0).map((res) => res.body.created),
      ).toEqual([list]);
      for (const res of done) {
        const { created, updated, unchanged } = res.body;
        expect(created.length + updated.length + unchanged).toBe(20);
      }
      const names = await Promise.all(
        list.map(async (code) => (await api("GET", spec.recordPath(code))).body.name),
      );
      expect(new Set(names).size).toBe(1);
    });

    it("needs a key (401) and an admin key (403)", async () => {
      const rows = rowsFor(codes(1));
      expectProblem(await put(rows, { key: null }), 401, "UNAUTHORIZED");
      expectProblem(await put(rows, { key: KEYS.read }), 403, "FORBIDDEN");
      expect(await stored(spec.table, [rows[0]!.code as string])).toBe(0);
    });

    it("goes through the write path: Idempotency-Key replays, the audit records the correlation id", async () => {
      const rows = rowsFor(codes(3));
      const headers = { "Idempotency-Key": crypto.randomUUID(), "x-request-id": uid("corr") };
      const first = await put(rows, { headers });
      expect(first.status).toBe(200);
      const audit = await auditOf(first);
      expect(audit.total).toBeGreaterThanOrEqual(3);
      for (const entry of audit.entries) {
        expect(entry).toMatchObject({ correlationId: headers["x-request-id"], method: "PUT" });
      }
      expect(new Set(audit.entries.map((e) => e.operation)).size).toBe(1);
      const retry = await put(rows, { headers });
      expect(retry.headers.get("idempotent-replayed")).toBe("true");
      expect(retry.body).toEqual(first.body);
      const changed = await put(rows.map(spec.change), { headers });
      expectProblem(changed, 409, "IDEMPOTENCY_KEY_REUSED");
    });
  });
}
