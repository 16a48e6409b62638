/**
 * The OpenAPI document of the Worker's app, for the build (not the Worker): scripts/worker-build.mjs
 * (wrangler.toml `[build]`), vitest.config.ts and scripts/lib/openapi-doc.mjs bundle this module
 * for Node and write what it returns to public/openapi.json, which the Worker serves at GET /doc
 * (src/doc/served.ts). The routes are the very ones `app` runs, with their descriptions and
 * examples, which the Worker's own copy leaves out (scripts/lib/worker-source.mjs;
 * docs/architecture.md §1.2).
 */
import { app } from "./app";
import { openApiDocument } from "./doc/document";

export const document = () => openApiDocument(app);
