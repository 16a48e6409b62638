/**
 * The well-known local API keys. The Worker only ever sees their SHA-256 (API_KEYS in
 * `.dev.vars`, which wrangler dev reads and git ignores); they are never written to wrangler.toml,
 * which is deployed.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const DEV_KEYS = {
  admin: "dev-admin-key",
  read: "dev-read-key",
  /** A second admin key, named `approver`: approves what `dev-admin-key` wrote (docs/api.md §17). */
  approver: "dev-approver-key",
};

const sha256 = (/** @type {string} */ key) => createHash("sha256").update(key).digest("hex");

/** The dev keys before the approver key: a `.dev.vars` holding them is brought up to date. */
const twoKeys = () => `admin:${sha256(DEV_KEYS.admin)},read:${sha256(DEV_KEYS.read)}`;

/** The API_KEYS value for the dev keys: `admin:<sha256>,read:<sha256>,approver:admin:<sha256>`. */
export const devApiKeys = () => `${twoKeys()},approver:admin:${sha256(DEV_KEYS.approver)}`;

const devVarsBlock = () =>
  [
    "# Local API keys (created by `npm run dev`): role:sha256hex of the well-known dev keys,",
    "# which the README names. Replace them to use keys of your own.",
    `API_KEYS=${devApiKeys()}`,
    "",
  ].join("\n");

/**
 * Creates `<root>/.dev.vars` with the dev keys if it is missing. An existing file is left alone
 * (its keys may be the user's own), except that API_KEYS is appended when it has none, and the
 * approver key added when it holds exactly the two dev keys of before.
 * @param {string} root
 * @returns {"created" | "appended" | "added approver" | "kept dev keys" | "kept own keys"}
 */
export function ensureDevVars(root) {
  const path = join(root, ".dev.vars");
  if (!existsSync(path)) {
    writeFileSync(path, devVarsBlock(), { mode: 0o600 });
    return "created";
  }
  const current = readFileSync(path, "utf8");
  const value = /^\s*API_KEYS\s*=\s*["']?([^"'\n]*)/m.exec(current)?.[1];
  if (value?.trim() === twoKeys()) {
    writeFileSync(path, current.replace(twoKeys(), devApiKeys()));
    return "added approver";
  }
  if (value !== undefined) return value.trim() === devApiKeys() ? "kept dev keys" : "kept own keys";
  const separator = current === "" || current.endsWith("\n") ? "" : "\n";
  writeFileSync(path, `${current}${separator}${devVarsBlock()}`);
  return "appended";
}
