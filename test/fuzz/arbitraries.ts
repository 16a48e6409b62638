import fc from "fast-check";
import type { Fixtures } from "./fixtures";
import { deref, type Operation, type Parameter, type Schema } from "./openapi";

/**
 * Requests for one operation of the live OpenAPI document: valid ones built from its schemas
 * (partly addressing real records), and hostile ones made by mutating a valid one.
 */

/**
 * What a leaked driver message, SQL text or stack trace looks like. Every string the fuzzer sends
 * is cleaned of these, so a match in any response can only come from the service itself.
 */
export const LEAK =
  /sql|d1_|\bstack\b|\.[jt]s:\d|constraint|no such (?:table|column)|syntax error|drizzle|\bat \S+ \(|\n\s+at /i;
const LEAK_ALL = new RegExp(LEAK.source, "gi");

/**
 * What zod's English messages look like (zod/v4/locales/en.js): no 400 may say any of it
 * (docs/api/errors-and-limits.md §7.3); its issues are sentences about the field.
 */
export const VALIDATOR_WORDING =
  /invalid (?:input|option|string|number|discriminator|key in|value in|element|type)|expected (?:int|integer|number|string|boolean|array|object|bigint|undefined|null|nonoptional|one of|record|tuple|date)\b|received (?:int|number|string|boolean|array|object|undefined|null|nan|bigint|date)\b|too (?:small|big): |unrecognized keys?:|must match pattern \/|(?:to have|to be) [<>]=?\d|invalid iso /i;
export const clean = (s: string) => s.replace(LEAK_ALL, "-");

type Arb = fc.Arbitrary<unknown>;
type Weighted<T> = { arbitrary: fc.Arbitrary<T>; weight: number };
const w = <T>(weight: number, arbitrary: fc.Arbitrary<T>): Weighted<T> => ({ arbitrary, weight });

// ---------------------------------------------------------------- hostile values

const SQL_AND_LIKE = [
  "'",
  '"',
  ";",
  "--",
  "%",
  "_",
  "\\",
  "%_\\",
  "' OR '1'='1",
  "' OR 1=1 --",
  "'; DROP TABLE products; --",
  '"; DELETE FROM channels; --',
  "1; UPDATE pricelists SET status='ACTIVE'",
  "') UNION SELECT 1, 2, 3 --",
  "%%",
  "_%_",
  "a%b_c\\d",
  "\\%\\_",
  "*/ /*",
  "`",
  "?",
  "?1",
  "$1",
  ":name",
  "@p",
  "[]",
  "{}",
  "$not:$eq:x",
  "$in:a,b",
];
const UNICODE = [
  "\u0000",
  "a\u0000b",
  "\u0000\u0000\u0000",
  "\ud800",
  "x\udc00y",
  "😀",
  "👩‍👩‍👧‍👦",
  "é",
  "e\u0301",
  "\u202eabc",
  "\ufeff",
  "\u200b",
  "İ",
  "ß",
  "ﬀ",
  "Ω",
  "中文",
  "\r\n",
  "\t",
  " ",
  "   ",
  "\u00a0",
  "\u2028",
  "\uffff",
];

const repeatTo = (n: number) =>
  fc.constantFrom("x", "é", "😀", "%", "'", "_", "\u0000", "A").map((c) => c.repeat(n));

/** Strings that try to break parsing, SQL, LIKE, encodings and sizes. */
export const hostileString: fc.Arbitrary<string> = fc
  .oneof(
    w(4, fc.constantFrom(...SQL_AND_LIKE, ...UNICODE)),
    w(3, fc.string({ unit: "grapheme", maxLength: 40 })),
    w(2, fc.string({ unit: "binary", maxLength: 20 })),
    w(1, fc.constantFrom(10_240, 10_000, 1001, 201, 200, 101, 100, 65, 64, 51, 50).chain(repeatTo)),
    w(1, fc.string({ unit: "grapheme-ascii", minLength: 10_000, maxLength: 10_240 })),
  )
  .map(clean);

const HUGE_NUMBERS = [
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  Number.MAX_SAFE_INTEGER,
  -Number.MAX_SAFE_INTEGER,
  1e15,
  1e21,
  1e308,
  -1e308,
  2 ** 31,
  -(2 ** 31),
  2 ** 63,
  -1,
  -0,
  0,
  0.5,
  1.5,
  -1.5,
  Number.MIN_VALUE,
];

/** Any JSON value that is probably the wrong type or out of range. */
export const hostileValue: Arb = fc.oneof(
  w(3, hostileString),
  w(3, fc.constantFrom<unknown>(...HUGE_NUMBERS)),
  w(1, fc.integer()),
  w(1, fc.double({ noNaN: true, noDefaultInfinity: true })),
  w(
    2,
    fc.constantFrom<unknown>(
      null,
      true,
      false,
      [],
      {},
      [null],
      [""],
      { a: 1 },
      "1",
      "true",
      "null",
    ),
  ),
  w(1, fc.array(hostileString, { maxLength: 5 })),
  w(
    1,
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.parse(clean(JSON.stringify(v)))),
  ),
);

// ---------------------------------------------------------------- valid values from a schema

const instant = fc
  .oneof(
    w(
      5,
      fc.date({
        min: new Date("2000-01-01T00:00:00Z"),
        max: new Date("2040-12-31T00:00:00Z"),
        noInvalidDate: true,
      }),
    ),
    // Every four-digit year, 0000 included, and the edges of the calendar arithmetic.
    w(
      1,
      fc.date({
        min: new Date("0000-01-01T00:00:00Z"),
        max: new Date("9999-12-31T23:59:59Z"),
        noInvalidDate: true,
      }),
    ),
    w(
      1,
      fc
        .constantFrom(
          "0000-01-01",
          "0000-02-29",
          "0050-06-15",
          "0099-12-31",
          "0100-01-01",
          "1900-02-28",
          "2000-02-29",
          "9999-12-31",
        )
        .map((d) => new Date(`${d}T00:00:00Z`)),
    ),
  )
  .chain((d) =>
    fc.constantFrom(
      d.toISOString(),
      d.toISOString().slice(0, 10),
      d.toISOString().replace(".000Z", "Z"),
      d.toISOString().replace("Z", "+02:00"),
    ),
  );

function bounded(min: number | undefined, max: number | undefined): fc.Arbitrary<number> {
  if (min === undefined && max === undefined) {
    return fc.oneof(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: -10, max: 1_000_000 }));
  }
  const lo = min ?? max! - 1_000_000;
  const hi = max ?? lo + 1_000_000;
  const small = fc.integer({ min: lo, max: Math.min(hi, lo + 10_000) });
  return fc.oneof(
    w(4, small),
    w(1, fc.bigInt({ min: BigInt(lo), max: BigInt(hi) }).map(Number)),
    w(1, fc.constantFrom(lo, hi)),
  );
}

/** Fixture values for fields whose name says what they address. */
function hinted(name: string | undefined, fx: Fixtures): Arb | undefined {
  const pick = <T>(xs: T[]) => (xs.length ? fc.constantFrom(...xs) : undefined);
  switch (name) {
    case "productCode":
    case "product":
    case "productCodes":
      return pick(fx.products);
    case "channelCode":
    case "channel":
    case "x-channel":
    case "channelCodes":
      return pick(fx.channels);
    case "customerCode":
    case "customer":
    case "customerCodes":
      return pick(fx.customers);
    case "customerGroupCodes":
      return pick(fx.groups);
    case "pricelistId":
      return pick(fx.pricelists);
    case "currency":
      return fc.constantFrom("EUR", "EUR", "EUR", "CHF");
    case "from":
    case "to":
      return fc.constantFrom("EUR", "CHF", "USD", "JPY");
    case "rate":
      return fc.constantFrom("0.92", "150.25", "1", "0.3075", "000.9200");
    case "url":
      return fc.constant(fx.webhookUrl);
    case "active":
      // A webhook switched on would have the queue consumer deliver to it while the fuzzer writes.
      return fc.constant(false);
    default:
      return undefined;
  }
}

/** A schema with its `$ref`s followed and its `allOf` parts folded into one. */
export function merged(doc: Schema, schema: Schema): Schema {
  const s = deref(doc, schema);
  if (!s.allOf) return s;
  const { allOf, ...rest } = s;
  return Object.assign({}, ...allOf.map((part: Schema) => merged(doc, part)), rest);
}

/** A value that satisfies `schema` (cross-field rules aside); named fields prefer fixture records. */
export function fromSchema(doc: Schema, schema: Schema, fx: Fixtures, name?: string): Arb {
  const s = merged(doc, schema);
  const hint = hinted(name, fx);
  if (hint && s.type !== "array") return fc.oneof(w(3, hint), w(1, plain(doc, s, fx)));
  return plain(doc, s, fx, name);
}

function plain(doc: Schema, s: Schema, fx: Fixtures, name?: string): Arb {
  if (s.anyOf || s.oneOf)
    return fc.oneof(...(s.anyOf ?? s.oneOf).map((x: Schema) => fromSchema(doc, x, fx, name)));
  if (s.enum) return fc.constantFrom(...(s.enum as unknown[]));
  if (Array.isArray(s.type)) {
    const types = s.type as string[];
    return fc.oneof(
      ...types.map((type) => w(type === "null" ? 1 : 4, plain(doc, { ...s, type }, fx, name))),
    );
  }
  switch (s.type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer":
    case "number":
      return bounded(
        s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : undefined),
        s.maximum,
      );
    case "string": {
      if (s.format === "date-time") return instant;
      if (s.pattern) {
        // fast-check cannot generate lookaheads: generate without them, keep what the full pattern takes.
        const full = new RegExp(s.pattern);
        const simple = new RegExp(s.pattern.replace(/\(\?[=!][^)]*\)/g, ""));
        return fc
          .stringMatching(simple)
          .map(clean)
          .filter((v) => full.test(v));
      }
      return fc
        .string({
          unit: "grapheme",
          minLength: s.minLength ?? 0,
          maxLength: Math.min(s.maxLength ?? 40, 60),
        })
        .map(clean);
    }
    case "array": {
      const items = hinted(name, fx);
      const item = items
        ? fc.oneof(w(4, items), w(1, fromSchema(doc, s.items ?? {}, fx)))
        : fromSchema(doc, s.items ?? {}, fx);
      return fc.array(item, {
        minLength: s.minItems ?? 0,
        maxLength: Math.min(s.maxItems ?? 4, 4),
      });
    }
    case "object": {
      const props = Object.entries<Schema>(s.properties ?? {});
      const model = Object.fromEntries(props.map(([k, v]) => [k, fromSchema(doc, v, fx, k)]));
      return fc.record(model, { requiredKeys: s.required ?? [] });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/**
 * Half of the valid bodies also follow the cross-field rules JSON Schema cannot state (a
 * percentage is 1-10000 without currency, an absolute value has one, a net price is absolute,
 * a CHANNEL scope names channels, validFrom before validTo), so they reach the handlers' writes.
 */
function coherent(body: unknown): unknown {
  if (!body || typeof body !== "object" || Array.isArray(body)) return body;
  const b = { ...(body as Record<string, any>) };
  if (b.type === "NET_PRICE") b.discountType = "ABSOLUTE";
  if (b.discountType === "PERCENTAGE") {
    if (typeof b.value === "number") b.value = 1 + (Math.abs(b.value) % 10_000);
    delete b.currency;
    if (Array.isArray(b.scales)) {
      b.scales = b.scales.map((_row: unknown, i: number) => ({
        minQuantity: i + 2,
        value: 1 + (i % 100),
      }));
    }
  }
  if (b.discountType === "ABSOLUTE") {
    b.currency = "EUR";
    if (typeof b.value === "number") b.value = Math.abs(b.value);
    if (Array.isArray(b.scales)) {
      b.scales = b.scales.map((_row: unknown, i: number) => ({
        minQuantity: i + 2,
        value: 100 + i,
      }));
    }
  }
  if (b.scope === "CHANNEL" && !b.channelCodes?.length) b.scope = "GLOBAL";
  if (
    typeof b.validFrom === "string" &&
    typeof b.validTo === "string" &&
    b.validFrom >= b.validTo
  ) {
    [b.validFrom, b.validTo] = ["2020-01-01T00:00:00Z", "2030-01-01T00:00:00Z"];
  }
  if (Array.isArray(b.rates)) {
    // An exchange rate converts between two currencies; each key once per body.
    const seen = new Set<string>();
    b.rates = b.rates
      .map((row: any) =>
        row?.from === row?.to ? { ...row, to: row.from === "EUR" ? "CHF" : "EUR" } : row,
      )
      .filter((row: any) => {
        const key = `${row?.from} ${row?.to} ${Date.parse(row?.validFrom)}`;
        return !seen.has(key) && seen.add(key);
      });
  }
  if (Array.isArray(b.prices)) {
    const seen = new Set<string>();
    b.prices = b.prices.filter((row: any) => {
      const key = `${row?.productCode} ${row?.minQuantity ?? 1}`;
      return !seen.has(key) && seen.add(key);
    });
  }
  return simulationCoherent(b);
}

const isRecord = (v: unknown): v is Record<string, any> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The publish simulation (docs/simulation.md §2): one way to choose customers and products, and
 * a change set of tiers (their pricelist ids and product codes are mostly the fixtures'), each
 * tier once, so part of its bodies reach the engine.
 */
function simulationCoherent(b: Record<string, any>) {
  if (!isRecord(b.customers) || !isRecord(b.products) || !isRecord(b.changes)) return b;
  const sample = (v: unknown, max: number) => 1 + (Math.abs(Number(v) || 0) % max);
  const seen = new Set<string>();
  const prices = (Array.isArray(b.changes.prices) ? b.changes.prices : []).filter((row: any) => {
    const key = `${row?.pricelistId} ${row?.productCode} ${row?.minQuantity ?? 1}`;
    return !seen.has(key) && seen.add(key);
  });
  return {
    ...b,
    customers: { sample: sample(b.customers.sample, 100) },
    products: { sample: sample(b.products.sample, 1000) },
    changes: { prices },
  };
}

/**
 * A new quote (docs/quotes.md §2) is priced when it is created: its customer buys in its channel,
 * the channel's pricelist prices every line's product once, and validTo lies ahead within 366
 * days. Half of the valid create bodies name the fixtures that do (customers[0] in channels[0],
 * whose primary list prices products[0] and products[1]), so they reach the write.
 */
function quoteCoherent(body: unknown, fx: Fixtures): unknown {
  if (!isRecord(body) || !Array.isArray(body.lines) || !("customerCode" in body)) return body;
  const priced = fx.products.slice(0, 2);
  const lines = body.lines
    .filter(isRecord)
    .slice(0, priced.length)
    .map((line, i) => ({ ...line, productCode: priced[i] }));
  return {
    ...body,
    customerCode: fx.customers[0],
    channelCode: fx.channels[0],
    validTo: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    lines: lines.length ? lines : [{ productCode: priced[0], quantity: 1 }],
  };
}

// ---------------------------------------------------------------- requests

export interface Parts {
  /** Path parameters, already percent-encoded. */
  params: Record<string, string>;
  query: [string, string][];
  /** Appended to the query string as is (broken percent-encodings). */
  rawQuery?: string;
  headers: Record<string, string>;
  body?: unknown;
  /** Sent instead of JSON.stringify(body). */
  rawBody?: string;
  /** undefined: application/json when there is a body; null: no content-type header. */
  contentType?: string | null;
}

export type KeyKind = "admin" | "read" | "none" | "bad";

export interface FuzzRequest extends Parts {
  kind: string;
  key: KeyKind;
  /** The x-webhook-signature sent (none for "none"). */
  keyValue?: string;
}

/** Keys that must never let anyone in (headers trim outer whitespace, so none is padded). */
const BAD_KEYS = [
  "not-a-key",
  "TEST-ADMIN-KEY",
  "test-admin-key2",
  "admin:test-admin-key",
  "test-admin-keytest-admin-key",
  "x".repeat(10_000),
  "' OR '1'='1",
  "null",
  "Bearer test-admin-key",
  "test-admin-key, test-admin-key",
];

/** Lone surrogates become U+FFFD (they cannot be percent-encoded or sent as UTF-8). */
export const wellFormed = (s: string) =>
  s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
export const encode = (v: string) => encodeURIComponent(wellFormed(v));

/** Dot segments are resolved by the URL parser and would address another route. */
const isDotSegment = (s: string) => /^(?:\.|%2e){1,2}$/i.test(s);

/** Which fixtures a path parameter can address, by the path segment before it. */
function pathFixtures(op: Operation, param: string, fx: Fixtures): (string | number)[] {
  const segments = op.path.split("/");
  const before = segments[segments.indexOf(`{${param}}`) - 1];
  const map: Record<string, (string | number)[]> = {
    product: fx.products,
    channel: fx.channels,
    "customer-group": fx.groups,
    customer: fx.customers,
    pricelist: fx.pricelists,
    individual: fx.individual,
    "trade-conditions": fx.tradeConditions,
    promotion: fx.promotions,
    webhooks: fx.webhooks,
    "change-requests": fx.changeRequests,
    quotes: fx.quotes,
  };
  return map[before ?? ""] ?? [];
}

interface FilterSpec {
  type: string;
  values?: string[];
  ops: string[];
}

/** The filter's value type and operators, from the description the list engine writes. */
function filterSpec(p: Parameter): FilterSpec {
  const m = /Filter on \S+ \(([^)]*)\)/.exec(p.description ?? "");
  const type = m?.[1] ?? "text";
  const ops = /Allowed: ([^.]*)\./.exec(p.description ?? "")?.[1]?.split(", ") ?? ["$eq"];
  return type.startsWith("one of ")
    ? { type: "enum", values: type.slice(7).split(", "), ops }
    : { type, ops };
}

function filterValue(spec: FilterSpec, fx: Fixtures): fc.Arbitrary<string> {
  switch (spec.type) {
    case "enum":
      return fc.constantFrom(...spec.values!);
    case "datetime":
      return instant;
    case "number":
      return fc.integer({ min: -5, max: 1000 }).map(String);
    case "boolean":
      return fc.constantFrom("true", "false", "1", "0", "TRUE");
    default:
      return fc.oneof(fc.constantFrom(...fx.products), fc.string({ maxLength: 20 }).map(clean));
  }
}

function filterTerm(spec: FilterSpec, fx: Fixtures): fc.Arbitrary<string> {
  const ops = spec.ops.filter((o) => o !== "$not");
  return fc
    .tuple(
      spec.ops.includes("$not") ? fc.boolean() : fc.constant(false),
      fc.constantFrom(...ops),
      fc.boolean(),
      filterValue(spec, fx),
      filterValue(spec, fx),
    )
    .map(([not, op, explicit, a, b]) => {
      const value = op === "$btw" || op === "$in" ? `${a},${b}` : op === "$null" ? "" : a;
      const operator = op === "$eq" && !explicit ? "" : `${op}:`;
      return `${not ? "$not:" : ""}${operator}${value}`.replace(/:$/, "");
    });
}

/** Valid query pairs for one parameter. */
function queryParam(doc: Schema, p: Parameter, fx: Fixtures): fc.Arbitrary<[string, string][]> {
  const many = (values: fc.Arbitrary<string[]>) =>
    fc
      .tuple(values, fc.boolean())
      .map(([vs, joined]): [string, string][] =>
        joined && vs.length ? [[p.name, vs.join(",")]] : vs.map((v) => [p.name, v]),
      );
  if (p.name.startsWith("filter.")) {
    // Filter values are never comma-joined (commas belong to $in and $btw); repeat the key.
    return fc
      .array(filterTerm(filterSpec(p), fx), { minLength: 1, maxLength: 2 })
      .map((vs) => vs.map((v): [string, string] => [p.name, v]));
  }
  if (p.name === "select") {
    const fields = /: ([\w, ]+)\.$/.exec(p.description ?? "")?.[1]?.split(", ") ?? ["id"];
    return fc.subarray(fields, { minLength: 1 }).map((fs) => [[p.name, fs.join(",")]]);
  }
  if (p.name === "sortBy" || p.name === "searchBy") {
    const terms = (p.schema.items?.enum ?? []) as string[];
    return many(
      fc.subarray(terms, { minLength: 1, maxLength: Math.min(3, terms.length) }).chain((ts) =>
        fc.tuple(
          ...ts.map((t) =>
            fc.constantFrom(
              t,
              t.replace(/:(\w+)$/, (_m, d: string) => `:${d.toLowerCase()}`),
            ),
          ),
        ),
      ),
    );
  }
  if (p.name === "search") {
    return fc
      .oneof(
        fc.constantFrom(...fx.products, ...fx.customers, "fixture", "FIX", "%", "_", "\\"),
        fc.string({ unit: "grapheme", maxLength: 100 }).map(clean),
      )
      .map((v) => [[p.name, v]]);
  }
  const s = merged(doc, p.schema);
  if (s.type === "array") {
    return fc
      .array(fromSchema(doc, s.items ?? {}, fx, p.name), { minLength: 1, maxLength: 3 })
      .map((vs) => vs.map((v): [string, string] => [p.name, String(v)]));
  }
  return fromSchema(doc, s, fx, p.name).map((v) => [[p.name, String(v)]]);
}

/**
 * A header value is bytes, not text (RFC 9110 §5.5): clients send visible ASCII, and the
 * runtime warns about (and re-encodes) anything else. A header with no pattern of its own gets
 * visible ASCII.
 */
function headerValue(doc: Schema, p: Operation["parameters"][number], fx: Fixtures): Arb {
  const s = merged(doc, p.schema);
  return s.type === "string" && !s.pattern && !s.enum
    ? fc.string({ unit: "grapheme-ascii", maxLength: 60 })
    : fromSchema(doc, p.schema, fx, p.name);
}

export function validParts(doc: Schema, op: Operation, fx: Fixtures): fc.Arbitrary<Parts> {
  const pathParams = op.parameters.filter((p) => p.in === "path");
  const queryParams = op.parameters.filter((p) => p.in === "query");
  const headerParams = op.parameters.filter((p) => p.in === "header");

  // A record addressed by several parameters together (an exchange rate by from, to, validFrom):
  // their names pick currencies, and part of the requests name a fixture's whole key.
  const keyed = op.path.endsWith("/exchange-rates/{from}/{to}/{validFrom}") ? fx.exchangeRates : [];
  const own = fc.record(
    Object.fromEntries(
      pathParams.map((p) => {
        const real = pathFixtures(op, p.name, fx);
        const generated = fromSchema(doc, p.schema, fx, keyed.length ? p.name : undefined);
        const value = real.length ? fc.oneof(fc.constantFrom(...real), generated) : generated;
        return [p.name, value.map((v) => encode(String(v))).filter((v) => !isDotSegment(v))];
      }),
    ),
  ) as fc.Arbitrary<Record<string, string>>;
  const params = keyed.length
    ? fc.oneof(
        own,
        fc
          .constantFrom(...keyed)
          .map((key) => Object.fromEntries(Object.entries(key).map(([k, v]) => [k, encode(v)]))),
      )
    : own;

  const query = fc
    .tuple(
      ...queryParams.map((p) =>
        p.required ? queryParam(doc, p, fx) : fc.option(queryParam(doc, p, fx), { nil: [] }),
      ),
    )
    .map((lists) => lists.flat());

  const headers = fc
    .tuple(
      ...headerParams.map((p) =>
        fc.option(
          headerValue(doc, p, fx).map((v) => [p.name, String(v)] as const),
          { nil: undefined },
        ),
      ),
    )
    .map((pairs) => Object.fromEntries(pairs.filter((x) => x !== undefined)));

  const body = op.body
    ? fc.tuple(fromSchema(doc, op.body, fx), fc.boolean(), fc.nat(3)).map(([b, fix, keep]) => {
        const out = fix ? quoteCoherent(coherent(b), fx) : b;
        // An update that renames or archives its record leaves later requests little to do.
        if (op.method === "PATCH" && keep > 0 && out && typeof out === "object") {
          const { code: _code, status: _status, ...rest } = out as Record<string, unknown>;
          return rest;
        }
        return out;
      })
    : fc.constant(undefined);
  return fc
    .record({ params, query, headers, body })
    .map((p) => (p.body === undefined ? { ...p, body: undefined } : p));
}

// ---------------------------------------------------------------- mutations

type Mutation = { name: string; apply: fc.Arbitrary<(p: Parts) => Parts> };

const MALFORMED_JSON = [
  "",
  "{",
  "}",
  "[",
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  '{"a":1}garbage',
  "nul",
  "NaN",
  "Infinity",
  "undefined",
  "\u0000",
  "\ufeff{}",
  '{"a":1 /* comment */}',
  '{"value":1e999}',
  '{"value":-1e999}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '"just a string"',
  "[".repeat(5000),
  "[".repeat(3000) + "]".repeat(3000),
  '{"a":'.repeat(2000) + "1" + "}".repeat(2000),
];

const CONTENT_TYPES = [
  null,
  "",
  "text/plain",
  "text/json",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/xml",
  "application/json; charset=utf-16",
  "application/json; charset=utf-8",
  "APPLICATION/JSON",
  "application/json-patch+json",
  "application/merge-patch+json",
  "application/problem+json",
  "application/jsonx",
  "*/*",
];

const ODD_QUERY: [string, string][] = [
  ["page", "-1"],
  ["page", "0"],
  ["page", "abc"],
  ["page", "1.5"],
  ["page", "99999999999999999999"],
  ["page", "9007199254740993"],
  ["page", ""],
  ["limit", "-1"],
  ["limit", "0"],
  ["limit", "1000000"],
  ["limit", "1e3"],
  ["limit", "0x10"],
  ["sortBy", "garbage"],
  ["sortBy", "id"],
  ["sortBy", "id:"],
  ["sortBy", ":ASC"],
  ["sortBy", "id:ASC:DESC"],
  ["sortBy", ",,,"],
  ["sortBy", "id:sideways"],
  ["sortBy", "name:asc,id:DESC,name:DESC"],
  ["sortBy", "createdAt:ASC"],
  ["searchBy", "nope"],
  ["searchBy", ""],
  ["searchBy", ",,"],
  ["search", ""],
  ["search", "%"],
  ["search", "_"],
  ["search", "\\"],
  ["search", "%_\\'\";--"],
  ["search", "x".repeat(101)],
  ["search", "é".repeat(100)],
  ["search", "%".repeat(100)],
  ["select", "nope"],
  ["select", ""],
  ["select", ",,id"],
  ["filter.x", "1"],
  ["filter.", "1"],
  ["filter", "1"],
  ["filter.id", "$gt:1"],
  ["filter.status", "$fake:ACTIVE"],
  ["filter.status", "$EQ:ACTIVE"],
  ["filter.status", "$not:$not:ACTIVE"],
  ["filter.status", "$in:ACTIVE,DRAFT"],
  ["filter.status", "$null"],
  ["filter.status", "$or:ACTIVE"],
  ["filter.status", "active"],
  ["filter.status", ""],
  ["filter.validFrom", "$gte:2025-13-45"],
  ["filter.validFrom", "$btw:2025-01-01"],
  ["filter.validFrom", "$gte:2025-02-30"],
  ["filter.productCode", "%"],
  ["filter.productCode", "'"],
  ["filter.__proto__", "x"],
  ["filter.constructor", "x"],
  ["filter.toString", "x"],
  ["__proto__", "x"],
  ["constructor", "x"],
  ["quantity", "-1"],
  ["quantity", "0"],
  ["quantity", "1e9"],
  ["quantity", "abc"],
  ["at", "yesterday"],
  ["at", "2025-02-30"],
  ["explain", "maybe"],
  ["product", ""],
  ["channel", "%"],
  ["currency", "eur"],
];

const RAW_QUERY = [
  "%",
  "%zz",
  "%ED%A0%80",
  "%00",
  "&&&",
  "=&=",
  "a=%FF",
  "filter.status=%E2%82",
  "%FF=1",
  "page=%",
];

const BAD_PATH = [
  "0",
  "-1",
  "1.5",
  "1e3",
  "0x1F",
  "+1",
  "%201",
  "1%20",
  "01",
  "99999999999999999999",
  "9007199254740993",
  "1000000000000000",
  "999999999999999",
  "999999999",
  "abc",
  "null",
  "undefined",
  "__proto__",
  "constructor",
  "toString",
  "%",
  "%zz",
  "%00",
  "%ED%A0%80",
  "%FF",
  "%2F",
  "a%2Fb",
  "...",
  "-",
  "_",
  "a%20b",
  "%27",
  "%22",
  "%25",
  "%5C",
  "x".repeat(65),
  "A".repeat(64),
  "x".repeat(10_240),
];

function mutations(doc: Schema, op: Operation): Mutation[] {
  const list: Mutation[] = [];
  const bodyless = op.method === "GET" || op.method === "HEAD";
  const requiredKeys = (merged(doc, op.body ?? {}).required ?? []) as string[];
  const allKeys = Object.keys(merged(doc, op.body ?? {}).properties ?? {});

  if (op.body) {
    list.push(
      {
        name: "missing-field",
        apply: fc
          .constantFrom(...(requiredKeys.length ? requiredKeys : ["none"]))
          .map((k) => (p: Parts) => {
            if (!p.body || typeof p.body !== "object") return p;
            const { [k]: _gone, ...rest } = p.body as Record<string, unknown>;
            return { ...p, body: rest };
          }),
      },
      {
        name: "extra-field",
        apply: fc
          .tuple(
            fc.constantFrom("extra", "__proto__", "constructor", "", "id", "createdAt", "Code"),
            hostileValue,
          )
          .map(([k, v]) => (p: Parts) => ({ ...p, body: { ...(p.body as object), [k]: v } })),
      },
      {
        name: "wrong-type",
        apply: fc
          .tuple(fc.constantFrom(...(allKeys.length ? allKeys : ["x"])), hostileValue)
          .map(([k, v]) => (p: Parts) => ({ ...p, body: { ...(p.body as object), [k]: v } })),
      },
      {
        name: "wrong-item-type",
        apply: fc
          .tuple(fc.constantFrom(...(allKeys.length ? allKeys : ["x"])), hostileValue, fc.nat(3))
          .map(([k, v, i]) => (p: Parts) => {
            const body = { ...(p.body as Record<string, unknown>) };
            const arr = Array.isArray(body[k]) ? [...(body[k] as unknown[])] : [];
            arr[i] = v;
            return {
              ...p,
              body: { ...body, [k]: Array.from(arr, (x) => (x === undefined ? v : x)) },
            };
          }),
      },
      {
        name: "all-strings-huge",
        apply: repeatTo(10_240).map((big) => (p: Parts) => ({
          ...p,
          body: JSON.parse(
            JSON.stringify(p.body ?? {}, (_k, v) => (typeof v === "string" ? big : v)),
          ),
        })),
      },
      {
        name: "all-numbers-extreme",
        apply: fc.constantFrom(...HUGE_NUMBERS).map((n) => (p: Parts) => ({
          ...p,
          body: JSON.parse(
            JSON.stringify(p.body ?? {}, (_k, v) => (typeof v === "number" ? n : v)),
          ),
        })),
      },
      {
        name: "body-not-object",
        apply: hostileValue.map((v) => (p: Parts) => ({ ...p, body: v })),
      },
      {
        name: "malformed-json",
        apply: fc
          .oneof(
            fc.constantFrom(...MALFORMED_JSON),
            fc.nat().map((n) => (s: string) => s.slice(0, n % Math.max(s.length, 1))),
          )
          .map((v) => (p: Parts) => ({
            ...p,
            rawBody: typeof v === "string" ? v : v(JSON.stringify(p.body ?? {})),
          })),
      },
      {
        name: "duplicate-keys",
        apply: fc.constantFrom(...(allKeys.length ? allKeys : ["x"])).map((k) => (p: Parts) => {
          const json = JSON.stringify(p.body ?? {});
          return { ...p, rawBody: json.replace(/^\{/, `{${JSON.stringify(k)}:null,`) };
        }),
      },
      {
        name: "content-type",
        apply: fc
          .constantFrom(...CONTENT_TYPES)
          .map((contentType) => (p: Parts) => ({ ...p, contentType })),
      },
    );
  } else if (!bodyless) {
    list.push({
      name: "unexpected-body",
      apply: fc
        .tuple(
          fc.constantFrom(...MALFORMED_JSON.slice(0, 12), '{"a":1}'),
          fc.constantFrom(...CONTENT_TYPES),
        )
        .map(([rawBody, contentType]) => (p: Parts) => ({ ...p, rawBody, contentType })),
    });
  }

  const realQuery = op.parameters.filter((p) => p.in === "query").map((p) => p.name);
  list.push(
    {
      name: "odd-query",
      apply: fc
        .array(
          fc.oneof(
            w(4, fc.constantFrom(...ODD_QUERY)),
            w(
              2,
              fc.tuple(
                fc.constantFrom(...(realQuery.length ? realQuery : ["page"])),
                hostileString,
              ),
            ),
            w(1, fc.tuple(hostileString, hostileString)),
          ),
          { minLength: 1, maxLength: 5 },
        )
        .map((pairs) => (p: Parts) => ({ ...p, query: [...p.query, ...pairs] })),
    },
    {
      name: "repeated-query",
      apply: fc
        .tuple(fc.integer({ min: 2, max: 200 }), fc.constantFrom(...ODD_QUERY))
        .map(([n, fallback]) => (p: Parts) => {
          const pair = p.query[0] ?? fallback;
          return { ...p, query: [...p.query, ...Array.from({ length: n }, () => pair)] };
        }),
    },
    {
      name: "thousand-filters",
      apply: fc
        .constantFrom(
          ...realQuery.filter((n) => n.startsWith("filter.")),
          "filter.id",
          "filter.status",
        )
        .chain((name) =>
          fc.tuple(
            fc.constant(name),
            fc.array(fc.string({ maxLength: 8 }).map(clean), { minLength: 1000, maxLength: 1000 }),
          ),
        )
        .map(([name, values]) => (p: Parts) => ({
          ...p,
          query: [
            ...p.query,
            ...values.map((v, i): [string, string] => [name, i % 2 ? v : `$not:${v}`]),
          ],
        })),
    },
    {
      name: "raw-query",
      apply: fc.constantFrom(...RAW_QUERY).map((rawQuery) => (p: Parts) => ({ ...p, rawQuery })),
    },
  );

  const names = op.parameters.filter((p) => p.in === "path").map((p) => p.name);
  if (names.length) {
    list.push({
      name: "bad-path",
      apply: fc
        .tuple(
          fc.constantFrom(...names),
          fc.oneof(
            w(2, fc.constantFrom(...BAD_PATH)),
            w(2, hostileString.map(encode)),
            w(1, fc.constantFrom("")),
          ),
        )
        .filter(([, v]) => !isDotSegment(v))
        .map(([name, value]) => (p: Parts) => ({ ...p, params: { ...p.params, [name]: value } })),
    });
  }

  list.push({
    name: "odd-headers",
    apply: fc
      .tuple(
        fc.constantFrom(
          "x-channel",
          "x-request-id",
          "accept",
          "accept-encoding",
          "x-forwarded-for",
          "origin",
        ),
        fc.oneof(
          fc.string({ unit: "grapheme-ascii", maxLength: 100 }),
          fc.constantFrom("%", "'", "x".repeat(8000), "text/html", "*", "null", "WEB-DE"),
        ),
      )
      .map(([name, value]) => (p: Parts) => ({
        ...p,
        headers: { ...p.headers, [name]: clean(value).trim() },
      })),
  });
  return list;
}

/** Valid requests (35 %) and mutated ones (65 %), with the admin key most of the time. */
export function requestArb(
  doc: Schema,
  op: Operation,
  fx: Fixtures,
  keys: { admin: string; read: string },
): fc.Arbitrary<FuzzRequest> {
  const valid = validParts(doc, op, fx);
  const muts = mutations(doc, op);
  const mutated = fc
    .tuple(valid, fc.shuffledSubarray(muts, { minLength: 1, maxLength: 2 }))
    .chain(([parts, chosen]) =>
      fc.tuple(
        fc.constant(parts),
        fc.constant(chosen.map((m) => m.name)),
        fc.tuple(...chosen.map((m) => m.apply)),
      ),
    )
    .map(([parts, names, fns]) => ({
      kind: names.join("+"),
      parts: fns.reduce((acc, fn) => fn(acc), parts),
    }));
  const key = fc.oneof(
    w(34, fc.constant({ key: "admin" as KeyKind, keyValue: keys.admin })),
    w(4, fc.constant({ key: "read" as KeyKind, keyValue: keys.read })),
    w(1, fc.constant({ key: "none" as KeyKind, keyValue: undefined })),
    w(
      1,
      fc.constantFrom(...BAD_KEYS).map((keyValue) => ({ key: "bad" as KeyKind, keyValue })),
    ),
  );
  return fc
    .tuple(
      fc.oneof(
        w(
          35,
          valid.map((parts) => ({ kind: "valid", parts })),
        ),
        w(65, mutated),
      ),
      key,
    )
    .map(([{ kind, parts }, k]) => ({ ...parts, kind, ...k }));
}
