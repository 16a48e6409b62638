import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { createProduct } from "../factories";
import { api, issuePaths, KEYS, uid } from "../shared/helpers";
import {
  encode,
  LEAK,
  requestArb,
  VALIDATOR_WORDING,
  wellFormed,
  type FuzzRequest,
} from "../fuzz/arbitraries";
import { createFixtures } from "../fuzz/fixtures";
import { loadDoc, operations, validators, type Operation } from "../fuzz/openapi";
import { callWorker, lastSpreadKey } from "../fuzz/worker";

/**
 * Contract fuzzing: every operation of the live /doc gets seeded fast-check requests — valid ones
 * from its schemas (part of them addressing real records), and hostile ones (wrong types, missing
 * and extra fields, extreme numbers, 10 kB strings, NUL and odd unicode, SQL and LIKE
 * metacharacters, malformed JSON, wrong content types, odd and repeated query keys, bad path
 * parameters, bad keys) — sent through the real Worker. Every answer must keep the contract:
 * no 5xx; a 4xx is problem+json with a status the operation documents; a 2xx validates against
 * the documented response schema; no driver message, SQL or stack trace in any body.
 *
 * Reproduce a run with the same seed (fixture codes are deterministic too). A longer hunt or
 * another seed: VITE_FUZZ_RUNS=3000 VITE_FUZZ_SEED=7 npx vitest run
 * test/platform/contract-fuzz.test.ts
 */
const env = (import.meta as { env?: Record<string, string | undefined> }).env ?? {};
const SEED = Number(env.VITE_FUZZ_SEED ?? 20_250_601);
const RUNS = Number(env.VITE_FUZZ_RUNS ?? 500);

const doc = await loadDoc();
const ops = operations(doc);
const check = validators(doc);

const bytes = new TextEncoder();

interface Sent {
  url: string;
  status: number;
  contentType: string;
  text: string;
}

async function send(op: Operation, req: FuzzRequest): Promise<Sent> {
  const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => req.params[name] ?? "");
  const pairs = req.query.map(([k, v]) => `${encode(k)}=${encode(v)}`);
  if (req.rawQuery) pairs.push(req.rawQuery);
  const url = `http://pricing.test${path}${pairs.length ? `?${pairs.join("&")}` : ""}`;
  const headers = new Headers(req.headers);
  if (req.keyValue !== undefined) headers.set("x-webhook-signature", req.keyValue);
  let body: Uint8Array | undefined;
  if (op.method !== "GET" && op.method !== "HEAD") {
    const text = req.rawBody ?? (req.body === undefined ? undefined : JSON.stringify(req.body));
    if (text !== undefined) {
      // Bytes, not a string: a string body would add its own text/plain content type.
      body = bytes.encode(wellFormed(text));
      const type = req.contentType === undefined ? "application/json" : req.contentType;
      if (type !== null) headers.set("content-type", type);
    }
  }
  const res = await callWorker(new Request(url, { method: op.method, headers, body }));
  return {
    url,
    status: res.status,
    contentType: res.headers.get("content-type") ?? "",
    text: await res.text(),
  };
}

/** Whether a path is one a template matches, as the router matches it: a parameter is one non-empty segment. */
const templateRegex = (template: string) =>
  new RegExp(`^${template.replace(/\{\w+\}/g, "[^/]+")}$`);
const pathOf = (url: string) => new URL(url).pathname;

/** Every way the answer breaks the contract; empty when it keeps it. */
function violations(op: Operation, req: FuzzRequest, res: Sent): string[] {
  const found: string[] = [];
  const { status } = res;
  if (status >= 500) found.push(`5xx: ${status}`);
  if (!op.documented.has(status)) found.push(`undocumented status ${status}`);
  if (LEAK.test(res.text)) found.push(`leak: ${LEAK.exec(res.text)![0]}`);

  if (req.key === "none" || req.key === "bad") {
    if (status !== 401) found.push(`key ${req.key} answered ${status}, not 401`);
  } else if (req.key === "read" && op.write) {
    if (status !== 403) found.push(`read key on a write answered ${status}, not 403`);
  } else if (req.key === "read" && op.readWrite && !templateRegex(op.path).test(pathOf(res.url))) {
    // A path the route does not match (an empty id: /v1/api/quotes//accept) addresses no
    // operation a read key may call: a write there is 403 as any other (docs/api/access.md §6,
    // docs/quotes.md §1), the key checked before the path is routed.
    if (status !== 403)
      found.push(`read key on a write no route matches answered ${status}, not 403`);
  } else if (status === 401 || status === 403) {
    found.push(`${req.key} key answered ${status}`);
  }

  if (status >= 400) {
    if (!res.contentType.startsWith("application/problem+json")) {
      found.push(`${status} with content-type ${res.contentType}`);
    }
    let problem: any;
    try {
      problem = JSON.parse(res.text);
    } catch {
      found.push(`${status} body is not JSON`);
    }
    if (problem !== undefined) {
      if (!check.problem(problem)) found.push(`problem schema: ${check.errorsText(check.problem)}`);
      if (problem.status !== status) found.push(`problem status ${problem.status} != ${status}`);
      for (const { message } of problem.errors ?? []) {
        if (VALIDATOR_WORDING.test(message)) found.push(`validator wording: ${message}`);
      }
    }
  } else if (status >= 200 && status < 300) {
    const validate = check.response(op, status);
    if (validate) {
      if (!res.contentType.startsWith("application/json")) {
        found.push(`${status} with content-type ${res.contentType}`);
      }
      let body: unknown;
      try {
        body = JSON.parse(res.text);
        if (!validate(body)) found.push(`${status} response schema: ${check.errorsText(validate)}`);
      } catch {
        found.push(`${status} body is not JSON`);
      }
    } else if (res.text !== "") {
      found.push(`${status} has a body the doc does not describe`);
    }
  }
  return found;
}

const INSTANT_KEYS = new Set(["validFrom", "validTo", "at", "effectiveAt"]);
const sameInstant = (a: string, b: string) => {
  // Date.parse reads a bare date as UTC midnight, as the contract does.
  const x = Date.parse(a);
  return Number.isFinite(x) && x === Date.parse(b);
};

/**
 * A successful write answers with what it was told: every scalar field of the body that the
 * answer also carries has the sent value (names trimmed, instants as instants, code lists as
 * sets).
 */
function echoViolations(req: FuzzRequest, status: number, text: string): string[] {
  const sent = req.rawBody === undefined ? req.body : undefined;
  if (status >= 300 || !sent || typeof sent !== "object" || Array.isArray(sent)) return [];
  const whole = JSON.parse(text || "null");
  // 202: accepted, not in force yet; the answer holds what was sent as its `proposal` (a policy
  // loosening waits for a second owner, docs/api/change-requests.md §17.4).
  const answer = status === 202 ? whole?.proposal : whole;
  if (!answer || typeof answer !== "object") return [];
  const found: string[] = [];
  for (const [key, value] of Object.entries(sent)) {
    if (!(key in answer)) continue;
    const got = answer[key];
    let same: boolean;
    if (typeof value === "string" && INSTANT_KEYS.has(key)) {
      same = typeof got === "string" && sameInstant(value, got);
    } else if (typeof value === "string") {
      same = typeof got === "string" && value.trim() === got.trim();
    } else if (Array.isArray(value) && value.every((v) => typeof v === "string")) {
      const set = (xs: string[]) => JSON.stringify([...new Set(xs)].sort());
      same = Array.isArray(got) && set(value) === set(got);
    } else if (value === null || typeof value !== "object") {
      same = got === value;
    } else continue;
    if (!same)
      found.push(`echo: ${key} sent ${JSON.stringify(value)} answered ${JSON.stringify(got)}`);
  }
  return found;
}

/** Where the record a write answered with can be read back, or undefined. */
function readBackPath(op: Operation, req: FuzzRequest, answer: any): string | undefined {
  if (!answer || typeof answer !== "object") return undefined;
  const gets = new Set(ops.filter((o) => o.method === "GET").map((o) => o.path));
  if (op.method === "PATCH" && gets.has(op.path)) {
    return op.path.replace(/\{(\w+)\}/g, (_m, name: string) =>
      name === "code" && typeof answer.code === "string" ? answer.code : (req.params[name] ?? ""),
    );
  }
  if (op.method === "POST" && !op.path.includes("{")) {
    const base = op.path.replace(/\/individual$/, "");
    if (typeof answer.code === "string" && gets.has(`${base}/{code}`))
      return `${base}/${answer.code}`;
    if (typeof answer.id === "number" && gets.has(`${base}/{id}`)) return `${base}/${answer.id}`;
  }
  return undefined;
}

/** A write's answer is what a read returns right after it (every field both carry). */
async function readBackViolations(op: Operation, req: FuzzRequest, res: Sent): Promise<string[]> {
  if (res.status !== 200 && res.status !== 201) return [];
  const answer = JSON.parse(res.text);
  const path = readBackPath(op, req, answer);
  if (!path) return [];
  stats.readBacks++;
  // The key that wrote it (an admin key: some reads are for admin keys only), so a field about
  // the asking key (a change request's writtenByCaller) reads as it was answered.
  const writer = lastSpreadKey() ?? KEYS.admin;
  const read = await callWorker(
    new Request(`http://pricing.test${path}`, { headers: { "x-webhook-signature": writer } }),
  );
  if (read.status !== 200) return [`read-back GET ${path} answered ${read.status}`];
  const stored = (await read.json()) as Record<string, unknown>;
  return Object.keys(answer)
    .filter((k) => k in stored && JSON.stringify(stored[k]) !== JSON.stringify(answer[k]))
    .map(
      (k) =>
        `read-back: ${k} answered ${JSON.stringify(answer[k])} but stored ${JSON.stringify(stored[k])}`,
    );
}

/** A short, reproducible description of a failing request. */
function describeRequest(op: Operation, req: FuzzRequest, res: Sent) {
  const cut = (s: string | undefined, n = 300) =>
    s === undefined ? undefined : s.length > n ? `${s.slice(0, n)}…(${s.length} chars)` : s;
  return {
    kind: req.kind,
    key: req.key,
    request: `${op.method} ${cut(res.url)}`,
    contentType: req.contentType,
    body: cut(req.rawBody ?? (req.body === undefined ? undefined : JSON.stringify(req.body))),
    status: res.status,
    response: cut(res.text, 500),
  };
}

const stats = {
  requests: 0,
  fixtureRequests: 0,
  readBacks: 0,
  byClass: {} as Record<string, number>,
  /** Writes sent, and those a handler answered (docs/security.md "Contract fuzzing"). */
  writes: 0,
  writesReached: 0,
  idempotencyReused: 0,
};

/**
 * Answers given before a handler runs: the schema's 400, no or a wrong key, a read key's 403,
 * a body too large or not JSON, a wrong method, the rate limit. A handler's own 400 (an unknown
 * code) counts as not reached, so `writesReached` is a lower bound.
 */
const BEFORE_HANDLER = new Set([400, 401, 403, 405, 413, 415, 429]);
const started = Date.now();

describe("contract fuzzing over every operation of /doc", () => {
  it("covers the operations of the document", () => {
    expect(ops.length).toBeGreaterThanOrEqual(58);
    for (const op of ops) expect(op.id, `${op.method} ${op.path}`).toMatch(/^[a-z][A-Za-z]+$/);
  });

  ops.forEach((op, index) => {
    it(`${op.method} ${op.path} (${op.id})`, { timeout: 120_000 }, async () => {
      const fixtures = await createFixtures(`F${index}`, {
        quotes: op.path.startsWith("/v1/api/quotes"),
      });
      stats.fixtureRequests += fixtures.requests;
      const requests = fc.sample(requestArb(doc, op, fixtures, KEYS), {
        seed: SEED + index,
        numRuns: RUNS,
      });
      const failures = new Map<string, ReturnType<typeof describeRequest>>();
      const statuses: Record<number, number> = {};
      for (const req of requests) {
        const res = await send(op, req);
        stats.requests++;
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        const cls = `${Math.floor(res.status / 100)}xx`;
        stats.byClass[cls] = (stats.byClass[cls] ?? 0) + 1;
        if (op.write) {
          stats.writes++;
          const reused = res.status === 409 && res.text.includes("IDEMPOTENCY_KEY_REUSED");
          if (reused) stats.idempotencyReused++;
          else if (!BEFORE_HANDLER.has(res.status)) stats.writesReached++;
        }
        const found = violations(op, req, res);
        if (found.length === 0 && op.write) {
          found.push(...echoViolations(req, res.status, res.text));
          found.push(...(await readBackViolations(op, req, res)));
        }
        for (const v of found) {
          const key = `${v.slice(0, 120)} [${req.kind}]`;
          if (!failures.has(key)) failures.set(key, describeRequest(op, req, res));
        }
      }
      expect(Object.fromEntries(failures)).toEqual({});
      // The valid share must reach the handler's success path at least once; an approval of a
      // policy proposal succeeds only with the exact limits another owner proposed, which no
      // generated body names: it reaches its handler and answers 409
      // (docs/api/change-requests.md §17.4).
      const successes = Object.entries(statuses).filter(([s]) => Number(s) < 300);
      if (op.id === "approveChangeRequestPolicy") expect(statuses[409]).toBeGreaterThan(0);
      else expect(successes.length, JSON.stringify(statuses)).toBeGreaterThan(0);
    });
  });
});

/** A concrete path for a template: codes and ids that exist nowhere. */
const concrete = (template: string) =>
  template.replace(/\{(\w+)\}/g, (_m, name: string) => (name === "id" ? "999999" : "NO-SUCH"));

describe("statuses outside the fuzzed space, over every operation", () => {
  it("a body over 1 MiB is a problem+json 413, documented on every operation but reads", async () => {
    const big = bytes.encode(JSON.stringify({ name: "x".repeat(1024 * 1024 + 10) }));
    const undocumented: string[] = [];
    for (const op of ops.filter((o) => o.method !== "GET")) {
      const res = await callWorker(
        new Request(`http://pricing.test${concrete(op.path)}`, {
          method: op.method,
          headers: { "x-webhook-signature": KEYS.admin, "content-type": "application/json" },
          body: big,
        }),
      );
      expect(res.status, op.id).toBe(413);
      expect(res.headers.get("content-type"), op.id).toMatch(/^application\/problem\+json/);
      expect(((await res.json()) as { code: string }).code).toBe("PAYLOAD_TOO_LARGE");
      if (!op.documented.has(413)) undocumented.push(op.id);
    }
    // The 1 MiB limit answers before routing, so DELETEs (which take no body) document it too.
    expect(undocumented).toEqual([]);
  });

  it("an unsupported method on a documented path is a problem+json 405 whose Allow lists the documented methods, before the key is checked", async () => {
    const templates = Object.keys(doc.paths);
    const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];
    /** Literal segments before parameters, as OpenAPI matches a path to its templates. */
    const rank = (t: string) =>
      t
        .split("/")
        .map((part) => (part.startsWith("{") ? "1" : "0"))
        .join("");
    let checked = 0;
    for (const template of templates) {
      const path = concrete(template);
      const matching = templates.filter((t) => templateRegex(t).test(path));
      const best = matching.map(rank).sort()[0];
      const documented = matching
        .filter((t) => rank(t) === best)
        .flatMap((t) => Object.keys(doc.paths[t]).map((m) => m.toUpperCase()));
      if (documented.includes("GET")) documented.push("HEAD");
      const expected = [...new Set(documented)].sort();
      for (const method of METHODS.filter((m) => !expected.includes(m))) {
        // With the admin key and with none: the path and method decide, not the key.
        for (const key of [KEYS.admin, undefined]) {
          const res = await callWorker(
            new Request(`http://pricing.test${path}`, {
              method,
              headers: key ? { "x-webhook-signature": key } : {},
            }),
          );
          expect(res.status, `${method} ${template}`).toBe(405);
          if (method !== "HEAD") {
            expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
          }
          const allowed = res.headers.get("allow")!.split(", ").sort();
          expect(allowed, `${method} ${template}`).toEqual(expected);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(300);
  });
});

describe("what the fuzzer found (regressions, through the real entrypoint)", () => {
  it("a buyer write (a read key may accept) on a path no quote route matches: 403 for a read key, 404 for an admin key (docs/quotes.md §1)", async () => {
    for (const action of ["accept", "decline", "redeem"]) {
      const path = `/v1/api/quotes//${action}`;
      const read = await api("POST", path, { key: KEYS.read, body: {} });
      expect(read.status, `read ${action}`).toBe(403);
      expect(read.body.code).toBe("FORBIDDEN");
      expect((await api("POST", path, { body: {} })).status, `admin ${action}`).toBe(404);
    }
  });

  it("refuses the codes . and .., which no URL can address", async () => {
    for (const path of ["product", "channel", "customer", "customer-group"]) {
      for (const code of [".", ".."]) {
        const res = await api("POST", `/v1/api/${path}`, { body: { code, name: "Dot" } });
        expect(issuePaths(res), `${path} ${code}`).toEqual(["body.code"]);
      }
    }
    const product = await createProduct();
    const rename = await api("PATCH", `/v1/api/product/${product.code}`, { body: { code: ".." } });
    expect(issuePaths(rename)).toEqual(["body.code"]);
    // Dots inside a code are still fine.
    expect((await createProduct({ code: uid("A.B..C") })).code).toContain("..");
  });

  it("keeps the years 0000-0099 of a bare date (no 1900s) and knows 0000 was a leap year", async () => {
    const res = await api("POST", "/v1/api/pricelist", {
      body: { name: "Old", currency: "EUR", validFrom: "0000-02-29", validTo: "0050-06-15" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      validFrom: "0000-02-29T00:00:00.000Z",
      validTo: "0050-06-15T00:00:00.000Z",
    });
  });

  it("refuses instants outside the years 0000-9999 UTC, which have no RFC 3339 form", async () => {
    for (const [validFrom, validTo] of [
      ["0000-01-01T00:00:00+02:00", undefined],
      ["2025-01-01", "9999-12-31T23:59:59-02:00"],
    ]) {
      const res = await api("POST", "/v1/api/pricelist", {
        body: { name: "Edge", currency: "EUR", validFrom, validTo },
      });
      expect(issuePaths(res)).toEqual([validTo ? "body.validTo" : "body.validFrom"]);
    }
    const filtered = await api(
      "GET",
      `/v1/api/trade-conditions?filter.validFrom=${encodeURIComponent("$gte:0000-01-01T00:00:00+01:00")}`,
    );
    expect(issuePaths(filtered)).toEqual(["query.filter.validFrom"]);
    const edge = await api("POST", "/v1/api/pricelist", {
      body: {
        name: "Edge",
        currency: "EUR",
        validFrom: "0000-01-01T00:00:00Z",
        validTo: "9999-12-31T23:59:59.999Z",
      },
    });
    expect(edge.body).toMatchObject({
      validFrom: "0000-01-01T00:00:00.000Z",
      validTo: "9999-12-31T23:59:59.999Z",
    });
  });
});

afterAll(() => {
  console.log(
    `contract fuzz: ${ops.length} operations, ${stats.requests} fuzzed requests ` +
      `(+${stats.fixtureRequests} fixture requests, +${stats.readBacks} read-backs), by class ${JSON.stringify(stats.byClass)}, ` +
      `writes ${stats.writes} (a handler answered ${stats.writesReached}, ` +
      `IDEMPOTENCY_KEY_REUSED ${stats.idempotencyReused}), ` +
      `seed ${SEED}, ${RUNS} per operation, ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
});
