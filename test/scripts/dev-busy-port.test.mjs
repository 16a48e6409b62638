/**
 * `npm run dev` on a busy port (scripts/dev.mjs, scripts/lib/dev-port.mjs): one line naming the
 * port, exit 1, and nothing migrated or written. A Node test (node:test), not a Worker one: it
 * spawns the script. Run by `npm run test:scripts` (and CI).
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { DEFAULT_PORT, listenAddress, portProblem } from "../../scripts/lib/dev-port.mjs";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** @type {import("node:net").Server} */
let server;
let port = 0;

before(async () => {
  server = createServer();
  await new Promise((resolve) => server.listen({ host: "127.0.0.1", port: 0 }, () => resolve(0)));
  port = /** @type {import("node:net").AddressInfo} */ (server.address()).port;
});

after(() => new Promise((resolve) => server.close(() => resolve(0))));

/**
 * Runs scripts/dev.mjs with `args` and gives its exit code and output.
 * @param {string[]} args
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string }>}
 */
function dev(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, "scripts", "dev.mjs"), ...args], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
    // The old script went on to migrate and start wrangler: never wait for that.
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe("npm run dev on a busy port", () => {
  it("says so in one line and stops before migrating anything", async () => {
    const state = mkdtempSync(join(tmpdir(), "dev-busy-port-"));
    try {
      const started = Date.now();
      const { code, stdout, stderr } = await dev(["--port", String(port), "--persist-to", state]);
      assert.equal(code, 1);
      assert.equal(stdout, "");
      const lines = stderr.trimEnd().split("\n");
      assert.equal(lines.length, 1, stderr);
      assert.match(
        lines[0] ?? "",
        new RegExp(`^\\[dev\\] port ${port} on 127\\.0\\.0\\.1 is already in use`),
      );
      assert.match(lines[0] ?? "", new RegExp(`npm run dev -- --port ${port + 1}`));
      // Nothing migrated: the local D1 state directory is as it was.
      assert.deepEqual(readdirSync(state), []);
      assert.ok(Date.now() - started < 10_000, "answered before any wrangler call");
    } finally {
      rmSync(state, { recursive: true, force: true });
    }
  });

  it("takes --port and --ip in both spellings, with 127.0.0.1:8787 by default", () => {
    assert.deepEqual(listenAddress([]), { host: "127.0.0.1", port: DEFAULT_PORT });
    assert.deepEqual(listenAddress(["--port", "9000", "--no-seed"]), {
      host: "127.0.0.1",
      port: 9000,
    });
    assert.deepEqual(listenAddress(["--port=9001", "--ip=0.0.0.0"]), {
      host: "0.0.0.0",
      port: 9001,
    });
    assert.deepEqual(listenAddress(["--ip", "localhost", "--port", "9000", "--port", "9002"]), {
      host: "localhost",
      port: 9002,
    });
  });

  it("finds a port free once its server is gone, and refuses what is no port", async () => {
    const probe = createServer();
    await new Promise((resolve) => probe.listen({ host: "127.0.0.1", port: 0 }, () => resolve(0)));
    const free = /** @type {import("node:net").AddressInfo} */ (probe.address()).port;
    assert.match((await portProblem({ host: "127.0.0.1", port: free })) ?? "", /already in use/);
    await new Promise((resolve) => probe.close(() => resolve(0)));
    assert.equal(await portProblem({ host: "127.0.0.1", port: free }), undefined);
    assert.match((await portProblem({ host: "127.0.0.1", port: 70_000 })) ?? "", /not a port/);
    assert.match(
      (await portProblem({ host: "127.0.0.1", port: Number("abc") })) ?? "",
      /not a port/,
    );
  });

  it("leaves no .dev.vars behind when it stops", async () => {
    // Only meaningful on a clone without one; elsewhere the file is the user's and stays.
    const devVars = join(ROOT, ".dev.vars");
    if (existsSync(devVars)) return;
    await dev(["--port", String(port)]);
    assert.equal(existsSync(devVars), false);
  });
});
