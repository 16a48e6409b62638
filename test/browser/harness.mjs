/**
 * What the browser checks share (ui-check.mjs for /ui, app-check.mjs for /app): `wrangler dev` on
 * a free loopback port with a throwaway database, Debian's Chromium through playwright-core with a
 * fresh profile, a guard that stops and reports every request leaving loopback, the page's errors
 * collected as problems, and a bounded run that stops wrangler (its whole process group) and
 * Chromium and removes the temporary directories in every case.
 *
 * Environment: CHROMIUM (default /usr/bin/chromium).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { ROOT, WRANGLER_ENV } from "../../scripts/lib/local-db.mjs";

export const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
export const HOST = "127.0.0.1";
export const SHOTS = join(ROOT, ".screenshots");
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
export const notClosing = () => {
  if (cleanup.closing) throw new Error("stopped");
};

export const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

/**
 * A temporary directory, removed when the run ends.
 * @param {string} prefix
 */
export function tempDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanup.dirs.push(dir);
  return dir;
}

/** @returns {Promise<number>} a port that was free on the loopback interface a moment ago */
export const freePort = () =>
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

/**
 * `wrangler dev` in its own process group (so the workerd it starts can be stopped with it).
 * @param {{ port: number, inspectorPort: number, persistTo: string, apiKeys: string }} options
 *   apiKeys: the API_KEYS value (`name:role:sha256,…`), passed with --var
 */
function startWrangler({ port, inspectorPort, persistTo, apiKeys }) {
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
    `API_KEYS:${apiKeys}`,
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

/**
 * Starts `wrangler dev` on the database in `persistTo` and waits until it answers.
 * @param {{ persistTo: string, apiKeys: string, log: (message: string) => void }} options
 * @returns {Promise<string>} its base URL
 */
export async function serve({ persistTo, apiKeys, log }) {
  const [port, inspectorPort] = [await freePort(), await freePort()];
  const base = `http://${HOST}:${port}`;
  log(`starting wrangler dev on ${base}`);
  const wrangler = startWrangler({ port, inspectorPort, persistTo, apiKeys });
  try {
    await waitUntilUp(base, wrangler.child, 60_000);
  } catch (error) {
    console.error(wrangler.output());
    throw error;
  }
  return base;
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
        console.error(`could not remove ${dir}: ${error}`);
      }
    }
  })());

/** @param {string} url */
const isLocal = (url) => {
  const { protocol, hostname } = new URL(url);
  return protocol === "data:" || protocol === "blob:" || hostname === HOST;
};

/**
 * Headless Chromium with a fresh profile. Anything not on loopback is a problem, and is stopped
 * before it reaches the network; so is every failed request, error answer, page error and
 * console error (CSP violations included) of its first page.
 * @param {string[]} problems
 * @param {{ locale?: string, timezoneId?: string, allowStatus?: (status: number, url: string) => boolean, allowAborts?: boolean }} [options]
 *   allowStatus: answers ≥ 300 the check expects (a redirect, a 401 on purpose);
 *   allowAborts: requests the page itself aborts (net::ERR_ABORTED: a superseded lookup) are fine
 */
export async function openBrowser(problems, options = {}) {
  const { allowStatus = () => false, allowAborts = false, ...contextOptions } = options;
  notClosing();
  const context = await chromium.launchPersistentContext(tempDir("browser-check-chromium-"), {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1280, height: 900 },
    serviceWorkers: "block",
    ...contextOptions,
    // Signals are ours to handle: Playwright's own handlers would exit before wrangler is stopped.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  cleanup.browser = context;
  if (cleanup.closing) await context.close();
  notClosing();
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (isLocal(url)) return route.fallback();
    problems.push(`request left loopback: ${route.request().method()} ${url}`);
    return route.abort("blockedbyclient");
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(20_000);
  page.on("requestfailed", (request) => {
    if (allowAborts && request.failure()?.errorText === "net::ERR_ABORTED") return;
    problems.push(
      `request failed: ${request.method()} ${request.url()} (${request.failure()?.errorText})`,
    );
  });
  page.on("response", (response) => {
    const status = response.status();
    if (status >= 300 && status !== 304 && !allowStatus(status, response.url())) {
      problems.push(`${status} for ${response.request().method()} ${response.url()}`);
    }
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console error: ${message.text()}`);
  });
  return { context, page };
}

/**
 * Runs `check` (which answers the problems it found) within `timeoutMs`, prints them, cleans up
 * and exits: 0 when there are none, 1 otherwise.
 * @param {string} name the log prefix, e.g. "ui-check"
 * @param {() => Promise<string[]>} check
 * @param {number} timeoutMs
 * @param {string} done what to print when all holds
 */
export function runCheck(name, check, timeoutMs, done) {
  const main = async () => {
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
        () => reject(new Error(`timed out after ${timeoutMs / 1000} s`)),
        timeoutMs,
      );
    });
    try {
      const problems = /** @type {string[]} */ (await Promise.race([check(), timeout]));
      for (const problem of problems) console.error(`[${name}] FAIL ${problem}`);
      if (problems.length === 0) console.log(`[${name}] ok: ${done}`);
      return problems.length ? 1 : 0;
    } finally {
      clearTimeout(timer);
    }
  };
  for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM", "SIGHUP"])) {
    process.on(signal, () => {
      cleanUp().finally(() => process.exit(130));
    });
  }
  main()
    .catch((error) => {
      console.error(`[${name}] FAIL ${error instanceof Error ? error.message : error}`);
      return 1;
    })
    .then(async (code) => {
      await cleanUp();
      process.exit(code);
    });
}
