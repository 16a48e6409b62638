/**
 * The pure parts of `npm run prices:import` / `prices:export` (scripts/lib): the CSV reader and
 * writer, decimal ⇄ minor units, the header and row rules, and the mapping of a 400's issue
 * paths back to CSV lines. The round trip against a running service is in the report of the
 * change that added them (50,000 rows; see README "Bulk import and export").
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createCsvParser, csvRow, parseCsv } from "../scripts/lib/csv.mjs";
import {
  createTierTracker,
  priceRecord,
  readHeader,
  readPriceRow,
  rejectedLines,
} from "../scripts/lib/csv-prices.mjs";
import { decimalToMinor, minorDigits, minorToDecimal } from "../scripts/lib/money.mjs";

const records = (text: string) => parseCsv(text).map((r) => [r.line, r.fields, r.error]);

describe("CSV reader", () => {
  it("reads fields and the line each record starts on", () => {
    expect(records("a,b,c\n1,2,3\n")).toEqual([
      [1, ["a", "b", "c"], undefined],
      [2, ["1", "2", "3"], undefined],
    ]);
    expect(records("a,,c\n,\nx")).toEqual([
      [1, ["a", "", "c"], undefined],
      [2, ["", ""], undefined],
      [3, ["x"], undefined],
    ]);
  });

  it("treats CRLF, LF and a lone CR as one line break each, and drops a leading BOM", () => {
    const expected = [
      [1, ["h1", "h2"], undefined],
      [2, ["a", "b"], undefined],
      [3, ["c", "d"], undefined],
    ];
    expect(records("\uFEFFh1,h2\r\na,b\r\nc,d\r\n")).toEqual(expected);
    expect(records("h1,h2\ra,b\rc,d")).toEqual(expected);
    expect(records("h1,h2\r\na,b\nc,d\r")).toEqual(expected);
    // Only at the very start: a BOM later on is data.
    expect(parseCsv("a\n\uFEFFb")[1]?.fields).toEqual(["\uFEFFb"]);
  });

  it("skips blank lines but keeps counting them", () => {
    expect(records("a\n\n\r\nb\n\n")).toEqual([
      [1, ["a"], undefined],
      [4, ["b"], undefined],
    ]);
  });

  it("reads quoted fields: commas, doubled quotes, line breaks (which advance the line count)", () => {
    expect(records('"P,1","say ""hi""",""\n"multi\r\nline",x\nnext,1')).toEqual([
      [1, ["P,1", 'say "hi"', ""], undefined],
      [2, ["multi\r\nline", "x"], undefined],
      [4, ["next", "1"], undefined],
    ]);
  });

  it("reports malformed records with their line and goes on at the next line", () => {
    expect(records('ok,1\n"a"b,2\nok,3\nab"c,4\nok,5\n"open,6\nstill open')).toEqual([
      [1, ["ok", "1"], undefined],
      [2, ["a"], "text after the closing quote of field 1"],
      [3, ["ok", "3"], undefined],
      [4, ["ab"], "a quote inside an unquoted field (field 1)"],
      [5, ["ok", "5"], undefined],
      [6, ["open,6\nstill open"], "a quoted field is not closed (field 1)"],
    ]);
  });

  it("gives the same records however the text is cut into pieces", () => {
    const text =
      '\uFEFFproductCode,minQuantity,amount\r\n"P,""A""",1,"1.5"\r\n\r\nP-B,2,3\rP-C,,4\n"x\r\ny",1,2\r\n';
    const whole = parseCsv(text);
    for (let cut = 0; cut <= text.length; cut++) {
      const parser = createCsvParser();
      const got = [
        ...parser.push(text.slice(0, cut)),
        ...parser.push(text.slice(cut)),
        ...parser.end(),
      ];
      expect(got, `cut at ${cut}`).toEqual(whole);
    }
    fc.assert(
      fc.property(fc.array(fc.nat(text.length), { maxLength: 8 }), (cuts) => {
        const parser = createCsvParser();
        const sorted = [0, ...cuts.sort((a, b) => a - b), text.length];
        const got = sorted.slice(1).flatMap((end, i) => parser.push(text.slice(sorted[i], end)));
        expect([...got, ...parser.end()]).toEqual(whole);
      }),
      { seed: 7, numRuns: 200 },
    );
  });

  it("writes what it reads: csvRow quotes only where needed and parses back unchanged", () => {
    expect(csvRow(["P-A", 10, "12.50"])).toBe("P-A,10,12.50\n");
    expect(csvRow(['a "b"', "c,d", " e", "f\ng"])).toBe('"a ""b""","c,d"," e","f\ng"\n');
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.string({ unit: "grapheme-ascii" }), { minLength: 2, maxLength: 4 }), {
          maxLength: 6,
        }),
        (rows) => {
          const text = rows.map((fields) => csvRow(fields)).join("");
          expect(parseCsv(text).map((r) => r.fields)).toEqual(rows);
        },
      ),
      { seed: 11, numRuns: 300 },
    );
  });
});

describe("decimal amounts to minor units", () => {
  const ok = (text: string, digits: number) => decimalToMinor(text, digits, "XXX");

  it("knows the minor-unit digits of ISO 4217, and assumes 2 for a code it does not know", () => {
    expect(minorDigits("EUR")).toEqual({ digits: 2, known: true });
    expect(minorDigits("USD")).toEqual({ digits: 2, known: true });
    expect(minorDigits("JPY")).toEqual({ digits: 0, known: true });
    expect(minorDigits("KRW")).toEqual({ digits: 0, known: true });
    expect(minorDigits("KWD")).toEqual({ digits: 3, known: true });
    expect(minorDigits("BHD")).toEqual({ digits: 3, known: true });
    expect(minorDigits("CLF")).toEqual({ digits: 4, known: true });
    expect(minorDigits("ZZZ")).toEqual({ digits: 2, known: false });
  });

  it.each([
    ["12.34", 2, 1234],
    ["0.29", 2, 29], // 0.29 * 100 is 28.999999999999996 in floating point
    ["1.005", 3, 1005],
    ["12", 2, 1200],
    ["12.3", 2, 1230],
    ["0.05", 2, 5],
    ["0", 2, 0],
    ["007.50", 2, 750],
    [" 12.34 ", 2, 1234],
    ["12.340", 2, 1234], // extra zeros are exact
    ["1200", 0, 1200],
    ["1200.00", 0, 1200],
    ["1.234", 3, 1234],
    ["0.001", 3, 1],
    ["90071992547409.91", 2, Number.MAX_SAFE_INTEGER],
  ])("%s with %i decimals is %i", (text, digits, expected) => {
    expect(ok(text, digits)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ["12.345", 2, "amount 12.345 has more decimals than XXX allows (at most 2 decimals)"],
    ["1200.5", 0, "amount 1200.5 has more decimals than XXX allows (no decimals)"],
    ["1.2345", 3, "amount 1.2345 has more decimals than XXX allows (at most 3 decimals)"],
    ["-1.00", 2, "amount -1.00 is negative"],
    ["12,34", 2, "amount 12,34: use a dot as the decimal separator"],
    ["", 2, "amount is empty"],
    ["1e3", 2, "amount 1e3 is not a decimal number like 12.34"],
    ["12.", 2, "amount 12. is not a decimal number like 12.34"],
    [".5", 2, "amount .5 is not a decimal number like 12.34"],
    ["1,234.50", 2, "amount 1,234.50 is not a decimal number like 12.34"],
    ["€12", 2, "amount €12 is not a decimal number like 12.34"],
    ["90071992547409.92", 2, "amount 90071992547409.92 is too large (at most 2^53-1 minor units)"],
  ])("%s with %i decimals is refused", (text, digits, error) => {
    expect(ok(text, digits)).toEqual({ ok: false, error });
  });

  it("writes minor units back with exactly the currency's decimals", () => {
    expect(minorToDecimal(1234, 2)).toBe("12.34");
    expect(minorToDecimal(5, 2)).toBe("0.05");
    expect(minorToDecimal(1200, 0)).toBe("1200");
    expect(minorToDecimal(0, 3)).toBe("0.000");
    expect(minorToDecimal(1234, 3)).toBe("1.234");
  });

  it("round-trips every safe amount for 0, 2 and 3 decimals", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        fc.constantFrom(0, 2, 3),
        (amount, digits) => {
          expect(decimalToMinor(minorToDecimal(amount, digits), digits)).toEqual({
            ok: true,
            value: amount,
          });
        },
      ),
      { seed: 3, numRuns: 500 },
    );
  });
});

describe("price rows", () => {
  const eur = { digits: 2, currency: "EUR" };
  const columns = { productCode: 0, minQuantity: 1, amount: 2, width: 3 };

  it("needs the header; any column order and letter case", () => {
    expect(readHeader(["productCode", "minQuantity", "amount"])).toEqual({ ok: true, columns });
    expect(readHeader([" Amount", "PRODUCTCODE", "minquantity "])).toEqual({
      ok: true,
      columns: { productCode: 1, minQuantity: 2, amount: 0, width: 3 },
    });
    expect(readHeader(["P-A", "1", "12.50"])).toEqual({
      ok: false,
      error:
        'the header must be productCode,minQuantity,amount (missing productCode, minQuantity, amount; unknown "P-A", "1", "12.50")',
    });
    expect(readHeader(["productCode", "amount", "amount"])).toEqual({
      ok: false,
      error:
        "the header must be productCode,minQuantity,amount (missing minQuantity; repeated amount)",
    });
    expect(readHeader(["productCode;minQuantity;amount"])).toMatchObject({
      ok: false,
      error: expect.stringContaining("separated by commas"),
    });
  });

  it("reads a row as the API's price input, exactly", () => {
    expect(readPriceRow(["P-A", "10", "11.99"], columns, eur)).toEqual({
      ok: true,
      row: { productCode: "P-A", minQuantity: 10, amount: 1199 },
    });
    expect(readPriceRow([" P-A ", "", "0.1"], columns, eur)).toEqual({
      ok: true,
      row: { productCode: "P-A", minQuantity: 1, amount: 10 },
    });
    expect(readPriceRow(["P-A", "1", "1500"], columns, { digits: 0, currency: "JPY" })).toEqual({
      ok: true,
      row: { productCode: "P-A", minQuantity: 1, amount: 1500 },
    });
  });

  it("names everything wrong with a row", () => {
    const error = (fields: string[]) => {
      const read = readPriceRow(fields, columns, eur);
      return read.ok ? undefined : read.error;
    };
    expect(error(["P-A", "1"])).toBe("expected 3 fields, found 2");
    expect(error(["P A", "0", "1.999"])).toBe(
      'productCode "P A" is not a code (1-64 of A-Z a-z 0-9 . _ -); minQuantity "0" is not a whole number >= 1; amount 1.999 has more decimals than EUR allows (at most 2 decimals)',
    );
    expect(error(["", "1.5", "-2"])).toBe(
      'productCode is empty; minQuantity "1.5" is not a whole number >= 1; amount -2 is negative',
    );
    expect(error(["P-A", "99999999999999999", "1"])).toBe(
      'minQuantity "99999999999999999" is not a whole number >= 1',
    );
    expect(error(["x".repeat(65), "1", "1"])).toContain("is not a code");
  });

  it("remembers tiers so a repeat is refused whichever chunk it falls into", () => {
    const tiers = createTierTracker();
    expect(tiers.see({ productCode: "P-A", minQuantity: 1, amount: 1 }, 2)).toBeUndefined();
    expect(tiers.see({ productCode: "P-A", minQuantity: 10, amount: 1 }, 3)).toBeUndefined();
    expect(tiers.see({ productCode: "P-A", minQuantity: 1, amount: 2 }, 4009)).toBe(2);
  });

  it("exports a price as a CSV record in the currency's decimals", () => {
    expect(csvRow(priceRecord({ productCode: "P-A", minQuantity: 10, amount: 1005 }, 2))).toBe(
      "P-A,10,10.05\n",
    );
    expect(csvRow(priceRecord({ productCode: "P-A", minQuantity: 1, amount: 1005 }, 3))).toBe(
      "P-A,1,1.005\n",
    );
  });
});

describe("issue paths of a rejected chunk to CSV lines", () => {
  const lines = [2, 3, 5, 6, 9];

  it("maps body.prices.<i>… to the line of the i-th row sent", () => {
    const { byLine, unmapped } = rejectedLines(
      [
        { path: "body.prices", message: "unknown product codes: NOPE, GONE" },
        { path: "body.prices.2.productCode", message: "unknown product NOPE" },
        { path: "body.prices.4.productCode", message: "unknown product GONE" },
        { path: "body.prices.4.amount", message: "Too big" },
        { path: "body.prices.1", message: "repeats productCode P-A with minQuantity 1 of row 0" },
      ],
      lines,
    );
    expect([...byLine]).toEqual([
      [5, ["productCode: unknown product NOPE"]],
      [9, ["productCode: unknown product GONE", "amount: Too big"]],
      [3, ["repeats productCode P-A with minQuantity 1 of row 0"]],
    ]);
    expect(unmapped).toEqual(["body.prices: unknown product codes: NOPE, GONE"]);
  });

  it("keeps issues it cannot place apart", () => {
    const { byLine, unmapped } = rejectedLines(
      [
        { path: "body.prices.7.amount", message: "out of the chunk" },
        { path: "body", message: "Unrecognized key: extra" },
        { message: "no path" },
      ],
      lines,
    );
    expect(byLine.size).toBe(0);
    expect(unmapped).toEqual([
      "body.prices.7.amount: out of the chunk",
      "body: Unrecognized key: extra",
      "no path",
    ]);
  });
});
