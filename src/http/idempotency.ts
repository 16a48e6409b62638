import type { MiddlewareHandler } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { IdempotencyClaim } from "../db/audit";
import type { Db } from "../db/client";
import { clearClaim, decide, releaseClaim, storeAnswer, tryClaim } from "../db/idempotency";
import type { AppEnv } from "./env";
import { conflict, invalid } from "../core/errors";
import { isRead } from "./read-only";

/**
 * Idempotent retries of writes (docs/api/resources.md, "Idempotent retries").
 *
 * A client that sends `Idempotency-Key` with a write gets the same answer for every retry of
 * the same request within 24 hours, and the write happens once:
 * 1. the key is claimed (a PENDING row, unique per API key name and Idempotency-Key);
 * 2. every write batch of the request also moves the row to COMMITTED, in the same D1 batch as
 *    the write (src/db/client.ts), so a retry that arrives after a commit can never write again;
 * 3. the answer (status, content type, body) is stored and the row becomes DONE; retries with
 *    the same fingerprint replay it, retries with another body are refused. An answer holding a
 *    secret shown once stores what the handler gave `replayAs` instead (the secret left out).
 * A retry that finds the key held waits for the answer up to WAIT_MS, then gets 409.
 */
export const IDEMPOTENCY_HEADER = "Idempotency-Key";
const WAIT_MS = 5_000;
const POLL_MS = 25;
const KEY = /^[\x21-\x7e]{1,255}$/;

async function fingerprintOf(method: string, url: string, body: string): Promise<string> {
  const { pathname, search } = new URL(url);
  const data = new TextEncoder().encode(`${method} ${pathname}${search}\n${body}`);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", data));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Claims the key, or answers with the stored answer, or refuses; waits while another request holds it. */
async function acquire(db: Db, claim: IdempotencyClaim, fingerprint: string) {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const row = await tryClaim(db, claim, fingerprint);
    if (!row) return undefined;
    const decision = decide(row, fingerprint, Date.now());
    switch (decision.kind) {
      case "replay":
        return decision.row;
      case "reused":
        throw conflict(
          `${IDEMPOTENCY_HEADER} ${shorten(claim.idempotencyKey)} was used for a different request ` +
            "(another method, path or body); use a new key for a new request",
          "IDEMPOTENCY_KEY_REUSED",
        );
      case "expired":
      case "abandoned":
        await clearClaim(db, row);
        continue;
      case "lost":
        throw conflict(
          `the request with ${IDEMPOTENCY_HEADER} ${shorten(claim.idempotencyKey)} was carried out ` +
            `(request ${decision.requestId}) but its answer was lost; read the result instead of retrying`,
          "IDEMPOTENCY_ANSWER_LOST",
        );
      case "wait":
        if (Date.now() >= deadline) {
          throw conflict(
            `a request with ${IDEMPOTENCY_HEADER} ${shorten(claim.idempotencyKey)} is still in progress; ` +
              "retry in a moment",
            "IDEMPOTENCY_KEY_IN_USE",
          );
        }
        await sleep(POLL_MS);
    }
  }
}

const shorten = (key: string) => (key.length > 40 ? `${key.slice(0, 40)}…` : key);

/** Keeps the answer for retries, or frees the key when nothing was written and the answer was an error. */
async function settle(db: Db, claim: IdempotencyClaim, res: Response) {
  if (res.status >= 500 || (res.status >= 400 && !claim.committed)) return releaseClaim(db, claim);
  const body = res.status === 204 ? "" : (claim.replay ?? (await res.clone().text()));
  await storeAnswer(db, claim, res.status, res.headers.get("content-type"), body);
}

/**
 * What replays of this request answer in place of its own JSON body, for an answer that holds
 * what is shown once, such as a webhook's signing secret: the store keeps (and replays) `body`
 * only, so the secret is never stored with the answer (docs/api/resources.md §4.4). Without an
 * Idempotency-Key nothing is stored, and this does nothing.
 */
export function replayAs(c: { var: { idempotency?: IdempotencyClaim } }, body: unknown) {
  const claim = c.var.idempotency;
  if (claim) claim.replay = JSON.stringify(body);
}

/**
 * The middleware: for writes that carry the header. Runs after authentication (the key name
 * scopes the keys) and the strict body check (the body text is read and valid by then).
 */
export const idempotency = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const key = c.req.header(IDEMPOTENCY_HEADER);
  if (key === undefined || isRead(c)) return next();
  if (!KEY.test(key)) {
    throw invalid([
      {
        path: `header.${IDEMPOTENCY_HEADER}`,
        message: "must be 1-255 visible ASCII characters (a UUID is a good choice)",
      },
    ]);
  }
  const claim: IdempotencyClaim = {
    keyName: c.var.keyName,
    idempotencyKey: key,
    requestId: c.var.requestId,
    committed: false,
  };
  const fingerprint = await fingerprintOf(c.req.method, c.req.url, await c.req.text());
  const stored = await acquire(c.var.db, claim, fingerprint);
  if (stored) {
    c.header("idempotent-replayed", "true");
    if (stored.contentType) c.header("content-type", stored.contentType);
    if (stored.status === 204) return c.body(null, 204);
    return c.body(stored.body ?? "", stored.status as ContentfulStatusCode);
  }
  c.set("idempotency", claim);
  await next();
  await settle(c.var.db, claim, c.res);
};
