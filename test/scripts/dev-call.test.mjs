/**
 * bench/lib/dev-call.mjs against a stand-in for wrangler's dev proxy after a long call
 * (docs/performance.md, "A catalogue-wide change request"): a POST it answers 503 "Your worker
 * restarted mid-request" without passing it on, and a GET it holds until another request
 * arrives.
 */
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { after, before, describe, it } from "node:test";
import { PROXY_RESTART, devCall } from "../../bench/lib/dev-call.mjs";

/**
 * The stand-in: `lose` forwards (POST or GET, in order of arrival) fail as the proxy's do; the
 * rest answer 200 with the request's method and path. A held GET is answered when the next
 * request arrives.
 */
function proxy() {
  const state = { lose: 0, seen: /** @type {string[]} */ ([]) };
  /** @type {(() => void)[]} */
  let held = [];
  const server = createServer((req, res) => {
    const line = `${req.method} ${req.url}`;
    state.seen.push(line);
    const waiting = held;
    held = [];
    for (const release of waiting) release();
    const answer = () => {
      res.writeHead(200, { "content-type": "application/json", "server-timing": "db;dur=1" });
      res.end(JSON.stringify({ line }));
    };
    req.resume();
    req.on("end", () => {
      if (state.lose > 0 && req.url !== "/health") {
        state.lose -= 1;
        if (req.method === "GET" || req.method === "HEAD") {
          held.push(answer);
          return;
        }
        res.writeHead(503, { "content-type": "text/plain", "retry-after": "0" });
        res.end(`${PROXY_RESTART}. Please try sending the request again.`);
        return;
      }
      if (req.url === "/health" && req.method === "POST") {
        res.writeHead(405);
        res.end();
        return;
      }
      answer();
    });
  });
  return { server, state };
}

describe("devCall through wrangler's dev proxy after a long call", () => {
  const { server, state } = proxy();
  let url = "";
  const options = { retryMs: 10, nudgeMs: 50 };

  before(async () => {
    await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
    const address = /** @type {import("node:net").AddressInfo} */ (server.address());
    url = `http://127.0.0.1:${address.port}`;
  });
  after(() => new Promise((resolve) => server.close(() => resolve(undefined))));

  it("sends a POST again that the proxy answered 503 without passing it on", async () => {
    state.lose = 1;
    state.seen = [];
    const log = /** @type {string[]} */ ([]);
    const call = await devCall(url, "k", "POST", "/v1/api/change-requests/1/cancel", undefined, {
      ...options,
      log: (text) => log.push(text),
    });
    assert.deepEqual(call.answer, { line: "POST /v1/api/change-requests/1/cancel" });
    assert.equal(call.tries, 2);
    assert.equal(call.timing, "db;dur=1");
    assert.deepEqual(state.seen, [
      "POST /v1/api/change-requests/1/cancel",
      "POST /v1/api/change-requests/1/cancel",
    ]);
    assert.match(log[0] ?? "", /lost its connection \(503\); sending it again/);
  });

  it("answers a GET the proxy holds: a POST /health beside it lets the proxy send it", async () => {
    state.lose = 1;
    state.seen = [];
    const started = performance.now();
    const call = await devCall(url, "k", "GET", "/v1/api/pricelist/1/prices?limit=1", undefined, {
      ...options,
      log: () => {},
    });
    assert.deepEqual(call.answer, { line: "GET /v1/api/pricelist/1/prices?limit=1" });
    assert.ok(performance.now() - started < 5000);
    assert.deepEqual(state.seen.slice(0, 2), [
      "GET /v1/api/pricelist/1/prices?limit=1",
      "POST /health",
    ]);
  });

  it("sends no nudge beside a GET that is answered", async () => {
    state.lose = 0;
    state.seen = [];
    await devCall(url, "k", "GET", "/v1/api/change-requests/1", undefined, options);
    assert.deepEqual(state.seen, ["GET /v1/api/change-requests/1"]);
  });

  it("gives up after its retries, naming the call and the proxy's answer", async () => {
    state.lose = 3;
    state.seen = [];
    await assert.rejects(
      devCall(url, "k", "PUT", "/v1/api/product", { products: [] }, { ...options, retries: 2 }),
      /PUT \/v1\/api\/product: 503 Your worker restarted mid-request/,
    );
    assert.equal(state.seen.length, 3);
    state.lose = 0;
  });

  it("sends no call again that the Worker itself answered ≥ 300", async () => {
    state.seen = [];
    await assert.rejects(
      devCall(url, "k", "POST", "/health", undefined, options),
      /POST \/health: 405/,
    );
    assert.deepEqual(state.seen, ["POST /health"]);
  });
});
