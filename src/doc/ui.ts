import { createRouter } from "../http/router";

/**
 * The API reference: Swagger UI over `/doc`, offline. Its files are static assets under
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

/**
 * Everything from this origin; the one inline script runs by a nonce that changes per response,
 * and the page may not be framed.
 */
const contentSecurityPolicy = (nonce: string) =>
  `default-src 'none'; script-src 'self' 'nonce-${nonce}'; style-src 'self' 'unsafe-inline'; ` +
  "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** GET /ui, public: plain routes, not API operations, so /doc does not list them. */
export const apiReference = createRouter()
  .get("/ui", (c) => {
    const nonce = crypto.randomUUID();
    c.header("content-security-policy", contentSecurityPolicy(nonce));
    return c.html(uiPage(nonce));
  })
  .get("/ui/", (c) => c.redirect("/ui", 301));
