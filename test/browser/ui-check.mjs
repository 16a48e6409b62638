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
import { createHash } from "node:crypto";
import { join } from "node:path";
import { applyMigrations } from "../../scripts/lib/local-db.mjs";
import { copyUiAssets } from "../../scripts/ui-assets.mjs";
import { SHOTS, openBrowser, runCheck, serve, tempDir } from "./harness.mjs";

const TIMEOUT_MS = Number(process.env.UI_CHECK_TIMEOUT_MS ?? 180_000);
const KEY = "ui-check-admin-key";
const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

const log = (/** @type {string} */ message) => console.log(`[ui-check] ${message}`);

/**
 * Every operation of the OpenAPI document as "METHOD path".
 * @param {{ paths?: Record<string, Record<string, unknown>> }} doc
 */
const operationsOf = (doc) =>
  Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m) => `${m.toUpperCase()} ${path}`),
  );

async function check() {
  const { version, copied } = copyUiAssets();
  log(`swagger-ui-dist ${version}${copied.length ? ` (copied ${copied.join(", ")})` : ""}`);

  const persistTo = tempDir("ui-check-d1-");
  await applyMigrations(persistTo);
  const sha256 = createHash("sha256").update(KEY).digest("hex");
  const base = await serve({ persistTo, apiKeys: `admin:${sha256}`, log });

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
  const { page } = await openBrowser(problems);

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

runCheck(
  "ui-check",
  check,
  TIMEOUT_MS,
  `screenshots in ${join(".screenshots", "ui.png")} and ui-try-it-out.png`,
);
