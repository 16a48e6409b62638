import createClient from "openapi-fetch";
import type { components, paths } from "../../../client/pricing-api";
import { bookmarkCarrier } from "./bookmark";
import { readBookmark, readKey, storeBookmark } from "./session";

export type Schemas = components["schemas"];

/** The header that carries the API key (src/lib/auth.ts API_KEY_HEADER). */
export const API_KEY_HEADER = "x-webhook-signature";

/** Fired on window when the API refuses the tab's key (401): the page signs out. */
export const UNAUTHORIZED_EVENT = "pricing:unauthorized";

/**
 * The typed client (client/pricing-api.d.ts, generated from /doc) on this origin: the page's
 * CSP allows no other (connect-src 'self').
 */
export const api = createClient<paths>({ baseUrl: location.origin });

api.use({
  onRequest({ request }) {
    const key = readKey();
    if (key && !request.headers.has(API_KEY_HEADER)) request.headers.set(API_KEY_HEADER, key);
    return request;
  },
  onResponse({ request, response }) {
    // Only the tab's own key signs the tab out; a key being tried on the sign-in form does not.
    const own = readKey();
    if (response.status === 401 && own && request.headers.get(API_KEY_HEADER) === own) {
      window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
    }
    return response;
  },
});

// Every call carries the newest D1 bookmark the tab has seen: the page reads its own writes.
api.use(bookmarkCarrier({ read: readBookmark, write: storeBookmark }));

/** An error answer of the API (problem+json), or a network failure (status 0). */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
    readonly issues: readonly { path: string; message: string }[] = [],
  ) {
    super(detail);
  }
}

interface ProblemBody {
  code?: string;
  detail?: string;
  errors?: { path: string; message: string }[];
}

const problemOf = (status: number, body: unknown): ApiProblem => {
  const problem = (typeof body === "object" && body !== null ? body : {}) as ProblemBody;
  const detail = problem.detail ?? `the service answered ${status}`;
  return new ApiProblem(status, problem.code ?? "UNKNOWN", detail, problem.errors ?? []);
};

/**
 * The data of an openapi-fetch answer, or an ApiProblem: every page shows failures the same way.
 * An aborted call rejects with its AbortError, which callers ignore.
 */
export async function unwrap<R extends { data?: unknown; error?: unknown; response: Response }>(
  call: Promise<R>,
): Promise<NonNullable<R["data"]>> {
  let answer: R;
  try {
    answer = await call;
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    throw new ApiProblem(0, "NETWORK", "the service could not be reached");
  }
  const { data, error, response } = answer;
  if (!response.ok || data === undefined) throw problemOf(response.status, error);
  return data as NonNullable<R["data"]>;
}

export const isAbort = (error: unknown) =>
  error instanceof DOMException && error.name === "AbortError";

/** A sentence for any failure: the API's detail, its field issues, or what went wrong. */
export function describeError(error: unknown): string {
  if (!(error instanceof ApiProblem)) return error instanceof Error ? error.message : String(error);
  if (error.status === 403) return `${error.message} (this page needs an admin key)`;
  // One issue is already the detail ("body.x: message"); several are listed after it.
  const issues = error.issues
    .filter((i) => !error.message.includes(i.path))
    .map((i) => `${i.path}: ${i.message}`);
  return issues.length ? `${error.message}: ${issues.join("; ")}` : error.message;
}
