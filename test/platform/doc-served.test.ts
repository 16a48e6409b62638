/**
 * GET /doc is the document the build generated (public/openapi.json, scripts/worker-build.mjs and
 * vitest.config.ts), not one the Worker writes (docs/architecture.md §1.2). It cannot drift from
 * the routes this Worker runs: the Worker's own route definitions (src/ as it is bundled, without
 * descriptions, examples and answers, scripts/lib/worker-source.mjs) give, through the same
 * generator, every operation of the served document with the same method, path, operationId,
 * tags, parameters and request body, and name schemas the document has. What the Worker leaves out
 * (the words, the answers) is held against a fresh build by test/scripts/worker-bundle.test.mjs.
 */
import { OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { describe, expect, it } from "vitest";
import { app } from "../../src/app";
import { api } from "../shared/helpers";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Doc = {
  paths: Record<string, Record<string, Record<string, Json>>>;
  components?: { schemas?: Record<string, Json> };
};

/** The words of the document, which only the build has. */
const WORDS = new Set(["description", "summary", "example", "examples"]);
/** Every write's Idempotency-Key, which the build declares on the document (src/doc/idempotency.ts). */
const IDEMPOTENCY_KEY = "#/components/parameters/IdempotencyKey";

const isEmpty = (value: Json) =>
  value !== null && typeof value === "object" && Object.keys(value).length === 0;

/**
 * `value` without the document's words. A reference with words of its own is written
 * `allOf: [{ $ref }, { description }]`; without them it is the `$ref` alone, as the generator
 * writes it when there are none.
 */
function withoutWords(value: Json): Json {
  if (Array.isArray(value)) return value.map(withoutWords);
  if (value === null || typeof value !== "object") return value;
  const out = Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !WORDS.has(key))
      .map(([key, v]) => [key, withoutWords(v)]),
  );
  if (Array.isArray(out.allOf)) {
    const parts = out.allOf.filter((part) => !isEmpty(part));
    const { allOf: _allOf, ...rest } = out;
    const [only] = parts;
    return parts.length === 1 && only && typeof only === "object" && !Array.isArray(only)
      ? { ...rest, ...only }
      : { ...rest, allOf: parts };
  }
  return out;
}

/** Each operation as the Worker validates it: no words, no answers, no Idempotency-Key. */
function operations(doc: Doc) {
  const out: Record<string, Json> = {};
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const { responses: _responses, parameters, ...rest } = operation;
      const declared = ((parameters as Json[] | undefined) ?? []).filter(
        (p) => !(p && typeof p === "object" && !Array.isArray(p) && p.$ref === IDEMPOTENCY_KEY),
      );
      out[`${method.toUpperCase()} ${path}`] = withoutWords({
        ...rest,
        ...(declared.length ? { parameters: declared } : {}),
      });
    }
  }
  return out;
}

/** The document of the routes this Worker runs, from its own registry. */
function fromWorker(): Doc {
  // The Worker's routes have no answers; the generator wants the key.
  const definitions = app.definitions.map((route) => ({
    type: "route" as const,
    route: { ...route, responses: {} },
  }));
  const generated = new OpenApiGeneratorV31(definitions).generateDocument({
    openapi: "3.1.0",
    info: { title: "", version: "" },
  });
  return JSON.parse(JSON.stringify(generated)) as Doc;
}

describe("GET /doc (the document the build generated)", () => {
  it("is JSON, public, and names every operation the Worker runs, alike", async () => {
    const res = await api("GET", "/doc", { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    const served = res.body as Doc;
    const worker = fromWorker();
    const ours = operations(worker);
    expect(Object.keys(ours).length).toBeGreaterThan(60);
    expect(operations(served)).toEqual(ours);
    // The schemas the requests name ($ref) are in the document. (Their text is not compared: a
    // named schema met both with and without a default, ScaleBasis, is written as the generator
    // meets it first, and the document meets the answers first.)
    const named = Object.keys(worker.components?.schemas ?? {});
    expect(named.length).toBeGreaterThan(0);
    expect(Object.keys(served.components?.schemas ?? {})).toEqual(expect.arrayContaining(named));
  });

  it("holds the words the Worker leaves out of its routes", async () => {
    const served = (await api("GET", "/doc", { key: null })).body as Doc;
    const product = served.paths["/v1/api/product/{code}"]?.get;
    expect(product).toMatchObject({
      operationId: "getProduct",
      summary: "Get a product by code",
      description: "Unknown code → 404.",
    });
    expect(Object.keys(product?.responses ?? {})).toEqual(["200", "400", "401", "404", "429"]);
    // The Worker's own definition of that route has no words and no answers.
    const route = app.definitions.find((d) => d.operationId === "getProduct");
    expect(route).toMatchObject({ method: "get", path: "/v1/api/product/{code}" });
    expect([route?.summary, route?.description]).toEqual([undefined, undefined]);
    expect(route?.responses).toBeUndefined();
  });

  it("answers HEAD and refuses other methods like every path (405, Allow)", async () => {
    const put = await api("PUT", "/doc", { key: null });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, HEAD");
  });
});
