/**
 * Webhook signatures (docs/api/feed-and-webhooks.md §14.3): `x-webhook-signature: t=<unix
 * seconds>,v1=<hex>`, the hex HMAC-SHA256 of `<t>.<body>` keyed with the webhook's secret (its
 * UTF-8 bytes, `whsec_` prefix included). The header's name is the one this API's clients already
 * send their key in; on a delivery it carries the signature. While a rotated secret is still valid,
 * a second `v1` signs with it, so a receiver may switch secrets at its own pace.
 */
export const SIGNATURE_HEADER = "x-webhook-signature";

/** The batch's idempotency id, the same on every retry. */
export const DELIVERY_ID_HEADER = "x-webhook-id";

const encoder = new TextEncoder();

const hex = (bytes: ArrayBuffer) =>
  [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");

export async function hmacHex(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return hex(await crypto.subtle.sign("HMAC", key, encoder.encode(message)));
}

/** The header value for `body` sent at `unixSeconds`, one `v1` per secret. */
export async function signatureHeader(secrets: string[], body: string, unixSeconds: number) {
  const signatures = await Promise.all(secrets.map((s) => hmacHex(s, `${unixSeconds}.${body}`)));
  return [`t=${unixSeconds}`, ...signatures.map((s) => `v1=${s}`)].join(",");
}

/** A new secret: `whsec_` and 32 random bytes in hex (256 bits, as long as the HMAC). */
export function newSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `whsec_${hex(bytes.buffer)}`;
}
