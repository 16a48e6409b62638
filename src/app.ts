import { bodyLimit } from "hono/body-limit";
import { authenticate } from "./lib/auth";
import { requestContext } from "./lib/context";
import { ApiError, onError } from "./lib/errors";
import { notFoundHandler } from "./lib/not-found";
import { createRouter } from "./lib/router";
import { routers } from "./resources";

export const MAX_BODY_BYTES = 1024 * 1024;

const app = createRouter();

app.use("*", requestContext());
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

app.doc31("/doc", (c) => ({
  openapi: "3.1.0",
  info: {
    title: "Edge Pricing Service",
    version: "1.0.0",
    description:
      "Prices, pricelists, trade conditions and promotions for B2B storefronts. Money is integer minor units; percentages are basis points.",
  },
  servers: [{ url: new URL(c.req.url).origin }],
  security: [{ apiKey: [] }],
}));

app.notFound(notFoundHandler(app as never));

export { app };
