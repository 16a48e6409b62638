import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { app } from "../../src/app";
import { d1DelayMs } from "../../src/db/client";
import { createProduct } from "../factories";
import { KEYS, uid } from "../shared/helpers";

/**
 * The remote-latency model of the bench (issue 15, docs/performance.md): with `D1_DELAY_MS` every
 * D1 round trip of a request waits that long first, inside the time Server-Timing reports; the
 * round trips themselves and the answer stay the same.
 */

/** One GET of a product through the app with the given D1_DELAY_MS; the wall time and the timing. */
async function timedRead(code: string, D1_DELAY_MS: string | undefined) {
  const start = Date.now();
  const res = await app.fetch(
    new Request(`http://pricing.test/v1/api/product/${code}`, {
      headers: { "x-webhook-signature": KEYS.read },
    }),
    { ...env, D1_DELAY_MS },
  );
  const body = (await res.json()) as { code: string };
  const timing = res.headers.get("server-timing") ?? "";
  return {
    status: res.status,
    code: body.code,
    wallMs: Date.now() - start,
    trips: /desc="(\d+) quer/.exec(timing)?.[1],
    dbMs: Number(/dur=([\d.]+)/.exec(timing)?.[1]),
  };
}

describe("D1_DELAY_MS", () => {
  it("reads only a whole number of ms from 1 to 1000; anything else is no delay", () => {
    expect(d1DelayMs("20")).toBe(20);
    expect(d1DelayMs("1000")).toBe(1000);
    for (const value of [undefined, "", "0", "-5", "2.5", "abc", "1001"]) {
      expect(d1DelayMs(value)).toBe(0);
    }
  });

  it("delays each round trip inside its measured time, with the same round trips and answer", async () => {
    const code = uid("DELAY");
    await createProduct({ code });
    const plain = await timedRead(code, undefined);
    const delayed = await timedRead(code, "60");
    expect(plain).toMatchObject({ status: 200, code, trips: "1" });
    expect(delayed).toMatchObject({ status: 200, code, trips: "1" });
    expect(plain.dbMs).toBeLessThan(60);
    expect(delayed.dbMs).toBeGreaterThanOrEqual(59);
    expect(delayed.wallMs).toBeGreaterThanOrEqual(59);
    const ignored = await timedRead(code, "not a number");
    expect(ignored.dbMs).toBeLessThan(60);
  });
});
