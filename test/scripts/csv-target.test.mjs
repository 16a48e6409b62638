/**
 * Which service `npm run import` / `npm run export` talk to (scripts/lib/csv-cli.mjs): `--url`,
 * else PRICING_API_URL, else where the running `npm run dev` serves (.wrangler/dev-url.json),
 * else the default; and when nothing answers there, one line naming the URL and where it came
 * from, at once rather than after the retries. A Node test (node:test): `npm run test:scripts`.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { DEFAULT_URL, resolveTarget } from "../../scripts/lib/csv-cli.mjs";
import { readDevUrl, removeDevUrl, urlOf, writeDevUrl } from "../../scripts/lib/dev-url.mjs";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const root = mkdtempSync(join(tmpdir(), "csv-target-"));
after(() => rmSync(root, { recursive: true, force: true }));

/** A port nothing listens on (bound, then released). */
async function closedPort() {
  const server = createServer();
  await new Promise((resolve) => server.listen({ host: "127.0.0.1", port: 0 }, () => resolve(0)));
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  await new Promise((resolve) => server.close(() => resolve(0)));
  return port;
}

/** A pid that is not running: a child that has exited. */
async function deadPid() {
  const child = spawn(process.execPath, ["-e", ""]);
  await new Promise((resolve) => child.on("exit", resolve));
  return /** @type {number} */ (child.pid);
}

describe("the service the CSV tools talk to", () => {
  it("is where npm run dev serves while it runs, else the default", async () => {
    assert.deepEqual(resolveTarget({}, {}, root), {
      url: DEFAULT_URL,
      urlSource: "the default",
      key: "dev-admin-key",
      keySource: "dev key",
    });
    writeDevUrl(root, urlOf({ host: "127.0.0.1", port: 8788 }), process.pid);
    assert.equal(readDevUrl(root), "http://127.0.0.1:8788");
    assert.deepEqual(resolveTarget({}, {}, root), {
      url: "http://127.0.0.1:8788",
      urlSource: "where npm run dev serves",
      key: "dev-admin-key",
      keySource: "dev key",
    });
    // --url and PRICING_API_URL still come first.
    const env = { PRICING_API_URL: "https://pricing.example", PRICING_API_KEY: "k" };
    assert.equal(resolveTarget({}, env, root).urlSource, "PRICING_API_URL");
    assert.equal(resolveTarget({ url: "http://127.0.0.1:9" }, env, root).urlSource, "--url");
    // Another process's note is left alone; its own is removed.
    removeDevUrl(root, process.pid + 1);
    assert.equal(readDevUrl(root), "http://127.0.0.1:8788");
    // A second npm run dev of the clone (another port) is the one answering while it runs; when
    // it stops, the first one's entry is still there.
    const second = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"]);
    try {
      writeDevUrl(root, "http://127.0.0.1:8789", /** @type {number} */ (second.pid));
      assert.equal(readDevUrl(root), "http://127.0.0.1:8789");
      removeDevUrl(root, /** @type {number} */ (second.pid));
      assert.equal(readDevUrl(root), "http://127.0.0.1:8788");
    } finally {
      second.kill();
    }
    removeDevUrl(root, process.pid);
    assert.equal(readDevUrl(root), undefined);
    // A note whose npm run dev is gone (a killed terminal) is ignored.
    writeDevUrl(root, "http://127.0.0.1:8788", await deadPid());
    assert.equal(resolveTarget({}, {}, root).url, DEFAULT_URL);
    assert.equal(urlOf({ host: "0.0.0.0", port: 8787 }), "http://localhost:8787");
    assert.equal(urlOf({ host: "::1", port: 8787 }), "http://[::1]:8787");
  });

  it("says at once, in one line, which URL nothing answers at", async () => {
    const port = await closedPort();
    /** @type {{ args: string[], env: Record<string, string>, source: string }[]} */
    const cases = [
      { args: ["--url", `http://127.0.0.1:${port}`], env: {}, source: "--url" },
      { args: [], env: { PRICING_API_URL: `http://127.0.0.1:${port}` }, source: "PRICING_API_URL" },
    ];
    for (const { args, env, source } of cases) {
      const started = Date.now();
      const { code, stderr } = await run("export.mjs", ["products", ...args], env);
      assert.equal(code, 1);
      const lines = stderr.trimEnd().split("\n");
      assert.equal(
        lines.at(-1),
        `[export] nothing answers at http://127.0.0.1:${port} (${source}): ECONNREFUSED; ` +
          "start the service (npm run dev) or name another with --url or PRICING_API_URL",
      );
      // The retries would take 7 s (pauses of 1, 2 and 4 s); the wording alone proves they were
      // skipped ("cannot reach" is the retries' last word), the clock says so too.
      assert.ok(Date.now() - started < 6500, `answered in ${Date.now() - started} ms`);
    }
  });
});

/**
 * Runs a CSV tool and gives its exit code and stderr.
 * @param {string} script
 * @param {string[]} args
 * @param {Record<string, string>} env
 * @returns {Promise<{ code: number | null, stderr: string }>}
 */
function run(script, args, env) {
  return new Promise((resolve, reject) => {
    const { PRICING_API_URL: _url, PRICING_API_KEY: _key, ...inherited } = process.env;
    // Run as a plain command, not under `npm run test:scripts`: npm's variables would make the
    // export refuse a stdout npm prints its banner into.
    delete inherited.npm_lifecycle_event;
    const child = spawn(process.execPath, [join(ROOT, "scripts", script), ...args], {
      cwd: ROOT,
      env: { ...inherited, ...env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}
