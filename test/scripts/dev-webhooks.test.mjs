/**
 * What `npm run dev` says and passes about webhook targets (scripts/lib/dev-webhooks.mjs): the
 * WEBHOOK_ALLOWED_HOSTS in force, whether it comes from a `--var`, from .dev.vars or from the
 * default, never the default's hosts when something else overrides them.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import {
  devVarOf,
  webhookArgs,
  webhookHosts,
  webhookHowTo,
} from "../../scripts/lib/dev-webhooks.mjs";

/** A project root with this .dev.vars (none when undefined). @param {string | undefined} devVars */
function rootWith(devVars) {
  const root = mkdtempSync(join(tmpdir(), "dev-webhooks-"));
  if (devVars !== undefined) writeFileSync(join(root, ".dev.vars"), devVars);
  return root;
}

describe("dev webhooks: the allowed hosts in force", () => {
  it("without an override, the default 127.0.0.1,localhost is passed and printed", () => {
    const root = rootWith('ADMIN_API_KEYS="dev-admin-key"\n');
    try {
      const inForce = webhookHosts(root, []);
      assert.deepEqual(inForce, { hosts: ["127.0.0.1", "localhost"], from: "npm run dev" });
      assert.deepEqual(webhookArgs(root, []), [
        "--test-scheduled",
        "--var",
        "WEBHOOK_ALLOWED_HOSTS:127.0.0.1,localhost",
      ]);
      const lines = webhookHowTo(8787, inForce);
      assert.equal(
        lines[0],
        "webhooks: 127.0.0.1,localhost are allowed targets here; the sweep runs every minute",
      );
      assert.ok(!lines.some((l) => l.includes("step 1 needs")));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it(".dev.vars overriding WEBHOOK_ALLOWED_HOSTS: its hosts are printed, no --var is added", () => {
    const root = rootWith(
      '# local\nADMIN_API_KEYS="a"\nWEBHOOK_ALLOWED_HOSTS="hooks.internal.test" # receiver\n',
    );
    try {
      const inForce = webhookHosts(root, []);
      assert.deepEqual(inForce, { hosts: ["hooks.internal.test"], from: ".dev.vars" });
      assert.deepEqual(webhookArgs(root, []), ["--test-scheduled"]);
      const lines = webhookHowTo(8787, inForce);
      assert.equal(
        lines[0],
        "webhooks: hooks.internal.test is an allowed target here (WEBHOOK_ALLOWED_HOSTS from .dev.vars); the sweep runs every minute",
      );
      assert.ok(!lines.join("\n").includes("127.0.0.1,localhost"));
      assert.match(lines.at(-1) ?? "", /step 1 needs 127\.0\.0\.1 in WEBHOOK_ALLOWED_HOSTS/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("an empty WEBHOOK_ALLOWED_HOSTS in .dev.vars allows no host, and says so", () => {
    const root = rootWith("WEBHOOK_ALLOWED_HOSTS=\n");
    try {
      const inForce = webhookHosts(root, []);
      assert.deepEqual(inForce, { hosts: [], from: ".dev.vars" });
      assert.match(
        webhookHowTo(8787, inForce)[0] ?? "",
        /^webhooks: no host is an allowed target here/,
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("a --var in the arguments wins over .dev.vars (wrangler's precedence)", () => {
    const root = rootWith("WEBHOOK_ALLOWED_HOSTS=from-dev-vars.test\n");
    try {
      const args = ["--var", "WEBHOOK_ALLOWED_HOSTS:127.0.0.1,cli.test"];
      const inForce = webhookHosts(root, args);
      assert.deepEqual(inForce, { hosts: ["127.0.0.1", "cli.test"], from: "--var" });
      assert.deepEqual(webhookArgs(root, args), ["--test-scheduled"]);
      assert.match(
        webhookHowTo(8787, inForce)[0] ?? "",
        /127\.0\.0\.1,cli\.test are allowed .*from --var/,
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("reads .dev.vars as dotenv does: quotes, comments, export, the last assignment", () => {
    assert.equal(devVarOf("A=1\n", "WEBHOOK_ALLOWED_HOSTS"), undefined);
    assert.equal(
      devVarOf("WEBHOOK_ALLOWED_HOSTS='a.test,b.test'\n", "WEBHOOK_ALLOWED_HOSTS"),
      "a.test,b.test",
    );
    assert.equal(
      devVarOf("export WEBHOOK_ALLOWED_HOSTS=x.test # c\n", "WEBHOOK_ALLOWED_HOSTS"),
      "x.test",
    );
    assert.equal(
      devVarOf(
        "WEBHOOK_ALLOWED_HOSTS=one.test\r\nWEBHOOK_ALLOWED_HOSTS=two.test\r\n",
        "WEBHOOK_ALLOWED_HOSTS",
      ),
      "two.test",
    );
    assert.equal(devVarOf("# WEBHOOK_ALLOWED_HOSTS=no.test\n", "WEBHOOK_ALLOWED_HOSTS"), undefined);
  });
});
