/**
 * One visibility scope (src/db/visibility.ts, docs/api/access.md §18): every file of src/ that
 * reads the pricelists or trade_conditions table either takes the request's scope or says here
 * why no key without costs (read and sales keys) is answered from that read; and the rule that
 * hides COST lists and ACCRUAL conditions is written in src/db/visibility.ts only. A new read of
 * those tables fails this test until it takes the scope or is listed with its reason; within a
 * file that takes the scope, the repository functions a read or sales key reaches take a
 * required `scope: Visibility` (a type error when missing), and test/prices/read-key-costs.test.ts
 * walks every operation those keys may call. A Node test (node:test), run by
 * `npm run test:scripts`.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SRC = join(ROOT, "src");

/**
 * Every .ts file under src/, relative to the project root.
 * @param {string} dir
 * @returns {string[]}
 */
const sources = (dir = SRC) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") ? [relative(ROOT, path)] : [];
  });

/**
 * A read of either table: Drizzle (`.from(pricelists)`, `.innerJoin(tradeConditions, …)`,
 * `db.query.pricelists`, `${pricelists}` in a template) or raw SQL (`from pricelists`,
 * `join trade_conditions`). Writes (insert, update, delete) are not reads.
 */
const READ =
  /\.(?:from|innerJoin|leftJoin|rightJoin|fullJoin)\(\s*(?:pricelists|tradeConditions)\b|\bquery\.(?:pricelists|tradeConditions)\b|\$\{(?:pricelists|tradeConditions)\}|\b(?:from|join)\s+(?:pricelists|trade_conditions)\b/;

/** Files whose reads take the request's scope (they import it from src/db/visibility.ts). */
const SCOPED = new Set([
  "src/db/pricing/lookup.ts",
  "src/db/pricing/reach.ts",
  "src/resources/channels/channels.repo.ts",
  "src/resources/customers/customers.repo.ts",
  "src/resources/pricelists/pricelists.repo.ts",
  "src/resources/trade-conditions/trade-conditions.repo.ts",
]);

/**
 * Files that read the tables without a scope, and why no read or sales key gets a hidden record
 * from them. A new entry needs a reason as good as these.
 */
const UNSCOPED = {
  "src/db/pricing/audiences.ts": "the publish simulation's reader: admin keys only (SEES_ALL)",
  "src/db/pricing/facts.ts":
    "fragments the callers place in their own statements: a channel's currency (its primary SALES list's) and the linter's cost list (admin keys only)",
  "src/db/pricing/columns.ts":
    "column declarations of the price reader's statements, whose `where` is the scope's (lookup.ts)",
  "src/db/price-rows.ts": "price row writes: admin keys only",
  "src/db/reads.ts":
    "the pricelist page shape; its `where` is the caller's, the scope's in pricelists.repo.ts and customer-groups.repo.ts",
  "src/feed/context.ts":
    "the `affects` of feed entries the scope already filtered (src/feed/read.ts), and webhooks (admin)",
  "src/resources/change-requests/change-requests.repo.ts": "change requests: admin keys only",
  "src/resources/customer-groups/customer-groups.repo.ts":
    "a group's SALES lists (a COST or FLOOR list is never assigned to a group) and the assignment writes' checks",
  "src/resources/pricing-lint/pricing-lint.repo.ts": "the pricing lint: admin keys only",
  "src/resources/trade-conditions/customer-links.ts":
    "the link rows of a customer's conditions; trade-conditions.repo.ts adds the scope's `where`",
};

/**
 * Where else "ACCRUAL" may be compared with a type: the engine's own steps (what an accrual
 * computes), the linter's stacking rule, the partial index of the schema and the write checks.
 * None of them hides anything from a key.
 */
const ACCRUAL_ELSEWHERE = new Set([
  "src/db/schema/trade-conditions.ts",
  "src/pricing/conditions.ts",
  "src/pricing/lint/ranking.ts",
  "src/resources/trade-conditions/trade-conditions.service.ts",
]);

/** @param {string} file */
const text = (file) => readFileSync(join(ROOT, file), "utf8");
const files = sources();
const reading = files.filter((file) => READ.test(text(file)) && file !== "src/db/visibility.ts");

describe("one visibility scope (docs/api/access.md §18)", () => {
  it("every read of pricelists or trade_conditions takes the scope or is listed with its reason", () => {
    const unclassified = reading.filter((file) => !SCOPED.has(file) && !(file in UNSCOPED));
    assert.deepEqual(
      unclassified,
      [],
      "these files read pricelists or trade_conditions: take the request's scope (src/db/visibility.ts) or list them in UNSCOPED with the reason no read or sales key reaches them",
    );
    for (const file of SCOPED) {
      assert.ok(reading.includes(file), `${file} no longer reads the tables: drop it from SCOPED`);
      assert.match(
        text(file),
        /from "\.\.\/(?:\.\.\/)?(?:db\/)?visibility"/,
        `${file} takes no scope`,
      );
    }
    for (const file of Object.keys(UNSCOPED)) {
      assert.ok(
        reading.includes(file),
        `${file} no longer reads the tables: drop it from UNSCOPED`,
      );
    }
  });

  it("no repository parameter says `costs: boolean` any more: the scope says it", () => {
    const boolean = files.filter(
      (file) =>
        file !== "src/db/visibility.ts" &&
        /\bcosts(?:\?)?: boolean\b|\bseesCosts\b/.test(text(file)),
    );
    assert.deepEqual(boolean, []);
  });

  it("the hiding rule is written once, in src/db/visibility.ts", () => {
    const compares =
      /type\s*(?:!==|===|<>|!=|=)\s*["']ACCRUAL["']|\.type\}\s*(?:<>|=)\s*'ACCRUAL'|kind\s*(?:=|<>)\s*'COST'\s+or/;
    const elsewhere = files.filter(
      (file) =>
        file !== "src/db/visibility.ts" &&
        !ACCRUAL_ELSEWHERE.has(file) &&
        compares.test(text(file)),
    );
    assert.deepEqual(elsewhere, [], "hide records through the scope (src/db/visibility.ts)");
  });
});
