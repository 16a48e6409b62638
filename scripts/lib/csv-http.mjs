/**
 * The HTTP side of `npm run import` / `npm run export`, pure (no Node APIs, so the Worker tests
 * drive the tools through it with the Worker's own fetch): calls with retries, and the one-line
 * description of a failed answer.
 */

/** Transient failures (network, 429, 5xx) are retried this often, with growing pauses. */
const ATTEMPTS = 4;
const TIMEOUT_MS = 60_000;

/**
 * Connection errors that, before anything has answered, mean no service is there: said at once
 * instead of after the retries (a refused connection later on, a restart, is retried).
 */
const NOTHING_THERE = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH"]);

/**
 * @typedef {{ status: number, body: any, headers: Headers }} ApiResponse
 * @typedef {{ url: string, get: (path: string) => Promise<ApiResponse>,
 *   put: (path: string, body: unknown) => Promise<ApiResponse> }} Api
 * @typedef {(url: string, init: RequestInit) => Promise<Response>} Fetch
 */

const pause = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

/**
 * @param {{ url: string, key: string, urlSource?: string }} target the service's base URL, an
 *   API key, and where the URL came from (said when nothing answers there)
 * @param {{ fetch?: Fetch, retryPauseMs?: number }} [options] another fetch (the tests pass the
 *   Worker's); the first retry pause (doubled on each attempt)
 * @returns {Api}
 */
export function createApi(target, { fetch: send = fetch, retryPauseMs = 1000 } = {}) {
  let reached = false;
  const where = `${target.url}${target.urlSource ? ` (${target.urlSource})` : ""}`;
  /**
   * @param {"GET" | "PUT"} method
   * @param {string} path starting with /v1/api/
   * @param {unknown} [body]
   * @returns {Promise<ApiResponse>}
   */
  async function call(method, path, body) {
    const headers = /** @type {Record<string, string>} */ ({
      "x-webhook-signature": target.key,
      accept: "application/json",
    });
    if (body !== undefined) headers["content-type"] = "application/json";
    const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
    for (let attempt = 1; ; attempt++) {
      const last = attempt === ATTEMPTS;
      const wait = retryPauseMs * 2 ** (attempt - 1);
      /** @type {Response} */
      let res;
      try {
        res = await send(target.url + path, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
      } catch (error) {
        const inner = /** @type {{ cause?: { code?: string, message?: string } }} */ (error).cause;
        const cause = inner?.code ?? inner?.message;
        if (!reached && NOTHING_THERE.has(inner?.code ?? "")) {
          throw new Error(
            `nothing answers at ${where}: ${cause}; start the service (npm run dev) or name ` +
              "another with --url or PRICING_API_URL",
            { cause: error },
          );
        }
        if (last)
          throw new Error(
            `cannot reach ${where} (${cause ?? (error instanceof Error ? error.message : error)})`,
            { cause: error },
          );
        await pause(wait);
        continue;
      }
      reached = true;
      if ((res.status === 429 || res.status >= 500) && !last) {
        await res.body?.cancel();
        const retryAfter = Number(res.headers.get("retry-after"));
        await pause(retryAfter > 0 ? Math.min(retryAfter, 60) * 1000 : wait);
        continue;
      }
      const text = await res.text();
      const json = (res.headers.get("content-type") ?? "").includes("json") && text !== "";
      return { status: res.status, body: json ? JSON.parse(text) : text, headers: res.headers };
    }
  }
  return {
    url: target.url,
    get: (path) => call("GET", path),
    put: (path, body) => call("PUT", path, body),
  };
}

/**
 * "404 NOT_FOUND: pricelist 12 not found" from a problem+json answer, with the usual remedy.
 * @param {ApiResponse} res
 */
export function describeFailure(res) {
  const problem = typeof res.body === "object" && res.body ? res.body : {};
  const what = problem.code
    ? `${res.status} ${problem.code}: ${problem.detail ?? ""}`
    : `${res.status} ${String(res.body).slice(0, 200)}`;
  if (res.status === 401) return `${what} (the key was refused: set PRICING_API_KEY or --key)`;
  return what;
}
