import { describe, expect, it } from "vitest";
import { CURRENCIES } from "../../src/core/currencies";
import {
  CONDITION_SCOPES,
  CONDITION_TYPES,
  DISCOUNT_TYPES,
  PROMOTION_STACKINGS,
} from "../../src/pricing/vocabulary";
import { deref, loadDoc, operations, type Schema } from "../fuzz/openapi";
import { callWorker } from "../fuzz/worker";
import { api, expectProblem, KEYS, uid } from "../shared/helpers";

/**
 * /doc declares what the server checks (issue 22 item 8): the patterns of list filters and
 * `select`, the bounds of the price lookup's query, ids' upper bound, names' characters and the
 * currencies, so a client or a fuzzer following /doc sends what the server takes and nothing it
 * refuses matches. Each declaration is read from the live /doc and held against the server's
 * answers, value by value.
 */

const doc = await loadDoc();
const ops = operations(doc);
const pattern = (schema: Schema) => new RegExp(deref(doc, schema).pattern as string, "u");

/** Whether the Worker refuses `value` for query parameter `name` (400 naming it). */
async function refusedInQuery(path: string, name: string, value: string): Promise<boolean> {
  const url = `http://pricing.test${path}?${new URLSearchParams([[name, value]])}`;
  const res = await callWorker(
    new Request(url, { headers: { "x-webhook-signature": KEYS.admin } }),
  );
  const body = (await res.json()) as { errors?: { path: string }[] };
  expect(res.status, `${name}=${value}: ${JSON.stringify(body)}`).toBeLessThan(500);
  return res.status === 400 && (body.errors ?? []).some((e) => e.path.startsWith(`query.${name}`));
}

/** Values that probe every branch of the filter grammar (docs/list-queries.md §7). */
const FILTER_PROBES = [
  ...["", "$", "$not", "$not:", "$eq", "$eq:", "$null", "$null:x", "$in", "$in:", "$btw"],
  ...["abc", "a:b", ":x", "$bogus:1", "$not:$not:x", "$not:$eq:x", "$gte:", "$lt:3"],
  ...["1", "-5", "1.5", "0", "007", "1234567890123456", "$eq:12", "$gte:10", "$in:1,2"],
  ...["$btw:1,2", "$btw:1", "$btw:1,2,3", "$in:a,,b", "true", "FALSE", "yes", "$not:true"],
  ...["2025-01-01", "2025-13-01", "2025-01-01T10:00Z", "2025-01-01t10:00:00.5+02:00"],
  ...["2025-01-01T10:00", "2025-01-01T24:00Z", "$gte:2025-06-01", "$lte:2025-06-01T00:00Z"],
  ...["$btw:2025-01-01,2025-02-01", "$null:2025-01-01"],
];

/** Enum probes: each value, with each operator form, and near misses. */
function enumProbes(values: string[]): string[] {
  const [a = "", b = a] = values;
  return [
    ...values,
    `$eq:${a}`,
    `$not:${a}`,
    `$not:$eq:${b}`,
    `$in:${a},${b}`,
    `$in:${a},nope`,
    a.toLowerCase(),
    `${a}X`,
    ` ${a}`,
  ];
}

/** A concrete path for a list route: the query is checked before the record is looked up. */
const concrete = (template: string) =>
  template.replace(/\{(\w+)\}/g, (_m, name: string) => (name === "id" ? "1" : "NO-SUCH"));

const listOps = ops.filter(
  (op) => op.method === "GET" && op.parameters.some((p) => p.name.startsWith("filter.")),
);

describe("list filters and select declare the parser's grammar", () => {
  it("covers every list with filters", () => {
    expect(listOps.length).toBeGreaterThanOrEqual(15);
  });

  listOps.forEach((op) => {
    it(`${op.path} (${op.id}): each filter.* and select value matches its pattern exactly when the server takes it`, async () => {
      const path = concrete(op.path);
      const mismatches: string[] = [];
      for (const p of op.parameters.filter((q) => q.name.startsWith("filter."))) {
        expect(p.schema.type, p.name).toBe("array");
        const items = p.schema.items as Schema;
        const enumValues = /one of ([A-Za-z_, ]+)\)/.exec(p.description ?? "")?.[1]?.split(", ");
        for (const value of [...FILTER_PROBES, ...enumProbes(enumValues ?? [])]) {
          const declared = pattern(items).test(value);
          if (declared === (await refusedInQuery(path, p.name, value))) {
            mismatches.push(`${p.name}=${JSON.stringify(value)}: pattern says ${declared}`);
          }
        }
      }
      const select = op.parameters.find((q) => q.name === "select");
      if (select) {
        const fields = /return \(id is always included\): ([^.]+)\./.exec(select.description!)![1]!;
        const [first, second] = fields.split(", ");
        for (const value of [
          ...["", ",", first!, `${first},${second}`, ` ${first} , ${second} `, `${first},,`],
          ...["nope", `${first},nope`, first!.toUpperCase(), `${first} ${second}`],
        ]) {
          const declared = pattern(select.schema).test(value);
          if (declared === (await refusedInQuery(path, "select", value))) {
            mismatches.push(`select=${JSON.stringify(value)}: pattern says ${declared}`);
          }
        }
      }
      expect(mismatches).toEqual([]);
      // The audit list probes each of its entities (one call each): longer than the default.
    }, 30_000);
  });
});

describe("the price lookup's query declares its bounds (GET /v1/api/prices)", () => {
  const params = Object.fromEntries(
    ops.find((op) => op.id === "lookupPrices")!.parameters.map((p) => [p.name, p.schema]),
  );
  const get = (query: string) =>
    api("GET", `/v1/api/prices?channel=NO-SUCH-CH&${query}`, { key: KEYS.read });

  it("product: 1-100 codes, each value a code or codes joined by commas", async () => {
    expect(params.product).toMatchObject({ type: "array", minItems: 1, maxItems: 100 });
    const item = pattern(params.product!.items);
    for (const ok of ["P-A", "P-A,P-B", "...", "a.b,c_d"]) expect(item.test(ok), ok).toBe(true);
    for (const bad of ["", ".", "..", "P-A,", ",P-A", "P-A,,P-B", "P A", "P-A,.."]) {
      expect(item.test(bad), bad).toBe(false);
    }
    const codes = (n: number) => Array.from({ length: n }, (_, i) => `product=P-${i}`).join("&");
    // Within the bounds the query passes (the unknown channel is then a 404).
    expectProblem(await get(codes(100)), 404, "NOT_FOUND");
    const tooMany = expectProblem(await get(codes(101)), 400, "VALIDATION_FAILED");
    expect(tooMany.errors).toEqual([{ path: "query.product", message: "at most 100 products" }]);
  });

  it("quantity: a whole number 1-1000000, checked by the schema", async () => {
    expect(params.quantity).toMatchObject({ type: "integer", minimum: 1, maximum: 1_000_000 });
    for (const quantity of ["1", "1000000", "0000010"]) {
      expectProblem(await get(`product=P-A&quantity=${quantity}`), 404, "NOT_FOUND");
    }
    for (const quantity of ["0", "1000001", "-1", "1.5", "", "abc", "99999999"]) {
      const problem = expectProblem(
        await get(`product=P-A&quantity=${quantity}`),
        400,
        "VALIDATION_FAILED",
      );
      expect(problem.errors, quantity).toEqual([
        { path: "query.quantity", message: "must be a whole number 1-1000000" },
      ]);
    }
  });
});

describe("ids: 1 to 999999999999999, the bound with its own message", () => {
  it("every id path parameter declares both bounds", () => {
    const ids = ops.flatMap((op) =>
      op.parameters.filter((p) => p.in === "path" && p.name === "id"),
    );
    expect(ids.length).toBeGreaterThan(15);
    for (const id of ids) {
      expect(deref(doc, id.schema)).toMatchObject({
        type: "integer",
        minimum: 1,
        maximum: 999_999_999_999_999,
      });
    }
  });

  it("answers the largest id with a 404, one more with its own 400, and a non-number as before", async () => {
    expectProblem(await api("GET", "/v1/api/pricelist/999999999999999"), 404, "NOT_FOUND");
    for (const [id, message] of [
      ["1000000000000000", "must be at most 999999999999999"],
      ["99999999999999999999", "must be at most 999999999999999"],
      ["abc", "must be a positive integer"],
      ["0", "must be a positive integer"],
      ["-1", "must be a positive integer"],
    ]) {
      const problem = expectProblem(
        await api("GET", `/v1/api/promotion/${id}`),
        400,
        "VALIDATION_FAILED",
      );
      expect(problem.errors, id).toEqual([{ path: "path.id", message }]);
    }
  });
});

describe("names and descriptions declare the characters they may hold", () => {
  const create = doc.components.schemas.CustomerGroupCreate as Schema;

  /**
   * Lone surrogates are no Unicode text: a validator reading strings as code points never sees
   * one, and the pattern names none (docs/api/resources.md §1). The server refuses them all the
   * same.
   */
  const LONE = ["a\ud800b", "a\udc00", "a\udfff"];

  it("a name matches its pattern exactly when the server takes it, with and without the u flag", async () => {
    const source = deref(doc, create.properties.name).pattern as string;
    const [unicode, plain] = [new RegExp(source, "u"), new RegExp(source)];
    const samples = [
      ...["Bolt", "  Bolt  ", "Müller & Söhne", "😀 shop", "Shop 😀", "a\u00a0b", "x".repeat(200)],
      ...["", " ", "\t", "a\tb", "a\nb", "a\u0000b", "a\u007fb", "a\u0085b", "a\u202eb"],
      ...["a\u2066b", "\u2028x", "\u00a0", "\ufeff", "\u3000 \u2003", "\u1680", "\u202f"],
      ...["\u200b", "a\u200fb", "\u00ad"],
    ];
    const mismatches: string[] = [];
    for (const sample of [...samples, ...LONE]) {
      const res = await api("POST", "/v1/api/customer-group", {
        body: { code: uid("CG"), name: sample },
      });
      const refused = res.status === 400;
      if (!refused) expect(res.status, JSON.stringify(res.body)).toBe(201);
      if (LONE.includes(sample)) {
        if (!refused) mismatches.push(`${JSON.stringify(sample)} → ${res.status}`);
        continue;
      }
      for (const [flags, name] of [
        ["u", unicode],
        ["", plain],
      ] as const) {
        if (name.test(sample) === refused)
          mismatches.push(`${JSON.stringify(sample)} → ${res.status}, /${flags}: ${!refused}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it("a description keeps tabs and line breaks, and refuses the rest as its pattern says", async () => {
    const description = pattern(create.properties.description);
    const mismatches: string[] = [];
    for (const sample of [
      "",
      "two\nlines\r\n\tindented",
      "a\u0000b",
      "a\u000bb",
      "a\u202db",
      "😀",
      ...LONE,
    ]) {
      const res = await api("POST", "/v1/api/customer-group", {
        body: { code: uid("CG"), name: "Described", description: sample },
      });
      const refused = res.status === 400;
      if (LONE.includes(sample) ? !refused : description.test(sample) === refused) {
        mismatches.push(`${JSON.stringify(sample)} → ${res.status}`);
      }
    }
    expect(mismatches).toEqual([]);
  });
});

describe("what JSON Schema cannot say is said in words, what it can is declared", () => {
  const byId = new Map(ops.map((op) => [op.id, op]));
  const description = (id: string) => {
    const op = byId.get(id);
    expect(op, id).toBeDefined();
    return (doc.paths[op!.path] as Record<string, { description?: string }>)[
      op!.method.toLowerCase()
    ]!.description!;
  };
  it.each([
    [
      "createPricelist",
      ["`validTo` must be after `validFrom`", "`ending` must be below its `step`"],
    ],
    [
      "updatePricelist",
      ["`validTo` must be after `validFrom`", "`ending` must be below its `step`"],
    ],
    ["createIndividualPricelist", ["`validTo` must be after `validFrom`"]],
    ["upsertPricelistPrices", ["`validTo` must be after `validFrom`"]],
    ["createTradeCondition", ["`validTo` must be after `validFrom`"]],
    ["updateTradeCondition", ["`validTo` must be after `validFrom`"]],
    ["createPromotion", ["`validTo` must be after `validFrom`"]],
    ["updatePromotion", ["`validTo` must be after `validFrom`"]],
    ["upsertExchangeRates", ["`from` and `to` must differ"]],
    ["createChangeRequest", ["`effectiveAt` must not be in the past", "`ending` must be below"]],
    ["updateChangeRequest", ["`effectiveAt` must not be in the past", "`ending` must be below"]],
  ])("%s states its cross-field rules", (id, rules) => {
    for (const rule of rules) expect(description(id)).toContain(rule);
  });

  it("a rejection's reason has at least one character; the feed's cursor declares its maximum", () => {
    const reject = doc.components.schemas.ChangeRequestReject as Schema;
    expect(deref(doc, reject.properties.reason).minLength).toBe(1);
    const after = byId.get("listChanges")!.parameters.find((p) => p.name === "after")!;
    expect(deref(doc, after.schema)).toMatchObject({
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
    });
  });
});

/** Every `pattern` of /doc, once each. */
function patternsOf(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) patternsOf(item, found);
  else if (node && typeof node === "object") {
    const { pattern } = node as { pattern?: unknown };
    if (typeof pattern === "string") found.add(pattern);
    for (const value of Object.values(node)) patternsOf(value, found);
  }
  return found;
}

describe("every pattern of /doc is read alike by every validator (docs/api/resources.md §1)", () => {
  const patterns = [...patternsOf(doc)];

  it("uses only what ECMAScript (with and without u), RE2, Rust's regex and Python share", () => {
    expect(patterns.length).toBeGreaterThan(10);
    const unportable: string[] = [];
    for (const source of patterns) {
      // Both ECMAScript modes compile it.
      new RegExp(source, "u");
      new RegExp(source);
      const problems = [
        [/\\u/, "\\u escape (RE2 has none)"],
        [/\\x\{/, "\\x{…} (ECMAScript has none)"],
        [/\\[pP]\{/, "\\p{…} (a plain p without u)"],
        [/\(\?<?[=!]/, "lookaround (RE2 and Rust have none)"],
        [/\\[1-9]/, "a back-reference"],
        [/[\ud800-\udfff]/u, "a surrogate code point"],
      ] as const;
      for (const [test, what] of problems) {
        if (test.test(source)) unportable.push(`${what}: ${source.slice(0, 80)}`);
      }
    }
    expect(unportable).toEqual([]);
  });

  it("a code's pattern takes 1-64 characters of A-Z a-z 0-9 . _ - except . and .., as the server", async () => {
    const code = new RegExp(
      deref(doc, (doc.components.schemas.CustomerGroupCreate as Schema).properties.code)
        .pattern as string,
    );
    const samples = [".", "..", "...", ".a", "..a", "a.", "a..", "_", "-.", "x".repeat(64)];
    const refusedSamples = ["", "x".repeat(65), "a b", "ä", "a/b", "." + "x".repeat(64)];
    for (const sample of samples)
      expect(code.test(sample), sample).toBe(![".", ".."].includes(sample));
    for (const sample of refusedSamples) expect(code.test(sample), sample).toBe(false);
    for (const sample of [".", "..", "..."]) {
      const res = await api("POST", "/v1/api/customer-group", {
        body: { code: sample, name: "Dots" },
      });
      expect(res.status, sample).toBe(code.test(sample) ? 201 : 400);
    }
  });
});

describe("currencies are an enum: the codes in circulation", () => {
  it("declares exactly the codes the server takes", async () => {
    const currency = doc.components.schemas.Currency as Schema;
    expect(currency.enum).toEqual([...CURRENCIES]);
    for (const code of ["EUR", "JPY", "ZWG"]) {
      expect(await refusedInQuery("/v1/api/prices", "currency", code), code).toBe(false);
    }
    for (const code of ["XAU", "XXX", "ZWL", "eur", "EURO"]) {
      expect(await refusedInQuery("/v1/api/prices", "currency", code), code).toBe(true);
      expect(currency.enum).not.toContain(code);
    }
  });
});

describe("the Idempotency-Key header has no example", () => {
  it("so the interactive reference fills no fixed key into every write", () => {
    const header = doc.components.parameters.IdempotencyKey as Schema;
    expect(header.example).toBeUndefined();
    expect(deref(doc, header.schema).example).toBeUndefined();
    expect(JSON.stringify(doc)).not.toContain("3b9f7c1e-52a4-4d7e-9a0c-8f1d2e6b4a70");
  });
});

describe("response enums come from the vocabulary", () => {
  it("a price answer's trade conditions, promotions and adjustments name their enums", () => {
    const schemas = doc.components.schemas as Record<string, Schema>;
    const prop = (name: string, field: string) => deref(doc, schemas[name]!.properties[field]);
    expect(prop("TradeConditionExplain", "type").enum).toEqual([...CONDITION_TYPES]);
    expect(prop("TradeConditionExplain", "scope").enum).toEqual([...CONDITION_SCOPES]);
    expect(prop("TradeConditionExplain", "discountType").enum).toEqual([...DISCOUNT_TYPES]);
    expect(prop("PromotionExplain", "stacking").enum).toEqual([...PROMOTION_STACKINGS]);
    expect(prop("PromotionExplain", "discountType").enum).toEqual([...DISCOUNT_TYPES]);
    const scope = prop("PriceAdjustment", "scope");
    expect(scope.type).toEqual(["string", "null"]);
    expect(scope.enum).toEqual([...CONDITION_SCOPES, null]);
  });
});
