import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../../src/index";
import { API_KEY_HEADER } from "../../src/http/auth";
import { KEYS, type ApiResponse } from "../shared/helpers";

/**
 * Calls the Worker's own fetch handler (the module's default export, what workerd invokes) with
 * the test environment: the same code, bindings, D1 and API_KEYS as `exports.default.fetch`,
 * minus the pool's loopback dispatch, whose per-request cost grows with every request a test
 * file has made (cloudflare/workers-sdk#15446) and would make thousands of requests take hours.
 */
export async function callWorker(request: Request): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(spreadAdminCalls(request), env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

let turn = 0;
let lastSpread: string | undefined;

/** The writer key the last admin call went out under (spreadAdminCalls). */
export const lastSpreadKey = () => lastSpread;

/**
 * The files that call the Worker this way send thousands of admin calls a minute, far above one
 * key's write limit (RATE_LIMITER_ADMIN, as wrangler.toml sets it: the tests raise no limit). So
 * each admin call goes out under the next of the writer keys (vitest.config.ts), as many
 * back-office clients would send them.
 */
function spreadAdminCalls(request: Request): Request {
  if (request.headers.get(API_KEY_HEADER) === KEYS.admin) {
    const keys = env.TEST_WRITER_KEYS;
    lastSpread = keys[turn++ % keys.length]!;
    request.headers.set(API_KEY_HEADER, lastSpread);
  }
  return request;
}

/** helpers.ts `api`, through callWorker. */
export async function call<T = any>(
  method: string,
  path: string,
  options: { body?: unknown; key?: string | null } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = {};
  const key = options.key === undefined ? KEYS.admin : options.key;
  if (key !== null) headers["x-webhook-signature"] = key;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] = "application/json";
  }
  const res = await callWorker(
    new Request(`http://pricing.test${path}`, { method, headers, body }),
  );
  const text = await res.text();
  const type = res.headers.get("content-type") ?? "";
  return {
    status: res.status,
    headers: res.headers,
    body: (type.includes("json") && text ? JSON.parse(text) : text) as T,
  };
}
