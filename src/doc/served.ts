import { createRouter } from "../http/router";

/** Where the build writes the OpenAPI document among the static assets (public/). */
export const DOCUMENT_ASSET = "/openapi.json";

/**
 * GET /doc: the OpenAPI 3.1 document, as the build generated it from the route definitions under
 * Node (src/openapi.ts, scripts/worker-build.mjs) and wrote to public/openapi.json. The Worker
 * serves that asset as it is: the words of the document (descriptions, examples) and the code
 * that writes it stay out of the Worker bundle (docs/architecture.md §1.2, docs/performance.md
 * "The Worker bundle"). test/platform/doc-served.test.ts holds it against the routes this Worker runs.
 */
export const servedDocument = createRouter().get("/doc", async (c) => {
  const asset = await c.env.ASSETS.fetch(new URL(DOCUMENT_ASSET, c.req.url));
  if (!asset.ok) {
    // A 500 like any unexpected error, logged: the build did not write the document.
    throw new Error(`${DOCUMENT_ASSET} is not among the static assets (${asset.status})`);
  }
  return c.newResponse(asset.body, 200, { "content-type": "application/json" });
});
