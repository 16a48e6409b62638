/**
 * The pure parts of `npm run import` / `npm run export` (scripts/lib, docs/csv.md): the CSV reader
 * and writer, decimal ⇄ minor units, the header and row rules of every kind, and the engine
 * against a stand-in service (bodies, 400s mapped to lines, held parents, checkpoints). The
 * round trip through the real Worker is test/tools/csv-round-trip.test.ts.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createCsvParser, csvRow, parseCsv } from "../../scripts/lib/csv.mjs";
import { importCsv, rowIssues } from "../../scripts/lib/csv-engine.mjs";
import {
  KINDS,
  readHeader,
  readRow,
  type Context,
  type Kind,
} from "../../scripts/lib/csv-kinds.mjs";
import { decimalToMinor, minorToDecimal } from "../../scripts/lib/money.mjs";

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
  it('tells the empty text ("") from no value (an empty field), both ways', () => {
    expect(csvRow(["a", null, "", 0])).toBe('a,,"",0\n');
    expect(parseCsv('a,,"",0\n""\n')).toEqual([
      { line: 1, fields: ["a", "", "", "0"], quotedEmpty: [2] },
      { line: 2, fields: [""], quotedEmpty: [0] },
    ]);
  });
});

describe("decimal amounts to minor units", () => {
  const ok = (text: string, digits: number) => decimalToMinor(text, digits, "XXX");

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

/** The row of a one-row file of this kind, read with the header it comes with. */
function readOne(kind: Kind, text: string, ctx: Context = { label: "", notes: [], stateKey: "" }) {
  const [headerRecord, record] = parseCsv(text);
  const header = readHeader(headerRecord!.fields, kind);
  if (!header.ok) throw new Error(header.error);
  return readRow(record!, header, kind, ctx);
}

describe("headers", () => {
  it("take the columns in any order and letter case; optional columns may be left out", () => {
    const read = readHeader([" Name", "CODE", "maxorderquantity "], KINDS.products!);
    expect(read).toEqual({
      ok: true,
      index: new Map([
        ["code", 1],
        ["name", 0],
        ["maxOrderQuantity", 2],
      ]),
      width: 3,
    });
  });

  it("name what is missing, unknown or repeated", () => {
    expect(readHeader(["code", "nmae", "code"], KINDS.products!)).toEqual({
      ok: false,
      error:
        'the header must be code,name, optionally productGroupCode,minOrderQuantity,orderIncrement,maxOrderQuantity,brandCode (missing name; unknown "nmae"; repeated code)',
    });
    expect(readHeader(["P-A", "1", "12.50"], KINDS.prices!)).toEqual({
      ok: false,
      error:
        'the header must be productCode,minQuantity,amount, optionally priceUnit,validFrom,validTo,flatAmount (missing productCode, minQuantity, amount; unknown "P-A", "1", "12.50")',
    });
    expect(readHeader(["code;name"], KINDS.customers!)).toMatchObject({
      ok: false,
      error: expect.stringContaining("separated by commas; this file uses semicolons or tabs"),
    });
  });
});

describe("rows of each kind", () => {
  it("products: an empty cell is no group, no limit, or the default quantity 1", () => {
    const kind = KINDS.products!;
    const header = "code,name,productGroupCode,minOrderQuantity,orderIncrement,maxOrderQuantity\n";
    expect(readOne(kind, `${header}P-A,"Bolt, M8",SCREWS,100,50,1000`)).toEqual({
      ok: true,
      row: {
        code: "P-A",
        name: "Bolt, M8",
        productGroupCode: "SCREWS",
        minOrderQuantity: 100,
        orderIncrement: 50,
        maxOrderQuantity: 1000,
      },
    });
    expect(readOne(kind, `${header}P-A,Bolt,,,,`)).toEqual({
      ok: true,
      row: {
        code: "P-A",
        name: "Bolt",
        productGroupCode: null,
        minOrderQuantity: 1,
        orderIncrement: 1,
        maxOrderQuantity: null,
      },
    });
    // Columns left out are not sent: the service keeps what the product has.
    expect(readOne(kind, "name,code\nBolt,P-A")).toEqual({
      ok: true,
      row: { code: "P-A", name: "Bolt" },
    });
    expect(readOne(kind, `${header}P A,,x y,1.5,-1,1e3`)).toEqual({
      ok: false,
      error:
        'code "P A" is not a code (1-64 of A-Z a-z 0-9 . _ -); name is empty; productGroupCode "x y" is not a code (1-64 of A-Z a-z 0-9 . _ -); minOrderQuantity "1.5" is not a whole number; orderIncrement "-1" is not a whole number; maxOrderQuantity "1e3" is not a whole number',
    });
    expect(readOne(kind, `${header}P-A,Bolt`)).toEqual({
      ok: false,
      error: "expected 6 fields, found 2",
    });
  });

  it("product groups: an empty parentCode is a root", () => {
    const kind = KINDS["product-groups"]!;
    expect(readOne(kind, "code,name,parentCode\nSCREWS,Screws,FAST")).toEqual({
      ok: true,
      row: { code: "SCREWS", name: "Screws", parentCode: "FAST" },
    });
    expect(readOne(kind, "code,name,parentCode\nFAST,Fasteners,")).toEqual({
      ok: true,
      row: { code: "FAST", name: "Fasteners", parentCode: null },
    });
  });

  it('customer groups: the description as written; empty is none, "" the empty text', () => {
    const kind = KINDS["customer-groups"]!;
    const header = "code,name,description\n";
    expect(readOne(kind, `${header}G,Group," two\r\nlines, ""quoted"" "`)).toEqual({
      ok: true,
      row: { code: "G", name: "Group", description: ' two\r\nlines, "quoted" ' },
    });
    expect(readOne(kind, `${header}G,Group,`)).toMatchObject({ row: { description: null } });
    expect(readOne(kind, `${header}G,Group,""`)).toMatchObject({ row: { description: "" } });
  });

  it("customers: memberships are codes joined by ;, an empty cell none, a missing column untouched", () => {
    const kind = KINDS.customers!;
    const header = "code,name,customerGroupCodes,channelCodes\n";
    expect(readOne(kind, `${header}C-1,Muster GmbH,RESELLER; NORTH,WEB-DE`)).toEqual({
      ok: true,
      row: {
        code: "C-1",
        name: "Muster GmbH",
        customerGroupCodes: ["RESELLER", "NORTH"],
        channelCodes: ["WEB-DE"],
      },
    });
    expect(readOne(kind, `${header}C-1,Muster GmbH,,`)).toMatchObject({
      row: { customerGroupCodes: [], channelCodes: [] },
    });
    expect(readOne(kind, "code,name,channelCodes\nC-1,Muster GmbH,WEB-DE")).toEqual({
      ok: true,
      row: { code: "C-1", name: "Muster GmbH", channelCodes: ["WEB-DE"] },
    });
    expect(readOne(kind, `${header}C-1,Muster GmbH,A;;B,X Y`)).toEqual({
      ok: false,
      error:
        'customerGroupCodes holds an empty code: codes (1-64 of A-Z a-z 0-9 . _ -) joined by ;; channelCodes holds "X Y": codes (1-64 of A-Z a-z 0-9 . _ -) joined by ;',
    });
  });

  it("prices: amounts in the pricelist's decimals, exactly; an empty minQuantity is 1", () => {
    const kind = KINDS.prices!;
    const eur = { label: "", notes: [], stateKey: "", digits: 2, currency: "EUR" };
    const header = "productCode,minQuantity,amount\n";
    expect(readOne(kind, `${header}P-A,10,11.99`, eur)).toEqual({
      ok: true,
      row: { productCode: "P-A", minQuantity: 10, amount: 1199 },
    });
    expect(readOne(kind, `${header} P-A ,,0.1`, eur)).toEqual({
      ok: true,
      row: { productCode: "P-A", minQuantity: 1, amount: 10 },
    });
    expect(readOne(kind, `${header}P-A,1,1500`, { ...eur, digits: 0, currency: "JPY" })).toEqual({
      ok: true,
      row: { productCode: "P-A", minQuantity: 1, amount: 1500 },
    });
    expect(readOne(kind, `${header}P A,0,1.999`, eur)).toEqual({
      ok: false,
      error:
        'productCode "P A" is not a code (1-64 of A-Z a-z 0-9 . _ -); minQuantity "0" is not a whole number >= 1; amount 1.999 has more decimals than EUR allows (at most 2 decimals)',
    });
    expect(readOne(kind, `${header}P-A,99999999999999999,`, eur)).toEqual({
      ok: false,
      error: 'minQuantity "99999999999999999" is not a whole number >= 1; amount is empty',
    });
  });

  it("prices: priceUnit, when the header has it, is a whole number >= 1; empty is 1", () => {
    const kind = KINDS.prices!;
    const eur = { label: "", notes: [], stateKey: "", digits: 2, currency: "EUR" };
    const header = "productCode,minQuantity,amount,priceUnit\n";
    expect(readOne(kind, `${header}SCREW,1,12.50,1000`, eur)).toEqual({
      ok: true,
      row: { productCode: "SCREW", minQuantity: 1, amount: 1250, priceUnit: 1000 },
    });
    expect(readOne(kind, `${header}SCREW,1,12.50,`, eur)).toEqual({
      ok: true,
      row: { productCode: "SCREW", minQuantity: 1, amount: 1250, priceUnit: 1 },
    });
    expect(readOne(kind, `${header}SCREW,1,12.50,0`, eur)).toEqual({
      ok: false,
      error: 'priceUnit "0" is not a whole number >= 1',
    });
    expect(readOne(kind, `${header}SCREW,1,12.50,1.5`, eur)).toEqual({
      ok: false,
      error: 'priceUnit "1.5" is not a whole number >= 1',
    });
  });

  it("exchange rates: the cells as written, trimmed; every column is required", () => {
    const kind = KINDS["exchange-rates"]!;
    const header = "from,to,rate,validFrom\n";
    expect(readOne(kind, `${header} USD ,EUR, 0.92 ,2027-01-01`)).toEqual({
      ok: true,
      row: { from: "USD", to: "EUR", rate: "0.92", validFrom: "2027-01-01" },
    });
    expect(readOne(kind, `${header}USD,,,`)).toEqual({
      ok: false,
      error: "to is empty; rate is empty; validFrom is empty",
    });
    expect(readHeader(["from", "to", "rate"], kind)).toEqual({
      ok: false,
      error: "the header must be from,to,rate,validFrom (missing validFrom)",
    });
  });

  it("every kind writes what it reads", () => {
    const eur = { label: "", notes: [], stateKey: "", digits: 2, currency: "EUR" };
    const items: Record<string, any> = {
      products: {
        code: "P-A",
        name: "Bolt, M8",
        productGroupCode: null,
        minOrderQuantity: 100,
        orderIncrement: 1,
        maxOrderQuantity: null,
        brandCode: null,
      },
      "product-groups": { code: "SCREWS", name: "Screws", parentCode: null },
      "customer-groups": { code: "G", name: 'A "group"', description: "" },
      customers: {
        code: "C-1",
        name: "Muster",
        customerGroupCodes: ["A", "B"],
        channelCodes: [],
      },
      prices: {
        productCode: "P-A",
        minQuantity: 10,
        amount: 1005,
        priceUnit: 100,
        validFrom: "2027-01-01T00:00:00.000Z",
        validTo: "2027-07-01T00:00:00.000Z",
        flatAmount: 0,
      },
      "exchange-rates": {
        from: "USD",
        to: "JPY",
        rate: "150.25",
        validFrom: "2027-01-01T00:00:00.000Z",
      },
    };
    for (const [name, item] of Object.entries(items)) {
      const kind = KINDS[name]!;
      const text = csvRow(kind.columns) + csvRow(kind.toRecord(item, eur));
      expect(readOne(kind, text, eur), name).toEqual({ ok: true, row: item });
    }
    expect(csvRow(KINDS.prices!.toRecord(items.prices, { ...eur, digits: 3 }))).toBe(
      "P-A,10,1.005,100,2027-01-01T00:00:00.000Z,2027-07-01T00:00:00.000Z,\n",
    );
  });
});

/**
 * A stand-in for the bulk upserts: atomic bodies, a 400 naming each bad row by index and field
 * (at most 20 issues, like the service), parents that may come later in the same body.
 */
function fakeService(options: { failOnCall?: number } = {}) {
  const stored = new Map<string, any>();
  const bodies: number[][] = [];
  let calls = 0;
  const answer = (status: number, body: unknown) => ({ status, body, headers: new Headers() });
  const api = {
    url: "http://fake",
    get: async () => answer(404, {}),
    put: async (path: string, body: any) => {
      calls++;
      if (calls === options.failOnCall) return answer(503, { code: "UNAVAILABLE", detail: "down" });
      const key = Object.keys(body)[0]!;
      const rows: any[] = body[key];
      const codes = new Set(rows.map((r) => r.code));
      const issues = rows.flatMap((row, i) => [
        ...(String(row.name).startsWith("!")
          ? [{ path: `body.${key}.${i}.name`, message: "must not start with !" }]
          : []),
        ...(row.parentCode && !stored.has(row.parentCode) && !codes.has(row.parentCode)
          ? [
              {
                path: `body.${key}.${i}.parentCode`,
                message: `unknown product group ${row.parentCode}`,
              },
            ]
          : []),
      ]);
      if (issues.length > 0)
        return answer(400, { code: "VALIDATION_FAILED", errors: issues.slice(0, 20) });
      bodies.push(rows.map((r) => Number(String(r.code).split("-")[1])));
      const created = rows.filter((r) => !stored.has(r.code)).map((r) => r.code);
      for (const row of rows) stored.set(row.code, row);
      return answer(200, { created, updated: [], unchanged: rows.length - created.length });
    },
  };
  return { api, stored, bodies };
}

const NO_CONTEXT = { label: "", notes: [], stateKey: "" };

/** The file in pieces of 7 characters, as a stream would cut it anywhere. */
async function* pieces(text: string) {
  for (let i = 0; i < text.length; i += 7) yield text.slice(i, i + 7);
}

const productFile = (names: string[]) =>
  `code,name\n${names.map((name, i) => `P-${i + 2},${name}\n`).join("")}`;

describe("the import engine", () => {
  it("sends bodies of maxRows; a 400 rejects the lines it names and the rest is sent again", async () => {
    const names = Array.from({ length: 60 }, (_, i) => (i % 2 === 1 && i < 50 ? "!bad" : "ok"));
    const service = fakeService();
    const result = await importCsv({
      kind: KINDS.products!,
      ctx: NO_CONTEXT,
      api: service.api,
      source: pieces(productFile(names)),
      maxRows: 30,
    });
    // 25 bad rows, 15 in the first body: more than the 20 issues a 400 lists, found all the same.
    expect(result.rejected).toHaveLength(25);
    expect(result.rejected[0]).toEqual({ line: 3, reason: "name: must not start with !" });
    expect(result.rejected.map((r) => r.line)).toEqual(
      Array.from({ length: 25 }, (_, i) => 3 + 2 * i),
    );
    expect(result.totals).toEqual({ rows: 35, created: 35, updated: 0, unchanged: 0 });
    expect(service.stored.size).toBe(35);
    expect(service.bodies.map((b) => b.length)).toEqual([15, 20]);
  });

  it("rejects locally what cannot be sent, with its line, and sends the rest", async () => {
    const text =
      'code,name\nP-2,ok\nP 3,bad code\nP-2,again\n"P-5"x,broken\nP-6\n\nP-8,"multi\nline"\nP-10,ok\n';
    const service = fakeService();
    const result = await importCsv({
      kind: KINDS.products!,
      ctx: NO_CONTEXT,
      api: service.api,
      source: pieces(text),
    });
    expect(result.rejected).toEqual([
      { line: 3, reason: 'code "P 3" is not a code (1-64 of A-Z a-z 0-9 . _ -)' },
      { line: 4, reason: "repeats code P-2 of line 2" },
      { line: 5, reason: "text after the closing quote of field 1" },
      { line: 6, reason: "expected 2 fields, found 1" },
    ]);
    expect([...service.stored.keys()]).toEqual(["P-2", "P-8", "P-10"]);
    await expect(
      importCsv({ kind: KINDS.products!, ctx: NO_CONTEXT, api: service.api, source: pieces("") }),
    ).rejects.toThrow("the file is empty: the header code,name,");
    await expect(
      importCsv({
        kind: KINDS.products!,
        ctx: NO_CONTEXT,
        api: service.api,
        source: pieces("code;name\nP-1;x\n"),
      }),
    ).rejects.toThrow("line 1: the header must be code,name");
  });

  it("holds a child whose parent comes in a later body, and sends it once the parent is written", async () => {
    // Children first, across bodies of 2 rows; PG-7's parent is nowhere.
    const text =
      "code,name,parentCode\nPG-2,leaf,PG-3\nPG-3,middle,PG-5\nPG-4,root b,\nPG-5,root a,\nPG-6,leaf b,PG-4\nPG-7,orphan,PG-99\n";
    const service = fakeService();
    const commits: number[] = [];
    const result = await importCsv({
      kind: KINDS["product-groups"]!,
      ctx: NO_CONTEXT,
      api: service.api,
      source: pieces(text),
      maxRows: 2,
      concurrency: 1,
      onCommit: (c) => commits.push(c.committedLine),
    });
    expect(result.rejected).toEqual([
      { line: 7, reason: "parentCode: unknown product group PG-99" },
    ]);
    expect([...service.stored.keys()].sort()).toEqual(["PG-2", "PG-3", "PG-4", "PG-5", "PG-6"]);
    expect(service.stored.get("PG-2").parentCode).toBe("PG-3");
    // The checkpoint waits for the held rows: never past a line that is not written or rejected.
    expect(commits).toEqual([...commits].sort((a, b) => a - b));
    expect(commits[0]).toBe(1); // PG-2 and PG-3 were held
    expect(commits.at(-1)).toBe(7);
  });

  it("keeps a checkpoint before the body that failed; the next run continues from it", async () => {
    const names = Array.from({ length: 50 }, () => "ok");
    const file = productFile(names).replace("P-45,ok", "P-3,ok"); // a repeat after the checkpoint
    const broken = fakeService({ failOnCall: 3 });
    const checkpoints: any[] = [];
    await expect(
      importCsv({
        kind: KINDS.products!,
        ctx: NO_CONTEXT,
        api: broken.api,
        source: pieces(file),
        maxRows: 10,
        concurrency: 1,
        onCommit: (c) => checkpoints.push(c),
      }),
    ).rejects.toThrow("lines 22-31: 503 UNAVAILABLE: down");
    const last = checkpoints.at(-1);
    expect(last).toEqual({
      committedLine: 21,
      rejected: [],
      totals: { rows: 20, created: 20, updated: 0, unchanged: 0 },
    });

    const service = fakeService();
    const result = await importCsv({
      kind: KINDS.products!,
      ctx: NO_CONTEXT,
      api: service.api,
      source: pieces(file),
      resume: last,
      maxRows: 10,
    });
    // Only lines 22 on were sent; P-3 of line 3 is still known, so its repeat is refused.
    expect(service.bodies.flat()[0]).toBe(22);
    expect(service.stored.size).toBe(29);
    expect(result.rejected).toEqual([{ line: 45, reason: "repeats code P-3 of line 3" }]);
    expect(result.totals.rows).toBe(49);
  });

  it("with bodies in flight at once, the checkpoint only moves over bodies that are written", async () => {
    const service = fakeService();
    const slow = {
      ...service.api,
      // Later bodies answer first.
      put: async (path: string, body: any) => {
        const first = Number(String(body.products[0].code).split("-")[1]);
        // 20 ms apart per body, so a busy machine starting them a little late keeps the order.
        await new Promise((r) => setTimeout(r, 200 - first * 2));
        return service.api.put(path, body);
      },
    };
    const commits: number[] = [];
    const result = await importCsv({
      kind: KINDS.products!,
      ctx: NO_CONTEXT,
      api: slow,
      source: pieces(productFile(Array.from({ length: 100 }, () => "ok"))),
      maxRows: 10,
      concurrency: 4,
      onCommit: (c) => commits.push(c.committedLine),
    });
    expect(result.totals.rows).toBe(100);
    expect(service.bodies[0]![0]).not.toBe(2); // they did answer out of order
    expect(commits).toEqual([...commits].sort((a, b) => a - b));
    expect(commits.at(-1)).toBe(101);
    expect(commits.every((line) => (line - 1) % 10 === 0)).toBe(true);
  });

  it("a dry run reads and checks everything and sends nothing", async () => {
    const service = fakeService();
    const result = await importCsv({
      kind: KINDS.products!,
      ctx: NO_CONTEXT,
      api: service.api,
      source: pieces("code,name\nP-2,a\nP-2,b\nP-4,c\n"),
      dryRun: true,
    });
    expect(result).toMatchObject({ read: 2, rejected: [{ line: 3 }] });
    expect(service.bodies).toEqual([]);
  });
});

describe("issue paths of a rejected body to rows", () => {
  it("maps body.<bodyKey>.<i>… to row i and keeps what names no row apart", () => {
    const { byRow, unmapped } = rowIssues(
      [
        { path: "body.prices", message: "unknown product codes: NOPE, GONE" },
        { path: "body.prices.2.productCode", message: "unknown product NOPE" },
        { path: "body.prices.4.productCode", message: "unknown product GONE" },
        { path: "body.prices.4.amount", message: "Too big" },
        { path: "body.prices.1", message: "repeats productCode P-A with minQuantity 1 of row 0" },
        { path: "body.products.3.name", message: "another body" },
        { message: "no path" },
      ],
      "prices",
    );
    expect([...byRow]).toEqual([
      [2, [{ field: "productCode", message: "unknown product NOPE" }]],
      [
        4,
        [
          { field: "productCode", message: "unknown product GONE" },
          { field: "amount", message: "Too big" },
        ],
      ],
      [1, [{ field: "", message: "repeats productCode P-A with minQuantity 1 of row 0" }]],
    ]);
    expect(unmapped).toEqual([
      "body.prices: unknown product codes: NOPE, GONE",
      "body.products.3.name: another body",
      "no path",
    ]);
  });
});
