import { describe, expect, it } from "vitest";
import { CURRENCIES, isCurrency } from "../../src/core/currencies";
import { jsonTextIssues, MAX_JSON_DEPTH, roundsToInteger } from "../../src/core/strict-json";
import { unsafeTextReason } from "../../src/core/text";

describe("numbers judged on the JSON text", () => {
  it.each([
    ["9007199254740990.9", true],
    ["1.0000000000000001", true],
    ["9007199254740993", true],
    ["1e-400", true],
    ["1", false],
    ["-0", false],
    ["1.0", false],
    ["1e3", false],
    ["12.50e1", false],
    ["100E-2", false],
    ["9007199254740991", false],
    ["1.5", false],
    ["0.1", false],
    ["1e400", false],
  ])("%s rounds to an integer it does not write: %s", (text, expected) => {
    expect(roundsToInteger(text)).toBe(expected);
  });

  it("names the field of an inexact number and what it would be read as", () => {
    expect(jsonTextIssues('{"lines":[{"quantity":1},{"quantity":1.0000000000000001}]}')).toEqual([
      {
        path: "body.lines.1.quantity",
        message: "must be an exact integer; 1.0000000000000001 is not one (it would be read as 1)",
      },
    ]);
  });

  it("leaves exact numbers, strings that look like numbers and literals alone", () => {
    const text = JSON.stringify({ a: 1, b: -2, c: "1.0000000000000001", d: [true, false, null] });
    expect(jsonTextIssues(`${text}  `)).toEqual([]);
  });
});

describe("duplicate keys", () => {
  it("names every repeated key with its path, also in nested objects and escaped spellings", () => {
    const text = '{"name":"a","lines":[{"q":1,"q":2}],"n\\u0061me":"b"}';
    expect(jsonTextIssues(text)).toEqual([
      { path: "body.lines.0.q", message: "appears more than once in the same object" },
      { path: "body.name", message: "appears more than once in the same object" },
    ]);
  });

  it("accepts the same key in sibling objects", () => {
    expect(jsonTextIssues('[{"a":1},{"a":1}]')).toEqual([]);
  });

  it("finds a repeated key among many, and paths after nested values", () => {
    const keys = Array.from({ length: 40 }, (_, i) => `"k${i}":${i}`);
    const text = `{"x":{"deep":[[1,{"y":2}],{"z":[]}]},"many":{${keys.join(",")},"k3":1,"k39":2},"after":[{"q":3,"q":1e400}]}`;
    expect(jsonTextIssues(text)).toEqual([
      { path: "body.many.k3", message: "appears more than once in the same object" },
      { path: "body.many.k39", message: "appears more than once in the same object" },
      { path: "body.after.0.q", message: "appears more than once in the same object" },
    ]);
  });
});

describe("numbers in every place", () => {
  it("judges each number where it sits: in arrays, last in objects, after a sign", () => {
    const text =
      '{"a":[1,-2,9007199254740993,123456789012345,1234567890123456],"b":{"c":-9007199254740993},' +
      '"d":[0,1e3,12.50e1,1.5,-0.0,10000000000000001E0],"e":{"f":1.0000000000000001}}';
    expect(jsonTextIssues(text).map((issue) => issue.path)).toEqual([
      "body.a.2",
      "body.b.c",
      "body.d.5",
      "body.e.f",
    ]);
  });
});

describe("depth", () => {
  it(`stops at ${MAX_JSON_DEPTH} levels with one issue`, () => {
    const deep = "[".repeat(10_000) + "]".repeat(10_000);
    expect(jsonTextIssues(deep)).toEqual([
      {
        path: `body${".0".repeat(MAX_JSON_DEPTH)}`,
        message: `is nested more than ${MAX_JSON_DEPTH} levels deep`,
      },
    ]);
    const ok = "[".repeat(MAX_JSON_DEPTH) + "]".repeat(MAX_JSON_DEPTH);
    expect(jsonTextIssues(ok)).toEqual([]);
  });
});

describe("currencies (ISO 4217, in circulation)", () => {
  it.each(["EUR", "USD", "CHF", "JPY", "XOF", "XCG", "ZWG", "SLE"])("%s is a currency", (c) =>
    expect(isCurrency(c)).toBe(true),
  );
  it.each(["ABC", "XXX", "XTS", "XAU", "ANG", "HRK", "eur", "EURO", ""])("%s is not", (c) =>
    expect(isCurrency(c)).toBe(false),
  );
  it("holds only three-letter upper-case codes", () => {
    expect(CURRENCIES.size).toBeGreaterThan(150);
    for (const code of CURRENCIES) expect(code).toMatch(/^[A-Z]{3}$/);
  });
});

describe("free text", () => {
  it.each([
    ["Dealer list 2027", false, undefined],
    ["Händler – Preisliste 🧾", false, undefined],
    ["a\u0000b", false, "must not contain control characters (found U+0000)"],
    ["line\nbreak", false, "must not contain control characters (found U+000A)"],
    ["line\nbreak\tand tab", true, undefined],
    ["bell\u0007", true, "must not contain control characters (found U+0007)"],
    ["c1\u009b", true, "must not contain control characters (found U+009B)"],
    ["lone \ud800 surrogate", false, "must be valid Unicode text (it holds a lone surrogate)"],
    ["admin\u202e", false, "must not contain bidirectional control characters (found U+202E)"],
    ["x\u2066y", true, "must not contain bidirectional control characters (found U+2066)"],
  ])("%j (multiline %s) → %s", (value, multiline, reason) => {
    expect(unsafeTextReason(value, multiline)).toBe(reason);
  });
});
