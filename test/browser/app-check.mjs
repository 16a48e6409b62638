#!/usr/bin/env node
/**
 * Browser check of the back-office page `/app` (docs/app.md), in a real Chromium, offline.
 *
 * 1. bundles the page (scripts/app-build.mjs), loads the demo data (the worked example of
 *    docs/pricing-rules.md §10 included) into a fresh temporary D1 and starts `wrangler dev` on a
 *    free loopback port with the dev keys (harness.mjs);
 * 2. checks the headers of /app: a redirect to /app/, and a strict Content-Security-Policy on the
 *    page and its script (no inline script, nothing from another origin);
 * 3. signs in with the dev admin key (the key lands in sessionStorage, nowhere else), prices the
 *    worked example in the explorer, reads every amount off the page (figures, waterfall steps,
 *    total) and compares them with the API's answer and with the documented amounts; the losing
 *    candidate pricelist 210 is shown with its reason; worked example E (docs/pricing-rules.md
 *    §26) is read off P-B's card: cost, margin, accrual and pocket price in the figures and the
 *    waterfall;
 * 4. simulates activating the DRAFT trade condition 28 for every customer and product of WEB-DE
 *    (docs/simulation.md §7): the progress bar shows while it runs (the answer is held back a
 *    moment) and the button is disabled, the changed rows on the page and their count are the
 *    API's, a header sorts the table and says so in aria-sort, and the histogram is drawn;
 * 5. opens the lint page (app-lint.mjs): a handful of findings grouped by code and pricelist, the
 *    groups and counts the API's, the tier cliff of the demo's wood screws in list 100's group;
 *    filtered by code, product, pricelist and severity as the API filters; a record link opens
 *    its record;
 * 6. money (docs/pricing-rules.md §19–§22) and graduated bands (§29): back in the explorer, the demo's screws priced per 1,000
 *    in WEB-DE at 4,000 pieces: the figures say the unit, the advice "5,000 pieces cost less" is
 *    read off the page against the API's priceBreak, and its button makes the line 5,000, priced
 *    as the API prices it and no more than advised; in SHOP-CH the same screws in CHF from the list
 *    derived at the EUR → CHF rate; the demo's graduated cable ties (worked example G's tiers,
 *    scripts/lib/worked-examples.mjs) × 60 in WEB-DE: the line's bands read off the page (pieces,
 *    pieces in the line, tier amount, flat amount, what each adds, its bar) against the API's
 *    `source.bands` and example G's 900 + 3600 + 880 = 5380;
 * 7. the Changes page (app-changes.mjs): worked example A of pricing rules v3 made with the mass
 *    adjustment form and submitted by the dev admin key, its impact read off the page, the
 *    sentence that this key may not approve it; pasted price rows made into a draft and withdrawn;
 *    then approved by the second admin key (approver); the demo's change requests in the list;
 * 8. the Quotes page (app-quotes.mjs): worked example F of pricing rules v4 with a rep's and a
 *    manager's sales key: the form prices the line as it is typed, the created quote shows
 *    regular price, floor, cut and margin as the API stores them, the submit says the tier
 *    MANAGER and why, the rep may not approve (and is told so), the manager approves, the rep
 *    sends; the read key sees the quote without margin or actions, and why;
 * 9. every form control of every page has a label; signing out forgets the key; signed in again
 *    with the dev read key, the navigation offers the explorer only and says why, the admin-only
 *    pages opened by address say they need an admin key (app-lint.mjs), and the same lookup
 *    shows no cost, margin or pocket price anywhere;
 * 10. throughout, every API call the page makes after its first answer carries `x-d1-bookmark`, at
 *    least as new as the answer of every write before it (docs/app.md §3: the page reads its own
 *    writes), except the sign-in call after a sign-out (which forgot it); no request leaves loopback, none fails or answers an error, and the page logs no
 *    error (CSP violations included). Screenshots go to .screenshots/ (git-ignored): app-sign-in,
 *    app-explorer, app-simulation, app-lint, app-money, app-bands, app-changes-pending, app-changes,
 *    app-read-key, app-quotes-pending, app-quotes. With
 *    `--docs-screenshot` it also writes the README's
 *    docs/images/app-explorer.png.
 *
 * Exits 0 when all holds, 1 otherwise; bounded in time. Environment: CHROMIUM (default
 * /usr/bin/chromium), APP_CHECK_TIMEOUT_MS (default 240000).
 */
import { join } from "node:path";
import { buildApp } from "../../scripts/app-build.mjs";
import { DEV_KEYS, devApiKeys } from "../../scripts/lib/dev-keys.mjs";
import { GRADUATED_EXAMPLE } from "../../scripts/lib/demo-graduated.mjs";
import { ROOT, applyMigrations, loadDemoData } from "../../scripts/lib/local-db.mjs";
import { decimalToMinor } from "../../scripts/lib/money.mjs";
import { WORKED_EXAMPLE_G as G } from "../../scripts/lib/worked-examples.mjs";
import { checkChanges } from "./app-changes.mjs";
import { checkLint, checkReadKeyPages } from "./app-lint.mjs";
import { checkQuotes, checkQuotesReadKey } from "./app-quotes.mjs";
import { SHOTS, openBrowser, runCheck, serve, sleep, tempDir } from "./harness.mjs";

const TIMEOUT_MS = Number(process.env.APP_CHECK_TIMEOUT_MS ?? 240_000);
const KEY = DEV_KEYS.admin;
const DOCS_SHOT = process.argv.includes("--docs-screenshot");

const log = (/** @type {string} */ message) => console.log(`[app-check] ${message}`);

const BOOKMARK = "x-d1-bookmark";
const BOOKMARK_STORAGE = "pricing-back-office.d1-bookmark";

/**
 * Records the bookmark of every API call the page makes and of every write's answer, in order;
 * `problems()` then says where a call went without the newest bookmark a write answered before it
 * (the sign-in call after a sign-out starts a new session and may go without one).
 * @param {import("playwright-core").Page} page
 */
function watchBookmarks(page) {
  /** @type {{ kind: "call" | "written"; url: string; bookmark: string | undefined }[]} */
  const events = [];
  const api = (/** @type {string} */ url) => new URL(url).pathname.startsWith("/v1/api/");
  page.on("request", (request) => {
    if (!api(request.url())) return;
    events.push({ kind: "call", url: request.url(), bookmark: request.headers()[BOOKMARK] });
  });
  page.on("response", (response) => {
    const method = response.request().method();
    if (!api(response.url()) || method === "GET" || !response.ok()) return;
    events.push({ kind: "written", url: response.url(), bookmark: response.headers()[BOOKMARK] });
  });
  return {
    problems() {
      /** @type {string[]} */
      const found = [];
      let floor = "";
      let calls = 0;
      let writes = 0;
      for (const event of events) {
        if (event.kind === "written") {
          writes += 1;
          if (event.bookmark && event.bookmark > floor) floor = event.bookmark;
          continue;
        }
        calls += 1;
        // Signing in tries the key on GET /v1/api/me (docs/app.md §6), without a bookmark after a
        // sign-out.
        const signIn = /\/v1\/api\/me$/.test(event.url);
        if (!event.bookmark && signIn) {
          floor = "";
          continue;
        }
        if (calls > 1 && !event.bookmark) found.push(`${event.url} sent without ${BOOKMARK}`);
        else if (event.bookmark && event.bookmark < floor) {
          found.push(
            `${event.url} sent ${BOOKMARK} ${event.bookmark}, older than a write's ${floor}`,
          );
        }
      }
      log(`bookmarks: ${calls} API call(s) checked after ${writes} write answer(s)`);
      return found;
    },
  };
}

/** The worked example's request (docs/pricing-rules.md §10.2), as the explorer is filled in. */
const EXAMPLE = {
  channelCode: "WEB-DE",
  customerCode: "C-1001",
  at: "2025-06-15T10:00",
  lines: [
    { productCode: "P-A", quantity: 3 },
    { productCode: "P-B", quantity: 60 },
    { productCode: "P-C", quantity: 10 },
  ],
};
/** Its documented answer (§10.2): final unit amount and line amount per product, and the total. */
const DOCUMENTED = {
  lines: { "P-A": [850, 2550], "P-B": [391, 23460], "P-C": [170, 1700] },
  totalAmount: 27710,
};
/**
 * Worked example E (docs/pricing-rules.md §26) on P-B, as an admin key sees it: cost 300, margin
 * 91 (2327 bp), 8 accrued, pocket price 383 (2167 bp).
 */
const EXAMPLE_E = {
  costUnitAmount: 300,
  marginAmount: 91,
  marginBp: 2327,
  accruals: 8,
  pocketUnitAmount: 383,
  pocketMarginBp: 2167,
};
/**
 * The simulation of docs/simulation.md §7: activate the DRAFT trade condition 28 ("Retail power
 * tool discount 5 % (draft)") in WEB-DE for every customer and product (71 prices of six retail
 * customers go down by about 3 %).
 */
const SIMULATION = {
  channelCode: "WEB-DE",
  at: "2026-06-15T10:00:00Z",
  quantity: 1,
  maxRows: 1000,
  customers: { sample: 99, anonymous: true },
  products: { sample: 1000 },
  changes: { activate: { tradeConditionIds: [28] } },
};
const CSP_DIRECTIVES = [
  "default-src 'self'",
  "script-src 'self'",
  "connect-src 'self'",
  "style-src 'self'",
  "frame-ancestors 'none'",
];

/**
 * Calls the API with the dev admin key.
 * @param {string} base
 * @param {string} path
 * @param {unknown} [body] POSTed as JSON when given
 * @returns {Promise<any>}
 */
async function callApi(base, path, body) {
  const res = await fetch(`${base}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "x-webhook-signature": KEY, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/**
 * An amount as the page shows it ("€23,460.00", "-€0.19", "+€0.25") in minor units, read with the
 * currency's exponent as the API lists it: a page that drew another number of decimals fails.
 * @param {string} base
 * @param {string} currency
 * @returns {Promise<(text: string) => number>}
 */
async function minorReader(base, currency) {
  const listed = await callApi(base, `/v1/api/currencies?filter.code=${currency}`);
  /** @type {number} */
  const digits = listed.data[0].exponent;
  return (text) => {
    const negative = /[-−]/.test(text);
    const decimals = /\.(\d+)\D*$/.exec(text)?.[1]?.length ?? 0;
    if (decimals !== digits)
      throw new Error(`${text}: ${decimals} decimals, ${currency} has ${digits}`);
    const parsed = decimalToMinor(text.replace(/[^0-9.]/g, ""), digits);
    if (!parsed.ok) throw new Error(`${text}: ${parsed.error}`);
    return negative ? -parsed.value : parsed.value;
  };
}

/**
 * Problems with the headers of /app: a redirect to /app/ and the CSP on the page and its script.
 * @param {string} base
 */
async function checkHeaders(base) {
  /** @type {string[]} */
  const problems = [];
  const bare = await fetch(`${base}/app`, { redirect: "manual" });
  if (bare.status !== 307 || bare.headers.get("location") !== "/app/") {
    problems.push(
      `/app answered ${bare.status} → ${bare.headers.get("location")}, not 307 → /app/`,
    );
  }
  for (const path of ["/app/", "/app/app.js"]) {
    const res = await fetch(`${base}${path}`);
    const csp = res.headers.get("content-security-policy") ?? "";
    if (res.status !== 200) problems.push(`${path} answered ${res.status}`);
    const missing = CSP_DIRECTIVES.filter((d) => !csp.split(/;\s*/).includes(d));
    if (missing.length) problems.push(`${path}: CSP "${csp}" lacks ${missing.join(", ")}`);
    if (/unsafe-inline|unsafe-eval|\*|https?:/.test(csp))
      problems.push(`${path}: CSP too wide: ${csp}`);
  }
  return problems;
}

/**
 * Every input, select and textarea on the page that has no label (neither <label for> nor
 * aria-label / aria-labelledby).
 * @param {import("playwright-core").Page} page
 */
const unlabelled = (page) =>
  page.$$eval("input, select, textarea", (controls) =>
    controls
      .filter((c) => {
        // (tsconfig.node.json has no DOM types: the shape this needs of an <input>)
        const control =
          /** @type {{ type: string, labels: { length: number } | null } & typeof c} */ (c);
        return (
          control.type !== "hidden" &&
          (control.labels?.length ?? 0) === 0 &&
          !control.getAttribute("aria-label") &&
          !control.getAttribute("aria-labelledby")
        );
      })
      .map((c) => c.outerHTML.slice(0, 120)),
  );

/**
 * Problems with the explorer's answer to the worked example: amounts read off the page against
 * the API's answer and the documented ones.
 * @param {import("playwright-core").Page} page
 * @param {string} base
 */
async function checkExplorer(page, base) {
  /** @type {string[]} */
  const problems = [];
  await page.getByLabel("Channel").selectOption(EXAMPLE.channelCode);
  await page.getByLabel("Customer code").fill(EXAMPLE.customerCode);
  await page.getByLabel("Price at (UTC)").fill(EXAMPLE.at);
  for (const [i, line] of EXAMPLE.lines.entries()) {
    if (i > 0) await page.getByRole("button", { name: "Add line" }).click();
    await page.getByLabel("Product code").nth(i).fill(line.productCode);
    await page.getByLabel("Quantity").nth(i).fill(String(line.quantity));
  }
  await page
    .getByLabel("Quantity")
    .nth(EXAMPLE.lines.length - 1)
    .press("Enter");
  // The answer on screen is the one to these lines (not one to a line still being typed), and
  // none is loading.
  for (const line of EXAMPLE.lines) {
    const title = `${line.productCode} × ${line.quantity}`;
    const heading = new RegExp(`^${title}\\s`);
    await page
      .locator('section[aria-busy="false"] article.line h3', { hasText: heading })
      .waitFor();
  }

  const answer = await callApi(base, "/v1/api/prices/resolve", {
    ...EXAMPLE,
    at: `${EXAMPLE.at}:00Z`,
    explain: true,
  });
  const money = await minorReader(base, answer.currency);
  const total = money(await page.locator('dd[data-field="totalAmount"]').innerText());
  if (total !== answer.totalAmount || total !== DOCUMENTED.totalAmount) {
    problems.push(
      `total: page ${total}, API ${answer.totalAmount}, documented ${DOCUMENTED.totalAmount}`,
    );
  }
  for (const line of answer.lines) {
    problems.push(...(await checkLine(page, line, money)));
  }
  const pb = page.locator('article.line[data-product="P-B"] .candidates li', {
    hasText: "pricelist 210",
  });
  if (!(await pb.innerText()).includes("ranked behind the winner, decided by priority")) {
    problems.push(`P-B's candidates do not say why pricelist 210 lost: ${await pb.innerText()}`);
  }
  log(`explorer: the worked example priced, total ${total}`);
  return problems;
}

/**
 * One line of the worked example on the page against the API's line.
 * @param {import("playwright-core").Page} page
 * @param {any} line
 * @param {(text: string) => number} money
 */
async function checkLine(page, line, money) {
  /** @type {string[]} */
  const problems = [];
  const card = page.locator(`article.line[data-product="${line.productCode}"]`);
  const field = async (/** @type {string} */ name) =>
    money(await card.locator(`dd[data-field="${name}"]`).innerText());
  for (const name of ["finalUnitAmount", "lineAmount", "regularUnitAmount", "listUnitAmount"]) {
    const shown = await field(name);
    if (shown !== line[name])
      problems.push(`${line.productCode} ${name}: page ${shown}, API ${line[name]}`);
  }
  const documented = DOCUMENTED.lines[/** @type {"P-A"} */ (line.productCode)];
  if (line.finalUnitAmount !== documented[0] || line.lineAmount !== documented[1]) {
    problems.push(
      `${line.productCode}: the API answers ${line.finalUnitAmount}/${line.lineAmount}, documented ${documented}`,
    );
  }
  // The waterfall's table: the base, each adjustment's change, the final amount (then, for an
  // admin, the accruals, the pocket price and the cost: checkMargin).
  const all = await card.locator("table.steps tbody tr").all();
  const labels = await Promise.all(all.map((r) => r.getAttribute("data-step")));
  const rows = all.slice(0, labels.indexOf("Final") + 1);
  const cells = await Promise.all(rows.map((r) => r.locator("td").allInnerTexts()));
  const changes = cells.slice(1, -1).map((c) => money(/** @type {string} */ (c[2])));
  const expected = line.adjustments.map((/** @type {{ amount: number }} */ a) => a.amount);
  const base = money(/** @type {string} */ (cells[0]?.[3]));
  const final = money(/** @type {string} */ (cells.at(-1)?.[3]));
  if (
    base !== line.source.baseUnitAmount ||
    final !== line.finalUnitAmount ||
    changes.join() !== expected.join()
  ) {
    problems.push(
      `${line.productCode} waterfall: page base ${base}, changes ${changes}, final ${final}; API ${line.source.baseUnitAmount}, ${expected}, ${line.finalUnitAmount}`,
    );
  }
  const chart = card.locator('canvas[role="img"]');
  if (!(await chart.getAttribute("aria-label"))?.startsWith("Waterfall of")) {
    problems.push(`${line.productCode}: no waterfall chart`);
  }
  problems.push(...(await checkMargin(card, line, money)));
  return problems;
}

/** A percentage as the page shows it ("23.27%") in basis points. */
const bpOf = (/** @type {string} */ text) => {
  const parsed = decimalToMinor(text.replace(/[^0-9.]/g, ""), 2);
  if (!parsed.ok) throw new Error(`${text}: ${parsed.error}`);
  return /[-−]/.test(text) ? -parsed.value : parsed.value;
};

/**
 * A line's cost, margin, accruals and pocket price on the page (docs/pricing-rules.md §26)
 * against the API's admin answer, in the figures and in the waterfall; P-B against worked
 * example E.
 * @param {import("playwright-core").Locator} card
 * @param {any} line
 * @param {(text: string) => number} money
 */
async function checkMargin(card, line, money) {
  /** @type {string[]} */
  const problems = [];
  const text = async (/** @type {string} */ name) =>
    card.locator(`dl.margin dd[data-field="${name}"]`).innerText();
  const accrued = line.accruals.reduce(
    (/** @type {number} */ s, /** @type {any} */ a) => s + a.amount,
    0,
  );
  const shown = {
    costUnitAmount: line.costUnitAmount === null ? null : money(await text("costUnitAmount")),
    marginAmount: line.marginAmount === null ? null : money(await text("marginAmount")),
    marginBp: line.marginBp === null ? null : bpOf(await text("marginBp")),
    accruals: money(await text("accruals")),
    pocketUnitAmount: money(await text("pocketUnitAmount")),
    pocketMarginBp: line.pocketMarginBp === null ? null : bpOf(await text("pocketMarginBp")),
  };
  const api = { ...line, accruals: accrued };
  for (const [name, value] of Object.entries(shown)) {
    if (value !== api[name])
      problems.push(`${line.productCode} ${name}: page ${value}, API ${api[name]}`);
  }
  if (line.productCode === "P-B" && JSON.stringify(shown) !== JSON.stringify(EXAMPLE_E)) {
    problems.push(
      `P-B: the page shows ${JSON.stringify(shown)}, example E is ${JSON.stringify(EXAMPLE_E)}`,
    );
  }
  // The waterfall goes on past the final price: each accrual, the pocket price, the cost.
  const step = async (/** @type {string} */ label, /** @type {number} */ column) =>
    (await card.locator(`table.steps tbody tr[data-step="${label}"] td`).allInnerTexts()).at(
      column,
    );
  const pocket = money(/** @type {string} */ (await step("Pocket price", 3)));
  const cost =
    line.costUnitAmount === null ? null : money(/** @type {string} */ (await step("Cost", 3)));
  const accruals = await card.locator('table.steps tbody tr[data-step="Accrual"]').count();
  if (
    pocket !== line.pocketUnitAmount ||
    cost !== line.costUnitAmount ||
    accruals !== line.accruals.length
  ) {
    problems.push(
      `${line.productCode} waterfall past the price: pocket ${pocket}, cost ${cost}, ${accruals} accrual(s); API ${line.pocketUnitAmount}, ${line.costUnitAmount}, ${line.accruals.length}`,
    );
  }
  return problems;
}

/**
 * The same lookup with the dev read key: the page shows no cost, margin or pocket price (the
 * answer has none of them, docs/api/access.md §18).
 * @param {import("playwright-core").Page} page
 */
async function checkReadKey(page) {
  /** @type {string[]} */
  const problems = [];
  // Signed in again the page reopens where it was; the Changes page is for admin keys only.
  await page.evaluate(() => {
    /** @type {any} */ (globalThis).location.hash = "#/explorer";
  });
  await page.getByLabel("API key").fill(DEV_KEYS.read);
  await page.getByLabel("API key").press("Enter");
  await page.getByRole("navigation", { name: "Pages" }).waitFor();
  problems.push(...(await checkReadKeyPages(page, log)));
  await page
    .getByRole("navigation", { name: "Pages" })
    .getByRole("link", { name: "Price explorer" })
    .click();
  await page.getByLabel("Channel").selectOption(EXAMPLE.channelCode);
  await page.getByLabel("Customer code").fill(EXAMPLE.customerCode);
  await page.getByLabel("Price at (UTC)").fill(EXAMPLE.at);
  await page.getByLabel("Product code").first().fill("P-B");
  await page.getByLabel("Quantity").first().fill("60");
  await page.getByLabel("Quantity").first().press("Enter");
  await page
    .locator('section[aria-busy="false"] article.line h3', { hasText: /^P-B × 60\s/ })
    .waitFor();
  const card = page.locator('article.line[data-product="P-B"]');
  const margin = await card.locator("dl.margin").count();
  const steps = await card
    .locator(
      'table.steps tbody tr[data-step="Cost"], table.steps tbody tr[data-step="Pocket price"]',
    )
    .count();
  const final = await card.locator('dd[data-field="finalUnitAmount"]').innerText();
  log(`read key: P-B × 60 at ${final}, no cost shown`);
  if (margin + steps) problems.push("with the read key the page shows a cost or a pocket price");
  return problems;
}

/**
 * Problems with the simulation page: the form filled in, run (held back 1.5 s so the progress
 * shows), its rows against the API's, one sort.
 * @param {import("playwright-core").Page} page
 * @param {string} base
 */
async function checkSimulation(page, base) {
  /** @type {string[]} */
  const problems = [];
  await page.getByRole("link", { name: "Simulation" }).click();
  await page.getByLabel("Channel", { exact: true }).selectOption(SIMULATION.channelCode);
  await page.getByLabel("Price at (UTC)").fill(SIMULATION.at.slice(0, 16));
  await page.getByLabel(/^28 · Retail power tool discount/).check();
  await page.getByLabel("How many customers").fill(String(SIMULATION.customers.sample));
  await page.getByLabel("How many products").fill(String(SIMULATION.products.sample));
  await page.route("**/v1/api/simulations/prices", async (route) => {
    await sleep(1_500);
    await route.fallback();
  });
  await page.getByLabel("How many products").press("Enter");
  await page.getByRole("progressbar", { name: "Simulation running" }).waitFor();
  if (!(await page.getByRole("button", { name: "Simulating…" }).isDisabled())) {
    problems.push("the simulate button is not disabled while the simulation runs");
  }
  const result = page.getByRole("heading", { name: /^Result:/ });
  const refusal = page.getByRole("alert").filter({ hasText: /\S/ });
  await result.or(refusal).waitFor();
  if (await refusal.isVisible()) return [`the simulation failed: ${await refusal.innerText()}`];
  const answer = await callApi(base, "/v1/api/simulations/prices", SIMULATION);
  const money = await minorReader(base, answer.currency);
  const table = page.locator("table.changes");
  const read = async () =>
    (await table.locator("tbody tr").all()).map(async (row) => {
      const [customer, product, before, after, difference] = await row
        .locator("td")
        .allInnerTexts();
      return `${customer === "anonymous" ? null : customer}|${product}|${money(/** @type {string} */ (before))}|${money(/** @type {string} */ (after))}|${money(/** @type {string} */ (difference))}`;
    });
  const shown = await Promise.all(await read());
  const expected = answer.rows.map(
    (/** @type {any} */ r) =>
      `${r.customerCode}|${r.productCode}|${r.before.finalUnitAmount}|${r.after.finalUnitAmount}|${r.difference}`,
  );
  if (expected.length === 0) problems.push("the simulation of TC-28 changes no price");
  const changed = Number(await page.locator('dd[data-field="changed"]').innerText());
  if (changed !== answer.summary.changed) {
    problems.push(`the page counts ${changed} changed prices, the API ${answer.summary.changed}`);
  }
  if (shown.join("\n") !== expected.join("\n")) {
    problems.push(`simulation rows: page\n${shown.join("\n")}\nAPI\n${expected.join("\n")}`);
  }
  // The lines are an admin's: each row shows the cost, the margin before and after, the pocket
  // price (docs/pricing-rules.md §26); the summary the margin of every line before and after.
  const margins = await Promise.all(
    (await table.locator("tbody tr").all()).map(async (row) => {
      const cell = (/** @type {string} */ f) => row.locator(`td[data-field="${f}"]`).innerText();
      return `${money(await cell("costUnitAmount"))}|${bpOf(await cell("marginBefore"))}|${bpOf(await cell("marginAfter"))}|${money(await cell("pocketUnitAmount"))}`;
    }),
  );
  const apiMargins = answer.rows.map(
    (/** @type {any} */ r) =>
      `${r.after.costUnitAmount}|${r.before.marginBp}|${r.after.marginBp}|${r.after.pocketUnitAmount}`,
  );
  if (margins.join("\n") !== apiMargins.join("\n")) {
    problems.push(`simulation margins: page\n${margins.join("\n")}\nAPI\n${apiMargins.join("\n")}`);
  }
  const summary = await page.locator('dl.margin dd[data-field="marginAfter"]').innerText();
  const after = answer.summary.margin.after;
  if (!summary.includes(`(${(after.marginBp / 100).toFixed(2).replace(/\.?0+$/, "")}%)`)) {
    problems.push(`the margin after reads "${summary}", the API's is ${after.marginBp} bp`);
  }
  const header = table.locator("th", { has: page.getByRole("button", { name: /^Difference/ }) });
  await header.getByRole("button").click();
  if ((await header.getAttribute("aria-sort")) !== "ascending") {
    problems.push(
      `after one click the Difference header says aria-sort=${await header.getAttribute("aria-sort")}`,
    );
  }
  if ((await page.locator('canvas[aria-label^="Histogram"]').count()) !== 1) {
    problems.push("no histogram of the changes");
  }
  log(`simulation: ${shown.length} changed row(s), as the API answers`);
  return problems;
}

/**
 * The demo's money example (scripts/lib/demo-money.mjs, docs/operations.md): wood screws priced
 * per 1,000 with a tier cliff in WEB-DE, and in SHOP-CH from a CHF list derived at the EUR → CHF
 * rate.
 */
const MONEY = {
  productCode: "P-00298",
  at: "2026-03-02T10:00",
  quantity: 4000,
  /** The documented advice at 4,000: 5,000 pieces for 43.20 instead of 48.00. */
  priceBreak: { quantity: 5000, lineAmount: 4320 },
  lineAmount: 4800,
};

/**
 * Prices one line in the explorer as the form's only line and waits for its answer.
 * @param {import("playwright-core").Page} page
 * @param {string} channelCode
 * @param {number} quantity
 * @param {string} [productCode]
 */
async function priceOneLine(page, channelCode, quantity, productCode = MONEY.productCode) {
  await page.getByLabel("Channel").selectOption(channelCode);
  await page.getByLabel("Product code").first().fill(productCode);
  await page.getByLabel("Quantity").first().fill(String(quantity));
  await page.getByLabel("Quantity").first().press("Enter");
  await page
    .locator('section[aria-busy="false"] article.line h3', {
      hasText: new RegExp(`^${productCode} × ${quantity}\\s`),
    })
    .waitFor();
  return page.locator(`article.line[data-product="${productCode}"]`);
}

/**
 * Problems with the money on the explorer: the price unit, the price-break advice read off the
 * page (its text, its quantity) against the API's and the documented one, its button, and a
 * line in CHF from the derived list.
 * @param {import("playwright-core").Page} page
 * @param {string} base
 */
async function checkMoney(page, base) {
  /** @type {string[]} */
  const problems = [];
  await page.getByRole("link", { name: "Price explorer" }).click();
  await page.getByLabel("Price at (UTC)").fill(MONEY.at);
  const card = await priceOneLine(page, "WEB-DE", MONEY.quantity);
  const request = (/** @type {string} */ channelCode, /** @type {number} */ quantity) => ({
    channelCode,
    at: `${MONEY.at}:00Z`,
    lines: [{ productCode: MONEY.productCode, quantity }],
  });
  const [line] = (await callApi(base, "/v1/api/prices/resolve", request("WEB-DE", MONEY.quantity)))
    .lines;
  const eur = await minorReader(base, "EUR");
  const advice = card.locator('[data-field="priceBreak"]');
  const shown = {
    quantity: Number(await advice.getAttribute("data-quantity")),
    text: await advice.locator("span").innerText(),
    unit: await card.locator('dd[data-field="priceUnit"]').innerText(),
    lineAmount: eur(await card.locator('dd[data-field="lineAmount"]').innerText()),
  };
  const format = (/** @type {number} */ minor) =>
    new Intl.NumberFormat("en-US", { style: "currency", currency: "EUR" }).format(minor / 100);
  const expected = `5,000 pieces cost less: ${format(MONEY.priceBreak.lineAmount)} instead of ${format(MONEY.lineAmount)} for 4,000.`;
  if (JSON.stringify(line.priceBreak) !== JSON.stringify(MONEY.priceBreak))
    problems.push(
      `the API advises ${JSON.stringify(line.priceBreak)}, documented ${JSON.stringify(MONEY.priceBreak)}`,
    );
  if (shown.quantity !== line.priceBreak?.quantity || shown.text !== expected) {
    problems.push(
      `the advice on the page: "${shown.text}" (${shown.quantity}); expected "${expected}"`,
    );
  }
  if (shown.unit !== "1,000 pieces" || line.priceUnit !== 1000)
    problems.push(`the line's unit: page "${shown.unit}", API ${line.priceUnit}`);
  if (shown.lineAmount !== line.lineAmount || line.lineAmount !== MONEY.lineAmount)
    problems.push(`line amount: page ${shown.lineAmount}, API ${line.lineAmount}`);

  // "Buy 5,000": the cart's line becomes 5,000 pieces, priced as the API prices them. The advice
  // kept the order's 4,000 pieces for the fastener bonus (docs/pricing-rules.md §22); bought, the
  // order reaches its 3 % from 5,000, so the line costs less still than advised.
  await advice.getByRole("button", { name: "Buy 5,000" }).click();
  const bought = await page
    .locator('section[aria-busy="false"] article.line h3', {
      hasText: new RegExp(`^${MONEY.productCode} × ${MONEY.priceBreak.quantity}\\s`),
    })
    .waitFor()
    .then(() => card.locator('dd[data-field="lineAmount"]').innerText());
  const [atBreak] = (
    await callApi(base, "/v1/api/prices/resolve", request("WEB-DE", MONEY.priceBreak.quantity))
  ).lines;
  if (eur(bought) !== atBreak.lineAmount || atBreak.lineAmount > MONEY.priceBreak.lineAmount) {
    problems.push(
      `after "Buy 5,000" the page shows ${bought}, the API ${atBreak.lineAmount}, advised ${MONEY.priceBreak.lineAmount}`,
    );
  }
  if ((await card.locator('[data-field="priceBreak"]').count()) !== 0)
    problems.push("the top tier still shows a price-break advice");

  // SHOP-CH: CHF from the list derived from WEB-DE's at the EUR → CHF rate, with CHF's decimals.
  const chfCard = await priceOneLine(page, "SHOP-CH", 1000);
  const [chfLine] = (await callApi(base, "/v1/api/prices/resolve", request("SHOP-CH", 1000))).lines;
  const chf = await minorReader(base, "CHF");
  const chfShown = chf(await chfCard.locator('dd[data-field="finalUnitAmount"]').innerText());
  if (
    chfShown !== chfLine.finalUnitAmount ||
    chfLine.currency !== "CHF" ||
    chfLine.source?.derivedFrom?.exchangeRate?.rate !== "0.9365"
  ) {
    problems.push(
      `SHOP-CH: page ${chfShown}, API ${chfLine.finalUnitAmount} ${chfLine.currency} at ${JSON.stringify(chfLine.source?.derivedFrom?.exchangeRate)}`,
    );
  }
  await page.screenshot({ path: join(SHOTS, "app-money.png"), fullPage: true });
  const chfText = await chfCard.locator('dd[data-field="finalUnitAmount"]').innerText();
  log(`money: "${shown.text}"; bought 5,000: ${bought}; SHOP-CH: ${chfText} per 1,000`);
  return problems;
}

/**
 * The bands of a graduated line (docs/app.md, docs/pricing-rules.md §29): worked example G's tiers
 * in the demo (scripts/lib/demo-graduated.mjs), 60 cable ties in WEB-DE, read off the page: the
 * caption's lot, and per band its pieces, the pieces of the line in it, its tier amount, its flat
 * amount, what it adds and the width of its bar; against the API's `source.bands` and example G's
 * figures (900 + 3600 + 880 = 5380).
 * @param {import("playwright-core").Page} page
 * @param {string} base
 */
async function checkBands(page, base) {
  /** @type {string[]} */
  const problems = [];
  const lot = /** @type {{ quantity: number, amount: number }} */ (
    G.lots.find((l) => l.quantity === 60)
  );
  const { channelCode, productCode } = GRADUATED_EXAMPLE;
  const card = await priceOneLine(page, channelCode, lot.quantity, productCode);
  const [line] = (
    await callApi(base, "/v1/api/prices/resolve", {
      channelCode,
      at: `${MONEY.at}:00Z`,
      lines: [{ productCode, quantity: lot.quantity }],
    })
  ).lines;
  if (JSON.stringify(line.source?.bands) !== JSON.stringify(G.bands60)) {
    problems.push(`the API's bands ${JSON.stringify(line.source?.bands)}, example G's differ`);
  }
  const eur = await minorReader(base, "EUR");
  const table = card.locator('table[data-field="bands"]');
  if ((await table.count()) !== 1) return [...problems, "the graduated line draws no bands"];
  const caption = await table.locator("caption").innerText();
  const expectedCaption = `Graduated bands: ${lot.quantity} pieces as one lot of`;
  if (
    !caption.startsWith(expectedCaption) ||
    eur(caption.slice(expectedCaption.length)) !== lot.amount
  ) {
    problems.push(`the bands' caption "${caption}"; expected a lot of ${lot.amount}`);
  }
  const rows = await table.locator("tbody tr").evaluateAll((trs) =>
    trs.map((tr) => ({
      from: Number(tr.getAttribute("data-from")),
      cells: [...tr.querySelectorAll("th, td")].map((c) => /** @type {any} */ (c).innerText.trim()),
      bar: /** @type {any} */ (tr.querySelector(".band-bar"))?.style.width ?? "",
    })),
  );
  const count = (/** @type {number} */ n) => new Intl.NumberFormat("en-US").format(n);
  const shown = rows.map(({ from, cells, bar }) => ({
    from,
    pieces: cells[0],
    quantity: Number((cells[1] ?? "").replace(/,/g, "")),
    unitAmount: eur(cells[2] ?? ""),
    flat: cells[3] === "—" ? 0 : eur(cells[3] ?? ""),
    amount: eur(cells[4] ?? ""),
    bar,
  }));
  const expected = G.bands60.map((band) => ({
    from: band.fromQuantity,
    pieces: `${count(band.fromQuantity)}–${band.toQuantity === null ? "" : count(band.toQuantity)}`,
    quantity: band.quantity,
    unitAmount: band.unitAmount,
    flat: band.flatAmount,
    amount: band.amount,
    bar: `${Math.round((band.amount * 100) / lot.amount)}%`,
  }));
  if (JSON.stringify(shown) !== JSON.stringify(expected)) {
    problems.push(
      `the bands on the page ${JSON.stringify(shown)}; expected ${JSON.stringify(expected)}`,
    );
  }
  await page.screenshot({ path: join(SHOTS, "app-bands.png"), fullPage: true });
  log(
    `bands: ${shown.map((b) => `${b.pieces} ${b.quantity} × ${b.unitAmount} = ${b.amount} (${b.bar})`).join("; ")}`,
  );
  return problems;
}

/**
 * The README's picture of the explorer (docs/images/app-explorer.png): the worked example
 * without P-A (no adjustments to show), so the form, the totals and P-B's waterfall fit.
 * @param {import("playwright-core").Page} page
 */
async function docsScreenshot(page) {
  await page.getByRole("button", { name: "Remove line 1" }).click();
  await page.locator('article.line[data-product="P-A"]').waitFor({ state: "detached" });
  await page.locator('section[aria-busy="false"]').waitFor();
  await page.setViewportSize({ width: 1280, height: 1240 });
  await page.screenshot({ path: join(ROOT, "docs", "images", "app-explorer.png") });
  await page.setViewportSize({ width: 1280, height: 900 });
  log("wrote docs/images/app-explorer.png");
}

async function check() {
  const { bytes } = await buildApp();
  log(`bundled the page: app.js ${Math.ceil((bytes["app.js"] ?? 0) / 1024)} KiB`);
  const persistTo = tempDir("app-check-d1-");
  await applyMigrations(persistTo);
  await loadDemoData(persistTo);
  const base = await serve({ persistTo, apiKeys: devApiKeys(), log });

  const problems = await checkHeaders(base);
  const { page } = await openBrowser(problems, {
    locale: "en-US",
    timezoneId: "UTC",
    // /app → /app/ is the assets layer's redirect; lookups superseded by typing are aborted.
    allowStatus: (status, url) => status === 307 && new URL(url).pathname === "/app",
    allowAborts: true,
  });
  const bookmarks = watchBookmarks(page);
  const response = await page.goto(`${base}/app`, { waitUntil: "load" });
  if (!response?.headers()["content-security-policy"]?.includes("script-src 'self'")) {
    problems.push("the page opened in the browser has no CSP");
  }
  /** @type {string[]} */
  const missingLabels = [...(await unlabelled(page))];
  await page.screenshot({ path: join(SHOTS, "app-sign-in.png") });
  await page.getByLabel("API key").fill(KEY);
  await page.getByLabel("API key").press("Enter");
  await page.getByRole("navigation", { name: "Pages" }).waitFor();
  // The key, and beside it the session's D1 bookmark (docs/app.md §3), nothing else.
  const stored = await page.evaluate((bookmarkSlot) => {
    const { sessionStorage, localStorage } = /** @type {any} */ (globalThis);
    const { [bookmarkSlot]: bookmark, ...rest } = { ...sessionStorage };
    return [Object.values(rest), localStorage.length, /^[0-9a-f]+(-[0-9a-f]+)+$/.test(bookmark)];
  }, BOOKMARK_STORAGE);
  if (JSON.stringify(stored) !== JSON.stringify([[KEY], 0, true])) {
    problems.push(`after sign-in the storage holds ${JSON.stringify(stored)}`);
  }

  problems.push(...(await checkExplorer(page, base)));
  missingLabels.push(...(await unlabelled(page)));
  await page.screenshot({ path: join(SHOTS, "app-explorer.png"), fullPage: true });
  if (DOCS_SHOT) await docsScreenshot(page);

  problems.push(...(await checkSimulation(page, base)));
  missingLabels.push(...(await unlabelled(page)));
  await page.screenshot({ path: join(SHOTS, "app-simulation.png"), fullPage: true });

  problems.push(...(await checkLint(page, (path) => callApi(base, path), log)));
  missingLabels.push(...(await unlabelled(page)));

  problems.push(...(await checkMoney(page, base)));
  problems.push(...(await checkBands(page, base)));
  problems.push(...(await checkChanges(page, base, await minorReader(base, "EUR"), log)));
  missingLabels.push(...(await unlabelled(page)));
  const quotes = await checkQuotes(page, base, await minorReader(base, "EUR"), log);
  problems.push(...quotes.problems);
  missingLabels.push(...(await unlabelled(page)));
  if (missingLabels.length) problems.push(`controls without a label: ${missingLabels.join(" ")}`);

  problems.push(...bookmarks.problems());

  await page.getByRole("button", { name: "Sign out" }).click();
  await page.getByLabel("API key").waitFor();
  const left = await page.evaluate(() => /** @type {any} */ (globalThis).sessionStorage.length);
  if (left !== 0) problems.push(`after sign-out sessionStorage still holds ${left} item(s)`);
  problems.push(...(await checkReadKey(page)));
  problems.push(...(await checkQuotesReadKey(page, quotes.id)));
  return problems;
}

runCheck(
  "app-check",
  check,
  TIMEOUT_MS,
  "screenshots in .screenshots/app-{sign-in,explorer,simulation,lint,money,bands,changes-pending,changes,quotes-pending,quotes,read-key}.png",
);
