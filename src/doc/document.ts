import { OpenAPIHono } from "@hono/zod-openapi";
import { API_KEY_HEADER } from "../http/auth";
import { BOOKMARK_HEADER, CORRELATION_HEADER } from "../http/context";
import type { AppRouter } from "../http/router";
import { RATE_LIMITS } from "../http/rate-limit";
import { tags } from "../resources";
import { declareIdempotencyKeys } from "./idempotency";

/** The introduction of /doc: what holds for every operation. */
const DESCRIPTION = `Prices, pricelists, trade conditions and promotions for B2B storefronts. Money is integer minor units; percentages are basis points.

## Conventions of every response

- \`x-request-id\`: the server's own id of the request (a UUID, new for every request); errors carry it as \`requestId\`, the audit trail files the request's writes under it.
- \`${CORRELATION_HEADER}\`: the \`x-request-id\` you sent, when it is 1-128 visible ASCII characters (absent otherwise): your own reference, recorded beside the server's id in the audit trail as \`correlationId\`.
- \`server-timing\`: the D1 round trips of the request and their time (\`db;desc="2 queries";dur=1.7\`).
- \`${BOOKMARK_HEADER}\`: the D1 session bookmark after this request. Send it back on the next request (same header) to read at least what you have written, also from a read replica; a malformed one is ignored.
- Security headers: \`x-content-type-options: nosniff\`, \`referrer-policy: no-referrer\`, \`x-frame-options: DENY\`, and \`cache-control: no-store\` on every \`/v1/api/\` answer except \`GET /v1/api/prices\`, which sets its own caching.
- Errors are \`application/problem+json\` (RFC 9457) with a stable \`code\`.

## Limits

- Rate limits per API key (by its name; Workers Rate Limiting, counted per Cloudflare location), one for reads (GET calls and price lookups, whatever the key's role) and one for writes: over a limit any \`/v1/api/\` call answers **429** \`RATE_LIMITED\` with \`Retry-After\` (seconds; by default ${RATE_LIMITS.read.defaultPeriod} for reads, ${RATE_LIMITS.admin.defaultPeriod} for writes) and a detail naming the limit.
- Request bodies up to 1 MiB (413 beyond); bulk bodies 1-1000 codes or prices; list pages up to 100 items, searches up to 100 characters.

## Cross-origin calls

None unless the deployment lists origins in \`CORS_ORIGINS\`; those get CORS answers (preflight included), any other origin none.

## Audit trail

Every successful write is recorded, row by row, in the same transaction as the change: \`GET /v1/api/audit\` (admin keys only).`;

/**
 * The OpenAPI 3.1 document of every operation registered on `app`, from its registry, with the
 * API-key scheme they all name. Built under Node at build time (src/openapi.ts,
 * scripts/lib/openapi-doc.mjs) from the route definitions with all their words; the Worker serves
 * the result as it is (./served.ts) and never imports this module (docs/architecture.md §1.2).
 */
export function openApiDocument(app: AppRouter) {
  // The generator, which the Worker leaves out (src/http/router.ts), over the app's routes.
  const generator = new OpenAPIHono();
  const registry = generator.openAPIRegistry;
  for (const route of app.definitions) registry.registerPath({ ...route });
  declareIdempotencyKeys(registry);
  registry.registerComponent("securitySchemes", "apiKey", {
    type: "apiKey",
    in: "header",
    name: API_KEY_HEADER,
    description:
      "An API key. Admin keys may do everything. Read keys read (not the audit trail, the " +
      "pricing lint, the publish simulation, change requests or webhooks), look up prices and " +
      "answer quotes for the buyer; sales keys read as read keys do and write quotes.",
  });
  // OpenAPI 3.1's objects (a license `identifier`), which the 3.0 type of the parameter lacks.
  const config = {
    openapi: "3.1.0",
    info: {
      title: "Edge Pricing Service",
      version: "1.0.0",
      description: DESCRIPTION,
      contact: { name: "Edge Pricing Service maintainers (see CONTRIBUTING.md)" },
      license: { name: "Proprietary, all rights reserved", identifier: "LicenseRef-Proprietary" },
    },
    // Relative: the API is on the origin that serves this document (dev, preview, production).
    servers: [{ url: "/", description: "The origin serving this document" }],
    security: [{ apiKey: [] }],
    // Each resource's group, from the resource registry (src/resources/index.ts), in its order.
    tags,
  };
  return generator.getOpenAPI31Document(config);
}
