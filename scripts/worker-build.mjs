#!/usr/bin/env node
/**
 * The Worker's build step, wrangler.toml `[build]`: wrangler runs it before every `wrangler dev`
 * (again after each change under src/), `wrangler deploy` and `npm run build`, then bundles
 * what it wrote.
 *
 * 1. the OpenAPI document, generated from the route definitions of src/ under Node
 *    (src/openapi.ts), to public/openapi.json: the static asset GET /doc serves
 *    (src/doc/served.ts);
 * 2. the Worker's source, .wrangler/worker-src/: src/ with the words of that document (route and
 *    schema descriptions, examples) blanked out, every line in its place
 *    (scripts/lib/worker-source.mjs); wrangler.toml's `main` is its index.ts.
 *
 * docs/architecture.md §1.2 and docs/performance.md "The Worker bundle" say why.
 */
import { join } from "node:path";
import { ROOT, writeDocument } from "./lib/openapi-doc.mjs";
import { writeWorkerSource } from "./lib/worker-source.mjs";

export const WORKER_SOURCE = join(ROOT, ".wrangler", "worker-src");

const doc = await writeDocument();
const written = writeWorkerSource(join(ROOT, "src"), WORKER_SOURCE);
console.log(
  `[worker-build] public/openapi.json: ${Object.keys(doc.paths ?? {}).length} paths; ` +
    `.wrangler/worker-src: ${written} file(s) updated`,
);
