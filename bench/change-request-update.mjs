#!/usr/bin/env node
/**
 * The apply's UPDATE of the cut rows from the staged ones, two ways, on the local D1 (issue 28
 * item 10; bench/results/2026-11-29-change-request-staged-apply.md):
 *
 *   node bench/change-request-update.mjs [--rows 31800] [--repeat 3] [--out FILE.json]
 *
 * 1. a fresh local D1 in a temp folder (the migrations of drizzle/ applied; nothing of the
 *    project's local state is read or changed), loaded in SQL with `--rows` products, one ACTIVE
 *    pricelist with one row each, a change request and one attempt that staged, per row, the row
 *    cut at 2027-01-01 (UPDATED) and its new row from then (INSERTED), as the lookups bench's
 *    approve stages them;
 * 2. per run, a copy of that folder, and through `wrangler d1 execute --local` one batch: the
 *    audit context set (so the audit triggers write their entries, as in the apply), the UPDATE,
 *    the context cleared; D1's `duration` of the UPDATE is the figure;
 * 3. the runs alternate: `subqueries` (each of the four columns a correlated subquery over the
 *    staged rows, the rows found by `rowid in (…)`: the statement before this round) and `from`
 *    (UPDATE … FROM the staged rows, src/db/price-rows.ts `updateFromStaged`).
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { applyMigrations, wrangler } from "../scripts/lib/local-db.mjs";

const { values } = parseArgs({
  options: {
    rows: { type: "string", default: "31800" },
    repeat: { type: "string", default: "3" },
    out: { type: "string" },
  },
});
const ROWS = Number(values.rows);
const REPEAT = Number(values.repeat);
const CUT = Date.parse("2027-01-01");
const ALWAYS = -9007199254740991;
const step = (/** @type {string} */ text) => console.log(`[bench:change-request-update] ${text}`);

/** `t` is the row staged as `w` (src/db/price-rows.ts `sameRow`). */
const sameRow = (/** @type {string} */ t, /** @type {string} */ w) =>
  `${t}.pricelist_id = ${w}.pricelist_id and ${t}.product_id = ${w}.product_id
    and ${t}.min_quantity = ${w}.min_quantity
    and coalesce(${t}.valid_from, ${ALWAYS}) = coalesce(${w}.valid_from, ${ALWAYS})`;
const mine = "w.change_request_id = 1 and w.attempt = 1 and w.action = 'UPDATED'";

const UPDATES = {
  subqueries: `update pricelist_prices set ${["valid_to", "amount", "price_unit", "flat_amount"]
    .map(
      (c) =>
        `${c} = (select w.after_${c} from change_request_writes w where ${mine} and ${sameRow("pricelist_prices", "w")})`,
    )
    .join(", ")}
    where pricelist_prices.rowid in (select pp.rowid from change_request_writes w
      join pricelist_prices pp on ${sameRow("pp", "w")} where ${mine})`,
  from: `update pricelist_prices set valid_to = w.after_valid_to, amount = w.after_amount,
    price_unit = w.after_price_unit, flat_amount = w.after_flat_amount
    from change_request_writes w where ${mine} and ${sameRow("pricelist_prices", "w")}`,
};

const SEED = `
with recursive n(i) as (select 1 union all select i + 1 from n where i < ${ROWS})
insert into products (code, name) select 'BULK-' || printf('%07d', i), 'Bulk ' || i from n;
insert into pricelists (id, name, scope, status, currency, allows_trade_discounts)
  values (1, 'Catalogue', 'GENERAL', 'ACTIVE', 'EUR', 1);
insert into pricelist_prices (pricelist_id, product_id, min_quantity, amount)
  select 1, id, 1, 1000 + id % 997 from products;
insert into change_requests (id, title, status, author, editors)
  values (1, 'Catalogue', 'PENDING_APPROVAL', 'bench', '["bench"]');
insert into change_request_attempts (id, change_request_id, started_at) values (1, 1, 0);
insert into change_request_writes (change_request_id, attempt, pricelist_id, product_id,
  min_quantity, valid_from, action, before_valid_to, before_amount, before_price_unit,
  before_flat_amount, after_valid_to, after_amount, after_price_unit, after_flat_amount)
  select 1, 1, 1, id, 1, null, 'UPDATED', null, 1000 + id % 997, 1, 0, ${CUT}, 1000 + id % 997, 1, 0
  from products;
insert into change_request_writes (change_request_id, attempt, pricelist_id, product_id,
  min_quantity, valid_from, action, before_valid_to, before_amount, before_price_unit,
  before_flat_amount, after_valid_to, after_amount, after_price_unit, after_flat_amount)
  select 1, 1, 1, id, 1, ${CUT}, 'INSERTED', null, null, null, null, null,
    (1000 + id % 997) * 41 / 40, 1, 0 from products;
`;

const AUDIT = `insert into audit_context (id, at, request_id, key_name, operation, method, path)
  values (1, ${Date.now()}, 'bench', 'bench', 'approveChangeRequest', 'POST', '/bench')`;

const base = mkdtempSync(join(tmpdir(), "pricing-bench-cr-update-"));
try {
  await applyMigrations(join(base, "seed"));
  const seedFile = join(base, "seed.sql");
  writeFileSync(seedFile, SEED);
  await wrangler([
    "d1",
    "execute",
    "DB",
    "--local",
    "--persist-to",
    join(base, "seed"),
    "--file",
    seedFile,
  ]);
  step(
    `seeded ${ROWS.toLocaleString("en")} rows and ${(2 * ROWS).toLocaleString("en")} staged rows in ${base}`,
  );
  /** @type {Record<string, number[]>} */
  const durations = { subqueries: [], from: [] };
  for (let run = 0; run < REPEAT; run++) {
    for (const [name, update] of Object.entries(UPDATES)) {
      const dir = join(base, `${name}-${run}`);
      cpSync(join(base, "seed"), dir, { recursive: true });
      const out = await wrangler([
        ...["d1", "execute", "DB", "--local", "--persist-to", dir, "--json", "--command"],
        `${AUDIT}; ${update}; delete from audit_context; select
          (select count(*) from pricelist_prices where valid_to = ${CUT}) as cut,
          (select count(*) from audit_log) as entries`,
      ]);
      const results = JSON.parse(out);
      const { duration } = results[1].meta;
      const { cut, entries } = results[3].results[0];
      if (cut !== ROWS || entries !== ROWS)
        throw new Error(`${name}: ${cut} rows cut, ${entries} entries`);
      durations[name]?.push(duration);
      step(`${name}: ${Math.round(duration)} ms (${cut} rows cut, ${entries} audit entries)`);
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const median = (/** @type {number[]} */ xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const summary = Object.fromEntries(
    Object.entries(durations).map(([name, xs]) => [name, { runs: xs, median: median(xs) }]),
  );
  step(JSON.stringify(summary));
  if (values.out) {
    writeFileSync(values.out, `${JSON.stringify({ rows: ROWS, durations: summary }, null, 2)}\n`);
    step(`written to ${values.out}`);
  }
} finally {
  rmSync(base, { recursive: true, force: true });
}
