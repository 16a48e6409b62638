/**
 * The Quotes page of `/app` in the browser check (app-check.mjs, docs/app.md §13): worked example
 * F of the pricing rules' fourth edition (docs/pricing-rules.md §27) driven through the page with a
 * rep's and a manager's sales key.
 *
 * - Example F's records and quote policy are written through the API with the dev admin key
 *   (scripts/lib/demo-quotes.mjs), with codes of their own (the demo has a P-B, the Changes check
 *   a WEB): channel WEB-F, customer K-1, product P-B-F.
 * - Signed in with the dev sales key of rep-1 (`dev-rep-key`): the navigation offers Quotes and says what a sales key is;
 *   the new quote's form prices P-B-F × 60 as it is typed (regular 3.91 and the cut of 3.50,
 *   10.49 %, before anything is written; the margin "on save"); created, the line shows regular
 *   391, floor 320, cut 1049 bp and margin 1428 bp as the API stores them, and no cost. Typing
 *   3.40 shows the cut 13.05 % at once and the margin "on save"; back at 3.50 the engine's margin
 *   again. Submitted: PENDING_APPROVAL, tier MANAGER, and why (P-B-F's cut and margin); no
 *   approve or reject button, and the sentence that the author may not approve.
 * - Signed in with the dev admin key (which reads the quote policy): the exact why, "Beyond tier
 *   REP (cut at most 5%, margin at least 20%): P-B-F: cut 10.49% over 5%, margin 14.28% under
 *   20%.", and the line's cost.
 * - Signed in with the manager's (`dev-manager-key`): approve → APPROVED by manager.
 * - rep-1 again: send → SENT; the list filtered by status shows it.
 * - Signed in with the read key later (app-check.mjs): the quote without margin and without
 *   actions, no floor, and why (checkQuotesReadKey).
 */
import { join } from "node:path";
import { DEV_KEYS, DEV_OWNERS } from "../../scripts/lib/dev-keys.mjs";
import { seedExampleF } from "../../scripts/lib/demo-quotes.mjs";
import { WORKED_EXAMPLE_F as EXAMPLE_F } from "../../scripts/lib/worked-examples.mjs";
import { SHOTS } from "./harness.mjs";

/** The codes of example F in this check. */
export const CODES = { channel: "WEB-F", customer: "K-1", product: "P-B-F" };

/**
 * The two sales keys of `npm run dev` (scripts/lib/dev-keys.mjs): owners rep-1 and manager, as
 * example F's policy names them (a tier's approvers are key owners); each key's name is its owner.
 */
export const SALES_KEYS = {
  rep: { key: DEV_KEYS.rep, name: DEV_OWNERS.rep },
  manager: { key: DEV_KEYS.manager, name: DEV_OWNERS.manager },
};

/**
 * Calls the API with `key`: its status and body.
 * @param {string} base
 * @returns {(method: string, path: string, body: unknown, key: string) => Promise<{ status: number, body: any }>}
 */
const caller = (base) => async (method, path, body, key) => {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { "x-webhook-signature": key, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
};

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
 * Opens `hash` in the tab.
 * @param {import("playwright-core").Page} page
 * @param {string} hash
 */
const open = (page, hash) =>
  page.evaluate((h) => {
    /** @type {any} */ (globalThis).location.hash = h;
  }, hash);

/**
 * The cells of the product's line, as text.
 * @param {import("playwright-core").Page} page
 */
async function lineCells(page) {
  const row = page.locator(`table.quote-lines tr[data-product="${CODES.product}"]`);
  const text = async (/** @type {string} */ field) =>
    (await row.locator(`[data-field="${field}"]`).innerText()).trim();
  return {
    regular: await text("regular"),
    floor: await text("floor"),
    cut: await text("cut"),
    margin: await text("margin"),
    cost: String(await row.locator('[data-field="cost"]').count()),
  };
}

/**
 * Waits until the line's `field` cell reads `text`.
 * @param {import("playwright-core").Page} page
 * @param {string} field
 * @param {string} text
 */
const cellReads = (page, field, text) =>
  page
    .locator(`table.quote-lines tr[data-product="${CODES.product}"] [data-field="${field}"]`, {
      hasText: text,
    })
    .waitFor();

/**
 * Problems with example F through the Quotes page; the quote's id.
 * @param {import("playwright-core").Page} page
 * @param {string} base
 * @param {(text: string) => number} money reads an amount of the page as minor units
 * @param {(message: string) => void} log
 * @returns {Promise<{ problems: string[], id: number }>}
 */
export async function checkQuotes(page, base, money, log) {
  /** @type {string[]} */
  const problems = [];
  const call = caller(base);
  await seedExampleF(call, DEV_KEYS.admin, CODES, "app check");
  const { first } = EXAMPLE_F.quoted;
  const bp = (/** @type {number} */ n) => `${(n / 100).toFixed(2)}%`;

  // rep-1: the form, priced as it is typed.
  await signInAs(page, SALES_KEYS.rep.key);
  const note = await page.locator("#key-note").innerText();
  if (!note.includes("sales key")) problems.push(`sales key: the note says "${note}"`);
  await page
    .getByRole("navigation", { name: "Pages" })
    .getByRole("link", { name: "Quotes" })
    .click();
  await page.getByRole("heading", { name: "Quotes", exact: true }).waitFor();
  await page.getByRole("link", { name: "New quote" }).click();
  await page.getByRole("heading", { name: "New quote" }).waitFor();
  await page.getByLabel("Channel").selectOption(CODES.channel);
  await page.getByLabel("Customer").fill(CODES.customer);
  await page.getByLabel("Line 1 product").fill(CODES.product);
  await page.getByLabel("Line 1 quantity").fill(String(EXAMPLE_F.quantity));
  await cellReads(page, "regular", "3.91");
  await page.getByLabel("Line 1 quoted price").fill("3.50");
  await cellReads(page, "cut", bp(first.cutBp));
  const typed = await lineCells(page);
  if (money(typed.regular) !== EXAMPLE_F.prices.sales || typed.margin !== "on save") {
    problems.push(`before saving the line reads ${JSON.stringify(typed)}`);
  }
  await page.getByRole("button", { name: "Create draft" }).click();
  await page.getByRole("heading", { name: /^Quote \d+: K-1$/ }).waitFor();
  const id = Number(/#\/quotes\/(\d+)$/.exec(page.url())?.[1]);
  await cellReads(page, "margin", bp(first.marginBp));
  const created = await lineCells(page);
  const shown = {
    regular: money(created.regular),
    floor: money(created.floor),
    cut: created.cut,
    margin: created.margin,
    cost: created.cost,
  };
  const expected = {
    regular: EXAMPLE_F.prices.sales,
    floor: EXAMPLE_F.prices.floor,
    cut: bp(first.cutBp),
    margin: bp(first.marginBp),
    cost: "0",
  };
  if (JSON.stringify(shown) !== JSON.stringify(expected)) {
    problems.push(
      `the created line reads ${JSON.stringify(shown)}, not ${JSON.stringify(expected)}`,
    );
  }
  const stored = (await call("GET", `/v1/api/quotes/${id}`, undefined, SALES_KEYS.rep.key)).body;
  const line = stored.lines[0];
  if (
    line.regularUnitAmount !== shown.regular ||
    line.floorUnitAmount !== shown.floor ||
    bp(line.cutBp) !== shown.cut ||
    bp(line.marginBp) !== shown.margin ||
    "costUnitAmount" in line
  ) {
    problems.push(`the API stores ${JSON.stringify(line)} for what the page shows`);
  }
  log(`rep-1 created quote ${id}: 391 / 320 / cut ${shown.cut} / margin ${shown.margin}`);

  // Typing another price: the cut at once, the margin on save; back to 3.50: the engine's again.
  const price = page.getByLabel("Line 1 quoted price");
  await price.fill("3.40");
  await cellReads(page, "cut", bp(EXAMPLE_F.quoted.manager.cutBp));
  await cellReads(page, "margin", "on save");
  await price.fill("3.50");
  await cellReads(page, "margin", bp(first.marginBp));
  await page.locator('[data-field="saved"]').waitFor();

  // Submit: MANAGER, and why.
  await page.getByRole("button", { name: "Submit for approval" }).click();
  await page.locator('[data-field="status"]', { hasText: "Waiting for approval" }).waitFor();
  const tier = await page.locator('[data-field="tier"]').innerText();
  const why = await page.locator('[data-field="tierWhy"]').innerText();
  if (!tier.includes("Needs tier MANAGER")) problems.push(`after submit the tier reads "${tier}"`);
  for (const fact of [CODES.product, bp(first.cutBp), bp(first.marginBp), "before MANAGER"]) {
    if (!why.includes(fact)) problems.push(`the why of the tier lacks "${fact}": "${why}"`);
  }
  const absent = await page.locator('[data-field="absent"]').innerText();
  const approveButtons = await page.getByRole("button", { name: /^(Approve|Reject)$/ }).count();
  if (approveButtons || !absent.includes("You cannot approve or reject it: you wrote it")) {
    problems.push(`the author is offered ${approveButtons} approve/reject, and told "${absent}"`);
  }
  await page.screenshot({ path: join(SHOTS, "app-quotes-pending.png"), fullPage: true });
  log(`submitted: ${tier} ${why}`);

  // An admin key reads the policy: the page names each limit passed over and the line beyond it.
  await signInAs(page, DEV_KEYS.admin);
  await open(page, `#/quotes/${id}`);
  await page.getByRole("heading", { name: `Quote ${id}: K-1` }).waitFor();
  const exact = page.locator('[data-field="tierWhy"] li[data-limits="REP"]');
  await exact.waitFor();
  const rep = await exact.innerText();
  const repWhy =
    "Beyond tier REP (cut at most 5%, margin at least 20%): " +
    `${CODES.product}: cut ${bp(first.cutBp)} over 5%, margin ${bp(first.marginBp)} under 20%.`;
  if (rep !== repWhy) problems.push(`with the policy, the why reads "${rep}", not "${repWhy}"`);
  const adminTier = await page.locator('[data-field="tier"]').innerText();
  if (!adminTier.startsWith("Needs tier MANAGER: approved by manager or an admin key")) {
    problems.push(`with the policy, the tier reads "${adminTier}"`);
  }
  const cost = page.locator(`tr[data-product="${CODES.product}"] [data-field="cost"]`);
  if (money(await cost.innerText()) !== EXAMPLE_F.prices.cost) {
    problems.push("the admin key does not see the line's cost of 300");
  }

  // The manager approves.
  await signInAs(page, SALES_KEYS.manager.key);
  await open(page, `#/quotes/${id}`);
  await page.getByRole("heading", { name: `Quote ${id}: K-1` }).waitFor();
  await page.getByRole("button", { name: "Approve", exact: true }).click();
  await page
    .locator('[data-field="approval"]', { hasText: `Approved by ${SALES_KEYS.manager.name},` })
    .waitFor();

  // rep-1 sends it; the list filtered by status shows it.
  await signInAs(page, SALES_KEYS.rep.key);
  await open(page, `#/quotes/${id}`);
  await page.getByRole("button", { name: "Send to the buyer" }).click();
  await page.locator('[data-field="status"]', { hasText: "Sent to the buyer" }).waitFor();
  const sent = (await call("GET", `/v1/api/quotes/${id}`, undefined, SALES_KEYS.rep.key)).body;
  if (sent.status !== "SENT" || sent.approvedBy !== SALES_KEYS.manager.name) {
    problems.push(`after send the API has ${sent.status}, approved by ${sent.approvedBy}`);
  }
  await page.screenshot({ path: join(SHOTS, "app-quotes.png"), fullPage: true });
  await page.getByRole("link", { name: "All quotes" }).click();
  await page.getByLabel("Status").selectOption("SENT");
  const row = page.locator(`table.quotes tr[data-id="${id}"] [data-field="status"]`);
  await row.waitFor();
  const rows = await page.locator("table.quotes tbody tr").count();
  const listed = await call("GET", "/v1/api/quotes?filter.status=SENT", undefined, DEV_KEYS.read);
  if (rows !== listed.body.data.length) {
    problems.push(`the list of SENT quotes shows ${rows} rows, the API ${listed.body.data.length}`);
  }
  log(`manager approved quote ${id}, rep-1 sent it; ${rows} SENT in the list`);
  return { problems, id };
}

/**
 * Problems with a quote as the read key sees it: no margin, no actions, and why.
 * @param {import("playwright-core").Page} page
 * @param {number} id
 */
export async function checkQuotesReadKey(page, id) {
  /** @type {string[]} */
  const problems = [];
  await open(page, `#/quotes/${id}`);
  await page.getByRole("heading", { name: `Quote ${id}: K-1` }).waitFor();
  await page.locator('[data-field="absent"]').waitFor();
  const absent = await page.locator('[data-field="absent"]').innerText();
  const buttons = await page.locator("main button").count();
  const margins = await page
    .locator('main [data-field="margin"], main [data-field="cost"]')
    .count();
  const marginText = (await page.locator("main").innerText()).includes("Margin");
  if (!absent.startsWith("A read key sees quotes but does not write them")) {
    problems.push(`read key: the quote says "${absent}"`);
  }
  if (buttons || margins || marginText) {
    problems.push(
      `read key: the quote shows ${buttons} button(s), ${margins} margin or cost cell(s)`,
    );
  }
  return problems;
}
