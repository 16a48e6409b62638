/**
 * `npm run dev` end to end (scripts/dev.mjs): it notes where it serves for the CSV tools, takes
 * `--no-rate-limits`, and `kill <pid>` of the npm process stops the whole server, wrangler and
 * its workerd processes included (npm's `sh -c` passes no signal on; dev.mjs watches its parent).
 * It starts a real wrangler on a free port with an empty state directory, so it takes a minute.
 *
 * While it runs it replaces .wrangler/dev-url.json of a `npm run dev` you may have running, and
 * removes it when it stops: the CSV tools then fall back to the default URL.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { devUrlFile, readDevUrl } from "../../scripts/lib/dev-url.mjs";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen({ host: "127.0.0.1", port: 0 }, () => resolve(0)));
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  await new Promise((resolve) => server.close(() => resolve(0)));
  return port;
}

/** Whether any process of the group is left. @param {number} group */
function groupAlive(group) {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Polls until `check` is true or `ms` pass.
 * @param {() => Promise<boolean> | boolean} check
 * @param {number} ms
 */
async function waitFor(check, ms) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await sleep(250);
  }
  return false;
}

/** @param {string} url */
const answers = (url) =>
  fetch(url, { signal: AbortSignal.timeout(1000) }).then(
    (res) => res.ok,
    () => false,
  );

describe("npm run dev, stopped by the pid of npm", () => {
  it(
    "serves, notes its URL, lifts the rate limits on request, and stops entirely",
    {
      timeout: 180_000,
    },
    async () => {
      const port = await freePort();
      const state = mkdtempSync(join(tmpdir(), "dev-stop-"));
      const npm = spawn(
        "npm",
        ["run", "dev", "--", "--port", String(port), "--persist-to", state, "--no-seed"].concat(
          "--no-rate-limits",
        ),
        // Its own process group, so the test can tell whether anything of it is left.
        { cwd: ROOT, detached: true, stdio: ["ignore", "pipe", "pipe"] },
      );
      let output = "";
      npm.stdout.setEncoding("utf8").on("data", (chunk) => (output += chunk));
      npm.stderr.setEncoding("utf8").on("data", (chunk) => (output += chunk));
      const group = /** @type {number} */ (npm.pid);
      const url = `http://127.0.0.1:${port}`;
      try {
        assert.ok(await waitFor(() => answers(`${url}/health`), 120_000), output);
        assert.match(output, /\[dev\] rate limits off \(RATE_LIMITS=off\)/);
        assert.match(output, /--var RATE_LIMITS:off/);
        assert.equal(readDevUrl(ROOT), url);

        process.kill(group, "SIGTERM"); // npm's own pid, as `kill <pid>` would
        assert.ok(await waitFor(async () => !(await answers(`${url}/health`)), 15_000));
        assert.ok(await waitFor(() => !groupAlive(group), 15_000), "processes of it are left");
        assert.equal(existsSync(devUrlFile(ROOT)), false);
      } finally {
        if (groupAlive(group)) process.kill(-group, "SIGKILL");
        rmSync(state, { recursive: true, force: true });
      }
    },
  );
});
