import { beforeAll, describe, expect, it } from "vitest";
import { loadDoc, operations, validators, type Operation, type Validators } from "../fuzz/openapi";
import { api, expectProblem, KEYS } from "../shared/helpers";
import { seedExampleE, seedWorkedExample } from "../shared/worked-example";

/**
 * `select` on both price lookups (docs/api/prices.md §9, issue 29 item 4) through the real Worker,
 * on the worked example with example E's cost data (docs/pricing-rules.md §26): each line carries
 * productCode, quantity and status, then the selected fields in the answer's own order, with the
 * full answer's values; the answer's other fields as without it; a read key's answer has no cost
 * whatever it selects; an unknown field is a 400 naming it; the GET's ETag names the selection
 * as a set.
 */

const AT = "2025-06-15T10:00:00Z";
const LINES = [
  { productCode: "P-A", quantity: 1 },
  { productCode: "P-B", quantity: 10 },
  { productCode: "P-C", quantity: 3 },
  { productCode: "P-NONE", quantity: 2 },
];
const CART = { channelCode: "WEB-DE", customerCode: "C-1001", at: AT, lines: LINES };
const QUERY = `channel=WEB-DE&customer=C-1001&at=${AT}&quantity=10&product=P-A,P-B,P-C`;
const ALWAYS = ["productCode", "quantity", "status"];
const COST = ["costUnitAmount", "marginAmount", "marginBp", "accruals", "pocketUnitAmount"];

type Line = Record<string, unknown>;
type Answer = Record<string, unknown> & { lines: Line[] };

const resolve = (body: Record<string, unknown>, key: string = KEYS.admin) =>
  api<Answer>("POST", "/v1/api/prices/resolve", { body: { ...CART, ...body }, key });

const lookup = (query: string, key: string = KEYS.admin, headers: Record<string, string> = {}) =>
  api<Answer>("GET", `/v1/api/prices?${QUERY}${query}`, { key, headers });

/** The 200 answer of a call. */
async function answer(call: Promise<{ status: number; body: Answer }>): Promise<Answer> {
  const res = await call;
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** The full answer's line cut to `keys`, where it has them: what a selected line must equal. */
const cut = (line: Line, keys: string[]) =>
  Object.fromEntries(Object.entries(line).filter(([key]) => keys.includes(key)));

/** The answer's own fields, lines aside: what a selection must leave alone. */
const rest = ({ lines: _lines, ...others }: Answer) => others;

let doc: Record<string, any>;
let check: Validators;
const op = (id: string) => operations(doc).find((o) => o.id === id) as Operation;

/** The documented 200 schema of the operation takes the answer. */
function documented(id: string, body: Answer) {
  const validate = check.response(op(id), 200)!;
  expect(validate(body), check.errorsText(validate)).toBe(true);
}

beforeAll(async () => {
  const ids = await seedWorkedExample();
  await seedExampleE(ids);
  doc = await loadDoc();
  check = validators(doc);
});

describe("POST /v1/api/prices/resolve with select", () => {
  it("answers productCode, quantity, status and the selected fields in the answer's order, with the full answer's values", async () => {
    const full = await answer(resolve({}));
    const select = ["priceBreak", "lineAmount", "quantityRule", "finalUnitAmount", "lineAmount"];
    const selected = await answer(resolve({ select }));
    const order = [...ALWAYS, "finalUnitAmount", "lineAmount", "quantityRule", "priceBreak"];
    expect(selected.lines).toHaveLength(LINES.length);
    for (const [i, line] of selected.lines.entries()) {
      expect(Object.keys(line)).toEqual(order);
      expect(line).toEqual(cut(full.lines[i]!, order));
    }
    expect(selected.lines.map((l) => l.status)).toEqual(["OK", "OK", "OK", "UNKNOWN_PRODUCT"]);
    // Totals, complete, validUntil and the rest: as without select, in the same order.
    expect(Object.keys(selected)).toEqual(Object.keys(full));
    expect(rest(selected)).toEqual(rest(full));
    expect(selected.totalAmount).toBeNull();
    expect(selected.pricedTotalAmount).toBe(full.pricedTotalAmount);
    documented("resolvePrices", selected);
  });

  it("select: [] answers the three fields only; duplicates count once", async () => {
    const none = await answer(resolve({ select: [] }));
    for (const line of none.lines) expect(Object.keys(line)).toEqual(ALWAYS);
    documented("resolvePrices", none);
    const once = await resolve({ select: ["lineAmount"] });
    const twice = await resolve({ select: ["lineAmount", "lineAmount", "status"] });
    expect(JSON.stringify(twice.body)).toBe(JSON.stringify(once.body));
  });

  it("lets an admin key select cost and margin; a read key selecting them gets what it gets without", async () => {
    const full = await answer(resolve({}));
    const select = ["marginBp", "finalUnitAmount", ...COST];
    const admin = await answer(resolve({ select }));
    const order = [...ALWAYS, "finalUnitAmount", ...COST];
    for (const [i, line] of admin.lines.entries()) {
      expect(Object.keys(line)).toEqual(order);
      expect(line).toEqual(cut(full.lines[i]!, order));
    }
    expect(admin.lines[1]!.costUnitAmount).toEqual(expect.any(Number));

    const read = await resolve({ select }, KEYS.read);
    const without = await resolve({ select: ["finalUnitAmount"] }, KEYS.read);
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.body)).toBe(JSON.stringify(without.body));
    for (const line of read.body.lines)
      expect(Object.keys(line)).toEqual([...ALWAYS, "finalUnitAmount"]);
    for (const word of [...COST, "costAmount", "pocketMarginBp"]) {
      expect(JSON.stringify(read.body)).not.toContain(word);
    }
    // Only cost fields: the three, as a read key's `select: []`.
    const only = await resolve({ select: COST }, KEYS.read);
    expect(JSON.stringify(only.body)).toBe(
      JSON.stringify((await resolve({ select: [] }, KEYS.read)).body),
    );
    documented("resolvePrices", read.body);
  });

  it("adds explain with explain: true and ladder with ladder: true, in the answer's order", async () => {
    const full = await answer(resolve({ explain: true, ladder: true }));
    const selected = await answer(
      resolve({ explain: true, ladder: true, select: ["lineAmount", "marginBp"] }),
    );
    const order = [...ALWAYS, "lineAmount", "ladder", "marginBp", "explain"];
    for (const [i, line] of selected.lines.entries()) {
      expect(Object.keys(line)).toEqual(order);
      expect(line).toEqual(cut(full.lines[i]!, order));
    }
    expect(selected.lines[1]!.ladder).toEqual(expect.any(Array));
    expect(selected.lines[1]!.explain).toEqual(
      expect.objectContaining({ pricelists: expect.any(Array) }),
    );
    documented("resolvePrices", selected);

    // Without the flags, selecting them answers what the full answer has: explain null, no ladder.
    const plain = await answer(resolve({ select: ["explain", "ladder"] }));
    for (const line of plain.lines) {
      expect(Object.keys(line)).toEqual([...ALWAYS, "explain"]);
      expect(line.explain).toBeNull();
    }
  });

  it("refuses a field a line does not have: 400 naming it and its place", async () => {
    const select = ["lineAmount", "finalUnitAmount", "price", "totalAmount"];
    const res = await resolve({ select });
    const problem = expectProblem(res, 400, "VALIDATION_FAILED");
    const fields = Object.keys(doc.components.schemas.LinePrice.properties).join(", ");
    expect(problem.errors).toEqual([
      { path: "body.select.2", message: `"price" is not selectable; selectable fields: ${fields}` },
      {
        path: "body.select.3",
        message: `"totalAmount" is not selectable; selectable fields: ${fields}`,
      },
    ]);
    // The same for a read key: the list names every field, whoever asks.
    const read = await resolve({ select }, KEYS.read);
    expect(read.body.errors).toEqual(problem.errors);
    const notList = await resolve({ select: "lineAmount" });
    expect(expectProblem(notList, 400, "VALIDATION_FAILED").errors).toEqual([
      { path: "body.select", message: "must be an array, not a string" },
    ]);
  });
});

describe("GET /v1/api/prices with select", () => {
  it("takes select repeated, comma-joined or both, as one set, in the answer's order", async () => {
    const full = await answer(lookup(""));
    const selected = await answer(lookup("&select=priceBreak,listUnitAmount&select=lineAmount"));
    const order = [...ALWAYS, "lineAmount", "listUnitAmount", "priceBreak"];
    for (const [i, line] of selected.lines.entries()) {
      expect(Object.keys(line)).toEqual(order);
      expect(line).toEqual(cut(full.lines[i]!, order));
    }
    expect(rest(selected)).toEqual(rest(full));
    documented("lookupPrices", selected);
    // As the list queries' select: spaces around a field and empty pieces are nothing.
    const spaced = await lookup("&select=%20lineAmount%20,,listUnitAmount,priceBreak,");
    expect(JSON.stringify(spaced.body)).toBe(JSON.stringify(selected));
  });

  it("an empty select= is no select: the full answer, its ETag too", async () => {
    const full = await lookup("");
    const empty = await lookup("&select=");
    expect(empty.status).toBe(200);
    expect(JSON.stringify(empty.body)).toBe(JSON.stringify(full.body));
    expect(empty.headers.get("etag")).toBe(full.headers.get("etag"));
  });

  it("a read key's selected cost fields are absent, as without them", async () => {
    const read = await lookup("&select=finalUnitAmount,costUnitAmount,pocketMarginBp", KEYS.read);
    const without = await lookup("&select=finalUnitAmount", KEYS.read);
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.body)).toBe(JSON.stringify(without.body));
    expect(JSON.stringify(read.body)).not.toContain("costUnitAmount");
  });

  it("adds explain and ladder when asked for", async () => {
    const res = await answer(lookup("&explain=true&ladder=true&select=lineAmount"));
    for (const line of res.lines) {
      expect(Object.keys(line)).toEqual([...ALWAYS, "lineAmount", "ladder", "explain"]);
    }
    documented("lookupPrices", res);
  });

  it("refuses a field a line does not have: 400 naming it and its place", async () => {
    const res = await lookup("&select=lineAmount&select=price");
    const problem = expectProblem(res, 400, "VALIDATION_FAILED");
    expect(problem.errors).toEqual([
      {
        path: "query.select.1",
        message: `"price" is not selectable; selectable fields: ${Object.keys(doc.components.schemas.LinePrice.properties).join(", ")}`,
      },
    ]);
  });

  it("agrees with the pattern /doc declares for select: what it takes, the server takes", async () => {
    const param = op("lookupPrices").parameters.find((p) => p.name === "select")!;
    const pattern = new RegExp(param.schema.items.pattern, "u");
    const values = [
      "lineAmount",
      " lineAmount , priceBreak ",
      "lineAmount,,priceBreak,",
      ",",
      "",
      "explain",
      "costUnitAmount",
      "price",
      "lineamount",
      "lineAmount;priceBreak",
      "lineAmount,totalAmount",
      "line Amount",
    ];
    for (const value of values) {
      const res = await lookup(`&select=${encodeURIComponent(value)}`);
      expect(res.status === 200, `${JSON.stringify(value)}: ${res.status}`).toBe(
        pattern.test(value),
      );
    }
  });

  it("the ETag names the selection as a set: another selection another tag, the same set the same tag and a 304", async () => {
    const tags = [];
    for (const query of [
      "",
      "&select=lineAmount",
      "&select=finalUnitAmount",
      "&select=lineAmount,finalUnitAmount",
      "&explain=true&select=lineAmount",
    ]) {
      const res = await lookup(query);
      expect(res.status).toBe(200);
      tags.push(res.headers.get("etag"));
    }
    expect(new Set(tags).size).toBe(tags.length);
    // A read key's selection and an admin's never share a tag either.
    const read = await lookup("&select=lineAmount", KEYS.read);
    expect(tags).not.toContain(read.headers.get("etag"));

    const reordered = await lookup("&select=finalUnitAmount&select=lineAmount,finalUnitAmount");
    expect(reordered.headers.get("etag")).toBe(tags[3]);
    expect(JSON.stringify(reordered.body)).toBe(
      JSON.stringify((await lookup("&select=lineAmount,finalUnitAmount")).body),
    );

    const same = await lookup("&select=finalUnitAmount,lineAmount", KEYS.admin, {
      "if-none-match": tags[3]!,
    });
    expect(same.status).toBe(304);
    expect(same.headers.get("server-timing")).toContain('engine;desc="skipped"');
    const other = await lookup("&select=lineAmount", KEYS.admin, { "if-none-match": tags[3]! });
    expect(other.status).toBe(200);
    const none = await lookup("", KEYS.admin, { "if-none-match": tags[3]! });
    expect(none.status).toBe(200);
  });
});
