#!/usr/bin/env node
/**
 * Copies the Swagger UI files of the API reference page (`/ui`) from the installed
 * `swagger-ui-dist` into `public/ui/swagger-ui/`, which wrangler serves as static assets
 * (`[assets] directory = "public"` in wrangler.toml): the page works offline, with no CDN, and
 * always matches the version in package-lock.json. The copies are git-ignored (public/.gitignore).
 *
 * Run before `wrangler dev` and `wrangler deploy` (npm's predev/prebuild/predeploy hooks);
 * idempotent: files already identical are left alone, so a running `wrangler dev` does not reload.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const UI_ASSETS_DIR = join(ROOT, "public", "ui", "swagger-ui");

/** What the page loads (bundle, stylesheet, icon) and the licence terms that travel with it. */
export const UI_FILES = [
  "swagger-ui-bundle.js",
  "swagger-ui.css",
  "favicon-32x32.png",
  "LICENSE",
  "NOTICE",
];

/**
 * @returns {{ version: string, copied: string[] }} the swagger-ui-dist version and the files written
 */
export function copyUiAssets() {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve("swagger-ui-dist/package.json");
  const source = dirname(manifest);
  /** @type {{ version: string }} */
  const { version } = JSON.parse(readFileSync(manifest, "utf8"));
  mkdirSync(UI_ASSETS_DIR, { recursive: true });
  /** @type {string[]} */
  const copied = [];
  for (const name of UI_FILES) {
    const content = readFileSync(join(source, name));
    const target = join(UI_ASSETS_DIR, name);
    if (existsSync(target) && readFileSync(target).equals(content)) continue;
    writeFileSync(target, content);
    copied.push(name);
  }
  return { version, copied };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { version, copied } = copyUiAssets();
  const where = relative(ROOT, UI_ASSETS_DIR);
  console.log(
    copied.length
      ? `[ui-assets] swagger-ui-dist ${version}: copied ${copied.join(", ")} to ${where}`
      : `[ui-assets] swagger-ui-dist ${version}: ${where} is up to date`,
  );
}
