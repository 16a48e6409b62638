/**
 * API keys on the Node side: `npm run key:new` (scripts/new-key.mjs) prints an entry in the owner
 * form, and `npm run dev` (scripts/lib/dev-keys.mjs) writes the dev keys with owners, bringing the
 * dev keys of before up to date (docs/api.md §6, docs/operations.md#api-keys). `npm run test:scripts`.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { DEV_KEYS, devApiKeys, ensureDevVars } from "../../scripts/lib/dev-keys.mjs";

const SCRIPT = fileURLToPath(new URL("../../scripts/new-key.mjs", import.meta.url));
const root = mkdtempSync(join(tmpdir(), "keys-"));
after(() => rmSync(root, { recursive: true, force: true }));

const sha256 = (/** @type {string} */ key) => createHash("sha256").update(key).digest("hex");
const newKey = (/** @type {string[]} */ ...args) =>
  spawnSync(process.execPath, [SCRIPT, ...args], { encoding: "utf8" });

describe("npm run key:new", () => {
  it("prints a key and its entry owner:owner-<8 hex>:role:sha256 of that key", () => {
    const run = newKey("admin", "--name", "alice");
    assert.equal(run.status, 0, run.stderr);
    const key = /key \(send as x-webhook-signature\): (\S+)/.exec(run.stdout)?.[1];
    const entry = /API_KEYS entry: +(\S+)/.exec(run.stdout)?.[1];
    assert.match(key ?? "", /^pk_admin_/);
    const hex = sha256(/** @type {string} */ (key));
    assert.equal(entry, `alice:alice-${hex.slice(0, 8)}:admin:${hex}`);
  });

  it("a rotated key of the same owner has a new name and the same owner", () => {
    const entries = [1, 2].map(
      () => /API_KEYS entry: +(\S+)/.exec(newKey("admin", "--name", "alice").stdout)?.[1] ?? "",
    );
    const [a, b] = entries.map((entry) => entry.split(":"));
    assert.equal(a?.[0], "alice");
    assert.equal(b?.[0], "alice");
    assert.notEqual(a?.[1], b?.[1]);
  });

  it("refuses an admin key without an owner, and owners it cannot be", () => {
    for (const args of [["admin"], ["admin", "--name", "policy"], ["admin", "--name", "a b"]]) {
      const run = newKey(...args);
      assert.equal(run.status, 2, args.join(" "));
      assert.equal(run.stdout, "");
      assert.match(run.stderr, /usage: npm run key:new -- admin\|read\|sales --name <owner>/);
    }
  });

  it("a sales key: owner:owner-<8 hex>:sales:sha256, or the short sales:sha256", () => {
    const run = newKey("sales", "--name", "rep-1");
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /API_KEYS entry: +rep-1:rep-1-[0-9a-f]{8}:sales:[0-9a-f]{64}\n/);
    const short = newKey("sales");
    assert.equal(short.status, 0, short.stderr);
    assert.match(short.stdout, /key \(send as x-webhook-signature\): pk_sales_/);
    assert.match(short.stdout, /API_KEYS entry: +sales:[0-9a-f]{64}\n/);
  });

  it("a read key may go without an owner: the short role:sha256 entry", () => {
    const run = newKey("read");
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /API_KEYS entry: +read:[0-9a-f]{64}\n/);
  });
});

describe("the dev keys' .dev.vars", () => {
  const ownedEntries = [
    `dev-admin:admin:${sha256(DEV_KEYS.admin)}`,
    `dev-read:read:${sha256(DEV_KEYS.read)}`,
    `approver:admin:${sha256(DEV_KEYS.approver)}`,
    `rep-1:sales:${sha256(DEV_KEYS.rep)}`,
    `manager:sales:${sha256(DEV_KEYS.manager)}`,
  ].join(",");

  it("are written with owners: the dev admin and the approver are two, with two sales keys", () => {
    const dir = mkdtempSync(join(root, "created-"));
    assert.equal(devApiKeys(), ownedEntries);
    assert.equal(ensureDevVars(dir), "created");
    assert.match(
      readFileSync(join(dir, ".dev.vars"), "utf8"),
      new RegExp(`API_KEYS=${ownedEntries}\n`),
    );
    assert.equal(ensureDevVars(dir), "kept dev keys");
  });

  it("the dev keys of before, without owners, are brought up to date; own keys are kept", () => {
    const unowned = `admin:${sha256(DEV_KEYS.admin)},read:${sha256(DEV_KEYS.read)}`;
    const owned = `dev-admin:admin:${sha256(DEV_KEYS.admin)},dev-read:read:${sha256(DEV_KEYS.read)}`;
    for (const [before, result] of [
      [`${owned},approver:admin:${sha256(DEV_KEYS.approver)}`, "added sales keys"],
      [`${unowned},approver:admin:${sha256(DEV_KEYS.approver)}`, "named owners"],
      [unowned, "added approver"],
    ]) {
      const dir = mkdtempSync(join(root, "old-"));
      writeFileSync(join(dir, ".dev.vars"), `X=1\nAPI_KEYS=${before}\n`);
      assert.equal(ensureDevVars(dir), result);
      assert.equal(readFileSync(join(dir, ".dev.vars"), "utf8"), `X=1\nAPI_KEYS=${ownedEntries}\n`);
    }
    const own = mkdtempSync(join(root, "own-"));
    writeFileSync(join(own, ".dev.vars"), `API_KEYS=me:admin:${"d".repeat(64)}\n`);
    assert.equal(ensureDevVars(own), "kept own keys");
  });
});
