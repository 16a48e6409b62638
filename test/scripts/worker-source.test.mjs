/**
 * The Worker's source (scripts/lib/worker-source.mjs, docs/architecture.md §1.2): the words of
 * /doc blanked out of route and schema definitions, every line and column kept, and nothing a
 * request is validated against touched. A Node test (node:test), run by `npm run test:scripts`.
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
    assert.deepEqual(lines(out), lines(ROUTE));
    for (const word of [
      "createRoute",
      "@hono/zod-openapi",
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

  it("leaves out a schema's .openapi() metadata and bulkBody()'s words, and nothing else", () => {
    const out = workerSource(SCHEMA, "things.schemas.ts");
    for (const word of [
      '"What it is"',
      '"A thing"',
      '"The code"',
      '"T-1"',
      '"Things"',
      "things: []",
      ".openapi(",
    ]) {
      assert.equal(out.includes(word), false, word);
    }
    assert.match(out, /description: z\.string\(\) +,\n/, "the field itself stays");
    assert.match(out, /code: Code +,\n/, "a parameter's schema stays");
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

  it("imports z from zod, not @hono/zod-openapi, and keeps the router's .openapi()", () => {
    const text = `import { createRoute, z, type RouteConfig } from "@hono/zod-openapi";
const Id = z.object({ id: z.string().openapi({ example: "1" }) }).openapi("Id");
const route = createRoute({ method: "get", path: "/x", request: { params: Id } });
const Named = z.object({}).openapi(component, meta);
export default createRouter().openapi(routes.get, handlers.get).openapi(route, async (c) => c.json({}));
`;
    const out = workerSource(text, "things.ts");
    assert.deepEqual(lines(out), lines(text));
    assert.match(out, /^import \{ +z, type RouteConfig \} from "zod" +;\n/);
    assert.match(out, /const Id = z\.object\(\{ id: z\.string\(\) +\}\) +;\n/);
    assert.match(out, /const route = +\(\{ method: "get"/);
    assert.match(out, /const Named = z\.object\(\{\}\) +;\n/);
    assert.ok(out.includes(".openapi(routes.get, handlers.get).openapi(route, async (c)"));
  });

  it("leaves an import from @hono/zod-openapi of anything but z and createRoute as it is", () => {
    const text = 'import { OpenAPIHono, z } from "@hono/zod-openapi";\n';
    assert.equal(workerSource(text, "document.ts"), text);
  });

  it("leaves a file without route or schema definitions as it is", () => {
    const text = 'export const row = { description: "kept", example: 1 };\n';
    assert.equal(workerSource(text, "things.service.ts"), text);
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
