import { exports } from "cloudflare:workers";

export const KEYS = { admin: "test-admin-key", read: "test-read-key" } as const;

/** The sales keys of vitest.config.ts, by owner (docs/quotes.md §1; worked example F's names). */
export const SALES_KEYS = {
  "rep-1": "test-rep-1-key",
  "rep-2": "test-rep-2-key",
  manager: "test-manager-key",
  director: "test-director-key",
} as const;

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface CallOptions {
  body?: unknown;
  key?: string | null;
  headers?: Record<string, string>;
  /** A raw body sent as is (for malformed JSON, encoding and content-type tests). */
  raw?: string | Uint8Array;
}

/** Drives the real Worker; parses JSON and problem+json bodies. */
export async function api<T = any>(
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? KEYS.admin : options.key;
  if (key !== null) headers["x-webhook-signature"] = key;
  let body: string | Uint8Array | undefined = options.raw;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const res = await exports.default.fetch(
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

let counter = 0;
/** Unique codes so no test depends on another's data. */
export const uid = (prefix: string) =>
  `${prefix}-${(++counter).toString(36)}${Math.random().toString(36).slice(2, 7)}`.toUpperCase();

/** Asserts a problem+json error and returns its body. */
export function expectProblem(res: ApiResponse, status: number, code: string) {
  if (res.status !== status || res.body?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${res.status} ${JSON.stringify(res.body)}`);
  }
  if (!res.headers.get("content-type")?.startsWith("application/problem+json")) {
    throw new Error(`expected problem+json, got ${res.headers.get("content-type")}`);
  }
  return res.body as {
    type: string;
    title: string;
    status: number;
    detail: string;
    code: string;
    errors?: { path: string; message: string }[];
    requestId: string;
  };
}

/** The paths of the validation issues of a 400. */
export const issuePaths = (res: ApiResponse) =>
  expectProblem(res, 400, "VALIDATION_FAILED").errors?.map((e) => e.path) ?? [];

export async function created<T = any>(path: string, body: unknown): Promise<T> {
  const res = await api<T>("POST", path, { body });
  if (res.status !== 201)
    throw new Error(`POST ${path} -> ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** D1 round trips of a request, from its Server-Timing header. */
export function roundTrips(res: { headers: Headers }): number {
  const match = /^db;desc="(\d+) quer(?:y|ies)"/.exec(res.headers.get("server-timing") ?? "");
  if (!match) throw new Error(`no server-timing: ${res.headers.get("server-timing")}`);
  return Number(match[1]);
}
