import { createRouter } from "../http/router";

/** Where to go from `/`: the pages and the document a newcomer is looking for. */
export const LINKS = {
  app: { href: "/app/", title: "Back office: prices, explained (docs/app.md)" },
  ui: { href: "/ui", title: "API reference: every operation, to try out" },
  doc: { href: "/doc", title: "OpenAPI 3.1 document" },
  health: { href: "/health", title: "Liveness" },
} as const;

const NAME = "Edge Pricing Service";

const page = () => `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${NAME}</title></head>
<body style="font:16px sans-serif;margin:2rem">
<h1>${NAME}</h1>
<ul>
${Object.values(LINKS)
  .map(({ href, title }) => `<li><a href="${href}">${href}</a>: ${title}</li>`)
  .join("\n")}
</ul>
<p>The API is under <code>/v1/api/</code>, with an API key in <code>x-webhook-signature</code>.</p>
</body>
</html>`;

/**
 * GET /, public: a browser gets a page of links, anything else the same links as JSON. A plain
 * route, not an API operation, so /doc does not list it.
 */
export const home = createRouter().get("/", (c) => {
  if (c.req.header("accept")?.includes("text/html")) {
    c.header("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'");
    return c.html(page());
  }
  return c.json({ name: NAME, api: "/v1/api/", links: LINKS });
});
