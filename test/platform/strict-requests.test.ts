import { describe, expect, it } from "vitest";
import { MAX_ISSUES } from "../../src/core/errors";
import { createPricelist } from "../factories";
import { api, expectProblem, KEYS, uid } from "../shared/helpers";

/**
 * Strict text and numbers, bounded errors (docs/api/errors-and-limits.md §7), through the Worker.
 */

const send = (
  method: string,
  path: string,
  raw: string | Uint8Array,
  contentType = "application/json",
) => api(method, path, { raw, headers: { "content-type": contentType } });

describe("JSON bodies are judged on their text", () => {
  it.each(["latin1", "ISO-8859-1", "utf-16", "windows-1252"])(
    "charset=%s → 415, nothing written",
    async (charset) => {
      const code = uid("P");
      const res = await send(
        "POST",
        "/v1/api/product",
        JSON.stringify({ code, name: "Product" }),
        `application/json; charset=${charset}`,
      );
      const problem = expectProblem(res, 415, "UNSUPPORTED_MEDIA_TYPE");
      expect(problem.detail).toContain(`charset=${charset}`);
      expect((await api("GET", `/v1/api/product/${code}`)).status).toBe(404);
    },
  );

  it.each(["utf-8", "UTF-8", "utf8", '"utf-8"'])("charset=%s is UTF-8 and accepted", async (cs) => {
    const res = await send(
      "POST",
      "/v1/api/product",
      JSON.stringify({ code: uid("P"), name: "Product" }),
      `application/json; charset=${cs}`,
    );
    expect(res.status).toBe(201);
  });

  it("bytes that are not UTF-8 → 400, nothing written (never stored as U+FFFD)", async () => {
    const code = uid("P");
    const text = new TextEncoder().encode(JSON.stringify({ code, name: "Bosch XX" }));
    const at = text.indexOf(0x58); // the first X
    text.set([0xff, 0xfe], at);
    const problem = expectProblem(
      await send("POST", "/v1/api/product", text),
      400,
      "MALFORMED_JSON",
    );
    expect(problem.detail).toBe("the request body is not valid JSON");
    expect((await api("GET", `/v1/api/product/${code}`)).status).toBe(404);
    // U+FFFD written as UTF-8 is text like any other.
    const replacement = JSON.stringify({ code, name: "Bosch \ufffd" });
    const res = await send("POST", "/v1/api/product", new TextEncoder().encode(replacement));
    expect(res.status).toBe(201);
    expect(res.body.name).toBe("Bosch \ufffd");
  });

  it("a duplicate key → 400 naming it, nothing written", async () => {
    const code = uid("P");
    const res = await send("POST", "/v1/api/product", `{"code":"${code}","name":"A","name":"B"}`);
    const problem = expectProblem(res, 400, "VALIDATION_FAILED");
    expect(problem.errors).toEqual([
      { path: "body.name", message: "appears more than once in the same object" },
    ]);
    expect((await api("GET", `/v1/api/product/${code}`)).status).toBe(404);
  });

  it.each(["9007199254740990.9", "1.0000000000000001", "9007199254740993", "1e-400"])(
    "an amount of %s → 400 on the field, judged on the text",
    async (amount) => {
      const list = await createPricelist();
      const raw = `{"prices":[{"productCode":"X","amount":${amount}}]}`;
      const res = await send("PUT", `/v1/api/pricelist/${list.id}/prices`, raw);
      const problem = expectProblem(res, 400, "VALIDATION_FAILED");
      expect(problem.errors?.[0]).toEqual({
        path: "body.prices.0.amount",
        message: expect.stringMatching(/^must be an exact integer; .* is not one/),
      });
    },
  );

  it("exact integers written as 1.0 or 1e3 are the integers they write", async () => {
    const res = await send(
      "POST",
      "/v1/api/promotion",
      `{"name":"P","discountType":"PERCENTAGE","value":1e3}`,
    );
    expect(res.status).toBe(201);
    expect(res.body.value).toBe(1000);
  });
});

describe("free text", () => {
  it.each([
    ["a NUL", "Bolt\u0000", "must not contain control characters (found U+0000)"],
    ["an escape", "Bolt\u001b[31m", "must not contain control characters (found U+001B)"],
    ["a line break", "Bolt\nM8", "must not contain control characters (found U+000A)"],
    [
      "a right-to-left override",
      "Bolt\u202eexe.txt",
      "must not contain bidirectional control characters (found U+202E)",
    ],
    ["a lone surrogate", "Bolt \ud800", "must be valid Unicode text (it holds a lone surrogate)"],
  ])("a name with %s → 400 with the reason", async (_what, name, message) => {
    const res = await api("POST", "/v1/api/product", { body: { code: uid("P"), name } });
    const problem = expectProblem(res, 400, "VALIDATION_FAILED");
    expect(problem.errors).toEqual([{ path: "body.name", message }]);
  });

  it("a description may hold line breaks and tabs, not other control characters", async () => {
    const ok = await api("POST", "/v1/api/customer-group", {
      body: { code: uid("G"), name: "Group", description: "Line one\n\tLine two" },
    });
    expect(ok.status).toBe(201);
    const bad = await api("POST", "/v1/api/customer-group", {
      body: { code: uid("G"), name: "Group", description: "bell\u0007" },
    });
    expect(expectProblem(bad, 400, "VALIDATION_FAILED").errors).toEqual([
      { path: "body.description", message: "must not contain control characters (found U+0007)" },
    ]);
  });

  it("names in other scripts and with emoji are fine", async () => {
    const res = await api("POST", "/v1/api/product", {
      body: { code: uid("P"), name: "Schraube – 六角ボルト 🔩" },
    });
    expect(res.status).toBe(201);
  });
});

describe("currencies", () => {
  it.each(["ABC", "XXX", "XTS", "EUR ".trim().toLowerCase()])("%s → 400", async (currency) => {
    const res = await api("POST", "/v1/api/pricelist", { body: { name: "L", currency } });
    const problem = expectProblem(res, 400, "VALIDATION_FAILED");
    expect(problem.errors?.[0]?.path).toBe("body.currency");
  });

  it("a fake code is refused with a sentence; a real one is accepted", async () => {
    const fake = await api("POST", "/v1/api/pricelist", { body: { name: "L", currency: "ABC" } });
    expect(expectProblem(fake, 400, "VALIDATION_FAILED").errors).toEqual([
      {
        path: "body.currency",
        message: "must be the ISO 4217 code of a currency in circulation, such as EUR",
      },
    ]);
    const real = await api("POST", "/v1/api/pricelist", { body: { name: "L", currency: "CHF" } });
    expect(real.status).toBe(201);
  });
});

describe("the API key", () => {
  it("is compared without surrounding whitespace", async () => {
    const res = await api("GET", "/v1/api/product?limit=1", { key: ` ${KEYS.read}\t` });
    expect(res.status).toBe(200);
  });
});

describe("bounded errors", () => {
  it(`a query with 850 bad filters lists ${MAX_ISSUES} issues and says how many there were`, async () => {
    const query = Array.from({ length: 850 }, (_, i) => `filter.nope${i}=1`).join("&");
    const res = await api("GET", `/v1/api/product?${query}`);
    const problem = expectProblem(res, 400, "VALIDATION_FAILED");
    expect(problem.errors).toHaveLength(MAX_ISSUES);
    expect(problem.detail).toBe(
      `850 validation issues; the first ${MAX_ISSUES} are listed in errors`,
    );
    expect(JSON.stringify(problem).length).toBeLessThan(8_000);
  });

  it("a 10,000-term sortBy gets a short answer", async () => {
    const sortBy = Array.from({ length: 10_000 }, (_, i) => `f${i}:ASC`).join(",");
    const res = await api("GET", `/v1/api/product?sortBy=${sortBy}`);
    const problem = expectProblem(res, 400, "VALIDATION_FAILED");
    expect(problem.errors!.length).toBeLessThanOrEqual(MAX_ISSUES);
    expect(JSON.stringify(problem).length).toBeLessThan(8_000);
  });

  it("echoes at most 100 characters of any input", async () => {
    const long = "x".repeat(5_000);
    const res = await api("GET", `/v1/api/product?sortBy=${long}:ASC&filter.${long}=1`);
    const problem = expectProblem(res, 400, "VALIDATION_FAILED");
    const text = JSON.stringify(problem);
    expect(text).not.toContain("x".repeat(101));
    expect(text).toContain(`${"x".repeat(100)}…`);
  });

  it("a body naming 1000 unknown codes names 20 of them and counts the rest", async () => {
    const codes = Array.from({ length: 1000 }, (_, i) => `NOPE-${i}`);
    const res = await api("POST", "/v1/api/trade-conditions", {
      body: {
        name: "T",
        scope: "GLOBAL",
        type: "DISCOUNT",
        discountType: "PERCENTAGE",
        value: 100,
        productCodes: codes,
      },
    });
    const problem = expectProblem(res, 400, "VALIDATION_FAILED");
    expect(problem.errors?.[0]?.message).toMatch(
      /^unknown product codes: NOPE-0, .*NOPE-19 and 980 more$/,
    );
  });
});
