import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./env";
import { ApiError, incompleteBody, invalid } from "../core/errors";
import { jsonTextIssues } from "../core/strict-json";

const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json$/i;
const UTF8 = /^utf-?8$/i;
const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);
/** Refuses bytes that are not UTF-8 instead of replacing them with U+FFFD. */
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** The media type and charset of a content-type header. */
function mediaType(header: string) {
  const [type = "", ...params] = header.split(";").map((part) => part.trim());
  const charset = params
    .map((param) => /^charset\s*=\s*"?([^";]*)"?$/i.exec(param)?.[1])
    .find((value) => value !== undefined);
  return { type, charset };
}

/**
 * JSON bodies are judged on their text before any route reads them
 * (docs/api/errors-and-limits.md §7):
 * - a charset other than UTF-8 → 415 (JSON is UTF-8; another charset would be read wrongly);
 * - an upload cut off before the body is complete → 400 INCOMPLETE_BODY, not a 500, and no route
 *   runs, so nothing is written;
 * - not UTF-8 or not JSON → 400 MALFORMED_JSON;
 * - duplicate keys and numbers that only round to integers → 400 naming each field.
 * The bytes stay cached on the request, and the value they parse to is what the route's validator
 * reads (`c.req.json()`): a 500-line body is parsed once, not twice.
 */
export const strictJsonBody = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const header = c.req.header("content-type");
  // DELETE and GET bodies are never read, so they are not judged either.
  if (!BODY_METHODS.has(c.req.method) || !c.req.raw.body || !header) return next();
  const { type, charset } = mediaType(header);
  if (!JSON_TYPE.test(type)) return next();
  if (charset !== undefined && !UTF8.test(charset)) {
    throw new ApiError(
      415,
      "UNSUPPORTED_MEDIA_TYPE",
      `the request body must be JSON in UTF-8; charset=${charset.slice(0, 40)} is not supported`,
    );
  }
  let bytes: ArrayBuffer;
  try {
    bytes = await c.req.arrayBuffer();
  } catch {
    throw incompleteBody();
  }
  let text: string;
  let value: unknown;
  try {
    // JSON is UTF-8 (RFC 8259): other bytes are not JSON either.
    text = STRICT_UTF8.decode(bytes);
    value = text.trim() && JSON.parse(text);
  } catch {
    throw new ApiError(400, "MALFORMED_JSON", "the request body is not valid JSON");
  }
  if (text.trim() === "") return next();
  const issues = jsonTextIssues(text);
  if (issues.length) throw invalid(issues);
  // Read by the route's validator alone (router.ts `read`), which hands it to the schema: never changed.
  c.req.json = <T>() => Promise.resolve(value as T);
  await next();
};
