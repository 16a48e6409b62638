/**
 * Where `npm run dev` serves, for the other local tools (`npm run import`, `npm run export`):
 * scripts/dev.mjs writes `.wrangler/dev-url.json` ({ url, pid }) when it starts wrangler and
 * removes it when it stops; a file whose process is gone (a killed terminal) is ignored.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** @param {string} root the project root */
export const devUrlFile = (root) => join(root, ".wrangler", "dev-url.json");

/** @param {number} pid */
function running(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return /** @type {NodeJS.ErrnoException} */ (error).code === "EPERM";
  }
}

/**
 * The URL of the running `npm run dev`, or undefined when none is running.
 * @param {string} root
 * @returns {string | undefined}
 */
export function readDevUrl(root) {
  try {
    const { url, pid } = JSON.parse(readFileSync(devUrlFile(root), "utf8"));
    return typeof url === "string" && Number.isInteger(pid) && running(pid) ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * @param {string} root
 * @param {string} url
 * @param {number} pid the process that removes it again (scripts/dev.mjs)
 */
export function writeDevUrl(root, url, pid) {
  const file = devUrlFile(root);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ url, pid })}\n`);
}

/**
 * Removes the file if it is still this process's (a later `npm run dev` may have replaced it).
 * @param {string} root
 * @param {number} pid
 */
export function removeDevUrl(root, pid) {
  try {
    if (JSON.parse(readFileSync(devUrlFile(root), "utf8")).pid === pid) rmSync(devUrlFile(root));
  } catch {
    // Already gone.
  }
}

/**
 * The URL a client reaches a server listening on host:port by.
 * @param {{ host: string, port: number }} address
 */
export const urlOf = ({ host, port }) => {
  const reachable = host === "0.0.0.0" || host === "::" ? "localhost" : host;
  return `http://${reachable.includes(":") ? `[${reachable}]` : reachable}:${port}`;
};
