import { bodyLimit } from "hono/body-limit";
import { operationIndex } from "./lib/audit";
import { authenticate } from "./lib/auth";
import { BOOKMARK_HEADER, requestContext } from "./lib/context";
import { ApiError, onError } from "./lib/errors";
import { notFoundHandler } from "./lib/not-found";
import { RATE_LIMIT_PERIOD_SECONDS, rateLimit } from "./lib/rate-limit";
import { createRouter } from "./lib/router";
import { corsFromEnv, securityHeaders } from "./lib/security";
import { routers } from "./resources";

export const MAX_BODY_BYTES = 1024 * 1024;

const app = createRouter();

/** The audit trail names each write by its route's operationId, read once from the registry. */
let operations: Map<string, string> | undefined;
const operationOf = (method: string, route: string) =>
  (operations ??= operationIndex(app.openAPIRegistry)).get(`${method} ${route}`);

app.use("*", requestContext(operationOf));
app.use("*", securityHeaders());
app.use("*", corsFromEnv());
app.onError(onError);

app.get("/health", (c) => c.json({ status: "ok" }));

/**
 * The API reference: Swagger UI on `/doc`, offline. Its files are static assets under
 * /ui/swagger-ui/ (public/, copied from swagger-ui-dist by scripts/ui-assets.mjs); the CSP keeps
 * every load and call on this origin, so a pasted key goes nowhere else.
 */
const uiPage = (nonce: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Edge Pricing Service · API reference</title>
<link rel="icon" type="image/png" href="/ui/swagger-ui/favicon-32x32.png">
<link rel="stylesheet" href="/ui/swagger-ui/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"><p style="font:16px sans-serif;margin:2rem">Loading the API reference&hellip;
If this stays, the Swagger UI files are missing: run <code>node scripts/ui-assets.mjs</code>.
The OpenAPI document is at <a href="/doc">/doc</a>.</p></div>
<script src="/ui/swagger-ui/swagger-ui-bundle.js"></script>
<script nonce="${nonce}">
window.ui = SwaggerUIBundle({
  url: "/doc",
  dom_id: "#swagger-ui",
  deepLinking: true,
  docExpansion: "list",
  defaultModelsExpandDepth: 0,
  displayOperationId: true,
  displayRequestDuration: true,
  filter: true,
  validatorUrl: null,
});
</script>
</body>
</html>`;

app.get("/ui", (c) => {
  const nonce = crypto.randomUUID();
  c.header(
    "content-security-policy",
    `default-src 'none'; script-src 'self' 'nonce-${nonce}'; style-src 'self' 'unsafe-inline'; ` +
      "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; " +
      "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  );
  return c.html(uiPage(nonce));
});
app.get("/ui/", (c) => c.redirect("/ui", 301));

app.use("/v1/api/*", authenticate());
app.use("/v1/api/*", rateLimit());
app.use(
  "/v1/api/*",
  bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw new ApiError(413, "PAYLOAD_TOO_LARGE", "the request body is larger than 1 MiB");
    },
  }),
);

for (const router of routers) app.route("/", router);

app.openAPIRegistry.registerComponent("securitySchemes", "apiKey", {
  type: "apiKey",
  in: "header",
  name: "x-webhook-signature",
  description: "An API key. Admin keys may do everything; read keys only GET and the price lookup.",
});

const DOC_DESCRIPTION = `Prices, pricelists, trade conditions and promotions for B2B storefronts. Money is integer minor units; percentages are basis points.

## Conventions of every response

- \`x-request-id\`: the incoming one when it is 1-128 visible ASCII characters, else a new one; errors carry it as \`requestId\`.
- \`server-timing\`: the D1 round trips of the request and their time (\`db;desc="2 queries";dur=1.7\`).
- \`${BOOKMARK_HEADER}\`: the D1 session bookmark after this request. Send it back on the next request (same header) to read at least what you have written, also from a read replica; a malformed one is ignored.
- Security headers: \`x-content-type-options: nosniff\`, \`referrer-policy: no-referrer\`, \`x-frame-options: DENY\`, and \`cache-control: no-store\` on every \`/v1/api/\` answer except \`GET /v1/api/prices\`, which sets its own caching.
- Errors are \`application/problem+json\` (RFC 9457) with a stable \`code\`.

## Limits

- Rate limit per API key (by its name; Workers Rate Limiting, counted per Cloudflare location): over the limit any \`/v1/api/\` call answers **429** \`RATE_LIMITED\` with \`Retry-After: ${RATE_LIMIT_PERIOD_SECONDS}\` (seconds).
- Request bodies up to 1 MiB (413 beyond); bulk bodies 1-1000 codes or prices; list pages up to 100 items, searches up to 100 characters.

## Cross-origin calls

None unless the deployment lists origins in \`CORS_ORIGINS\`; those get CORS answers (preflight included), any other origin none.

## Audit trail

Every successful write is recorded, row by row, in the same transaction as the change: \`GET /v1/api/audit\` (admin keys only).`;

/** Tag groups of /doc, in the order the API reference shows them. */
const DOC_TAGS = [
  {
    name: "Prices",
    description:
      "What a customer pays: a cart (POST /v1/api/prices/resolve) or product pages (GET /v1/api/prices)",
  },
  {
    name: "Products",
    description: "The catalogue that pricelists, conditions and promotions name by code",
  },
  {
    name: "Channels",
    description: "Where prices are asked for; each has pricelists, one of them primary",
  },
  {
    name: "Customers",
    description: "Business customers: their groups, channels, pricelists and trade conditions",
  },
  {
    name: "Customer groups",
    description: "Groups of customers that pricelists, trade conditions and promotions target",
  },
  {
    name: "Pricelists",
    description:
      "Unit prices per product and quantity tier, GENERAL or INDIVIDUAL; DRAFT → ACTIVE ⇄ INACTIVE, any → ARCHIVED",
  },
  {
    name: "Trade conditions",
    description: "Negotiated discounts, surcharges and net prices by scope",
  },
  {
    name: "Promotions",
    description: "Time-limited reductions by product, channel and customer group",
  },
  { name: "Audit", description: "Who changed what and when (admin keys only)" },
];

app.doc31("/doc", () => ({
  openapi: "3.1.0",
  info: {
    title: "Edge Pricing Service",
    version: "1.0.0",
    description: DOC_DESCRIPTION,
    contact: { name: "Edge Pricing Service maintainers (see CONTRIBUTING.md)" },
    license: { name: "Proprietary, all rights reserved", identifier: "LicenseRef-Proprietary" },
  },
  // Relative: the API is on the origin that serves this document (dev, preview, production).
  servers: [{ url: "/", description: "The origin serving this document" }],
  security: [{ apiKey: [] }],
  tags: DOC_TAGS,
}));

app.notFound(notFoundHandler(app as never));

export { app };
