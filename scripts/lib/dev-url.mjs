/**
 * Where `npm run dev` serves, for the other local tools (`npm run import`, `npm run export`):
 * scripts/dev.mjs notes itself in `.wrangler/dev-url.json` ({ servers: [{ url, pid }] }) when it
 * starts wrangler and takes itself out when it stops, so a second `npm run dev` of the same clone
 * (another port) stopping leaves the first one's entry; an entry whose process is gone (a killed
 * terminal) is ignored.
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
 * The servers noted and still running, oldest first (`{ url, pid }` alone: a note of one).
 * @param {string} root
 * @returns {{ url: string, pid: number }[]}
 */
function notedServers(root) {
  try {
    const noted = JSON.parse(readFileSync(devUrlFile(root), "utf8"));
    const servers = Array.isArray(noted?.servers) ? noted.servers : [noted];
    return servers.filter(
      (/** @type {any} */ s) =>
        typeof s?.url === "string" && Number.isInteger(s.pid) && running(s.pid),
    );
  } catch {
    return [];
  }
}

/** @param {string} root @param {{ url: string, pid: number }[]} servers */
function note(root, servers) {
  const file = devUrlFile(root);
  if (servers.length === 0) return rmSync(file, { force: true });
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ servers })}\n`);
}

/**
 * The URL of the running `npm run dev` (the one started last, when several run in one clone),
 * or undefined when none is running.
 * @param {string} root
 * @returns {string | undefined}
 */
export const readDevUrl = (root) => notedServers(root).at(-1)?.url;

/**
 * @param {string} root
 * @param {string} url
 * @param {number} pid the process that removes it again (scripts/dev.mjs)
 */
export function writeDevUrl(root, url, pid) {
  note(root, [...notedServers(root).filter((s) => s.pid !== pid), { url, pid }]);
}

/**
 * Removes this process's entry: another `npm run dev` of the same clone keeps its own.
 * @param {string} root
 * @param {number} pid
 */
export function removeDevUrl(root, pid) {
  note(
    root,
    notedServers(root).filter((s) => s.pid !== pid),
  );
}

/**
 * The URL a client reaches a server listening on host:port by.
 * @param {{ host: string, port: number }} address
 */
export const urlOf = ({ host, port }) => {
  const reachable = host === "0.0.0.0" || host === "::" ? "localhost" : host;
  return `http://${reachable.includes(":") ? `[${reachable}]` : reachable}:${port}`;
};
