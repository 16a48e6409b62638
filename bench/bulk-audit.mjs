#!/usr/bin/env node
/**
 * What one large bulk upsert of customers costs, and how much audit trail it leaves
 * (docs/performance.md, "Bulk upserts and the audit trail"; `npm run bench:bulk-audit`):
 *
 *   node bench/bulk-audit.mjs [--customers 1000] [--groups 40] [--keep]
 *
 * 1. starts a fresh local `wrangler dev` on a free port of 127.0.0.1 (an empty D1 in a temp
 *    folder, the migrations of drizzle/ applied, an API key of its own: nothing of the project's
 *    local state is read or changed);
 * 2. creates `--groups` customer groups (one bulk call), then times
 *    - `create`: `PUT /v1/api/customer` with `--customers` new customers, each in every group;
 *    - `move`: the same body with one group swapped per customer (one membership removed, one
 *      added: the nightly export with a change);
 *    - `same`: the same body again (nothing changes);
 * 3. stops wrangler and counts each call's audit entries and their bytes (entity key, before
 *    and after) in the D1 file with `wrangler d1 execute --local`; removes the temp folder
 *    (--keep keeps it).
 *
 * Nothing is written into the project: the figures go to stdout.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { wrangler } from "../scripts/lib/local-db.mjs";
import { thousands } from "./lib/common.mjs";
import { startService } from "./lib/service.mjs";

const step = (/** @type {string} */ text) => console.log(`[bench:bulk-audit] ${text}`);

/**
 * @param {{ url: string, key: string }} service
 * @param {string} path
 * @param {unknown} body
 */
async function put(service, path, body) {
  const started = performance.now();
  const res = await fetch(`${service.url}${path}`, {
    method: "PUT",
    headers: { "x-webhook-signature": service.key, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const ms = performance.now() - started;
  const text = await res.text();
  if (!res.ok) throw new Error(`PUT ${path}: ${res.status} ${text.slice(0, 300)}`);
  return { ms, requestId: res.headers.get("x-request-id") ?? "", answer: JSON.parse(text) };
}

/**
 * Audit entries and their bytes per request id, read from the stopped service's D1.
 * @param {string} dir
 * @returns {Promise<Map<string, { rows: number, bytes: number }>>}
 */
async function auditByRequest(dir) {
  const out = await wrangler([
    "d1",
    "execute",
    "DB",
    "--local",
    "--persist-to",
    dir,
    "--json",
    "--command",
    `select request_id as requestId, count(*) as rows,
      sum(length(entity_key) + coalesce(length(before), 0) + coalesce(length(after), 0)) as bytes
      from audit_log group by request_id`,
  ]);
  /** @type {{ results: { requestId: string, rows: number, bytes: number }[] }[]} */
  const parsed = JSON.parse(out.slice(out.indexOf("[")));
  return new Map((parsed[0]?.results ?? []).map((r) => [r.requestId, r]));
}

async function main() {
  const { values } = parseArgs({
    options: {
      customers: { type: "string", default: "1000" },
      groups: { type: "string", default: "40" },
      keep: { type: "boolean", default: false },
    },
  });
  const customers = Number(values.customers);
  const groups = Number(values.groups);
  if (!Number.isSafeInteger(customers) || customers < 1 || customers > 1000)
    throw new Error(`--customers ${values.customers}: 1-1000`);
  if (!Number.isSafeInteger(groups) || groups < 2 || groups > 999)
    throw new Error(`--groups ${values.groups}: 2-999`);
  const dir = mkdtempSync(join(tmpdir(), "pricing-bench-bulk-audit-"));
  /** @type {(() => Promise<void>) | undefined} */
  let stopService;
  const stop = () => stopService?.();
  process.on("SIGINT", () => {
    stop();
    if (!values.keep) rmSync(dir, { recursive: true, force: true });
    process.exit(130);
  });
  try {
    const service = await startService(dir);
    stopService = service.stop;
    step(`wrangler dev on ${service.url}, empty D1 in ${dir}, migrations applied`);
    const groupCodes = Array.from(
      { length: groups + 1 },
      (_, i) => `G-${String(i).padStart(3, "0")}`,
    );
    await put(service, "/v1/api/customer-group", {
      customerGroups: groupCodes.map((code) => ({ code, name: `Group ${code}` })),
    });
    const body = (/** @type {(i: number) => string[]} */ groupsOf) => ({
      customers: Array.from({ length: customers }, (_, i) => ({
        code: `C-${String(i).padStart(5, "0")}`,
        name: `Customer ${i}`,
        customerGroupCodes: groupsOf(i),
      })),
    });
    const all = groupCodes.slice(0, groups);
    // One group swapped per customer: the one at i % groups leaves, the spare one joins.
    const moved = (/** @type {number} */ i) =>
      all.map((code, g) => (g === i % groups ? /** @type {string} */ (groupCodes[groups]) : code));
    const runs = [
      [
        "create",
        await put(
          service,
          "/v1/api/customer",
          body(() => all),
        ),
      ],
      ["move", await put(service, "/v1/api/customer", body(moved))],
      ["same", await put(service, "/v1/api/customer", body(moved))],
    ];
    await stop();
    stopService = undefined;
    const audit = await auditByRequest(dir);
    const links = customers * groups;
    step(`${thousands(customers)} customers × ${groups} groups (${thousands(links)} memberships)`);
    for (const [name, run] of /** @type {[string, Awaited<ReturnType<typeof put>>][]} */ (runs)) {
      const entries = audit.get(run.requestId) ?? { rows: 0, bytes: 0 };
      const answer = /** @type {{ created: string[], updated: string[], unchanged: number }} */ (
        run.answer
      );
      console.log(
        `${name.padEnd(6)} ${String(Math.round(run.ms)).padStart(6)} ms  ` +
          `${thousands(entries.rows).padStart(7)} audit entries  ` +
          `${(entries.bytes / 1e6).toFixed(2).padStart(6)} MB  ` +
          `(created ${answer.created.length}, updated ${answer.updated.length}, unchanged ${answer.unchanged})`,
      );
    }
  } finally {
    await stop();
    if (!values.keep) rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(`[bench:bulk-audit] ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
