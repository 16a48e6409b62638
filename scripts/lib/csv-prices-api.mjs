/**
 * What `prices:import` and `prices:export` share: the target service (URL and key), HTTP calls
 * with retries, and the pricelist look-up that gives the currency.
 */
import { DEV_KEYS } from "./dev-keys.mjs";
import { minorDigits } from "./money.mjs";

export const DEFAULT_URL = "http://localhost:8787";

/** Transient failures (network, 429, 5xx) are retried this often, with growing pauses. */
const ATTEMPTS = 4;
const TIMEOUT_MS = 60_000;

/** @param {string} hostname */
const isLoopback = (hostname) =>
  ["localhost", "127.0.0.1", "[::1]", "::1"].includes(hostname) || hostname.endsWith(".localhost");

/**
 * The service to talk to: `--url`, else PRICING_API_URL, else local dev. The key: `--key`, else
 * PRICING_API_KEY, else — for a loopback URL only — the dev admin key of `npm run dev`.
 * @param {{ url?: string, key?: string }} options
 * @param {NodeJS.ProcessEnv} env
 * @returns {{ url: string, key: string, keySource: string }}
 */
export function resolveTarget(options, env) {
  const raw = options.url ?? env.PRICING_API_URL ?? DEFAULT_URL;
  /** @type {URL} */
  let url;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`--url ${raw} is not a URL (e.g. ${DEFAULT_URL})`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new Error(`--url ${raw} must be http or https`);
  const base = url.href.replace(/\/+$/, "");
  if (options.key) return { url: base, key: options.key, keySource: "--key" };
  if (env.PRICING_API_KEY)
    return { url: base, key: env.PRICING_API_KEY, keySource: "PRICING_API_KEY" };
  if (isLoopback(url.hostname)) return { url: base, key: DEV_KEYS.admin, keySource: "dev key" };
  throw new Error(`an API key is needed for ${base}: set PRICING_API_KEY (or pass --key)`);
}

/**
 * @typedef {{ status: number, body: any, headers: Headers }} ApiResponse
 * @typedef {ReturnType<typeof createApi>} Api
 */

const pause = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

/**
 * @param {{ url: string, key: string }} target
 */
export function createApi(target) {
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
    for (let attempt = 1; ; attempt++) {
      const last = attempt === ATTEMPTS;
      /** @type {Response} */
      let res;
      try {
        res = await fetch(target.url + path, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch (error) {
        const inner = /** @type {{ cause?: { code?: string, message?: string } }} */ (error).cause;
        const cause = inner?.code ?? inner?.message;
        if (last)
          throw new Error(
            `cannot reach ${target.url} (${cause ?? (error instanceof Error ? error.message : error)})`,
            { cause: error },
          );
        await pause(500 * 2 ** attempt);
        continue;
      }
      if ((res.status === 429 || res.status >= 500) && !last) {
        await res.body?.cancel();
        const retryAfter = Number(res.headers.get("retry-after"));
        await pause(retryAfter > 0 ? Math.min(retryAfter, 60) * 1000 : 500 * 2 ** attempt);
        continue;
      }
      const text = await res.text();
      const json = (res.headers.get("content-type") ?? "").includes("json") && text !== "";
      return { status: res.status, body: json ? JSON.parse(text) : text, headers: res.headers };
    }
  }
  return {
    url: target.url,
    /** @param {string} path */
    get: (path) => call("GET", path),
    /** @param {string} path @param {unknown} body */
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

/**
 * The pricelist, with the minor-unit digits of its currency.
 * @param {Api} api
 * @param {number} id
 */
export async function fetchPricelist(api, id) {
  const res = await api.get(`/v1/api/pricelist/${id}`);
  if (res.status !== 200) throw new Error(`GET pricelist ${id}: ${describeFailure(res)}`);
  /** @type {{ id: number, name: string, currency: string, status: string }} */
  const pricelist = res.body;
  return { ...pricelist, ...minorDigits(pricelist.currency) };
}

/** The options both tools take (node:util parseArgs). */
export const COMMON_OPTIONS = /** @type {const} */ ({
  pricelist: { type: "string", short: "p" },
  url: { type: "string" },
  key: { type: "string" },
  help: { type: "boolean", short: "h", default: false },
});

/**
 * `--help` prints the usage and exits; `--pricelist` is required and a positive id.
 * @param {{ pricelist?: string | boolean, help?: string | boolean }} values
 * @param {string} usage
 */
export function pricelistIdOf(values, usage) {
  if (values.help === true) {
    console.log(usage);
    process.exit(0);
  }
  const raw = values.pricelist;
  if (typeof raw !== "string" || !/^\d{1,15}$/.test(raw) || Number(raw) < 1)
    throw new Error(`--pricelist <id> is required (a pricelist id such as 12)\n\n${usage}`);
  return Number(raw);
}
