import { nextEdge, type PriceRequest } from "../../pricing";
import type { CartRequest } from "./prices.service";

/**
 * HTTP caching of `GET /v1/api/prices` (docs/api/prices.md §9). An answer
 * is a function of the pricing data (named by its version, which triggers bump on every write
 * that can change a price; for a read key the version of what it sees, which cost-only writes
 * leave alone, docs/api/access.md §18) and the request; without `at` also of "now", but only
 * through the interval up to the next validity edge of the records it was priced from (`nextEdge`,
 * no later than its `validUntil`). Both are known before the engine runs, so a 304 costs no
 * pricing.
 */

/** The longest a client may reuse an answer without asking again: the staleness bound for writes. */
export const MAX_AGE_SECONDS = 60;

const encoder = new TextEncoder();

/**
 * The shape of the answer body, part of every tag: a tag issued for an older shape must not earn
 * a 304 that keeps that body. 2: `pricedTotalAmount` and `complete` (before, `totalAmount` could
 * leave unpriced lines out); 3: the B2B terms (quantity rules, 12 rungs, floors, derivations);
 * 4: money (a line's `priceUnit` and `priceBreak`, tiers' `priceUnit`, `derivedFrom.exchangeRate`;
 * docs/pricing-rules.md §19–§22); 5: cost, margin and pocket price in admin answers (§26); 6: a
 * read key's answer hides a floor derived from cost (§24); 7: a source's `tierMode` and `bands`,
 * tiers' `flatAmount` (§29).
 * Raise it whenever the answer changes for the same data.
 */
const ANSWER_FORMAT = 7;

function base64url(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The instant the answer of `request` may change by time alone (null: never), before pricing. */
export const changesAt = (request: PriceRequest): number | null => nextEdge(request);

/**
 * The entity tag of an answer: a digest of the answer format, the data version and the
 * normalized request (codes, currency, `at` as epoch ms, the products in order with their
 * quantity, explain, ladder, the `select` as a set). With an explicit `at` the body is
 * byte-for-byte a function of those, so the tag is strong. Without it, "now" enters through the
 * interval it falls in, named by its end (`changesAt`): every moment of one interval gets the
 * same prices, but the body's `at` echoes the moment, so the tag is weak (RFC 9110: equivalent,
 * not identical). If-None-Match compares weakly either way.
 */
export async function answerTag(
  version: number,
  cart: CartRequest,
  until: number | null,
): Promise<string> {
  const basis = JSON.stringify([
    ANSWER_FORMAT,
    version,
    cart.channelCode,
    cart.customerCode ?? null,
    cart.currency ?? null,
    cart.at ?? ["now", until],
    cart.explain ?? false,
    // An admin's answer carries costs, a read key's not: never the same tag
    // (docs/api/access.md §18; the scope's part, a boolean as it always was).
    cart.scope.costs,
    // With the ladder the body carries more: never the tag of the answer without it.
    cart.ladder ?? false,
    cart.lines.map((line) => [line.productCode, line.quantity]),
    // A selection as a set; none adds nothing, so the tags of full answers are as they were.
    ...(cart.select ? [[...new Set(cart.select)].sort()] : []),
  ]);
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(basis));
  const tag = `"${base64url(new Uint8Array(digest).slice(0, 18))}"`;
  return cart.at === undefined ? `W/${tag}` : tag;
}

/**
 * `private`: answers depend on the API key's access, so shared caches must not keep them.
 * With an explicit `at` the answer only changes with the data: MAX_AGE_SECONDS. Without one it
 * also must not outlive its interval: the seconds left until `until` (`changesAt`), at most
 * MAX_AGE_SECONDS, down to 0 (revalidate every time; the ETag still saves the body).
 */
export function cacheControl(cart: CartRequest, now: number, until: number | null): string {
  let seconds = MAX_AGE_SECONDS;
  if (cart.at === undefined && until !== null) {
    seconds = Math.max(0, Math.min(MAX_AGE_SECONDS, Math.floor((until - now) / 1000)));
  }
  return `private, max-age=${seconds}`;
}

/**
 * The header that marks an answer from the isolate's data during a D1 stall (the reader's
 * src/db/pricing/stall.ts; docs/api/prices.md §9.1).
 */
export const STALE_HEADER = "x-price-stale";

/** The header's value: the whole seconds since the data was last confirmed current. */
export const staleMark = (ageMs: number) => `age=${Math.floor(Math.max(0, ageMs) / 1000)}`;

const opaque = (tag: string) => tag.trim().replace(/^W\//, "");

/** If-None-Match by weak comparison (RFC 9110 §13.1.2): true when the client's copy is current. */
export function isNotModified(ifNoneMatch: string | undefined, tag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  return ifNoneMatch.split(",").some((candidate) => opaque(candidate) === opaque(tag));
}
