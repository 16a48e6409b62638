import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { productRefs } from "../../src/resources/products/products.list";
import { api, expectProblem, KEYS, uid, type CallOptions } from "../shared/helpers";

describe("authentication and roles", () => {
  it("refuses a missing key with 401 problem+json", async () => {
    const res = await api("GET", "/v1/api/product", { key: null });
    const body = expectProblem(res, 401, "UNAUTHORIZED");
    expect(body).toMatchObject({
      status: 401,
      title: "Unauthorized",
      type: "urn:problem:pricing:unauthorized",
    });
    expect(body.detail).toContain("x-webhook-signature");
  });

  it("refuses an unknown key with 401", async () => {
    expectProblem(await api("GET", "/v1/api/product", { key: "not-a-key" }), 401, "UNAUTHORIZED");
  });

  it("lets a read key read but not write (403)", async () => {
    expect((await api("GET", "/v1/api/product", { key: KEYS.read })).status).toBe(200);
    const res = await api("POST", "/v1/api/product", {
      key: KEYS.read,
      body: { code: "R-1", name: "x" },
    });
    expectProblem(res, 403, "FORBIDDEN");
  });

  it("keeps /health and /doc public", async () => {
    const health = await api("GET", "/health", { key: null });
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: "ok" });
    expect((await api("GET", "/doc", { key: null })).status).toBe(200);
  });
});

describe("GET /: where to go", () => {
  it("answers JSON naming /app, /ui and /doc, without a key", async () => {
    const res = await api("GET", "/", { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({
      api: "/v1/api/",
      links: {
        app: { href: "/app/" },
        ui: { href: "/ui" },
        doc: { href: "/doc" },
        health: { href: "/health" },
      },
    });
  });

  it("answers a browser with a page of those links", async () => {
    const res = await api("GET", "/", { key: null, headers: { accept: "text/html,*/*" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    for (const href of ["/app/", "/ui", "/doc"]) expect(res.body).toContain(`href="${href}"`);
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    const post = await api("POST", "/", { key: null });
    expect([post.status, post.headers.get("allow")]).toEqual([405, "GET, HEAD"]);
  });
});

describe("error contract", () => {
  it("answers unknown routes with 404 and known paths with another method with 405 + Allow", async () => {
    expectProblem(await api("GET", "/v1/api/nothing-here"), 404, "NOT_FOUND");
    const res = await api("DELETE", "/v1/api/product");
    expect(expectProblem(res, 405, "METHOD_NOT_ALLOWED").detail).toBe(
      "DELETE is not allowed on /v1/api/product",
    );
    expect(res.headers.get("allow")).toBe("GET, HEAD, POST, PUT");
  });

  it("answers malformed JSON with 400 and a wrong content type with 415", async () => {
    const bad = await api("POST", "/v1/api/product", {
      raw: "{not json",
      headers: { "content-type": "application/json" },
    });
    expectProblem(bad, 400, "MALFORMED_JSON");
    const text = await api("POST", "/v1/api/product", {
      raw: "code=x",
      headers: { "content-type": "text/plain" },
    });
    expectProblem(text, 415, "UNSUPPORTED_MEDIA_TYPE");
  });

  it("answers a body over 1 MiB with 413", async () => {
    const res = await api("POST", "/v1/api/product", {
      body: { code: "BIG", name: "x".repeat(1024 * 1024 + 10) },
    });
    expectProblem(res, 413, "PAYLOAD_TOO_LARGE");
  });
});

describe("headers on every response", () => {
  it("makes its own x-request-id, answers the client's as x-correlation-id, and reports D1 round trips", async () => {
    const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    const sent = await api("GET", "/v1/api/product", { headers: { "x-request-id": "req-123" } });
    // The request id is always the server's: a client cannot choose (or reuse) one.
    expect(sent.headers.get("x-request-id")).toMatch(UUID);
    expect(sent.headers.get("x-correlation-id")).toBe("req-123");
    // A list page and its count are one batch: one round trip.
    expect(sent.headers.get("server-timing")).toMatch(/^db;desc="1 query";dur=\d+(\.\d)?$/);

    const made = await api("GET", "/health");
    expect(made.headers.get("x-request-id")).toMatch(UUID);
    expect(made.headers.get("x-correlation-id")).toBeNull();
    expect(made.headers.get("server-timing")).toMatch(/^db;desc="0 queries"/);

    const error = await api("GET", "/v1/api/product/NOPE", {
      headers: { "x-request-id": "req-err" },
    });
    const problem = expectProblem(error, 404, "NOT_FOUND");
    expect(problem.requestId).toMatch(UUID);
    expect(error.headers.get("x-request-id")).toBe(problem.requestId);
    expect(error.headers.get("x-correlation-id")).toBe("req-err");

    // Each request gets a new id, also when two send the same x-request-id.
    const again = await api("GET", "/health", { headers: { "x-request-id": "req-123" } });
    expect(again.headers.get("x-request-id")).not.toBe(sent.headers.get("x-request-id"));
  });

  it("ignores an x-request-id that is not 1-128 visible ASCII characters", async () => {
    for (const value of ["has space", "x".repeat(129), "tab\there"]) {
      const res = await api("GET", "/health", { headers: { "x-request-id": value } });
      expect(res.headers.get("x-request-id"), value).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers.get("x-correlation-id"), value).toBeNull();
    }
  });
});

describe("OpenAPI document", () => {
  it("is OpenAPI 3.1 with the apiKey scheme and documented operations", async () => {
    const res = await exports.default.fetch(new Request("http://pricing.test/doc"));
    const doc = (await res.json()) as any;
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.components.securitySchemes.apiKey).toEqual(
      expect.objectContaining({ type: "apiKey", in: "header", name: "x-webhook-signature" }),
    );
    const list = doc.paths["/v1/api/product"].get;
    expect(list.operationId).toBe("listProducts");
    expect(list.parameters.map((p: any) => p.name)).toEqual([
      "page",
      "limit",
      "sortBy",
      "search",
      "searchBy",
      "select",
      // A filter per foreign key by code of a product (products.list.ts productRefs).
      ...productRefs.fields.map((field) => `filter.${field}`),
    ]);
    expect(Object.keys(list.responses)).toEqual(["200", "400", "401", "429"]);
    const get = doc.paths["/v1/api/product/{code}"].get;
    expect(get.parameters[0]).toMatchObject({ name: "code", in: "path", required: true });
  });
});

describe("failure modes", () => {
  it("fails closed when API_KEYS is unset or empty", async () => {
    const { env } = await import("cloudflare:workers");
    const { app } = await import("../../src/app");
    for (const API_KEYS of ["", undefined, "admin:not-a-hash"]) {
      const res = await app.fetch(
        new Request("http://pricing.test/v1/api/product", {
          headers: { "x-webhook-signature": KEYS.admin },
        }),
        { ...env, API_KEYS },
      );
      expect(res.status).toBe(401);
      expect(((await res.json()) as any).code).toBe("UNAUTHORIZED");
    }
  });

  it("turns an unexpected error into a generic 500 without leaking the cause", async () => {
    const { Hono } = await import("hono");
    const { onError } = await import("../../src/core/errors");
    const app = new Hono();
    app.onError(onError);
    app.get("/boom", () => {
      throw new Error("D1_ERROR: no such table: secret_table at /src/x.ts:1");
    });
    const res = await app.fetch(new Request("http://pricing.test/boom"));
    expect(res.status).toBe(500);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({
      status: 500,
      code: "INTERNAL_ERROR",
      title: "Internal Server Error",
    });
    expect(text).not.toMatch(/D1_ERROR|secret_table|\.ts/);
  });
});

describe("API_KEYS entries", () => {
  const hex = "a".repeat(64);

  it("reads named and short entries and skips malformed ones", async () => {
    const { parseApiKeys } = await import("../../src/http/auth");
    const keys = parseApiKeys(
      ` erp-sync:admin:${hex} , read:${"b".repeat(64)},bad:role:${hex},admin:${"A".repeat(64)},admin:short`,
    );
    expect(keys.map(({ name, role }) => ({ name, role }))).toEqual([
      { name: "erp-sync", role: "admin" },
      { name: "read-bbbbbbbb", role: "read" },
    ]);
  });

  it("accepts a key configured in the named form", async () => {
    const { env } = await import("cloudflare:workers");
    const { app } = await import("../../src/app");
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode("named-key"));
    const sha = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
    const res = await app.fetch(
      new Request("http://pricing.test/v1/api/product", {
        headers: { "x-webhook-signature": "named-key" },
      }),
      { ...env, API_KEYS: `storefront-eu:read:${sha}` },
    );
    expect(res.status).toBe(200);
  });
});

describe("405 before keys, roles, limits and idempotency (docs/api/errors-and-limits.md §7)", () => {
  const allow = async (method: string, path: string, options: CallOptions = {}) => {
    const res = await api(method, path, options);
    expect(expectProblem(res, 405, "METHOD_NOT_ALLOWED").detail).toBe(
      `${method} is not allowed on ${path}`,
    );
    return res.headers.get("allow");
  };

  it("lists HEAD wherever GET is allowed, for the API and the public pages alike", async () => {
    expect(await allow("DELETE", "/v1/api/product")).toBe("GET, HEAD, POST, PUT");
    expect(await allow("PUT", "/v1/api/product/P-1")).toBe("GET, HEAD, PATCH, DELETE");
    expect(await allow("GET", "/v1/api/prices/resolve")).toBe("POST");
    const headOnPost = await api("HEAD", "/v1/api/prices/resolve");
    expect([headOnPost.status, headOnPost.headers.get("allow")]).toEqual([405, "POST"]);
    expect(await allow("POST", "/v1/api/audit")).toBe("GET, HEAD");
    expect(await allow("DELETE", "/v1/api/webhooks/7/rotate-secret")).toBe("POST");
    expect(await allow("POST", "/health", { key: null })).toBe("GET, HEAD");
    expect(await allow("PUT", "/doc", { key: null })).toBe("GET, HEAD");
    // HEAD is served where GET is: the GET's headers, no body.
    const head = await api("HEAD", "/v1/api/product");
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
  });

  it("is the same answer without a key, with an unknown key and with a read key", async () => {
    for (const key of [null, "not-a-key", KEYS.read, KEYS.admin]) {
      expect(await allow("DELETE", "/v1/api/product", { key })).toBe("GET, HEAD, POST, PUT");
      expect(await allow("POST", "/v1/api/channel/WEB/pricelists", { key })).toBe("GET, HEAD");
    }
  });

  it("comes before the Idempotency-Key: the key is not taken, so a real write may use it", async () => {
    const headers = { "Idempotency-Key": `k-${uid("I")}` };
    const body = { code: uid("P"), name: "After a 405" };
    for (let i = 0; i < 2; i++) {
      expect(await allow("PATCH", "/v1/api/product", { headers, body })).toBe(
        "GET, HEAD, POST, PUT",
      );
    }
    const created = await api("POST", "/v1/api/product", { headers, body });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.headers.get("idempotent-replayed")).toBeNull();
  });

  it("takes a literal path segment before a parameter: /pricelist/individual is not pricelist 'individual'", async () => {
    for (const method of ["GET", "PATCH", "PUT", "DELETE"]) {
      const body = method === "GET" ? undefined : {};
      expect(await allow(method, "/v1/api/pricelist/individual", { body })).toBe("POST");
    }
    expect(await allow("GET", "/v1/api/pricelist/individual/5")).toBe("DELETE");
    // The routes behind the parameters still answer.
    expectProblem(await api("PATCH", "/v1/api/pricelist/999999", { body: {} }), 404, "NOT_FOUND");
    expectProblem(await api("DELETE", "/v1/api/pricelist/individual/999999"), 404, "NOT_FOUND");
    expectProblem(
      await api("POST", "/v1/api/pricelist/individual", { body: {} }),
      400,
      "VALIDATION_FAILED",
    );
  });
});
