#!/usr/bin/env node
// Makes a new API key: prints the key (give it to the client, once) and the `role:sha256hex`
// entry for API_KEYS (the only thing the service stores).
//   npm run key:new -- admin      npm run key:new -- read
import { createHash, randomBytes } from "node:crypto";

const role = process.argv[2] ?? "read";
if (role !== "admin" && role !== "read") {
  console.error("usage: npm run key:new -- admin|read");
  process.exit(2);
}
const key = `pk_${role}_${randomBytes(24).toString("base64url")}`;
const entry = `${role}:${createHash("sha256").update(key).digest("hex")}`;
console.log(`key (send as x-webhook-signature): ${key}`);
console.log(`API_KEYS entry:                    ${entry}`);
