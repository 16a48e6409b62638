import { env } from "cloudflare:workers";
import { sql, type SQL } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { compileSql } from "../../src/db/client";
import {
  channelCostList,
  channelCostListOf,
  channelCurrency,
  currencyOf,
  inForce,
  isInWindow,
  isLive,
  isNotEnded,
  live,
  MAX_DERIVATION_STEPS,
  mayDeriveFurther,
  notEnded,
  overlapping,
  primaryCurrency,
  windowsOverlap,
} from "../../src/db/pricing/facts";
import { chainFrom, chainOf } from "../../src/db/pricing/reach";
import { MAX_STEPS, type CostPricelist } from "../../src/pricing";
import { chainOf as engineChainOf } from "../../src/pricing/derivation";
import {
  assignPricelistToChannel,
  createChannel,
  createPricelist,
  createProduct,
  setPrimaryPricelist,
} from "../factories";
import { api } from "../shared/helpers";

/**
 * The pricing reader's facts (src/db/pricing/facts.ts), each written once as SQL beside its
 * in-memory twin: every SQL fragment runs on D1 and is held against its twin, over cases that
 * include the edges (a window's first and last instants, open ends, 3 derivation steps against
 * 4, a channel without a primary list, COST lists that end, start later, are not ACTIVE or in
 * another currency).
 */

/** Runs one statement on D1; rows as plain objects. */
async function rows<T>(statement: SQL): Promise<T[]> {
  const { sql: text, params } = compileSql(statement);
  return (
    await env.DB.prepare(text)
      .bind(...params)
      .all<T>()
  ).results;
}

const T = Date.UTC(2031, 0, 1);
const DAY = 86_400_000;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

interface Rec {
  status: string;
  validFrom: number | null;
  validTo: number | null;
}

/** Records of every status × window shape: open, closed, starting or ending at T + 1..3 days. */
const bounds = [null, T + DAY, T + 2 * DAY, T + 3 * DAY];
const windows = bounds.flatMap((validFrom) =>
  bounds
    .filter((validTo) => validTo === null || validFrom === null || validFrom < validTo)
    .map((validTo) => ({ validFrom, validTo })),
);
const records: Rec[] = ["ACTIVE", "INACTIVE", "DRAFT"].flatMap((status) =>
  windows.map((w) => ({ status, ...w })),
);
/** Every edge, an instant before and after each. */
const instants = [...new Set(bounds.flatMap((b) => (b === null ? [T] : [b - 1, b, b + 1])))];

/** `records` as a table `t(i, status, valid_from, valid_to)`, and `instants` as `ats(at)`. */
const tables = sql`with t(i, status, valid_from, valid_to) as (
    select j.key, json_extract(j.value, '$.status'), json_extract(j.value, '$.validFrom'),
      json_extract(j.value, '$.validTo') from json_each(${JSON.stringify(records)}) j),
  ats(at) as (select value from json_each(${JSON.stringify(instants)}))`;

/** A fragment on `t` at every instant: (record, instant) → whether it holds. */
async function onRecords(fragment: (at: SQL) => SQL) {
  const found = await rows<{ i: number; at: number; v: number }>(
    sql`${tables} select t.i as i, ats.at as at, (${fragment(sql`ats.at`)}) as v
      from t cross join ats order by t.i, ats.at`,
  );
  expect(found).toHaveLength(records.length * instants.length);
  return found.map(({ i, at, v }) => ({ record: records[i]!, at, holds: v === 1 }));
}

describe("the pricing reader's facts: SQL and in-memory twins agree on D1", () => {
  it("notEnded, inForce and live, at every edge of every window shape and status", async () => {
    for (const { record, at, holds } of await onRecords((at) => notEnded("t", at))) {
      expect(holds, `notEnded ${JSON.stringify(record)} at ${at}`).toBe(isNotEnded(record, at));
    }
    for (const { record, at, holds } of await onRecords((at) => inForce("t", at))) {
      expect(holds, `inForce ${JSON.stringify(record)} at ${at}`).toBe(isInWindow(record, at));
    }
    const lives = await onRecords((at) => live("t", at));
    for (const { record, at, holds } of lives) {
      expect(holds, `live ${JSON.stringify(record)} at ${at}`).toBe(isLive(record, at));
    }
    // The edges themselves: valid at its validFrom, not at its validTo; a later start is live.
    const at = (record: Partial<Rec>, instant: number) =>
      lives.find(
        (l) =>
          l.at === instant &&
          l.record.status === (record.status ?? "ACTIVE") &&
          l.record.validFrom === (record.validFrom ?? null) &&
          l.record.validTo === (record.validTo ?? null),
      )!.holds;
    expect(at({ validTo: T + DAY }, T + DAY - 1)).toBe(true);
    expect(at({ validTo: T + DAY }, T + DAY)).toBe(false);
    expect(at({ validFrom: T + 2 * DAY }, T)).toBe(true);
    expect(at({ status: "DRAFT" }, T)).toBe(false);
    expect(isInWindow({ validFrom: T + DAY, validTo: null }, T + DAY)).toBe(true);
  });

  it("overlapping, for every pair of window shapes", async () => {
    const w = sql`with w(i, valid_from, valid_to) as (
      select j.key, json_extract(j.value, '$.validFrom'), json_extract(j.value, '$.validTo')
      from json_each(${JSON.stringify(windows)}) j)`;
    const found = await rows<{ a: number; b: number; v: number }>(
      sql`${w} select a.i as a, b.i as b, (${overlapping("a", "b")}) as v
        from w a cross join w b order by a.i, b.i`,
    );
    expect(found).toHaveLength(windows.length ** 2);
    for (const { a, b, v } of found) {
      const [x, y] = [windows[a]!, windows[b]!];
      expect(v === 1, `${JSON.stringify(x)} and ${JSON.stringify(y)}`).toBe(windowsOverlap(x, y));
    }
    // Touching windows do not overlap: [T+1d, T+2d) and [T+2d, ∞).
    expect(
      windowsOverlap(
        { validFrom: T + DAY, validTo: T + 2 * DAY },
        { validFrom: T + 2 * DAY, validTo: null },
      ),
    ).toBe(false);
  });

  it("follows derivations up to MAX_DERIVATION_STEPS steps: 3 of a chain of 4", async () => {
    expect(MAX_DERIVATION_STEPS).toBe(MAX_STEPS);
    expect(MAX_STEPS).toBe(3);
    const [steps] = await rows<{ two: number; three: number }>(
      sql`select ${mayDeriveFurther(sql`2`)} as two, ${mayDeriveFurther(sql`3`)} as three`,
    );
    expect(steps).toEqual({ two: 1, three: 0 });
    // Lists 1 → 2 → 3 → 4 → 5 (four steps) and 11 → 12 → 13 → 14 (three): `chainFrom` over a
    // table of that shape, from each start.
    const lists = [
      [1, 2],
      [2, 3],
      [3, 4],
      [4, 5],
      [5, null],
      [11, 12],
      [12, 13],
      [13, 14],
      [14, null],
    ] as const;
    for (const [start, expected] of [
      [1, [2, 3, 4]],
      [11, [12, 13, 14]],
      [3, [4, 5]],
    ] as const) {
      const chain = await rows<{ id: number; steps: number }>(
        sql`with recursive pricelists(id, base_pricelist_id) as (
            select json_extract(j.value, '$[0]'), json_extract(j.value, '$[1]')
            from json_each(${JSON.stringify(lists)}) j),
          starts(id) as (select ${start}),
          ${chainFrom("starts")}
          select id, steps from chain order by steps`,
      );
      expect(chain.map((c) => c.id)).toEqual(expected);
      // In memory, the reader's walk (reach.ts `chainOf`) ...
      const link = (id: number, role = "BASE") => ({
        id,
        role,
        status: "ACTIVE",
        currency: "EUR",
        basePricelistId: lists.find(([l]) => l === id)![1],
      });
      const bases = new Map(lists.map(([id]) => [id, link(id)]));
      const found = chainOf({ lists: [link(start, "CANDIDATE")], bases }, "EUR", new Map());
      expect([...found.keys()]).toEqual(expected);
      // ... and the engine's (src/pricing/derivation.ts), from the list itself.
      const base = (id: number) => {
        const to = link(id).basePricelistId;
        const derivation =
          to === null ? null : { basePricelistId: to, adjustmentBp: 0, rounding: null };
        return { id, currency: "EUR", derivation, prices: [] };
      };
      const sources = new Map(lists.map(([id]) => [id, base(id)]));
      expect(engineChainOf(base(start), sources).map((l) => l.id)).toEqual([start, ...expected]);
    }
  });

  it("a channel's currency is its primary list's; a channel without one has none", async () => {
    const withPrimary = await createChannel();
    const primary = await createPricelist({ status: "ACTIVE", currency: "USD" });
    await setPrimaryPricelist(withPrimary.code, primary.id);
    const withoutPrimary = await createChannel();
    const other = await createPricelist({ status: "ACTIVE", currency: "GBP" });
    await assignPricelistToChannel(withoutPrimary.code, other.id);
    const expected = new Map([
      [withPrimary.code, "USD"],
      [withoutPrimary.code, null],
    ]);
    for (const [code, currency] of expected) {
      const channelId = sql`(select id from channels where code = ${code})`;
      for (const requested of [null, "CHF"]) {
        const [row] = await rows<{ primary: string | null; currency: string | null }>(
          sql`select ${primaryCurrency(channelId)} as "primary",
            ${channelCurrency(requested, channelId)} as currency`,
        );
        expect(row!.primary, code).toBe(currency);
        expect(row!.currency, `${code} asked for ${requested}`).toBe(
          currencyOf(requested, row!.primary),
        );
        expect(row!.currency).toBe(requested ?? currency);
      }
    }
  });

  it("a channel's cost list, by priority then id, at every edge of its lists and rows", async () => {
    const product = await createProduct();
    const other = await createProduct();
    const channel = await createChannel();
    const bare = await createChannel();
    const at = (days: number) => T + days * DAY;
    // Each COST list: its own window and status, and its row of `product` (or of `other`).
    const specs = [
      // Highest priority and lowest id, but the list ends at +1d.
      { priority: 9, validTo: at(1), row: {} },
      // Same priority, its row ends at +2d.
      { priority: 9, row: { validTo: at(2) } },
      // A row starting at +3d: counts before it starts (from now on).
      { priority: 9, row: { validFrom: at(3) } },
      { priority: 7, status: "DRAFT", row: {} },
      { priority: 7, currency: "USD", row: {} },
      { priority: 5, row: { productCode: other.code } },
      { priority: 1, row: {} },
      { priority: 1, row: {} },
    ];
    const costs: CostPricelist[] = [];
    for (const spec of specs) {
      const status = spec.status ?? "ACTIVE";
      const currency = spec.currency ?? "EUR";
      const validTo = spec.validTo ?? null;
      const list = await createPricelist({
        kind: "COST",
        status,
        currency,
        priority: spec.priority,
        validTo: iso(validTo),
      });
      const row = {
        productCode: spec.row.productCode ?? product.code,
        minQuantity: 1,
        amount: 100,
        validFrom: spec.row.validFrom ?? null,
        validTo: spec.row.validTo ?? null,
      };
      const put = await api("PUT", `/v1/api/pricelist/${list.id}/prices`, {
        body: { prices: [{ ...row, validFrom: iso(row.validFrom), validTo: iso(row.validTo) }] },
      });
      expect(put.status, JSON.stringify(put.body)).toBeLessThan(300);
      await assignPricelistToChannel(channel.code, list.id);
      costs.push({
        id: list.id,
        name: list.name,
        status: status as CostPricelist["status"],
        currency,
        priority: spec.priority,
        validFrom: null,
        validTo,
        prices: [row],
      });
    }
    const moments = [T, at(1) - 1, at(1), at(2) - 1, at(2), at(3), at(4)];
    const picked = new Map<string, number | null>();
    for (const code of [channel.code, bare.code]) {
      for (const productCode of [product.code, other.code]) {
        for (const currency of ["EUR", "USD", "CHF"]) {
          for (const moment of moments) {
            const [row] = await rows<{ id: number | null }>(
              sql`select ${channelCostList({
                channelId: sql`(select id from channels where code = ${code})`,
                currency: sql`${currency}`,
                productId: sql`(select id from products where code = ${productCode})`,
                at: moment,
              })} as id`,
            );
            const twin =
              code === bare.code ? null : channelCostListOf(costs, currency, productCode, moment);
            const label = `${code} ${productCode} ${currency} at +${(moment - T) / DAY}d`;
            expect(row!.id, label).toBe(twin);
            picked.set(
              `${code === bare.code ? "bare" : "ch"} ${productCode === product.code ? "p" : "o"} ${currency} ${moment}`,
              row!.id,
            );
          }
        }
      }
    }
    const [listEnds, rowEnds, starts, , usd, ofOther] = costs.map((c) => c.id);
    // Priority desc, then id asc; a list or row that has ended no longer counts (at its validTo
    // exactly), one that starts later does; a DRAFT never; another currency or product is not it.
    expect(picked.get(`ch p EUR ${T}`)).toBe(listEnds);
    expect(picked.get(`ch p EUR ${at(1) - 1}`)).toBe(listEnds);
    expect(picked.get(`ch p EUR ${at(1)}`)).toBe(rowEnds);
    expect(picked.get(`ch p EUR ${at(2) - 1}`)).toBe(rowEnds);
    expect(picked.get(`ch p EUR ${at(2)}`)).toBe(starts);
    expect(picked.get(`ch p EUR ${at(4)}`)).toBe(starts);
    expect(picked.get(`ch p USD ${T}`)).toBe(usd);
    expect(picked.get(`ch o EUR ${T}`)).toBe(ofOther);
    expect(picked.get(`ch p CHF ${T}`)).toBeNull();
    expect(picked.get(`bare p EUR ${T}`)).toBeNull();
  });
});
