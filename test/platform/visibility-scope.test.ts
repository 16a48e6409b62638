import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb, DbMeter } from "../../src/db/client";
import { pricelists, tradeConditions } from "../../src/db/schema";
import { scopeOf } from "../../src/http/auth";
import { ROLES } from "../../src/http/env";
import { SEES_ALL, SEES_NO_COSTS, VISIBILITIES, type Visibility } from "../../src/db/visibility";
import { createPricelist, createTradeCondition } from "../factories";

/**
 * One visibility scope (src/db/visibility.ts, docs/api/access.md §18): each role's scope, and
 * the scope's forms of its one rule agreeing with each other on real rows: the Drizzle
 * predicates, the raw SQL of the hidden ids (the feed's) and the in-memory tests. What each
 * operation answers a read or sales key is walked by test/prices/read-key-costs.test.ts; that
 * every read of the tables takes the scope, by test/scripts/visibility-scope.test.mjs.
 */

const db = () => createDb(env.DB, new DbMeter());

beforeAll(async () => {
  const cost = await createPricelist({ kind: "COST" });
  await createPricelist({ kind: "SALES" });
  await createPricelist({ kind: "FLOOR" });
  await createPricelist({
    kind: "FLOOR",
    derivation: { basePricelistId: cost.id, adjustmentBp: 1000 },
  });
  await createTradeCondition({ type: "DISCOUNT" });
  await createTradeCondition({ type: "SURCHARGE" });
  await createTradeCondition({ type: "ACCRUAL", stackable: false });
});

/** The ids of `rows` in order. */
const idsOf = (rows: readonly { id: number }[]) =>
  rows.map((row) => Number(row.id)).sort((a, b) => a - b);

async function listsAs(scope: Visibility) {
  const all = await db()
    .select({
      id: pricelists.id,
      kind: pricelists.kind,
      basePricelistId: pricelists.basePricelistId,
    })
    .from(pricelists);
  const seen = await db().select({ id: pricelists.id }).from(pricelists).where(scope.pricelists);
  const hidden = scope.hiddenPricelistIds
    ? await db().all<{ id: number }>(sql`select id from ${scope.hiddenPricelistIds}`)
    : [];
  return { all, seen: idsOf(seen), hidden: idsOf(hidden) };
}

async function conditionsAs(scope: Visibility) {
  const all = await db()
    .select({ id: tradeConditions.id, type: tradeConditions.type })
    .from(tradeConditions);
  const seen = await db()
    .select({ id: tradeConditions.id })
    .from(tradeConditions)
    .where(scope.tradeConditions);
  const hidden = scope.hiddenConditionIds
    ? await db().all<{ id: number }>(sql`select id from ${scope.hiddenConditionIds}`)
    : [];
  return { all, seen: idsOf(seen), hidden: idsOf(hidden) };
}

describe("one visibility scope (docs/api/access.md §18)", () => {
  it("admin keys see everything; read and sales keys no cost", () => {
    expect(Object.fromEntries(ROLES.map((role) => [role, scopeOf(role)]))).toEqual({
      admin: SEES_ALL,
      read: SEES_NO_COSTS,
      sales: SEES_NO_COSTS,
    });
    expect(SEES_ALL.costs).toBe(true);
    expect(SEES_NO_COSTS.costs).toBe(false);
    expect(SEES_NO_COSTS.hiddenConditionTypes).toEqual(["ACCRUAL"]);
    expect(SEES_ALL.hiddenConditionTypes).toEqual([]);
    // The cache-key part is stable and tells the scopes apart; a query holding one stays JSON.
    expect(VISIBILITIES.map((scope) => scope.key)).toEqual(["ALL", "NO_COSTS"]);
    expect(JSON.stringify({ scope: SEES_NO_COSTS })).toBe('{"scope":"NO_COSTS"}');
  });

  it("its SQL, its hidden ids and its in-memory test pick the same pricelists", async () => {
    for (const scope of VISIBILITIES) {
      const { all, seen, hidden } = await listsAs(scope);
      const inMemory = idsOf(all.filter((list) => scope.seesPricelist(list)));
      expect(seen).toEqual(inMemory);
      expect(hidden).toEqual(idsOf(all.filter((list) => !scope.seesPricelist(list))));
      for (const list of all) {
        const [byId] = await db()
          .select({ id: pricelists.id })
          .from(pricelists)
          .where(scope.pricelistId(list.id));
        expect(byId !== undefined).toBe(scope.seesPricelist(list));
      }
    }
    // The rule itself: COST lists and the FLOOR lists derived from one are hidden, nothing else.
    const { all, hidden } = await listsAs(SEES_NO_COSTS);
    const costly = all.filter(
      (l) => l.kind === "COST" || (l.kind === "FLOOR" && l.basePricelistId !== null),
    );
    expect(hidden).toEqual(idsOf(costly));
    expect(hidden.length).toBeGreaterThanOrEqual(2);
    expect((await listsAs(SEES_ALL)).seen).toEqual(idsOf(all));
  });

  it("its SQL, its hidden ids and its in-memory test pick the same trade conditions", async () => {
    for (const scope of VISIBILITIES) {
      const { all, seen, hidden } = await conditionsAs(scope);
      expect(seen).toEqual(idsOf(all.filter((c) => scope.seesCondition(c.type))));
      expect(hidden).toEqual(idsOf(all.filter((c) => !scope.seesCondition(c.type))));
      expect(hidden).toEqual(idsOf(all.filter((c) => scope.hiddenConditionTypes.includes(c.type))));
    }
    const { all, hidden } = await conditionsAs(SEES_NO_COSTS);
    expect(hidden).toEqual(idsOf(all.filter((c) => c.type === "ACCRUAL")));
    expect(hidden.length).toBeGreaterThanOrEqual(1);
  });
});
