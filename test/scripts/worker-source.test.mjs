/**
 * The Worker's source (scripts/lib/worker-source.mjs, docs/architecture.md §1.2): the words of
 * /doc blanked out of route and schema definitions, every line and column kept, and nothing a
 * request is validated against touched; SQL's indentation cut. A Node test (node:test), run by `npm run test:scripts`.
 */
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { workerSource, writeWorkerSource } from "../../scripts/lib/worker-source.mjs";

const ROUTE = `import { createRoute } from "@hono/zod-openapi";
export const tag = {
  name: "Things",
  description: "Things a tag describes",
};
export const get = createRoute({
  method: "get",
  path: "/v1/api/thing/{code}",
  operationId: "getThing",
  summary: "Get a thing",
  description:
    "Unknown code → 404.",
  request: {
    params: CodeParams,
    body: { content: { "application/json": { schema: z.object({ description: z.string() }) } }, description: "The body" },
  },
  responses: { 200: json(ThingSchema, "The thing"), ...errors(404) },
});
`;

const SCHEMA = `export const ThingSchema = z
  .object({
    description: z.string().openapi({ example: "red", description: "What it is" }),
    code: Code.openapi({ param: { name: "code", in: "path", description: "The code", example: "T-1" } }),
  })
  .openapi("Thing", { description: "A thing", example: { description: "red" } });
export const Body = bulkBody("things", Row, "ThingsUpsert", { description: "Things", example: { things: [] } });
const other = compute({ description: "kept", example: 1 });
`;

const lines = (/** @type {string} */ text) => text.split("\n").map((line) => line.length);

describe("the Worker's source (scripts/lib/worker-source.mjs)", () => {
  it("blanks a route's summary, description and answers, keeping lines and columns", () => {
    const out = workerSource(ROUTE, "things.routes.ts");
    // Every line where it was; columns too, but where a value is wrapped in a pure call.
    assert.equal(out.split("\n").length, ROUTE.split("\n").length);
    assert.deepEqual(
      lines(out.replaceAll("/* @__PURE__ */ (() => (", "").replaceAll("))()", "")),
      lines(ROUTE),
    );
    for (const word of [
      "Get a thing",
      "Unknown code",
      '"The body"',
      "responses",
      "errors(404)",
      "Things a tag describes",
    ]) {
      assert.equal(out.includes(word), false, word);
    }
    // What the Worker routes and validates by is untouched, a field named `description` too.
    for (const kept of [
      'method: "get"',
      'path: "/v1/api/thing/{code}"',
      'operationId: "getThing"',
      'name: "Things"',
      "params: CodeParams",
      "z.object({ description: z.string() })",
    ]) {
      assert.ok(out.includes(kept), kept);
    }
  });

  it("blanks the words of .openapi() and bulkBody(), at any depth, and nothing else", () => {
    const out = workerSource(SCHEMA, "things.schemas.ts");
    for (const word of [
      '"What it is"',
      '"A thing"',
      '"The code"',
      '"T-1"',
      '"Things"',
      "things: []",
    ]) {
      assert.equal(out.includes(word), false, word);
    }
    assert.ok(out.includes("description: z.string().openapi({"), "the field itself stays");
    assert.ok(out.includes('param: { name: "code", in: "path",'), "the parameter's name stays");
    assert.ok(
      out.includes('compute({ description: "kept", example: 1 })'),
      "another call's object",
    );
    // Each top-level value of a schemas file is computed by a function called pure (the only
    // text added), so that esbuild leaves out what nothing uses, however it is built.
    assert.match(out, /export const ThingSchema = \/\* @__PURE__ \*\/ \(\(\) => \(z\n/);
    assert.match(out, /const other = \/\* @__PURE__ \*\/ \(\(\) => \(compute\(.*\)\)\(\);\n/);
    // The rest is valid TypeScript that parses to the same statements.
    assert.equal(out.split("\n").length, SCHEMA.split("\n").length);
  });

  it("blanks the words and answers a route factory of a routes file is given or builds", () => {
    const text = `const action = (name: string, words: { summary: string; description: string }) =>
  createRoute({ method: "post", path: \`/x/\${name}\`, operationId: name, summary: words.summary });
const config = (name: string) => ({
  method: "post",
  path: "/y",
  operationId: name,
  description: "Built elsewhere",
  responses: { 200: json(Thing, "The thing") },
  parameters: listParameters(list),
});
export const submit = action("submit", { summary: "Submit it", description: "Then approval" });
const row = { description: "kept", responses: 1 };
`;
    const out = workerSource(text, "things.routes.ts");
    for (const word of ["Submit it", "Then approval", "Built elsewhere", "The thing"]) {
      assert.equal(out.includes(word), false, word);
    }
    assert.ok(out.includes('method: "post",\n  path: "/y",\n  operationId: name,'));
    // A route's parameters stay: test/platform/doc-served.test.ts holds them against /doc.
    assert.ok(out.includes("parameters: listParameters(list),"));
    assert.ok(
      out.includes(
        'const row = /* @__PURE__ */ (() => ({ description: "kept", responses: 1 }))();',
      ),
    );
  });

  it("blanks the words a route helper of src/http/ writes into /doc only", () => {
    const text = `export const upsert = bulkUpsertRoute({
  path: "/v1/api/thing",
  operationId: "upsertThings",
  noun: "things",
  example: "body.things.1.name",
  rules: "Rules of the things.",
  body: ThingsUpsert,
});
export const pairs = assignmentRoutes({
  owner: "thing",
  path: "/v1/api/thing/{code}/channels",
  assign: { rules: "Only some things take channels.", conflicts: true },
});
`;
    const out = workerSource(text, "things.routes.ts");
    for (const word of ['"things"', "body.things.1.name", "Rules of the", "Only some things"]) {
      assert.equal(out.includes(word), false, word);
    }
    for (const kept of ['operationId: "upsertThings"', "body: ThingsUpsert", "conflicts: true"]) {
      assert.ok(out.includes(kept), kept);
    }
    assert.equal(out.split("\n").length, text.split("\n").length);
  });

  it("leaves a file without route or schema definitions as it is", () => {
    const text = 'export const row = { description: "kept", example: 1 };\n';
    assert.equal(workerSource(text, "things.service.ts"), text);
  });

  it("cuts the indentation of SQL's lines, keeping its line breaks, its strings and other text", () => {
    const text = [
      "const a = sql`select x",
      "    from t -- a comment",
      "    where y = ${y} and z = 'one",
      "      two'",
      "    and w = 1`;",
      "const b = sql.raw(`delete from t",
      "  where 1`);",
      "const c = `not",
      "  sql`;",
      "",
    ].join("\n");
    const out = workerSource(text, "things.repo.ts");
    assert.equal(
      out,
      [
        "const a = sql`select x",
        "from t -- a comment",
        "where y = ${y} and z = 'one",
        "      two'",
        "and w = 1`;",
        "const b = sql.raw(`delete from t",
        "where 1`);",
        "const c = `not",
        "  sql`;",
        "",
      ].join("\n"),
    );
  });

  const tmp = mkdtempSync(join(tmpdir(), "worker-source-"));
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it("mirrors a folder, rewriting only what changed and removing what is gone", () => {
    const from = join(tmp, "src");
    const to = join(tmp, "out");
    mkdirSync(join(from, "resources"), { recursive: true });
    writeFileSync(join(from, "resources", "things.routes.ts"), ROUTE);
    writeFileSync(join(from, "plain.ts"), "export const x = 1;\n");
    assert.equal(writeWorkerSource(from, to), 2);
    assert.equal(writeWorkerSource(from, to), 0, "nothing changed");
    assert.equal(
      readFileSync(join(to, "resources", "things.routes.ts"), "utf8"),
      workerSource(ROUTE, "things.routes.ts"),
    );
    rmSync(join(from, "plain.ts"));
    writeWorkerSource(from, to);
    assert.equal(existsSync(join(to, "plain.ts")), false);
  });
});
