/**
 * What `npm run import` and `npm run export` share on the command line (docs/csv.md): the options,
 * the target service (URL and key), the kind and its context, and the messages on stderr.
 */
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { DEV_KEYS } from "./dev-keys.mjs";
import { readDevUrl } from "./dev-url.mjs";
import { createApi } from "./csv-http.mjs";
import { DEFAULT_CONCURRENCY } from "./csv-engine.mjs";
import { KINDS, kindOf } from "./csv-kinds.mjs";

export const DEFAULT_URL = "http://localhost:8787";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The options both tools take (node:util parseArgs). */
export const COMMON_OPTIONS = /** @type {const} */ ({
  file: { type: "string", short: "f" },
  pricelist: { type: "string", short: "p" },
  concurrency: { type: "string" },
  url: { type: "string" },
  key: { type: "string" },
  help: { type: "boolean", short: "h", default: false },
});

export const COMMON_USAGE = `kinds: ${Object.keys(KINDS).join(", ")} (headers: docs/csv.md)

  --pricelist <id>     prices only: the pricelist (its currency decides the decimals)
  --concurrency <n>    requests in flight, 1-16 (default ${DEFAULT_CONCURRENCY})
  --url <base>         the service (default PRICING_API_URL, else where npm run dev serves,
                       else ${DEFAULT_URL})
  --key <key>          an API key (default PRICING_API_KEY; dev-admin-key on localhost)`;

/** @param {string} hostname */
const isLoopback = (hostname) =>
  ["localhost", "127.0.0.1", "[::1]", "::1"].includes(hostname) || hostname.endsWith(".localhost");

/**
 * Which URL to use and why: `--url`, else PRICING_API_URL, else the URL the running `npm run dev`
 * noted (.wrangler/dev-url.json, scripts/lib/dev-url.mjs), else the default local address.
 * @param {{ url?: string }} options
 * @param {NodeJS.ProcessEnv} env
 * @param {string} root
 */
function chooseUrl(options, env, root) {
  if (options.url !== undefined) return { raw: options.url, urlSource: "--url" };
  if (env.PRICING_API_URL) return { raw: env.PRICING_API_URL, urlSource: "PRICING_API_URL" };
  const dev = readDevUrl(root);
  if (dev) return { raw: dev, urlSource: "where npm run dev serves" };
  return { raw: DEFAULT_URL, urlSource: "the default" };
}

/**
 * The service to talk to (see chooseUrl). The key: `--key`, else PRICING_API_KEY, else — for a
 * loopback URL only — the dev admin key of `npm run dev`.
 * @param {{ url?: string, key?: string }} options
 * @param {NodeJS.ProcessEnv} env
 * @param {string} [root] the project root, where npm run dev notes its URL
 * @returns {{ url: string, urlSource: string, key: string, keySource: string }}
 */
export function resolveTarget(options, env, root = ROOT) {
  const { raw, urlSource } = chooseUrl(options, env, root);
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
  const at = { url: base, urlSource };
  if (options.key) return { ...at, key: options.key, keySource: "--key" };
  if (env.PRICING_API_KEY) return { ...at, key: env.PRICING_API_KEY, keySource: "PRICING_API_KEY" };
  if (isLoopback(url.hostname)) return { ...at, key: DEV_KEYS.admin, keySource: "dev key" };
  throw new Error(`an API key is needed for ${base}: set PRICING_API_KEY (or pass --key)`);
}

/** A path as the user typed it, from where npm was started. @param {string} path */
export const userPath = (path) => resolve(process.env.INIT_CWD ?? process.cwd(), path);

/** @param {string | boolean | undefined} raw */
function concurrencyOf(raw) {
  if (raw === undefined) return DEFAULT_CONCURRENCY;
  const n = Number(raw);
  if (typeof raw !== "string" || !/^\d{1,2}$/.test(raw) || n < 1 || n > 16)
    throw new Error(`--concurrency ${raw} must be a whole number from 1 to 16`);
  return n;
}

/**
 * The kind, the service and what the kind needs from it (the pricelist of prices), from the
 * command line; `--help` prints the usage and exits.
 * @param {{ values: Record<string, string | boolean | undefined>, positionals: string[] }} args
 * @param {string} usage
 * @param {(text: string) => void} info
 */
export async function setUp({ values, positionals }, usage, info) {
  if (values.help === true) {
    console.log(usage);
    process.exit(0);
  }
  /** @type {import("./csv-kinds.mjs").Kind} */
  let kind;
  try {
    kind = kindOf(positionals[0]);
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : error}\n\n${usage}`, {
      cause: error,
    });
  }
  if (values.pricelist !== undefined && kind.name !== "prices")
    throw new Error(`--pricelist is for prices only, not ${kind.name}`);
  const concurrency = concurrencyOf(values.concurrency);
  const target = resolveTarget(
    {
      url: /** @type {string | undefined} */ (values.url),
      key: /** @type {string | undefined} */ (values.key),
    },
    process.env,
  );
  const api = createApi(target);
  const ctx = await kind.prepare(api, { pricelist: /** @type {string} */ (values.pricelist) });
  info(
    `${kind.name}${ctx.label ? ` of ${ctx.label}` : ""} at ${target.url} (${target.urlSource}), key from ${target.keySource}`,
  );
  for (const note of ctx.notes) info(note);
  return { kind, ctx, api, concurrency, target };
}
