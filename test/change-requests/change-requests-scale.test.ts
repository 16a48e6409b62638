import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb, DbMeter } from "../../src/db/client";
import { sql } from "drizzle-orm";
import {
  appliedFromStaged,
  divergedWritesSql,
  restoreStagedWrites,
  stagedChunks,
  stagingStatement,
  STAGED_ROWS_PER_STATEMENT,
  type StagedWrite,
} from "../../src/db/price-rows";
import { deriveAmount } from "../../src/pricing";
import { createPricelist } from "../factories";
import { api } from "../shared/helpers";

/**
 * A catalogue-wide ADJUST_PRICES (docs/api/change-requests.md §17.5): 100,000 price rows cut and
 * 100,000 new ones, applied in ONE D1 batch whose statements each stay within D1's limits
 * (docs/toolchain.md, "D1 limits").
 */

const ROWS = 100_000;

/** D1: at most 100 bound parameters and 100 KB of SQL text per statement. */
const MAX_PARAMS = 100;
const MAX_SQL_BYTES = 100_000;
/** This service's own bound for one bound value (a JSON list of rows): D1 allows 2 MB. */
const MAX_VALUE_BYTES = 100_000;

describe("a 100,000-row apply", () => {
  it("stages and writes in statements each within D1's limits", () => {
    const db = createDb(env.DB, new DbMeter());
    // As the catalogue's apply below: every row cut (UPDATED) and a new one (INSERTED).
    const writes: StagedWrite[] = Array.from({ length: 2 * ROWS }, (_, i) => ({
      pricelistId: 123_456,
      productId: 1_000_000 + i,
      minQuantity: 1,
      validFrom: i % 2 ? null : Date.parse("2027-01-01"),
      action: i % 2 ? "UPDATED" : "INSERTED",
      beforeValidTo: null,
      beforeAmount: i % 2 ? 123_456 : null,
      beforePriceUnit: i % 2 ? 1000 : null,
      beforeFlatAmount: i % 2 ? 0 : null,
      afterValidTo: Date.parse("2027-01-01"),
      afterAmount: 127_159,
      afterPriceUnit: 1000,
      afterFlatAmount: 0,
    }));
    const attempt = { changeRequestId: 42, attempt: 7 };
    const statements = [
      ...[...stagedChunks(writes)].map((chunk) => stagingStatement(db, attempt, chunk)),
      ...appliedFromStaged(db, { ...attempt, rows: writes.length }),
    ];
    // The staging statements (each a round trip of its own), then the batch's guard of the
    // attempt, its update, its insert and the removal of the attempt's row.
    expect(statements).toHaveLength(Math.ceil((2 * ROWS) / STAGED_ROWS_PER_STATEMENT) + 4);
    for (const statement of statements) {
      const { sql, params } = (
        statement as unknown as { toSQL(): { sql: string; params: unknown[] } }
      ).toSQL();
      expect(params.length).toBeLessThanOrEqual(MAX_PARAMS);
      expect(new TextEncoder().encode(sql).length).toBeLessThan(MAX_SQL_BYTES);
      for (const value of params) {
        expect(new TextEncoder().encode(String(value)).length).toBeLessThan(MAX_VALUE_BYTES);
      }
    }
  });

  it(
    "applies +2.5 % to 100,000 rows of a catalogue, timed, and cancels it exactly",
    { timeout: 600_000 },
    async () => {
      const list = (await createPricelist({ status: "ACTIVE" })).id as number;
      // The catalogue behind the API's back (no audit entries): 100,000 products, one row each.
      await env.DB.batch([
        env.DB.prepare(
          `with recursive n(i) as (select 1 union all select i + 1 from n where i < ${ROWS})
           insert into products (code, name) select 'BULK-' || printf('%06d', i), 'Bulk ' || i from n`,
        ),
        env.DB.prepare(
          `insert into pricelist_prices (pricelist_id, product_id, min_quantity, amount)
           select ?, id, 1, 1000 + id % 997 from products where code like 'BULK-%'`,
        ).bind(list),
      ]);
      const created = await api("POST", "/v1/api/change-requests", {
        key: "test-writer-key-11",
        body: {
          title: "Catalogue +2.5 %",
          effectiveAt: "2027-01-01",
          items: [
            {
              kind: "ADJUST_PRICES",
              pricelistId: list,
              adjustmentBp: 250,
              rounding: { mode: "NEAREST", step: 10, ending: 9 },
            },
          ],
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.id;
      const submitted = await api("POST", `/v1/api/change-requests/${id}/submit`, {
        key: "test-writer-key-11",
      });
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
      expect(submitted.body.status).toBe("PENDING_APPROVAL");
      const started = performance.now();
      const approved = await api("POST", `/v1/api/change-requests/${id}/approve`, {
        key: "test-writer-key-12",
      });
      const ms = performance.now() - started;
      expect(approved.status, JSON.stringify(approved.body)).toBe(200);
      console.log(
        JSON.stringify({
          apply: { rows: ROWS, ms: Math.round(ms), timing: approved.headers.get("server-timing") },
        }),
      );
      const counts = await env.DB.prepare(
        `select count(*) as n, sum(valid_from is null and valid_to = ?) as cut,
           sum(valid_from = ? and valid_to is null) as new
         from pricelist_prices where pricelist_id = ?`,
      )
        .bind(Date.parse("2027-01-01"), Date.parse("2027-01-01"), list)
        .first<{ n: number; cut: number; new: number }>();
      expect(counts).toEqual({ n: 2 * ROWS, cut: ROWS, new: ROWS });
      // Every new row is its cut row's amount, adjusted and rounded as a derived list's would be.
      const pairs = await env.DB.prepare(
        `select o.amount as old, n.amount as new from pricelist_prices o join pricelist_prices n
           on n.pricelist_id = o.pricelist_id and n.product_id = o.product_id
           and n.valid_from = o.valid_to where o.pricelist_id = ?`,
      )
        .bind(list)
        .all<{ old: number; new: number }>();
      expect(pairs.results).toHaveLength(ROWS);
      const derivation = {
        basePricelistId: list,
        adjustmentBp: 250,
        rounding: { mode: "NEAREST" as const, step: 10, ending: 9 },
      };
      for (const pair of pairs.results) expect(pair.new).toBe(deriveAmount(pair.old, derivation));

      const cancelled = await api("POST", `/v1/api/change-requests/${id}/cancel`, {
        key: "test-writer-key-11",
      });
      expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
      const after = await env.DB.prepare(
        "select count(*) as n, sum(valid_to is null) as open from pricelist_prices where pricelist_id = ?",
      )
        .bind(list)
        .first<{ n: number; open: number }>();
      expect(after).toEqual({ n: ROWS, open: ROWS });
    },
  );
});

/**
 * What a million-row apply and cancel cost grows with the rows they touch, not with their square
 * (docs/performance.md, "A catalogue-wide change request"): each statement finds the stored rows
 * from the staged ones by the key of migration 0020 and the staged ones by
 * change_request_writes_key_idx, never by a scan of either table. (The triggers these writes fire
 * per row touch one row each: pricing_version's by id, one audit entry from audit_context.)
 */
describe("query plans of the apply and the cancel (EXPLAIN QUERY PLAN on D1)", () => {
  const db = createDb(env.DB, new DbMeter());
  const text = (statement: unknown) =>
    (statement as { toSQL(): { sql: string; params: unknown[] } }).toSQL();
  const plan = async ({ sql: query, params }: { sql: string; params: unknown[] }) => {
    const rows = await env.DB.prepare(`explain query plan ${query}`)
      .bind(...params)
      .all<{ detail: string }>();
    return rows.results.map((r) => r.detail);
  };

  it("finds every stored and staged row by an index", async () => {
    // The apply's guard of its attempt, its update and insert from the staged rows, the
    // cancel's guard and its three statements.
    const attempt = { changeRequestId: 42, attempt: 7 };
    const statements = [
      ...appliedFromStaged(db, { ...attempt, rows: 1 }).slice(0, 3),
      db.select({ n: divergedWritesSql(attempt) }).from(sql`(select 1)`),
      ...restoreStagedWrites(db, attempt),
    ];
    expect(statements).toHaveLength(7);
    const plans = await Promise.all(statements.map((s) => plan(text(s))));
    for (const lines of plans) {
      const shown = lines.join("\n");
      // No step scans a table (the wrapper `(select 1)` of the guard is a constant row).
      expect(shown).not.toMatch(/^SCAN (?!CONSTANT ROW|\(subquery)/m);
      expect(shown).toMatch(
        /USING (COVERING )?INDEX (pricelist_prices_key|change_request_writes_key_idx)/,
      );
    }
    // Each walks the request's staged rows by its index and finds each stored row by its key.
    const all = plans.flat().join("\n");
    expect(all).toMatch(
      /SEARCH w USING (COVERING )?INDEX change_request_writes_key_idx \(change_request_id=\? AND attempt=\? AND action=\?/,
    );
    expect(all).toMatch(
      /SEARCH pp USING (COVERING )?INDEX pricelist_prices_key \(pricelist_id=\? AND product_id=\? AND min_quantity=\? AND <expr>=\?\)/,
    );
  });
});
