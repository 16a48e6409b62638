import { describe, expect, it } from "vitest";
import {
  MAX_QUANTITY,
  MAX_RESOLVE_LINES,
  PriceResolveSchema,
  quickResolveBody,
} from "../../src/resources/prices/prices.schemas";

/**
 * The resolve body's quick parser (src/resources/prices/prices.schemas.ts `quickResolveBody`)
 * against its schema: for a body it accepts, exactly the schema's value, keys in the same order;
 * for any body the schema refuses (or that it does not judge), undefined, so the schema's error
 * answers stay the only ones (test/prices/price-resolution.test.ts asserts those over HTTP).
 */

const line = (productCode: string, quantity: number) => ({ productCode, quantity });
const lines = (n: number) => Array.from({ length: n }, (_, i) => line(`P-${i}`, (i % 7) + 1));

/** A value through JSON, as the router gets it. */
const viaJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

const accepted: [string, unknown][] = [
  ["the smallest body", { channelCode: "WEB-DE", lines: [line("P-1", 1)] }],
  [
    "every field",
    {
      lines: lines(3),
      ladder: true,
      quoteId: 42,
      explain: false,
      at: "2025-06-15T10:00:00Z",
      currency: "EUR",
      customerCode: "C-1001",
      channelCode: "WEB-DE",
    },
  ],
  ["an anonymous customer (null)", { channelCode: "WEB-DE", customerCode: null, lines: lines(2) }],
  ["a date for `at`", { channelCode: "WEB-DE", at: "2025-06-15", lines: lines(1) }],
  ["the most lines", { channelCode: "WEB-DE", lines: lines(MAX_RESOLVE_LINES) }],
  [
    "codes at the edges",
    {
      channelCode: "W",
      lines: [line("..x", 1), line(".a", MAX_QUANTITY), line("a".repeat(64), 1), line("_-.", 2)],
    },
  ],
  ["a product named twice", { channelCode: "WEB-DE", lines: [line("P", 1), line("P", 2)] }],
];

const refused: [string, unknown][] = [
  ["no lines", { channelCode: "WEB-DE", lines: [] }],
  ["lines missing", { channelCode: "WEB-DE" }],
  ["too many lines", { channelCode: "WEB-DE", lines: lines(MAX_RESOLVE_LINES + 1) }],
  ["lines not an array", { channelCode: "WEB-DE", lines: { 0: line("P", 1) } }],
  ["a line that is an array", { channelCode: "WEB-DE", lines: [["P", 1]] }],
  ["a line that is null", { channelCode: "WEB-DE", lines: [null] }],
  ["a line with a third key", { channelCode: "WEB-DE", lines: [{ ...line("P", 1), note: "x" }] }],
  ["a line without quantity", { channelCode: "WEB-DE", lines: [{ productCode: "P" }] }],
  ["a line's key misspelt", { channelCode: "WEB-DE", lines: [{ productcode: "P", quantity: 1 }] }],
  ["a fraction", { channelCode: "WEB-DE", lines: [line("P", 1.5)] }],
  ["zero", { channelCode: "WEB-DE", lines: [line("P", 0)] }],
  ["a negative quantity", { channelCode: "WEB-DE", lines: [line("P", -1)] }],
  ["too many units", { channelCode: "WEB-DE", lines: [line("P", MAX_QUANTITY + 1)] }],
  ["a quantity as text", { channelCode: "WEB-DE", lines: [{ productCode: "P", quantity: "5" }] }],
  ["a code '.'", { channelCode: "WEB-DE", lines: [line(".", 1)] }],
  ["a code '..'", { channelCode: "WEB-DE", lines: [line("..", 1)] }],
  ["a code of 65 characters", { channelCode: "WEB-DE", lines: [line("a".repeat(65), 1)] }],
  ["a code with a space", { channelCode: "WEB-DE", lines: [line("P 1", 1)] }],
  ["an empty code", { channelCode: "WEB-DE", lines: [line("", 1)] }],
  ["a code as a number", { channelCode: "WEB-DE", lines: [{ productCode: 7, quantity: 1 }] }],
  ["an unknown field", { channelCode: "WEB-DE", lines: lines(1), note: "x" }],
  ["no channel", { lines: lines(1) }],
  ["a bad channel code", { channelCode: "..", lines: lines(1) }],
  ["a bad currency", { channelCode: "WEB-DE", currency: "euro", lines: lines(1) }],
  ["a bad instant", { channelCode: "WEB-DE", at: "tomorrow", lines: lines(1) }],
  ["explain as text", { channelCode: "WEB-DE", explain: "true", lines: lines(1) }],
  ["quoteId 0", { channelCode: "WEB-DE", quoteId: 0, lines: lines(1) }],
  ["a body that is an array", [{ channelCode: "WEB-DE", lines: lines(1) }]],
  ["a body that is null", null],
  ["a body that is text", "lines"],
];

describe("quickResolveBody", () => {
  it.each(accepted)("gives the schema's value for %s", (_, body) => {
    const input = viaJson(body);
    const quick = quickResolveBody(input);
    const parsed = PriceResolveSchema.parse(input);
    expect(quick).toEqual(parsed);
    // The same keys in the same order: the handler's cart, and anything serialised from it.
    expect(JSON.stringify(quick)).toBe(JSON.stringify(parsed));
  });

  it.each(refused)("leaves %s to the schema", (_, body) => {
    const input = viaJson(body);
    expect(quickResolveBody(input)).toBeUndefined();
  });

  it("leaves a body the schema refuses to the schema, whatever the reason", () => {
    for (const [, body] of refused) {
      const input = viaJson(body);
      if (!PriceResolveSchema.safeParse(input).success) {
        expect(quickResolveBody(input)).toBeUndefined();
      }
    }
  });

  it("leaves a line with an own __proto__ key to the schema", () => {
    const input = JSON.parse(
      '{"channelCode":"WEB-DE","lines":[{"productCode":"P","quantity":1,"__proto__":{"x":1}}]}',
    ) as unknown;
    expect(quickResolveBody(input)).toBeUndefined();
    expect(PriceResolveSchema.safeParse(input).success).toBe(false);
    const top = JSON.parse(
      '{"channelCode":"WEB-DE","__proto__":{"x":1},"lines":[{"productCode":"P","quantity":1}]}',
    ) as unknown;
    expect(quickResolveBody(top)).toBeUndefined();
    expect(PriceResolveSchema.safeParse(top).success).toBe(false);
  });
});
