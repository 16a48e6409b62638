/**
 * How `npm run dev` (scripts/dev.mjs) stops with whatever started it, and what it finds out about
 * the machine before it starts wrangler.
 */
import { lookup } from "node:dns/promises";

/**
 * Calls `stop` once when the process that started this one is gone. `kill <pid of npm run dev>`
 * stops npm and its `sh -c`, but the shell does not pass the signal on: without this the script,
 * wrangler and its workerd processes would keep serving, orphaned.
 * @param {() => void} stop
 * @param {{ intervalMs?: number, parent?: number }} [options]
 * @returns {() => void} stops watching
 */
export function onParentExit(stop, { intervalMs = 500, parent = process.ppid } = {}) {
  const timer = setInterval(() => {
    try {
      process.kill(parent, 0);
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code === "EPERM") return;
      clearInterval(timer);
      stop();
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Whether names resolve here (the host the Worker asks for DNS over HTTPS), within `timeoutMs`.
 * Offline, the Worker's lookups fail, and the runtime logs a stack trace for each.
 * @param {{ host?: string, timeoutMs?: number }} [options]
 * @returns {Promise<boolean>}
 */
export async function namesResolve({ host = "cloudflare-dns.com", timeoutMs = 2000 } = {}) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const timeout = new Promise((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
  try {
    return Boolean(
      await Promise.race([
        lookup(host).then(
          () => true,
          () => false,
        ),
        timeout,
      ]),
    );
  } finally {
    clearTimeout(timer);
  }
}
