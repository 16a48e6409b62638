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
  /** A second admin key, of another owner: approves what `dev-admin-key` wrote (docs/api.md §17). */
  approver: "dev-approver-key",
  /** A sales key: a rep who writes quotes (docs/quotes.md §1); owner `rep-1`, as example F names. */
  rep: "dev-rep-key",
  /** A sales key: the manager who approves the rep's quotes at the MANAGER tier. */
  manager: "dev-manager-key",
};

/**
 * The owner of each dev key (docs/api.md §6): change requests name owners, and the admin and the
 * approver are two, so one approves what the other wrote.
 */
export const DEV_OWNERS = {
  admin: "dev-admin",
  read: "dev-read",
  approver: "approver",
  rep: "rep-1",
  manager: "manager",
};

const sha256 = (/** @type {string} */ key) => createHash("sha256").update(key).digest("hex");

/** The dev keys before the approver key: a `.dev.vars` holding them is brought up to date. */
const twoKeys = () => `admin:${sha256(DEV_KEYS.admin)},read:${sha256(DEV_KEYS.read)}`;

/** The dev keys before owners (the admin key was `admin-<8 hex>`): brought up to date too. */
const unowned = () => `${twoKeys()},approver:admin:${sha256(DEV_KEYS.approver)}`;

/** The dev keys before the sales keys: owned admin, read and approver keys. */
const threeKeys = () =>
  [
    `${DEV_OWNERS.admin}:admin:${sha256(DEV_KEYS.admin)}`,
    `${DEV_OWNERS.read}:read:${sha256(DEV_KEYS.read)}`,
    `${DEV_OWNERS.approver}:admin:${sha256(DEV_KEYS.approver)}`,
  ].join(",");

/**
 * The API_KEYS value for the dev keys: `dev-admin:admin:<sha256>,dev-read:read:<sha256>,
 * approver:admin:<sha256>,rep-1:sales:<sha256>,manager:sales:<sha256>`.
 */
export const devApiKeys = () =>
  [
    threeKeys(),
    `${DEV_OWNERS.rep}:sales:${sha256(DEV_KEYS.rep)}`,
    `${DEV_OWNERS.manager}:sales:${sha256(DEV_KEYS.manager)}`,
  ].join(",");

const devVarsBlock = () =>
  [
    "# Local API keys (created by `npm run dev`): owner:role:sha256hex of the well-known dev keys,",
    "# which the README names. Replace them to use keys of your own.",
    `API_KEYS=${devApiKeys()}`,
    "",
  ].join("\n");

/**
 * Creates `<root>/.dev.vars` with the dev keys if it is missing. An existing file is left alone
 * (its keys may be the user's own), except that API_KEYS is appended when it has none, and the
 * dev keys of before (two keys, three without owners, or three without the sales keys) are
 * brought up to date.
 * @param {string} root
 * @returns {"created" | "appended" | "added approver" | "named owners" | "added sales keys" | "kept dev keys" | "kept own keys"}
 */
export function ensureDevVars(root) {
  const path = join(root, ".dev.vars");
  if (!existsSync(path)) {
    writeFileSync(path, devVarsBlock(), { mode: 0o600 });
    return "created";
  }
  const current = readFileSync(path, "utf8");
  const value = /^\s*API_KEYS\s*=\s*["']?([^"'\n]*)/m.exec(current)?.[1]?.trim();
  for (const [before, result] of /** @type {const} */ ([
    [threeKeys(), "added sales keys"],
    [unowned(), "named owners"],
    [twoKeys(), "added approver"],
  ])) {
    if (value === before) {
      writeFileSync(path, current.replace(before, devApiKeys()));
      return result;
    }
  }
  if (value !== undefined) return value === devApiKeys() ? "kept dev keys" : "kept own keys";
  const separator = current === "" || current.endsWith("\n") ? "" : "\n";
  writeFileSync(path, `${current}${separator}${devVarsBlock()}`);
  return "appended";
}
