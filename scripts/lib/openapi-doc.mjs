/**
 * The OpenAPI document the Worker serves at /doc, generated from the route definitions in src/:
 * esbuild bundles src/openapi.ts for Node (the app with every description and example) and
 * calls it. The build writes it to public/openapi.json (`writeDocument`), the static asset
 * GET /doc answers with (src/doc/served.ts): scripts/worker-build.mjs, run by wrangler for
 * `wrangler dev`, `wrangler deploy` and `npm run build`, and vitest.config.ts for the tests.
 * Shared by scripts/client-generate.mjs, scripts/lint-contract.mjs and scripts/check-readme.mjs.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { writeAtomically } from "./worker-source.mjs";

/** @typedef {import("openapi-typescript").OpenAPI3} OpenAPI3 */

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Where GET /doc finds the document (src/doc/served.ts `DOCUMENT_ASSET`). */
export const DOCUMENT_FILE = join(ROOT, "public", "openapi.json");

/**
 * The /doc of the Worker in src/, generated in-process from its route definitions.
 * @returns {Promise<OpenAPI3>}
 */
export async function documentFromSource() {
  const dir = mkdtempSync(join(tmpdir(), "pricing-doc-"));
  try {
    const outfile = join(dir, "openapi.mjs");
    await build({
      entryPoints: [join(ROOT, "src", "openapi.ts")],
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      outfile,
      logLevel: "warning",
    });
    /** @type {{ document: () => OpenAPI3 }} */
    const generator = await import(pathToFileURL(outfile).href);
    // What GET /doc answers: the JSON text, parsed (no `undefined`, no prototypes).
    return JSON.parse(JSON.stringify(generator.document()));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Generates the document and writes it where GET /doc serves it from (public/openapi.json, as
 * compact JSON, as the Worker answered it when it built the document itself).
 * @returns {Promise<OpenAPI3>}
 */
export async function writeDocument() {
  const doc = await documentFromSource();
  mkdirSync(dirname(DOCUMENT_FILE), { recursive: true });
  writeAtomically(DOCUMENT_FILE, JSON.stringify(doc));
  return doc;
}

/**
 * The /doc of a running service.
 * @param {string} base
 * @returns {Promise<OpenAPI3>}
 */
export async function documentFromUrl(base) {
  const url = new URL("/doc", base);
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}`);
  return /** @type {Promise<OpenAPI3>} */ (res.json());
}
