/**
 * One call to a local `wrangler dev`, made so that it survives wrangler's dev proxy after a long
 * call (docs/performance.md, "A catalogue-wide change request"; issue 28 item 8).
 *
 * `wrangler dev` (4.86) answers on a ProxyWorker, in its own workerd, that forwards every request
 * to the Worker's workerd over pooled keep-alive connections. A long D1 batch (a change request's
 * approve or cancel of 200,000 rows and more) holds the Worker's workerd for as long as it runs,
 * its timers included; once it answers, the connection that carried the call is closed from that
 * side, but the proxy keeps it in its pool. The proxy's next forward over it then fails, and the
 * proxy takes that for a Worker being reloaded:
 *
 * - a POST (PUT, PATCH, DELETE) is answered 503 "Your worker restarted mid-request", by the proxy,
 *   without reaching the Worker (it failed on the way in);
 * - a GET or HEAD is queued to be sent again when the Worker is back, which the proxy only looks
 *   at when another request arrives: alone, it waits forever.
 *
 * So a call answered by the proxy's 503 is sent again (`retries` times, after `retryMs`), and
 * while a GET or HEAD is unanswered after `nudgeMs`, a `POST /health` is sent beside it every
 * `nudgeMs` (each arrival lets the proxy send its queue again; a POST is never queued, and the
 * Worker answers it at once with 405). Each call goes over its own connection.
 * Over node:http, not fetch: fetch gives up on an answer whose headers take over 300 s, and a
 * million-row approve on a loaded machine may.
 */
import { request } from "node:http";

/** The body of the 503 that wrangler's ProxyWorker answers when its forward failed. */
export const PROXY_RESTART = "Your worker restarted mid-request";

/**
 * @typedef {object} DevCallOptions
 * @property {number} [retries] sends again after a proxy 503 (default 3)
 * @property {number} [retryMs] wait before each (default 250)
 * @property {number} [nudgeMs] a GET's wait before each nudge (default 2000)
 * @property {(text: string) => void} [log] told about each retry and nudge
 */

/**
 * One round trip over a connection of its own.
 * @param {string} url
 * @param {string} method
 * @param {string} path
 * @param {Record<string, string>} headers
 * @param {string | undefined} payload
 * @returns {Promise<{ status: number, headers: import("node:http").IncomingHttpHeaders, text: string }>}
 */
function roundTrip(url, method, path, headers, payload) {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, {
      method,
      agent: false,
      headers: {
        ...headers,
        ...(payload === undefined ? {} : { "content-length": String(Buffer.byteLength(payload)) }),
      },
    });
    req.on("error", (error) => reject(new Error(`${method} ${path}: ${error.message}`)));
    req.on("response", (res) => {
      /** @type {Buffer[]} */
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text });
      });
    });
    req.end(payload);
  });
}

const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A GET or HEAD, with a `POST /health` beside it every `nudgeMs` while it is unanswered.
 * @param {string} url
 * @param {Promise<T>} answer
 * @param {number} nudgeMs
 * @param {(text: string) => void} log
 * @returns {Promise<T>}
 * @template T
 */
async function nudged(url, answer, nudgeMs, log) {
  let done = false;
  /** @type {Promise<unknown>[]} */
  const nudges = [];
  const watch = (async () => {
    for (let n = 1; ; n++) {
      await sleep(nudgeMs);
      if (done) return;
      log(`no answer after ${n * nudgeMs} ms: nudging wrangler's dev proxy`);
      nudges.push(roundTrip(url, "POST", "/health", {}, undefined).catch(() => undefined));
    }
  })();
  try {
    return await answer;
  } finally {
    done = true;
    await watch;
    await Promise.all(nudges);
  }
}

/**
 * One call, timed from its first try; throws on an answer ≥ 300 (the proxy's 503 included, once
 * the retries are used up).
 * @param {string} url
 * @param {string} key
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @param {DevCallOptions} [options]
 * @returns {Promise<{ ms: number, timing: string, answer: any, tries: number }>}
 */
export async function devCall(url, key, method, path, body, options = {}) {
  const { retries = 3, retryMs = 250, nudgeMs = 2000, log = () => {} } = options;
  const started = performance.now();
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers = { "x-webhook-signature": key, "content-type": "application/json" };
  const queued = method === "GET" || method === "HEAD";
  for (let tries = 1; ; tries++) {
    const trip = roundTrip(url, method, path, headers, payload);
    const res = queued ? await nudged(url, trip, nudgeMs, log) : await trip;
    const proxyRestart = res.status === 503 && res.text.startsWith(PROXY_RESTART);
    if (proxyRestart && tries <= retries) {
      log(`${method} ${path}: wrangler's dev proxy lost its connection (503); sending it again`);
      await sleep(retryMs);
      continue;
    }
    if (res.status >= 300) {
      throw new Error(`${method} ${path}: ${res.status} ${res.text.slice(0, 300)}`);
    }
    const ms = performance.now() - started;
    const timing = String(res.headers["server-timing"] ?? "");
    return { ms, timing, answer: res.text ? JSON.parse(res.text) : undefined, tries };
  }
}
