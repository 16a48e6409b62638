/**
 * The documented receiver (scripts/webhook-receiver.mjs, docs/api/feed-and-webhooks.md §14.4) takes
 * each batch once by the id in its signed body: a captured delivery replayed under another
 * `x-webhook-id` is a duplicate, a changed body fails the signature, and the header decides
 * nothing. A Node test (node:test), run by `npm run test:scripts`.
 */
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { deliveryIdOf, startReceiver } from "../../scripts/webhook-receiver.mjs";

const SECRET = "whsec_test";

/** @type {Awaited<ReturnType<typeof startReceiver>>} */
let receiver;

before(async () => {
  receiver = await startReceiver({ port: 0, secret: SECRET });
});

after(() => receiver.close());

/**
 * A delivery as the service sends it, signed now.
 * @param {string} id
 */
function delivery(id) {
  const body = JSON.stringify({ id, webhookId: 3, changes: [{ cursor: 1 }], next: 1 });
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac("sha256", SECRET).update(`${t}.${body}`).digest("hex");
  return { body, signature: `t=${t},v1=${v1}` };
}

/**
 * POSTs a body to `path` with the given headers; the status and the answer's text.
 * @param {string} path
 * @param {string} body
 * @param {Record<string, string>} headers
 */
async function post(path, body, headers) {
  const res = await fetch(`${receiver.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });
  return { status: res.status, text: await res.text() };
}

describe("the receiver's deduplication", () => {
  it("takes a batch once by its signed id, whatever x-webhook-id says", async () => {
    const { body, signature } = delivery("whd_3_0_1");
    const headers = { "x-webhook-signature": signature };
    assert.deepEqual(await post("/a", body, { ...headers, "x-webhook-id": "whd_3_0_1" }), {
      status: 200,
      text: "ok",
    });
    // The same signed body replayed under a fresh header id: still the batch already taken.
    assert.deepEqual(await post("/a", body, { ...headers, "x-webhook-id": "whd_fresh" }), {
      status: 200,
      text: "duplicate",
    });
    // And without the header at all.
    assert.deepEqual(await post("/a", body, headers), { status: 200, text: "duplicate" });
    const got = receiver.received.filter((r) => r.path === "/a");
    assert.deepEqual(
      got.map((r) => [r.deliveryId, r.headerId, r.duplicate]),
      [
        ["whd_3_0_1", "whd_3_0_1", false],
        ["whd_3_0_1", "whd_fresh", true],
        ["whd_3_0_1", undefined, true],
      ],
    );
  });

  it("a new batch is new work even under a header id already taken", async () => {
    const first = delivery("whd_3_1_2");
    const second = delivery("whd_3_2_3");
    const headers = (/** @type {string} */ signature) => ({
      "x-webhook-signature": signature,
      "x-webhook-id": "whd_3_1_2",
    });
    assert.equal((await post("/b", first.body, headers(first.signature))).text, "ok");
    assert.equal((await post("/b", second.body, headers(second.signature))).text, "ok");
  });

  it("refuses a body that is not the signed one, and a signed body without an id", async () => {
    const { body, signature } = delivery("whd_3_3_4");
    const changed = body.replace("whd_3_3_4", "whd_3_3_5");
    assert.deepEqual(await post("/c", changed, { "x-webhook-signature": signature }), {
      status: 401,
      text: "signature does not match",
    });
    const t = Math.floor(Date.now() / 1000);
    const anonymous = JSON.stringify({ changes: [] });
    const v1 = createHmac("sha256", SECRET).update(`${t}.${anonymous}`).digest("hex");
    assert.deepEqual(await post("/c", anonymous, { "x-webhook-signature": `t=${t},v1=${v1}` }), {
      status: 400,
      text: "the body is not a delivery (no id)",
    });
  });

  it("reads the id from the body only", () => {
    assert.equal(deliveryIdOf('{"id":"whd_1_0_5","changes":[]}'), "whd_1_0_5");
    for (const body of ["", "not json", "[]", '{"id":5}', '{"id":""}', "null"]) {
      assert.equal(deliveryIdOf(body), undefined, body);
    }
  });
});
