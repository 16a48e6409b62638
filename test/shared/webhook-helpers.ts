import { env } from "cloudflare:workers";
import { inject } from "vitest";

/** The test receiver (test/receiver.setup.mjs, scripts/webhook-receiver.mjs), on 127.0.0.1. */
export const RECEIVER = inject("receiverUrl");

/** One request the receiver got, as GET /received lists it. */
export interface Received {
  path: string;
  attempt: number;
  answered: number;
  /** The batch's id from the signed body, what the receiver deduplicates on. */
  deliveryId: string;
  /** The unsigned `x-webhook-id` header, as sent. */
  headerId: string;
  signature: string;
  body: string;
  duplicate: boolean;
}

/** A delivery's body. */
export interface Delivery {
  id: string;
  webhookId: number;
  changes: { cursor: number; event: string; entity: string }[];
  next: number;
}

export const receivedAt = async (path: string): Promise<Received[]> =>
  (await fetch(`${RECEIVER}/received?path=${encodeURIComponent(path)}`)).json();

/** The newest feed cursor: the last audit entry's id. */
export const head = async () =>
  (await env.DB.prepare("select coalesce(max(id), 0) as n from audit_log").first<{ n: number }>())!
    .n;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` answers something, or fails after `ms`. */
export async function until<T>(what: string, check: () => Promise<T | undefined>, ms = 30_000) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

const encoder = new TextEncoder();

/**
 * Whether `x-webhook-signature` signs `body` with `secret` (any of its v1 values), checked here
 * with WebCrypto, apart from the service's own code.
 */
export async function signedBy(header: string, body: string, secret: string) {
  const parts = header.split(",").map((p) => p.split("="));
  const t = parts.find(([k]) => k === "t")![1];
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(`${t}.${body}`));
  const hex = [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return parts.some(([k, v]) => k === "v1" && v === hex);
}
