import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { api, expectProblem } from "../shared/helpers";

/**
 * The Worker's side of the API reference page. The page itself, in Chromium against
 * `wrangler dev` with the static assets, is checked by test/browser/ui-check.mjs.
 */
describe("API reference page /ui", () => {
  it("is public HTML that loads Swagger UI from this origin only, pointed at /doc", async () => {
    const res = await api("GET", "/ui", { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const page = res.body as string;
    expect(page).toContain('<script src="/ui/swagger-ui/swagger-ui-bundle.js"></script>');
    expect(page).toContain('<link rel="stylesheet" href="/ui/swagger-ui/swagger-ui.css">');
    expect(page).toContain('url: "/doc"');
    expect(page).toContain("validatorUrl: null"); // no badge fetched from validator.swagger.io
    // Nothing is loaded from elsewhere: every src/href is a path on this origin.
    const urls = [...page.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1]);
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(url).toMatch(/^\/(?!\/)/);
    expect(page).not.toMatch(/https?:\/\//);
  });

  it("pins loads and calls to this origin with a CSP whose nonce changes per response", async () => {
    const nonces: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await api("GET", "/ui", { key: null });
      const csp = res.headers.get("content-security-policy") ?? "";
      for (const directive of [
        "default-src 'none'",
        "connect-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "frame-ancestors 'none'",
      ]) {
        expect(csp).toContain(directive);
      }
      const nonce = /script-src 'self' 'nonce-([0-9a-f-]{36})'/.exec(csp)?.[1];
      expect(nonce).toBeDefined();
      expect(res.body).toContain(`<script nonce="${nonce}">`);
      nonces.push(nonce!);
    }
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  it("redirects /ui/ to /ui", async () => {
    const res = await exports.default.fetch(
      new Request("http://pricing.test/ui/", { redirect: "manual" }),
    );
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe("/ui");
  });

  it("is not an API operation: absent from /doc, and other methods get 405", async () => {
    const doc = await api("GET", "/doc", { key: null });
    expect(Object.keys(doc.body.paths)).not.toContain("/ui");
    const res = expectProblem(await api("POST", "/ui", { key: null }), 405, "METHOD_NOT_ALLOWED");
    expect(res.detail).toContain("/ui");
  });
});
