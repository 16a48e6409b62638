#!/usr/bin/env node
/**
 * Bundles the back-office page `/app` (app/: Preact and Chart.js, docs/app.md) with esbuild into
 * `public/app/` (git-ignored), which wrangler serves as static assets: index.html, favicon.svg,
 * app.js and app.css under fixed names (the assets layer answers with an ETag and
 * `must-revalidate`, so a new build is never served stale). Minified, no source maps; the licence
 * comments of the bundled libraries stay at the end of app.js.
 *
 * Run by npm's predev/prebuild/predeploy/postinstall hooks beside scripts/ui-assets.mjs;
 * idempotent: files already identical are left alone, so a running `wrangler dev` does not
 * reload. `--watch` rebuilds on every change of app/ (for work on the page beside `npm run dev`).
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const APP_SOURCE_DIR = join(ROOT, "app");
export const APP_ASSETS_DIR = join(ROOT, "public", "app");

/** Copied from app/ as they are. */
const STATIC_FILES = ["index.html", "favicon.svg"];

/** @type {import("esbuild").BuildOptions} */
const OPTIONS = {
  entryPoints: { app: join(APP_SOURCE_DIR, "src", "main.tsx") },
  tsconfig: join(APP_SOURCE_DIR, "tsconfig.json"),
  bundle: true,
  minify: true,
  format: "esm",
  // What the page's users run: evergreen browsers of the last two years.
  target: ["chrome110", "firefox115", "safari16"],
  outdir: APP_ASSETS_DIR,
  logLevel: "warning",
};

/**
 * Writes `content` to `public/app/<name>` unless the file already holds it.
 * @param {string} name
 * @param {Uint8Array} content
 * @returns {boolean} whether it was written
 */
function writeIfChanged(name, content) {
  const target = join(APP_ASSETS_DIR, name);
  if (existsSync(target) && readFileSync(target).equals(content)) return false;
  writeFileSync(target, content);
  return true;
}

/**
 * Builds the page once: index.html, app.js, app.css; any other file in public/app/ (from an
 * older build) is removed.
 * @returns {Promise<{ written: string[], bytes: Record<string, number> }>}
 */
export async function buildApp() {
  const result = await esbuild.build({ ...OPTIONS, write: false });
  mkdirSync(APP_ASSETS_DIR, { recursive: true });
  /** @type {{ name: string, content: Uint8Array }[]} */
  const files = [
    ...STATIC_FILES.map((name) => ({ name, content: readFileSync(join(APP_SOURCE_DIR, name)) })),
    ...result.outputFiles.map((file) => ({ name: basename(file.path), content: file.contents })),
  ];
  const written = files.filter((f) => writeIfChanged(f.name, f.content)).map((f) => f.name);
  const keep = new Set(files.map((f) => f.name));
  for (const name of readdirSync(APP_ASSETS_DIR)) {
    if (!keep.has(name)) rmSync(join(APP_ASSETS_DIR, name), { recursive: true, force: true });
  }
  const bytes = Object.fromEntries(files.map((f) => [f.name, f.content.byteLength]));
  return { written, bytes };
}

/** Rebuilds on every change of app/ until interrupted. */
async function watch() {
  await buildApp();
  const context = await esbuild.context({
    ...OPTIONS,
    plugins: [
      {
        name: "report",
        setup(build) {
          build.onEnd((result) => {
            if (result.errors.length === 0) console.log("[app-build] rebuilt public/app");
          });
        },
      },
    ],
  });
  await context.watch();
  console.log("[app-build] watching app/ (Ctrl-C stops)");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes("--watch")) {
    await watch();
  } else {
    const { written, bytes } = await buildApp();
    const sizes = Object.entries(bytes)
      .map(([name, size]) => `${name} ${Math.ceil(size / 1024)} KiB`)
      .join(", ");
    const where = relative(ROOT, APP_ASSETS_DIR);
    console.log(
      written.length
        ? `[app-build] wrote ${written.join(", ")} to ${where} (${sizes})`
        : `[app-build] ${where} is up to date (${sizes})`,
    );
  }
}
