/**
 * The bundle of the back-office page /app (scripts/app-build.mjs, docs/app.md) and how it is
 * served: the files it writes, idempotence, no inline script in the page, the CSP of
 * public/_headers, and the assets layer serving /app before the Worker. The page in a browser is
 * test/browser/app-check.mjs. Run by `npm run test:scripts` (and CI).
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { APP_ASSETS_DIR, buildApp } from "../../scripts/app-build.mjs";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

describe("scripts/app-build.mjs", () => {
  it("writes the page, its script, its stylesheet and icon, and nothing else", async () => {
    const stale = join(APP_ASSETS_DIR, "app-old.js");
    await buildApp();
    writeFileSync(stale, "// from an older build");
    const { bytes } = await buildApp();
    assert.deepEqual(Object.keys(bytes).sort(), ["app.css", "app.js", "favicon.svg", "index.html"]);
    assert.deepEqual(readdirSync(APP_ASSETS_DIR).sort(), Object.keys(bytes).sort());
    assert.equal(existsSync(stale), false);
  });

  it("leaves identical files alone, so a running wrangler dev does not reload", async () => {
    await buildApp();
    const { written } = await buildApp();
    assert.deepEqual(written, []);
  });

  it("gives a page with no inline script or style, loading only from /app/", () => {
    const page = readFileSync(join(APP_ASSETS_DIR, "index.html"), "utf8");
    const urls = [...page.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1]);
    assert.deepEqual(urls, ["/app/favicon.svg", "/app/app.css", "/app/app.js"]);
    assert.doesNotMatch(page, /<script(?![^>]*\bsrc=)[^>]*>/);
    assert.doesNotMatch(page, /<style|\sstyle=|\son[a-z]+=/i);
  });
});

describe("serving /app", () => {
  it("sets a strict CSP on /app and everything under it (public/_headers)", () => {
    const rules = readFileSync(join(ROOT, "public", "_headers"), "utf8")
      .split("\n")
      .filter((line) => !line.startsWith("#"))
      .join("\n");
    for (const path of ["/app", "/app/*"]) {
      const block = new RegExp(`^${path.replace("*", "\\*")}\\n((?:  .+\\n?)+)`, "m").exec(rules);
      assert.ok(block, `no rule for ${path}`);
      const csp = /Content-Security-Policy: (.+)/.exec(block[1] ?? "")?.[1] ?? "";
      for (const directive of [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "connect-src 'self'",
        "frame-ancestors 'none'",
      ]) {
        assert.ok(csp.split("; ").includes(directive), `${path}: ${directive} missing in ${csp}`);
      }
      assert.doesNotMatch(csp, /unsafe|\*|https?:/);
    }
  });

  it("lets the assets layer answer /app before the Worker (wrangler.toml run_worker_first)", () => {
    const toml = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
    const rule = /^run_worker_first = (\[.*\])$/m.exec(toml)?.[1];
    assert.ok(rule);
    const patterns = JSON.parse(rule);
    assert.ok(patterns.includes("!/app") && patterns.includes("!/app/*"), rule);
  });
});
