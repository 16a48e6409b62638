#!/usr/bin/env node
// Makes a new API key: prints the key (give it to the client, once) and its entry for API_KEYS
// (the only thing the service stores), `owner:owner-<first 8 hex>:role:sha256hex`.
//   npm run key:new -- admin --name alice      npm run key:new -- read --name shop
//   npm run key:new -- sales --name rep-1
// The owner names whose key it is and stays the same when the key is rotated: change requests
// name owners, and no key of a request's writer may approve it (docs/api.md §6, §17.2); the quote
// policy's tiers name the owners of the sales keys that approve (docs/quotes.md §4). An admin key
// needs one; a read or sales key without one gets the short `role:sha256hex` (named and owned
// `role-<first 8 hex>`: the name a tier would give it).
import { createHash, randomBytes } from "node:crypto";
import { parseArgs } from "node:util";

const USAGE =
  "usage: npm run key:new -- admin|read|sales --name <owner>   (--name: required for admin)";
/** Names the service gives to others than a key's owner: `approvedBy` `policy` or `envelope`. */
const RESERVED = new Set(["policy", "envelope", "scheduled", "unknown"]);

/** @param {string} message */
function fail(message) {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

/** @type {{ values: { name?: string }, positionals: string[] }} */
let args = { values: {}, positionals: [] };
try {
  args = parseArgs({ options: { name: { type: "string" } }, allowPositionals: true });
} catch (error) {
  fail(/** @type {Error} */ (error).message);
}
const role = args.positionals[0] ?? "read";
const owner = args.values.name;
if (!["admin", "read", "sales"].includes(role) || args.positionals.length > 1) {
  fail("admin, read or sales");
}
if (owner === undefined && role === "admin") {
  fail("an admin key needs its owner's name (--name alice): four eyes compare owners");
}

if (owner !== undefined && !/^[A-Za-z0-9._-]{1,55}$/.test(owner)) {
  fail("--name: 1-55 letters, digits, '.', '_' or '-'");
}
if (owner !== undefined && RESERVED.has(owner)) fail(`--name: "${owner}" is reserved`);

const key = `pk_${role}_${randomBytes(24).toString("base64url")}`;
const hex = createHash("sha256").update(key).digest("hex");
const entry =
  owner === undefined ? `${role}:${hex}` : `${owner}:${owner}-${hex.slice(0, 8)}:${role}:${hex}`;
console.log(`key (send as x-webhook-signature): ${key}`);
console.log(`API_KEYS entry:                    ${entry}`);
