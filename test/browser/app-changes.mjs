/**
 * The Changes page of `/app` in the browser check (app-check.mjs, docs/app.md §9): worked example A
 * of the pricing rules' third edition (docs/pricing-rules.md §18) driven through the page with two
 * keys, pasted price rows, and the demo's change requests in the list.
 *
 * - The data of example A (channel WEB, primary PL-1 with P-1 500, P-2 1000 and 900 from 10, both
 *   in group G) and the policy { 200, 0 } are written through the API; the demo's two change
 *   requests are added as `npm run dev` adds them.
 * - Signed in with the dev admin key (the author): the list shows the demo's requests; the mass
 *   adjustment form makes "2027 increase" (G, +3 %, up to a step of 0.10 ending 0.09, from
 *   2027-01-01); submitted, the page shows PENDING_APPROVAL, the impact's figures as the API
 *   stores them and as example A says (2 prices, +3.9 %, 0 %, 15.00 → 15.58), its margin over a
 *   COST list on WEB (P-1 4.00, P-2 7.00: 4.00 (26.67 %) on 15.00 → 4.58 (29.4 %) on 15.58), the
 *   histogram, and the sentence that this key may not approve it, with the approve button
 *   disabled.
 * - Pasted price rows (a header line, a tab, a semicolon and a decimal comma) make a SET_PRICES
 *   draft whose rows the page lists; it is withdrawn.
 * - Signed in with the second admin key (approver): no such sentence; approve → APPLIED, approved
 *   by approver; the lookups then answer example A's prices before and from the date.
 */
import { join } from "node:path";
import { addDemoChangeRequests } from "../../scripts/lib/demo-change-requests.mjs";
import { DEV_KEYS } from "../../scripts/lib/dev-keys.mjs";
import { SHOTS } from "./harness.mjs";

const AUTHOR = DEV_KEYS.admin;
const APPROVER = DEV_KEYS.approver;

/**
 * Calls the API with `key`; throws on an answer ≥ 300.
 * @param {string} base
 * @param {string} key
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
async function call(base, key, method, path, body) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { "x-webhook-signature": key, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/**
 * Example A's records and the policy that sends its request to a second key; the demo's
 * change requests. Answers PL-1's id.
 * @param {string} base
 */
async function prepare(base) {
  /** @type {(method: string, path: string, body?: unknown) => Promise<any>} */
  const as = (method, path, body) => call(base, AUTHOR, method, path, body);
  await as("POST", "/v1/api/product-group", { code: "G", name: "Example A group" });
  for (const code of ["P-1", "P-2"]) {
    await as("POST", "/v1/api/product", { code, name: `Example A ${code}`, productGroupCode: "G" });
  }
  const list = await as("POST", "/v1/api/pricelist", {
    name: "PL-1",
    currency: "EUR",
    status: "ACTIVE",
  });
  await as("POST", "/v1/api/channel", { code: "WEB", name: "Example A web shop" });
  await as("PUT", "/v1/api/channel/WEB/pricelist/primary", { pricelistId: list.id });
  await as("PUT", `/v1/api/pricelist/${list.id}/prices`, {
    prices: [
      { productCode: "P-1", amount: 500 },
      { productCode: "P-2", amount: 1000 },
      { productCode: "P-2", minQuantity: 10, amount: 900 },
    ],
  });
  // A COST list on WEB (P-1 400, P-2 700), so that the impact has a margin, over P-1 at 1, P-2 at 1
  // and P-2 at 10 (the tier the request touches): 2400 on 10500 → 2748 on 10848.
  const cost = await as("POST", "/v1/api/pricelist", {
    name: "Example A cost",
    currency: "EUR",
    kind: "COST",
    status: "ACTIVE",
  });
  await as("PUT", `/v1/api/pricelist/${cost.id}/prices`, {
    prices: [
      { productCode: "P-1", amount: 400 },
      { productCode: "P-2", amount: 700 },
    ],
  });
  await as("POST", "/v1/api/channel/WEB/pricelist", { pricelistId: cost.id });
  // Setting limits where there were none is a loosening: the approver's owner approves it (§17.4).
  const policy = { autoApproveMaxRaiseBp: 200, autoApproveMaxCutBp: 0 };
  await as("PUT", "/v1/api/change-requests/policy", policy);
  await call(base, APPROVER, "POST", "/v1/api/change-requests/policy/approve", policy);
  /** @type {import("../../scripts/lib/demo-change-requests.mjs").Call} */
  const demoCall = async (method, path, body, key) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { "x-webhook-signature": key, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
  const demo = await addDemoChangeRequests(
    demoCall,
    { author: AUTHOR, approver: APPROVER },
    Date.now(),
  );
  return { pricelistId: /** @type {number} */ (list.id), demo };
}

/**
 * Signs the tab out and in again with `key`.
 * @param {import("playwright-core").Page} page
 * @param {string} key
 */
async function signInAs(page, key) {
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.getByLabel("API key").fill(key);
  await page.getByLabel("API key").press("Enter");
  await page.getByRole("navigation", { name: "Pages" }).waitFor();
}

/**
 * A figure of the request page (`dd` or `td` with `data-field`), as text.
 * @param {import("playwright-core").Page} page
 * @param {string} field
 */
const figure = (page, field) => page.locator(`[data-field="${field}"]`).first().innerText();

/**
 * The list with the demo's two requests: their statuses as the API has them.
 * @param {import("playwright-core").Page} page
 * @param {{ approved: { id: number }, pending: { id: number } }} demo
 */
async function checkList(page, demo) {
  /** @type {string[]} */
  const problems = [];
  await page.getByRole("link", { name: "Changes", exact: true }).click();
  const table = page.locator("table.change-requests");
  await table.waitFor();
  const status = (/** @type {number} */ id) =>
    table.locator(`tr[data-id="${id}"] td[data-field="status"]`).innerText();
  const approved = await status(demo.approved.id);
  const pending = await status(demo.pending.id);
  if (!approved.startsWith("Applied")) problems.push(`demo's approved request shows "${approved}"`);
  if (!pending.startsWith("Waiting for approval") || !pending.includes("another admin key")) {
    problems.push(`demo's pending request, written by this key, shows "${pending}"`);
  }
  const policy = await figure(page, "policy");
  if (!policy.includes("at most 2%") || !policy.includes("at most 0%")) {
    problems.push(`the policy line says "${policy}"`);
  }
  return problems;
}

/**
 * The mass adjustment form filled in with example A's request, created and submitted.
 * @param {import("playwright-core").Page} page
 * @param {number} pricelistId
 */
async function createExampleA(page, pricelistId) {
  await page.getByRole("link", { name: "New mass adjustment" }).click();
  await page.getByLabel("Title").fill("2027 increase");
  await page.getByLabel("Pricelist").selectOption(String(pricelistId));
  const effective = page.getByLabel("Effective from (UTC)");
  // ISO 8601, 24-hour, UTC: the first of next month at 00:00, not the browser's "12:00 AM".
  const start = await effective.inputValue();
  if (!/^\d{4}-\d{2}-01 00:00$/.test(start)) throw new Error(`the effective date shows ${start}`);
  await effective.fill("2027-01-01 00:00");
  // The product groups are picked from the existing ones: typed, Enter adds it as a chip.
  await page.getByLabel("Product groups").fill("G");
  await page.getByLabel("Product groups").press("Enter");
  await page.getByRole("button", { name: "Remove product group G" }).waitFor();
  await page.getByLabel("Change in percent").fill("3");
  // Rounding "None" empties and disables the step and the ending; a mode suggests them again.
  const rounding = page.getByLabel("Rounding", { exact: true });
  await rounding.selectOption("UP");
  await rounding.selectOption("");
  for (const field of [page.getByLabel(/^Rounding step/), page.getByLabel(/^Price ending/)]) {
    if ((await field.inputValue()) !== "" || !(await field.isDisabled())) {
      throw new Error("with rounding None, the step or the ending stays filled or enabled");
    }
  }
  await rounding.selectOption("UP");
  await page.getByLabel(/^Rounding step/).fill("0.10");
  await page.getByLabel(/^Price ending/).fill("0.09");
  await page.getByRole("button", { name: "Create draft" }).click();
  await page.getByRole("heading", { name: /^Change request \d+: 2027 increase$/ }).waitFor();
  const id = Number(/#\/changes\/(\d+)$/.exec(page.url())?.[1]);
  await page.getByRole("button", { name: "Submit for approval" }).click();
  await page.locator('[data-field="status"]', { hasText: "Waiting for approval" }).waitFor();
  return id;
}

/**
 * The submitted request on the author's page: status, impact and the self-approval sentence.
 * @param {import("playwright-core").Page} page
 * @param {string} base
 * @param {number} id
 * @param {(text: string) => number} money
 */
async function checkPending(page, base, id, money) {
  /** @type {string[]} */
  const problems = [];
  const stored = await call(base, AUTHOR, "GET", `/v1/api/change-requests/${id}`);
  if (stored.status !== "PENDING_APPROVAL") problems.push(`the API has it ${stored.status}`);
  const impact = stored.impact;
  // Worked example A: anonymous in WEB, P-1 +380 bp, P-2 +390 bp, P-2's 10+ tier 900 → 929
  // (+322 bp); 500 + 1000 + 900 → 519 + 1039 + 929 (docs/api/change-requests.md §17.3).
  const expected = { pricesCompared: 3, pricesChanged: 3, maxRaiseBp: 390, maxCutBp: 0 };
  for (const [field, value] of Object.entries(expected)) {
    if (impact?.[field] !== value)
      problems.push(`impact.${field}: API ${impact?.[field]}, A ${value}`);
  }
  const shown = {
    pricesCompared: Number(await figure(page, "pricesCompared")),
    pricesChanged: Number(await figure(page, "pricesChanged")),
    maxRaiseBp: await figure(page, "maxRaiseBp"),
    maxCutBp: await figure(page, "maxCutBp"),
    totalBefore: money(await figure(page, "totalBefore")),
    totalAfter: money(await figure(page, "totalAfter")),
  };
  const wanted = {
    pricesCompared: 3,
    pricesChanged: 3,
    maxRaiseBp: "+3.9%",
    maxCutBp: "0%",
    totalBefore: 2400,
    totalAfter: 2487,
  };
  if (JSON.stringify(shown) !== JSON.stringify(wanted)) {
    problems.push(
      `impact on the page ${JSON.stringify(shown)}, expected ${JSON.stringify(wanted)}`,
    );
  }
  // The margin as the API stores it and as the COST list makes it, over the lines' amounts (P-2 at
  // 10 is 10 pieces): 24.00 (22.86 %) on 105.00, then 27.48 (25.33 %) on 108.48.
  const margin = impact?.margin;
  const wantedMargin = {
    before: { revenueAmount: 10500, costAmount: 8100, marginAmount: 2400, marginBp: 2286 },
    after: { revenueAmount: 10848, costAmount: 8100, marginAmount: 2748, marginBp: 2533 },
  };
  for (const side of /** @type {const} */ (["before", "after"])) {
    for (const [field, value] of Object.entries(wantedMargin[side])) {
      if (margin?.[side]?.[field] !== value)
        problems.push(`impact.margin.${side}.${field}: API ${margin?.[side]?.[field]}, ${value}`);
    }
  }
  const marginShown = {
    before: await figure(page, "marginBefore"),
    after: await figure(page, "marginAfter"),
  };
  /** @param {string} text */
  const marginOf = (text) => {
    const [amount, rest] = text.split(" (");
    const [bp, revenue] = (rest ?? "").split(") on ");
    return { amount: money(amount ?? ""), bp, revenue: money(revenue ?? "") };
  };
  const marginWanted = {
    before: { amount: 2400, bp: "22.86%", revenue: 10500 },
    after: { amount: 2748, bp: "25.33%", revenue: 10848 },
  };
  const marginRead = { before: marginOf(marginShown.before), after: marginOf(marginShown.after) };
  if (JSON.stringify(marginRead) !== JSON.stringify(marginWanted)) {
    problems.push(
      `impact margin on the page ${JSON.stringify(marginShown)}, expected ${JSON.stringify(marginWanted)}`,
    );
  }
  if ((await page.locator('canvas[aria-label^="Histogram"]').count()) !== 1) {
    problems.push("no histogram of the impact");
  }
  const sentence = await figure(page, "selfApproval");
  if (!sentence.includes("You cannot approve this request")) {
    problems.push(`no self-approval sentence for the author: "${sentence}"`);
  }
  const approve = page.getByRole("button", { name: "Approve and apply" });
  if (!(await approve.isDisabled())) problems.push("the author's approve button is enabled");
  if ((await approve.getAttribute("aria-describedby")) !== "self-approval") {
    problems.push("the disabled approve button is not described by the sentence");
  }
  return problems;
}

/**
 * Pasted rows (a header, a tab, a semicolon, a decimal comma) → a SET_PRICES draft, withdrawn.
 * @param {import("playwright-core").Page} page
 * @param {number} pricelistId
 * @param {(text: string) => number} money
 */
async function checkPastedRows(page, pricelistId, money) {
  /** @type {string[]} */
  const problems = [];
  await page.getByRole("link", { name: "Changes", exact: true }).click();
  await page.getByRole("link", { name: "New price rows" }).click();
  await page.getByLabel("Title").fill("Two new prices");
  await page.getByLabel("Pricelist").selectOption(String(pricelistId));
  await page.getByLabel("Price rows").fill("product;quantity;price\nP-1\t5.49\nP-2;10;8,99");
  const read = await page.locator("#rows-read").innerText();
  if (read !== "2 row(s) read.") problems.push(`the form read the pasted rows as "${read}"`);
  await page.getByRole("button", { name: "Create draft" }).click();
  await page.getByRole("heading", { name: /^Change request \d+: Two new prices$/ }).waitFor();
  // The rows show once the list's currency is known.
  await page.locator("table.rows tbody tr").first().waitFor();
  const cells = await page
    .locator("table.rows tbody tr")
    .evaluateAll((rows) => rows.map((r) => /** @type {any} */ (r).innerText));
  const rows = cells.map((text) => {
    const [code, quantity, price] = String(text).split("\t");
    return `${code} ${quantity} ${money(/** @type {string} */ (price))}`;
  });
  if (rows.join(", ") !== "P-1 1 549, P-2 10 899") {
    problems.push(`the draft's rows on the page: ${rows.join(", ")}`);
  }
  await page.getByRole("button", { name: "Withdraw" }).click();
  await page.locator('[data-field="status"]', { hasText: "Cancelled" }).waitFor();
  return problems;
}

/**
 * The approver's page: no sentence, approve applies it; then the prices of example A.
 * @param {import("playwright-core").Page} page
 * @param {string} base
 * @param {number} id
 */
async function checkApproval(page, base, id) {
  /** @type {string[]} */
  const problems = [];
  await signInAs(page, APPROVER);
  await page.getByRole("link", { name: "Changes", exact: true }).click();
  await page.getByRole("link", { name: `${id} · 2027 increase` }).click();
  await page.getByRole("button", { name: "Approve and apply" }).waitFor();
  if ((await page.locator('[data-field="selfApproval"]').count()) !== 0) {
    problems.push("the approver is told it may not approve");
  }
  await page.getByRole("button", { name: "Approve and apply" }).click();
  await page.locator('[data-field="status"]', { hasText: "Applied" }).waitFor();
  const approvedBy = await figure(page, "approvedBy");
  if (approvedBy !== "approver") problems.push(`approved by "${approvedBy}" on the page`);
  await page.screenshot({ path: join(SHOTS, "app-changes.png"), fullPage: true });
  /** @type {(at: string, lines: object[]) => Promise<any>} */
  const resolve = (at, lines) =>
    call(base, DEV_KEYS.read, "POST", "/v1/api/prices/resolve", { channelCode: "WEB", at, lines });
  const before = await resolve("2026-12-31T23:59:59Z", [{ productCode: "P-1", quantity: 1 }]);
  const from = await resolve("2027-01-01T00:00:00Z", [
    { productCode: "P-1", quantity: 1 },
    { productCode: "P-2", quantity: 1 },
    { productCode: "P-2", quantity: 10 },
  ]);
  const prices = [before, from].flatMap((a) =>
    a.lines.map((/** @type {any} */ l) => l.finalUnitAmount),
  );
  if (prices.join() !== "500,519,1039,929" || before.validUntil !== "2027-01-01T00:00:00.000Z") {
    problems.push(`prices after the approval: ${prices} (validUntil ${before.validUntil})`);
  }
  return problems;
}

/**
 * Problems with the Changes page (see the head of this file). Starts signed in with the dev
 * admin key and ends signed in with the approver key.
 * @param {import("playwright-core").Page} page
 * @param {string} base
 * @param {(text: string) => number} money EUR as the page shows it, in minor units
 * @param {(message: string) => void} log
 */
export async function checkChanges(page, base, money, log) {
  const { pricelistId, demo } = await prepare(base);
  const problems = await checkList(page, demo);
  const id = await createExampleA(page, pricelistId);
  problems.push(...(await checkPending(page, base, id, money)));
  await page.screenshot({ path: join(SHOTS, "app-changes-pending.png"), fullPage: true });
  problems.push(...(await checkPastedRows(page, pricelistId, money)));
  problems.push(...(await checkApproval(page, base, id)));
  log(`changes: example A (request ${id}) submitted by the author, approved by the approver`);
  return problems;
}
