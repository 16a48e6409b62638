#!/usr/bin/env node
/**
 * Browser check of the API reference page `/ui`, in a real Chromium, offline.
 *
 * 1. copies the Swagger UI files into public/ (scripts/ui-assets.mjs), applies the migrations to a
 *    fresh temporary D1 and starts `wrangler dev` on a free loopback port with a test admin key
 *    (`--var API_KEYS:admin:<sha256>`), then creates one channel through the API;
 * 2. opens `/ui` in Debian's Chromium (playwright-core, a fresh profile, headless) and asserts
 *    that every operation of `/doc` (each path + method) is listed, that no request failed or
 *    answered an error, that none left loopback, and that the page logged no error (CSP
 *    violations and script errors included);
 * 3. authorizes with the test key and runs "Try it out" on `GET /v1/api/channel`: the call must
 *    carry the key, answer 200, and the page must show the channel created in step 1;
 * 4. saves screenshots in .screenshots/ (git-ignored): ui.png (the page) and ui-try-it-out.png.
 *
 * Exits 0 when all holds, 1 otherwise. wrangler (its whole process group) and Chromium are
 * stopped and the temporary directories removed in every case; the run is bounded in time.
 *
 * Environment: CHROMIUM (default /usr/bin/chromium), UI_CHECK_TIMEOUT_MS (default 180000).
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { ROOT, WRANGLER_ENV, applyMigrations } from "../../scripts/lib/local-db.mjs";
import { copyUiAssets } from "../../scripts/ui-assets.mjs";

const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const TIMEOUT_MS = Number(process.env.UI_CHECK_TIMEOUT_MS ?? 180_000);
const HOST = "127.0.0.1";
const KEY = "ui-check-admin-key";
const SHOTS = join(ROOT, ".screenshots");
const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];
const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-dev-shm-usage",
  "--disable-quic",
  "--disable-sync",
];

const log = (/** @type {string} */ message) => console.log(`[ui-check] ${message}`);

/** Everything to stop and remove, whatever happens; `closing` once clean-up has begun. */
const cleanup = {
  closing: false,
  /** @type {import("node:child_process").ChildProcess | undefined} */
  wrangler: undefined,
  /** @type {import("playwright-core").BrowserContext | undefined} */
  browser: undefined,
  /** @type {string[]} */
  dirs: [],
};

/** Stops a run that timed out or was interrupted before it starts anything new. */
const notClosing = () => {
  if (cleanup.closing) throw new Error("stopped");
};

/** @returns {Promise<number>} a port that was free on the loopback interface a moment ago */
const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address
          ? resolve(address.port)
          : reject(new Error("no port")),
      );
    });
  });

const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

/**
 * `wrangler dev` in its own process group (so the workerd it starts can be stopped with it).
 * @param {{ port: number, inspectorPort: number, persistTo: string }} options
 */
function startWrangler({ port, inspectorPort, persistTo }) {
  const sha256 = createHash("sha256").update(KEY).digest("hex");
  const args = [
    join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js"),
    "dev",
    "--ip",
    HOST,
    "--port",
    String(port),
    "--inspector-port",
    String(inspectorPort),
    "--persist-to",
    persistTo,
    "--var",
    `API_KEYS:admin:${sha256}`,
    "--show-interactive-dev-session=false",
    "--log-level",
    "warn",
  ];
  notClosing();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...WRANGLER_ENV, CI: "true" },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  cleanup.wrangler = child;
  let output = "";
  const keep = (/** @type {Buffer} */ chunk) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  return { child, output: () => output };
}

/**
 * Waits until `/health` answers 200.
 * @param {string} base
 * @param {import("node:child_process").ChildProcess} child
 * @param {number} ms
 */
async function waitUntilUp(base, child, ms) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `wrangler dev exited early (${child.signalCode ?? `exit ${child.exitCode}`})`,
      );
    }
    try {
      const res = await fetch(`${base}/health`, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error(`wrangler dev did not answer /health within ${ms / 1000} s`);
}

/** Stops the wrangler process group: SIGTERM, then SIGKILL if it lingers. */
async function stopWrangler() {
  const child = cleanup.wrangler;
  cleanup.wrangler = undefined;
  if (!child?.pid) return;
  const group = -child.pid;
  const signalGroup = (/** @type {NodeJS.Signals | 0} */ signal) => {
    try {
      process.kill(group, signal);
      return true;
    } catch {
      return false; // the group is gone
    }
  };
  if (!signalGroup("SIGTERM")) return;
  for (let i = 0; i < 50; i++) {
    await sleep(100);
    if (!signalGroup(0)) return;
  }
  signalGroup("SIGKILL");
}

/** @type {Promise<void> | undefined} */
let cleaningUp;
/** Closes Chromium, stops wrangler, then removes the temporary directories; runs once. */
const cleanUp = () =>
  (cleaningUp ??= (async () => {
    cleanup.closing = true;
    await cleanup.browser?.close().catch(() => {});
    await stopWrangler();
    for (const dir of cleanup.dirs) {
      try {
        rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
      } catch (error) {
        console.error(`[ui-check] could not remove ${dir}: ${error}`);
      }
    }
  })());

/**
 * Every operation of the OpenAPI document as "METHOD path".
 * @param {{ paths?: Record<string, Record<string, unknown>> }} doc
 */
const operationsOf = (doc) =>
  Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m) => `${m.toUpperCase()} ${path}`),
  );

/** @param {string} url */
const isLocal = (url) => {
  const { protocol, hostname } = new URL(url);
  return protocol === "data:" || protocol === "blob:" || hostname === HOST;
};

async function check() {
  const { version, copied } = copyUiAssets();
  log(`swagger-ui-dist ${version}${copied.length ? ` (copied ${copied.join(", ")})` : ""}`);

  const persistTo = mkdtempSync(join(tmpdir(), "ui-check-d1-"));
  const profile = mkdtempSync(join(tmpdir(), "ui-check-chromium-"));
  cleanup.dirs.push(persistTo, profile);
  await applyMigrations(persistTo);

  const [port, inspectorPort] = [await freePort(), await freePort()];
  const base = `http://${HOST}:${port}`;
  log(`starting wrangler dev on ${base}`);
  const wrangler = startWrangler({ port, inspectorPort, persistTo });
  try {
    await waitUntilUp(base, wrangler.child, 60_000);
  } catch (error) {
    console.error(wrangler.output());
    throw error;
  }

  const channelCode = `UI-${Date.now().toString(36).toUpperCase()}`;
  const created = await fetch(`${base}/v1/api/channel`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-webhook-signature": KEY },
    body: JSON.stringify({ code: channelCode, name: "Browser check channel" }),
  });
  if (created.status !== 201) {
    throw new Error(`creating the channel answered ${created.status}: ${await created.text()}`);
  }
  const doc = /** @type {{ paths?: Record<string, Record<string, unknown>> }} */ (
    await (await fetch(`${base}/doc`)).json()
  );
  const expected = operationsOf(doc);
  log(`/doc has ${expected.length} operations`);

  /** @type {string[]} */
  const problems = [];
  notClosing();
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1280, height: 900 },
    serviceWorkers: "block",
    // Signals are ours to handle: Playwright's own handlers would exit before wrangler is stopped.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  cleanup.browser = context;
  if (cleanup.closing) await context.close();
  notClosing();
  // Anything not on loopback is a failure, and is stopped before it reaches the network.
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (isLocal(url)) return route.continue();
    problems.push(`request left loopback: ${route.request().method()} ${url}`);
    return route.abort("blockedbyclient");
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(20_000);
  page.on("requestfailed", (request) => {
    problems.push(
      `request failed: ${request.method()} ${request.url()} (${request.failure()?.errorText})`,
    );
  });
  page.on("response", (response) => {
    if (response.status() >= 300 && response.status() !== 304) {
      problems.push(`${response.status()} for ${response.request().method()} ${response.url()}`);
    }
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console error: ${message.text()}`);
  });

  const pageResponse = await page.goto(`${base}/ui`, { waitUntil: "load" });
  if (pageResponse?.status() !== 200) throw new Error(`/ui answered ${pageResponse?.status()}`);
  await page.locator(".information-container .title").waitFor();
  await page.locator(".opblock").first().waitFor();

  /** @type {string[]} */
  const listed = await page.$$eval(".opblock", (blocks) =>
    blocks.map((block) => {
      const method = block.querySelector(".opblock-summary-method")?.textContent?.trim() ?? "?";
      const path = block.querySelector(".opblock-summary-path")?.getAttribute("data-path") ?? "?";
      return `${method.toUpperCase()} ${path}`;
    }),
  );
  const listedSet = new Set(listed);
  const missing = expected.filter((op) => !listedSet.has(op));
  const extra = [...listedSet].filter((op) => !expected.includes(op));
  if (missing.length) problems.push(`operations of /doc not listed on /ui: ${missing.join(", ")}`);
  if (extra.length) problems.push(`operations on /ui that /doc lacks: ${extra.join(", ")}`);
  log(`/ui lists ${listedSet.size} of the ${expected.length} operations`);

  await page.screenshot({ path: join(SHOTS, "ui.png"), fullPage: true });

  // Authorize with the key (the apiKey scheme on x-webhook-signature).
  await page.locator(".auth-wrapper button.authorize").click();
  const modal = page.locator(".modal-ux");
  await modal.locator("input").first().fill(KEY);
  await modal.locator("button.authorize[type=submit]").click();
  await modal.locator("button.btn-done").click();
  await page.locator(".auth-wrapper button.authorize.locked").waitFor();

  // Try it out: GET /v1/api/channel.
  const operation = page.locator(".opblock.opblock-get", {
    has: page.locator('.opblock-summary-path[data-path="/v1/api/channel"]'),
  });
  await operation.locator(".opblock-summary-control").click();
  await operation.locator("button.try-out__btn").click();
  const [request] = await Promise.all([
    page.waitForRequest(
      (r) => r.method() === "GET" && new URL(r.url()).pathname === "/v1/api/channel",
    ),
    operation.locator("button.execute").click(),
  ]);
  const response = await request.response();
  const sentKey = await request.headerValue("x-webhook-signature");
  if (sentKey !== KEY) problems.push(`try it out sent x-webhook-signature ${sentKey}`);
  if (response?.status() !== 200) problems.push(`try it out answered ${response?.status()}`);

  const live = operation.locator(".live-responses-table");
  await live.waitFor();
  const shownStatus = (
    await live.locator("tr.response .response-col_status").first().innerText()
  ).trim();
  const shownBody = await live
    .locator("tr.response .response-col_description pre")
    .first()
    .innerText();
  if (shownStatus !== "200") problems.push(`the page shows status ${shownStatus}, not 200`);
  if (!shownBody.includes(channelCode)) {
    problems.push(`the page's response body lacks the channel ${channelCode}: ${shownBody}`);
  }
  log(`try it out: GET /v1/api/channel → ${shownStatus}, body shows ${channelCode}`);
  // The call as the page shows it: the curl line (with the key), then the live response.
  await operation
    .locator(".curl-command")
    .evaluate((element) => element.scrollIntoView({ block: "start" }));
  await page.screenshot({ path: join(SHOTS, "ui-try-it-out.png") });

  return problems;
}

async function main() {
  mkdirSync(SHOTS, { recursive: true });
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `no Chromium at ${CHROMIUM}: apt-get install -y --no-install-recommends chromium`,
    );
  }
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`timed out after ${TIMEOUT_MS / 1000} s`)),
      TIMEOUT_MS,
    );
  });
  try {
    const problems = /** @type {string[]} */ (await Promise.race([check(), timeout]));
    if (problems.length) {
      for (const problem of problems) console.error(`[ui-check] FAIL ${problem}`);
      return 1;
    }
    log(`ok: screenshots in ${join(".screenshots", "ui.png")} and ui-try-it-out.png`);
    return 0;
  } finally {
    clearTimeout(timer);
  }
}

for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM", "SIGHUP"])) {
  process.on(signal, () => {
    cleanUp().finally(() => process.exit(130));
  });
}

main()
  .catch((error) => {
    console.error(`[ui-check] FAIL ${error instanceof Error ? error.message : error}`);
    return 1;
  })
  .then(async (code) => {
    await cleanUp();
    process.exit(code);
  });
