import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ZodError } from "zod";
import type { BlockerKind } from "../pricing/vocabulary";
import { issueMessage } from "./wording";

// Every issue a schema does not word itself is worded once, here
// (docs/api/errors-and-limits.md §7.3).
z.config({ customError: issueMessage });

export type ErrorStatus =
  400 | 401 | 403 | 404 | 405 | 409 | 410 | 413 | 415 | 422 | 429 | 500 | 503;

/** Where a validation issue sits: `body.scales.0.minQuantity`, `query.filter.scope`, `path.id`. */
export interface FieldIssue {
  path: string;
  message: string;
}

export const TITLES: Record<ErrorStatus, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  410: "Gone",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

/**
 * Records of one kind that keep a record from being deleted (docs/api/errors-and-limits.md §7.3).
 */
export interface Blocker {
  kind: BlockerKind;
  /** How many there are, all of them. */
  count: number;
  /** The first MAX_BLOCKERS_SHOWN, in order: by code where the kind has one, else by id. */
  codes?: string[];
  ids?: number[];
}

/** What a problem may carry beyond its status, code and detail. */
export interface ProblemExtras {
  /** Response headers (`retry-after`, `allow`). */
  headers?: Record<string, string>;
  /** Members a problem of this code adds to the body (RFC 9457 extensions): `blockers`, `oldestCursor`. */
  extensions?: Record<string, unknown>;
}

/** The one error type of the service. Everything that is not an ApiError becomes a generic 500. */
export class ApiError extends Error {
  readonly headers?: Record<string, string>;
  readonly extensions?: Record<string, unknown>;

  constructor(
    readonly status: ErrorStatus,
    readonly code: string,
    readonly detail: string,
    readonly errors?: FieldIssue[],
    extras: ProblemExtras = {},
  ) {
    super(detail);
    this.headers = extras.headers;
    this.extensions = extras.extensions;
  }
}

export const notFound = (detail: string) => new ApiError(404, "NOT_FOUND", detail);
export const conflict = (detail: string, code = "CONFLICT") => new ApiError(409, code, detail);
export const badRequest = (detail: string, errors?: FieldIssue[]) =>
  new ApiError(400, "VALIDATION_FAILED", detail, errors);

/**
 * 503 DATABASE_STALLED: a price lookup whose freshness check D1 kept waiting past `stallMs`, and
 * whose held data is older than `staleMaxS` (src/db/pricing/stall.ts).
 */
export const databaseStalled = (stallMs: number, staleMaxS: number, retryAfterS: number) =>
  new ApiError(
    503,
    "DATABASE_STALLED",
    `the database did not answer within ${stallMs} ms and the prices this server holds were ` +
      `last confirmed more than ${staleMaxS} seconds ago; retry after ${retryAfterS} seconds`,
    undefined,
    { headers: { "retry-after": String(retryAfterS) } },
  );

/** A 409 IN_USE lists at most this many records of each kind; its count is always complete. */
export const MAX_BLOCKERS_SHOWN = 20;

/** A blocker, and how the detail names one of them ("child group" for a product group's). */
export interface NamedBlocker extends Blocker {
  noun: string;
}

/** `2 trade conditions (12, 14)`; past the listed ones, `(… and 5 more)`. */
function described({ noun, count, codes, ids }: NamedBlocker) {
  const listed: (string | number)[] = codes ?? ids ?? [];
  const more = count > listed.length ? ` and ${count - listed.length} more` : "";
  return `${count} ${noun}${count === 1 ? "" : "s"} (${listed.join(", ")}${more})`;
}

/** `a`, `a and b`, `a, b and c`. */
const enumerated = (parts: string[]) =>
  parts.length < 2 ? parts.join("") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;

/**
 * The one answer to a delete that other records stand in the way of
 * (docs/api/errors-and-limits.md §7.3): 409 IN_USE, naming them in a sentence and, for programs, in
 * `blockers` (each kind with its count and the first MAX_BLOCKERS_SHOWN codes or ids).
 */
export function inUse(subject: string, found: NamedBlocker[]): ApiError {
  const detail =
    `${subject} is still named by ${enumerated(found.map(described))}; ` +
    "remove it from them first";
  const blockers = found.map(({ kind, count, codes, ids }) => ({
    kind,
    count,
    ...(codes ? { codes } : { ids }),
  }));
  return new ApiError(409, "IN_USE", detail, undefined, { extensions: { blockers } });
}

/** An upload cut off by the client: its doing, not ours, and nothing is written. */
export const incompleteBody = () =>
  new ApiError(
    400,
    "INCOMPLETE_BODY",
    "the request body ended before it was complete (the upload was cut off); nothing was written",
  );

/**
 * Bounds of a 400 (docs/api/errors-and-limits.md §7): a hostile query of 20 KB must not get an
 * answer of 850 KB. At most MAX_ISSUES issues are listed (the detail gives the total),
 * MAX_BODY_ISSUES when every issue is in the body, so a bulk body of 1000 rows hears of each bad
 * row (a body's issues come from at most 1 MiB it sent); any piece of the request quoted back is
 * cut at MAX_ECHO characters; paths and messages have a hard cap besides.
 */
export const MAX_ISSUES = 20;
export const MAX_BODY_ISSUES = 1000;
export const MAX_ECHO = 100;
const MAX_PATH = 160;
const MAX_MESSAGE = 600;

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** Paths name fields the client sent (`query.filter.<its key>`): each segment is cut too. */
const boundedPath = (path: string) =>
  cut(
    path
      .split(".")
      .map((segment) => cut(segment, MAX_ECHO))
      .join("."),
    MAX_PATH,
  );

/** A piece of the request in a message, at most MAX_ECHO characters. */
export const echo = (value: string) => cut(value, MAX_ECHO);

/** The same, JSON-quoted. */
export const quote = (value: string) => JSON.stringify(echo(value));

/** One issue per field so a client can show every problem at once, within the bounds above. */
export function invalid(errors: FieldIssue[]): ApiError {
  const max = errors.every(({ path }) => path.startsWith("body.")) ? MAX_BODY_ISSUES : MAX_ISSUES;
  const listed = errors.slice(0, max).map(({ path, message }) => ({
    path: boundedPath(path),
    message: cut(message, MAX_MESSAGE),
  }));
  const detail =
    errors.length === 1
      ? `${listed[0]!.path}: ${listed[0]!.message}`
      : errors.length > max
        ? `${errors.length} validation issues; the first ${max} are listed in errors`
        : `${errors.length} validation issues; see errors`;
  return badRequest(detail, listed);
}

/** Codes a body named that name no record: one issue on the field that named them (20 at most). */
export function unknownCodesIssue(field: string, noun: string, codes: string[]): FieldIssue {
  const shown = codes.slice(0, MAX_ISSUES).join(", ");
  const more = codes.length > MAX_ISSUES ? ` and ${codes.length - MAX_ISSUES} more` : "";
  return { path: `body.${field}`, message: `unknown ${noun} codes: ${shown}${more}` };
}

const LOCATIONS: Record<string, string> = {
  json: "body",
  query: "query",
  param: "path",
  header: "header",
};

export function fromZodError(error: ZodError, target: string): ApiError {
  const location = LOCATIONS[target] ?? target;
  const issues: FieldIssue[] = error.issues.flatMap((issue) => {
    const path = [location, ...issue.path.map(String)].join(".");
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({ path: `${path}.${key}`, message: "is not a known field" }));
    }
    return [{ path, message: issue.message }];
  });
  return invalid(issues);
}

function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof HTTPException) {
    switch (err.status) {
      case 400:
        return new ApiError(400, "MALFORMED_JSON", "the request body is not valid JSON");
      case 413:
        return new ApiError(413, "PAYLOAD_TOO_LARGE", "the request body is larger than 1 MiB");
      case 415:
        return new ApiError(
          415,
          "UNSUPPORTED_MEDIA_TYPE",
          "the request body must be sent as application/json",
        );
    }
  }
  return new ApiError(500, "INTERNAL_ERROR", "an unexpected error occurred; quote the requestId");
}

export const problemType = (code: string) =>
  `urn:problem:pricing:${code.toLowerCase().replaceAll("_", "-")}`;

export function problemResponse(c: Context, error: ApiError): Response {
  const body = {
    type: problemType(error.code),
    title: TITLES[error.status],
    status: error.status,
    detail: error.detail,
    code: error.code,
    ...(error.errors ? { errors: error.errors } : {}),
    ...error.extensions,
    requestId: c.get("requestId") as string | undefined,
  };
  for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
  c.header("content-type", "application/problem+json");
  return c.body(JSON.stringify(body), error.status as ContentfulStatusCode);
}

/**
 * An unexpected error as it may be logged: names, messages and stack frames along the cause
 * chain, but never request data. Drizzle's query errors carry the bound parameters (body values)
 * in their message; only the SQL text is kept. Keys never reach an error: only their hash is
 * compared, and the key name is all that travels further.
 */
export function loggable(err: unknown, depth = 0): Record<string, unknown> {
  if (!(err instanceof Error)) return { error: typeof err };
  const query = (err as { query?: unknown }).query;
  const message =
    typeof query === "string" && "params" in err ? `Failed query: ${query}` : err.message;
  const frames = (err.stack ?? "")
    .split("\n")
    .filter((line) => /^\s+at /.test(line))
    .map((line) => line.trim());
  const cause = (err as { cause?: unknown }).cause;
  return {
    name: err.name,
    message,
    frames,
    ...(cause !== undefined && depth < 4 ? { cause: loggable(cause, depth + 1) } : {}),
  };
}

/** app.onError: the only place a thrown error becomes a response. Causes are logged, never sent. */
export function onError(err: Error, c: Context): Response {
  const error = toApiError(err);
  if (error.status === 500) {
    // Who (the key's name, never the key) and which request, so the log line can be traced.
    const who = { requestId: c.get("requestId"), keyName: c.get("keyName") };
    console.error(JSON.stringify({ ...who, error: loggable(err) }));
  }
  return problemResponse(c, error);
}
