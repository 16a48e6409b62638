/**
 * D1 apart (`npm run bench:change-request -- --lookups --d1-apart`; docs/api/change-requests.md
 * §17.7): local D1 in a workerd process of its own, as on Cloudflare, where D1 is a service apart
 * from the Worker's isolate.
 *
 * Local D1 otherwise runs inside the Worker's own workerd, and a long batch holds that process
 * whole, its timers included (bench/lib/dev-call.mjs), so nothing there answers until it ends.
 * Here a second Miniflare (its own workerd) holds the database, and the Worker's `DB` binding is a
 * wrapped binding that sends each D1 call over loopback HTTP to it: the Worker's isolate stays
 * free while D1 works, and its calls queue behind the batch, as they do on Cloudflare.
 *
 * The binding offers what the Worker uses of D1 (src/db/client.ts, src/http/context.ts):
 * `prepare` → `bind` → `all` / `raw` / `run` / `first`, `batch`, `withSession` → `getBookmark`.
 * Values cross as JSON: the schema stores no blobs.
 */
import { Miniflare } from "miniflare";
import { d1PersistOf, databaseId, freePort } from "./common.mjs";

/** The host (second workerd): runs each call on its real D1 binding and answers JSON. */
const HOST = `
const statementOf = (db, s) => db.prepare(s.sql).bind(...s.params);
const messages = (e) => {
  const parts = [];
  for (let x = e, depth = 0; x && depth < 5; x = x.cause, depth++) parts.push(String(x.message ?? x));
  return parts.join(" | ");
};
export default {
  async fetch(request, env) {
    const { method, statements, arg, constraint } = await request.json();
    const db = constraint === null ? env.DB : env.DB.withSession(constraint);
    try {
      let result;
      if (method === "batch") result = await db.batch(statements.map((s) => statementOf(db, s)));
      else {
        const statement = statementOf(db, statements[0]);
        result =
          method === "raw" ? await statement.raw(arg ?? undefined)
          : method === "first" ? await statement.first(arg ?? undefined)
          : await statement[method]();
      }
      const bookmark = constraint === null ? null : db.getBookmark();
      return Response.json({ result, bookmark });
    } catch (error) {
      return Response.json({ error: messages(error) });
    }
  },
};
`;

/** The binding (in the Worker's workerd): D1's surface, each call one fetch to the host. */
const BINDING = `
class Statement {
  constructor(session, sql, params = []) { this.session = session; this.sql = sql; this.params = params; }
  bind(...params) { return new Statement(this.session, this.sql, params); }
  all() { return this.session.send("all", [this]); }
  run() { return this.session.send("run", [this]); }
  raw(options) { return this.session.send("raw", [this], options); }
  first(column) { return this.session.send("first", [this], column); }
}
class Session {
  constructor(host, constraint) { this.host = host; this.constraint = constraint; this.bookmark = null; }
  prepare(sql) { return new Statement(this, sql); }
  batch(statements) { return this.send("batch", statements); }
  getBookmark() { return this.bookmark; }
  async send(method, statements, arg) {
    const response = await this.host.fetch("http://d1/", {
      method: "POST",
      body: JSON.stringify({
        method,
        arg: arg ?? null,
        constraint: this.constraint,
        statements: statements.map((s) => ({ sql: s.sql, params: s.params })),
      }),
    });
    const answer = await response.json();
    if (answer.error !== undefined) throw new Error(answer.error);
    if (answer.bookmark) this.bookmark = answer.bookmark;
    return answer.result;
  }
}
class Database extends Session {
  withSession(constraint) { return new Session(this.host, constraint ?? "first-unconstrained"); }
}
export default (env) => new Database(env.HOST, null);
`;

/**
 * The D1 of `dir` in a workerd of its own, on 127.0.0.1 and a free port; `dispose()` stops it.
 * @param {string} dir persist folder (as `--persist-to`: the database in `<dir>/v3/d1`)
 */
export async function startD1Host(dir) {
  const port = await freePort();
  const mf = new Miniflare({
    name: "d1-host",
    modules: true,
    script: HOST,
    compatibilityDate: "2025-01-01",
    d1Databases: { DB: databaseId() },
    d1Persist: d1PersistOf(dir),
    host: "127.0.0.1",
    port,
  });
  await mf.ready;
  return { address: `127.0.0.1:${port}`, dispose: () => mf.dispose() };
}

/**
 * Worker options that bind `DB` to the D1 host at `address` instead of a local D1: the `workers`
 * of a Miniflare whose first worker is `worker` (its own `d1Databases` dropped).
 * @param {Record<string, unknown>} worker
 * @param {string} address
 */
export function withD1At(worker, address) {
  const { d1Databases: _local, ...rest } = worker;
  return [
    { ...rest, wrappedBindings: { DB: "d1-apart" } },
    {
      name: "d1-apart",
      modules: true,
      script: BINDING,
      serviceBindings: { HOST: { external: { address, http: {} } } },
    },
  ];
}
