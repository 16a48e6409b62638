/**
 * bench/lib/d1-apart.mjs (docs/performance.md, "Lookups while a large change request is submitted
 * and approved"): a Worker whose `DB` is the wrapped binding reaches a D1 in another workerd
 * through every call the service makes of D1, answers and errors as D1's own.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Miniflare } from "miniflare";
import { startD1Host, withD1At } from "../../bench/lib/d1-apart.mjs";

/** A Worker that runs what the query string names against `env.DB` and answers it as JSON. */
const WORKER = `
export default {
  async fetch(request, env) {
    const what = new URL(request.url).searchParams.get("what");
    try {
      const db = env.DB;
      if (what === "setup") {
        await db.batch([
          db.prepare("create table t (id integer primary key, name text not null unique)"),
          db.prepare("insert into t (id, name) values (?, ?), (?, ?)").bind(1, "a", 2, "b"),
        ]);
        return Response.json({ ok: true });
      }
      if (what === "all") return Response.json(await db.prepare("select * from t where id >= ? order by id").bind(1).all());
      if (what === "raw") return Response.json(await db.prepare("select id, name from t order by id").raw());
      if (what === "first") return Response.json(await db.prepare("select name from t where id = ?").bind(2).first("name"));
      if (what === "run") return Response.json(await db.prepare("update t set name = 'c' where id = 2").run());
      if (what === "session") {
        const session = db.withSession("first-primary");
        const rows = await session.prepare("select count(*) as n from t").all();
        return Response.json({ n: rows.results[0].n, bookmark: typeof session.getBookmark() });
      }
      if (what === "unique") await db.prepare("insert into t (id, name) values (3, 'a')").run();
      return Response.json({ unknown: what });
    } catch (error) {
      return Response.json({ error: String(error.message) });
    }
  },
};`;

describe("the D1 binding apart", () => {
  const dir = mkdtempSync(join(tmpdir(), "d1-apart-test-"));
  /** @type {{ address: string, dispose: () => Promise<void> }} */
  let host;
  /** @type {Miniflare} */
  let mf;
  /** @returns {Promise<any>} */
  const call = async (/** @type {string} */ what) =>
    (await mf.dispatchFetch(`http://worker/?what=${what}`)).json();

  before(async () => {
    host = await startD1Host(dir);
    const worker = { name: "app", modules: true, script: WORKER, compatibilityDate: "2025-01-01" };
    mf = new Miniflare({
      workers: withD1At({ ...worker, d1Databases: { DB: "x" } }, host.address),
    });
    await mf.ready;
    assert.deepEqual(await call("setup"), { ok: true });
  });
  after(async () => {
    await mf?.dispose();
    await host?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers all, raw, first and run as D1 does", async () => {
    const all = await call("all");
    assert.deepEqual(all.results, [
      { id: 1, name: "a" },
      { id: 2, name: "b" },
    ]);
    assert.equal(all.success, true);
    assert.deepEqual(await call("raw"), [
      [1, "a"],
      [2, "b"],
    ]);
    assert.equal(await call("first"), "b");
    const run = await call("run");
    assert.equal(run.meta.changes, 1);
    assert.equal(await call("first"), "c");
  });

  it("runs a session and gives its bookmark", async () => {
    assert.deepEqual(await call("session"), { n: 2, bookmark: "string" });
  });

  it("throws D1's own message, which the service reads (a UNIQUE violation)", async () => {
    const { error } = await call("unique");
    assert.match(error, /UNIQUE constraint failed: t\.name/);
  });
});
