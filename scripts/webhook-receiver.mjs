#!/usr/bin/env node
/**
 * A webhook receiver for local development and the tests (docs/api/feed-and-webhooks.md §14.4): it
 * checks each delivery's signature, refuses stale ones, takes each batch once by the idempotency id
 * in its signed body (not by the `x-webhook-id` header, which anyone replaying a captured delivery
 * could change), and prints what it got.
 *
 *   npm run webhook:receiver -- --secret whsec_…           # http://127.0.0.1:8790/
 *   npm run webhook:receiver -- --port 9000 --secret whsec_…
 *
 * Without --secret (or WEBHOOK_SECRET) signatures are recorded but not checked. To try the
 * retries, register a path with `?fail=N`: its first N deliveries answer 503. `?status=NNN`
 * always answers NNN; `?big=1` answers 4 KB. GET /received?path=/p lists what a path received.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";

/** How old a signature's timestamp may be, in seconds: older deliveries are replays. */
export const TOLERANCE_SECONDS = 300;

/**
 * Checks `x-webhook-signature: t=<unix>,v1=<hex>[,v1=<hex>]` over the raw body: any `v1` may
 * match (two during a secret rotation). Returns undefined when valid, else why not.
 * @param {string | undefined} header
 * @param {string} body the raw request body, exactly as received
 * @param {string} secret
 * @param {number} [now] unix seconds
 */
export function signatureProblem(header, body, secret, now = Math.floor(Date.now() / 1000)) {
  const parts = (header ?? "").split(",").map((part) => part.trim().split("="));
  const t = Number(parts.find(([k]) => k === "t")?.[1]);
  const signatures = parts.filter(([k]) => k === "v1").map(([, v]) => v ?? "");
  if (!Number.isInteger(t) || !signatures.length) return "malformed signature header";
  if (Math.abs(now - t) > TOLERANCE_SECONDS) return "timestamp outside the tolerance (replay?)";
  const expected = Buffer.from(createHmac("sha256", secret).update(`${t}.${body}`).digest("hex"));
  const match = signatures.some(
    (s) => s.length === expected.length && timingSafeEqual(Buffer.from(s), expected),
  );
  return match ? undefined : "signature does not match";
}

/**
 * The batch's idempotency id from the body, which the signature covers; undefined when the body
 * is no delivery (not JSON, or no string `id`).
 * @param {string} body
 * @returns {string | undefined}
 */
export function deliveryIdOf(body) {
  try {
    const id = JSON.parse(body)?.id;
    return typeof id === "string" && id ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * @typedef {{ path: string, attempt: number, answered: number, deliveryId: string | undefined,
 *   headerId: string | undefined, signature: string | undefined, body: string,
 *   duplicate: boolean }} Received
 */

/** @param {import("node:http").IncomingMessage} req */
const readBody = (req) =>
  new Promise((resolve, reject) => {
    /** @type {Buffer[]} */
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });

/**
 * Starts the receiver. `secret`: check signatures with it; `log`: print each delivery.
 * @param {{ port?: number, host?: string, secret?: string, log?: boolean }} [options]
 */
export async function startReceiver({ port = 8790, host = "127.0.0.1", secret, log } = {}) {
  /** @type {Received[]} */
  const received = [];
  /** Requests per path, and the delivery ids already taken (a retry after a lost answer repeats one). */
  const attempts = new Map();
  const taken = new Set();
  const server = createServer(async (req, res) => {
    // No keep-alive: a socket Node closes while a client reuses it looks like a failed delivery.
    res.setHeader("connection", "close");
    const url = new URL(req.url ?? "/", "http://receiver");
    if (req.method === "GET" && url.pathname === "/received") {
      const path = url.searchParams.get("path");
      res.setHeader("content-type", "application/json");
      return res.end(JSON.stringify(received.filter((r) => !path || r.path === path)));
    }
    const body = await readBody(req);
    const attempt = (attempts.get(url.pathname) ?? 0) + 1;
    attempts.set(url.pathname, attempt);
    const headerId = /** @type {string | undefined} */ (req.headers["x-webhook-id"]);
    const signature = /** @type {string | undefined} */ (req.headers["x-webhook-signature"]);
    // Only what the signature covers decides: the body's id, never the unsigned header.
    const deliveryId = deliveryIdOf(body);
    const forged = secret ? signatureProblem(signature, body, secret) : undefined;
    const problem = forged ?? (deliveryId ? undefined : "the body is not a delivery (no id)");
    const status = forged
      ? 401
      : problem
        ? 400
        : attempt <= Number(url.searchParams.get("fail") ?? 0)
          ? 503
          : Number(url.searchParams.get("status") ?? 200);
    const duplicate = status === 200 && taken.has(deliveryId);
    if (status === 200) taken.add(deliveryId);
    received.push({
      path: url.pathname,
      attempt,
      answered: status,
      deliveryId,
      headerId,
      signature,
      body,
      duplicate,
    });
    if (log) {
      const changes = status === 200 && !duplicate ? JSON.parse(body).changes.length : 0;
      console.log(
        `[receiver] ${deliveryId} → ${status}${problem ? ` (${problem})` : ""}${duplicate ? " (already taken)" : ""}${changes ? `: ${changes} changes` : ""}`,
      );
    }
    res.statusCode = status;
    res.end(
      url.searchParams.has("big")
        ? "x".repeat(4096)
        : (problem ?? (duplicate ? "duplicate" : "ok")),
    );
  });
  await new Promise((resolve) => server.listen(port, host, () => resolve(undefined)));
  const address = /** @type {import("node:net").AddressInfo} */ (server.address());
  const close = () => new Promise((resolve) => server.close(() => resolve(undefined)));
  return { url: `http://${host}:${address.port}`, received, close };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const option = (/** @type {string} */ name) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const secret = option("--secret") ?? process.env.WEBHOOK_SECRET;
  const { url } = await startReceiver({
    port: Number(option("--port") ?? 8790),
    secret,
    log: true,
  });
  console.log(
    `[receiver] listening on ${url}/ (signatures ${secret ? "checked" : "not checked: pass --secret"})`,
  );
}
