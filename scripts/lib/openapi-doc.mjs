/**
 * The OpenAPI document the Worker serves at /doc, answered in-process without a server:
 * esbuild bundles src/index.ts for Node and the app answers `GET /doc` (that route never
 * touches D1, so the database binding is a stub whose every query fails loudly).
 * Shared by scripts/client-generate.mjs and scripts/lint-contract.mjs.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

/** @typedef {import("openapi-typescript").OpenAPI3} OpenAPI3 */

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** /doc reads no data: a D1 binding (and session) whose every query fails loudly. */
const noQuery = () => {
  throw new Error("GET /doc must not query the database");
};
const noDatabase = {
  prepare: noQuery,
  batch: noQuery,
  exec: noQuery,
  dump: noQuery,
  withSession: () => ({ prepare: noQuery, batch: noQuery, getBookmark: () => null }),
};

/**
 * The /doc of the Worker in src/, answered in-process.
 * @returns {Promise<OpenAPI3>}
 */
export async function documentFromSource() {
  const dir = mkdtempSync(join(tmpdir(), "pricing-doc-"));
  try {
    const outfile = join(dir, "app.mjs");
    await build({
      entryPoints: [join(ROOT, "src", "index.ts")],
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      outfile,
      logLevel: "warning",
    });
    /** @type {{ default: { fetch: (req: Request, env: unknown) => Response | Promise<Response> } }} */
    const worker = await import(pathToFileURL(outfile).href);
    const res = await worker.default.fetch(new Request("http://localhost/doc"), { DB: noDatabase });
    if (res.status !== 200) throw new Error(`GET /doc answered ${res.status}: ${await res.text()}`);
    return /** @type {Promise<OpenAPI3>} */ (res.json());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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
