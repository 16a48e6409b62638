/**
 * The kinds of `npm run import` / `npm run export` (docs/csv.md): for each, its CSV header, how a
 * CSV row becomes a row of its bulk upsert body and an API record a CSV row, and which endpoints it
 * uses. Pure (no Node APIs): the engine (csv-engine.mjs) does the rest, the same for every kind.
 *
 * Cells: a column absent from the header is not sent (the service keeps what the record has; a
 * new record gets the default); an empty cell is null (no group, no parent, no limit, no
 * memberships) and `""` the empty text. Only what a row cannot be sent without (a code, a number,
 * an amount in the currency's decimals) is checked here; every other rule is the service's, whose
 * 400 comes back mapped to the row's line.
 */
import { decimalToMinor, minorToDecimal } from "./money.mjs";
import { describeFailure } from "./csv-http.mjs";

/** The API's code rule (docs/api/resources.md §1, src/core/schemas.ts CODE_PATTERN). */
const CODE = /^(?!\.\.?$)[A-Za-z0-9._-]{1,64}$/;
const CODE_RULE = "1-64 of A-Z a-z 0-9 . _ -";

/**
 * @typedef {(column: string) => string | null | undefined} Cells
 *   a row's cell by column name: undefined when the header has no such column, null when the cell
 *   is empty, else its text as written
 * @typedef {Record<string, unknown>} Row a row of a bulk upsert body
 * @typedef {{ ok: true, row: Row } | { ok: false, error: string }} ReadRow
 * @typedef {{ pricelist?: string }} KindOptions the options of the command line a kind reads
 * @typedef {{ label: string, notes: string[], stateKey: string, readOnly?: string,
 *   pricelistId?: number, digits?: number, currency?: string }} Context what `prepare` found (the
 *   pricelist of prices); `readOnly`: why an import cannot write
 * @typedef {import("./csv-http.mjs").Api} Api
 * @typedef {{
 *   name: string,
 *   columns: readonly string[],
 *   required: readonly string[],
 *   bodyKey: string,
 *   deferOn?: string,
 *   prepare: (api: Api, options: KindOptions) => Promise<Context>,
 *   importPath: (ctx: Context) => string,
 *   listPath: (ctx: Context) => string,
 *   key: (row: Row) => string,
 *   repeatMessage: (row: Row, line: number) => string,
 *   readRow: (cell: Cells, ctx: Context) => ReadRow,
 *   toRecord: (item: any, ctx: Context) => (string | number | null)[],
 * }} Kind
 *   `bodyKey`: the array of the PUT body, named by its 400's issue paths (`body.<bodyKey>.<i>.<field>`);
 *   `deferOn`: a field naming another row of the same kind, which may come later in the file;
 *   `key`: what may appear once per file
 */

/**
 * @typedef {{
 *   read: (raw: string | null, column: string, ctx: Context) => { value: unknown } | { error: string },
 *   write?: (value: any, ctx: Context) => string | number | null,
 * }} CellType how a cell becomes a field of the row, and back (as is by default)
 */

/** A code; `optional`: empty is null. @returns {CellType} */
const code = (optional = false) => ({
  read(raw, column) {
    const value = (raw ?? "").trim();
    if (value === "") return optional ? { value: null } : { error: `${column} is empty` };
    if (CODE.test(value)) return { value };
    return { error: `${column} ${JSON.stringify(value)} is not a code (${CODE_RULE})` };
  },
});

/** Text as written (the service trims names); `optional`: empty is null. @returns {CellType} */
const text = (optional = false) => ({
  read: (raw, column) =>
    raw === null && !optional ? { error: `${column} is empty` } : { value: raw },
});

/** A whole number; empty is `empty` (null, or the default). @returns {CellType} */
const whole = (/** @type {number | null} */ empty, min = 0) => ({
  read(raw, column) {
    const value = (raw ?? "").trim();
    if (value === "") return { value: empty };
    const n = /^\d{1,16}$/.test(value) ? Number(value) : NaN;
    if (n >= min && Number.isSafeInteger(n)) return { value: n };
    const rule = min > 0 ? ` >= ${min}` : "";
    return { error: `${column} ${JSON.stringify(value)} is not a whole number${rule}` };
  },
});

/** Codes joined by `;`; an empty cell is none. @type {CellType} */
const codes = {
  read(raw, column) {
    const list = (raw ?? "").trim() === "" ? [] : (raw ?? "").split(";").map((c) => c.trim());
    const bad = list
      .filter((c) => !CODE.test(c))
      .map((c) => (c ? JSON.stringify(c) : "an empty code"));
    if (bad.length === 0) return { value: list };
    return { error: `${column} holds ${bad.join(", ")}: codes (${CODE_RULE}) joined by ;` };
  },
  write: (/** @type {string[]} */ list) => (list.length > 0 ? list.join(";") : null),
};

/** An ISO 8601 instant with a time zone, as the API takes it. */
const INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d{1,3})?)?(?:Z|[+-]\d\d:\d\d)$/;

/**
 * An instant (ISO 8601 with a time zone); an empty cell, or no such column, is `empty`: null
 * (validFrom: from always) or undefined (validTo: left to the timeline rules, docs/csv.md).
 * @returns {CellType}
 */
const instant = (/** @type {null | undefined} */ empty) => ({
  read(raw, column) {
    const value = (raw ?? "").trim();
    if (value === "") return { value: empty };
    const ms = INSTANT.test(value) ? Date.parse(value) : NaN;
    if (Number.isFinite(ms)) return { value: new Date(ms).toISOString() };
    return {
      error: `${column} ${JSON.stringify(value)} is not an instant (ISO 8601 with a time zone, e.g. 2027-01-01T00:00:00Z)`,
    };
  },
});

/** A decimal amount in the pricelist's currency, as exact minor units. @type {CellType} */
const amount = {
  read(raw, _column, ctx) {
    const read = decimalToMinor(raw ?? "", ctx.digits ?? 2, ctx.currency);
    return read.ok ? { value: read.value } : { error: read.error };
  },
  write: (/** @type {number} */ minor, ctx) => minorToDecimal(minor, ctx.digits ?? 2),
};

/**
 * A GRADUATED band's flat amount (docs/pricing-rules.md §29), in the format of `amount`; an empty
 * cell, or no such column, is 0 (the API's default, which a VOLUME list requires), and 0 is
 * exported empty. @type {CellType}
 */
const flatAmount = {
  read(raw, column, ctx) {
    return (raw ?? "").trim() === "" ? { value: 0 } : amount.read(raw, column, ctx);
  },
  // 0 is written empty: a VOLUME list's sheet keeps an empty column.
  write: (/** @type {number} */ minor, ctx) => (minor === 0 ? null : amount.write(minor, ctx)),
};

/**
 * A kind from its cells (in header order) and its endpoints. By default the rows are keyed by
 * `code`, upserted at `path` and exported from it sorted by code.
 * @param {{ name: string, bodyKey: string, cells: Record<string, CellType>, path?: string }
 *   & Partial<Kind>} spec
 * @returns {Kind}
 */
function defineKind({ cells, path = "", ...spec }) {
  const columns = Object.keys(cells);
  return {
    required: ["code", "name"],
    prepare: async () => ({ label: "", notes: [], stateKey: "" }),
    importPath: () => path,
    listPath: () => `${path}?sortBy=code:ASC`,
    key: (row) => String(row.code),
    repeatMessage: (row, line) => `repeats code ${row.code} of line ${line}`,
    ...spec,
    columns,
    readRow(cell, ctx) {
      /** @type {Row} */
      const row = {};
      const errors = [];
      for (const [column, type] of Object.entries(cells)) {
        const raw = cell(column);
        if (raw === undefined) continue; // not in the header: not sent
        const got = type.read(raw, column, ctx);
        if ("error" in got) errors.push(got.error);
        else row[column] = got.value;
      }
      return errors.length ? { ok: false, error: errors.join("; ") } : { ok: true, row };
    },
    toRecord: (item, ctx) =>
      columns.map((c) => {
        const value = item[c] ?? null;
        const write = /** @type {CellType} */ (cells[c]).write;
        return write && value !== null ? write(value, ctx) : value;
      }),
  };
}

const products = defineKind({
  name: "products",
  path: "/v1/api/product",
  bodyKey: "products",
  cells: {
    code: code(),
    name: text(),
    productGroupCode: code(true),
    minOrderQuantity: whole(1),
    orderIncrement: whole(1),
    maxOrderQuantity: whole(null),
    brandCode: code(true),
  },
});

const brands = defineKind({
  name: "brands",
  path: "/v1/api/brand",
  bodyKey: "brands",
  cells: { code: code(), name: text() },
});

const productGroups = defineKind({
  name: "product-groups",
  path: "/v1/api/product-group",
  bodyKey: "productGroups",
  deferOn: "parentCode",
  cells: { code: code(), name: text(), parentCode: code(true) },
});

const customerGroups = defineKind({
  name: "customer-groups",
  path: "/v1/api/customer-group",
  bodyKey: "customerGroups",
  cells: { code: code(), name: text(), description: text(true) },
});

const customers = defineKind({
  name: "customers",
  path: "/v1/api/customer",
  bodyKey: "customers",
  cells: { code: code(), name: text(), customerGroupCodes: codes, channelCodes: codes },
});

/** Text trimmed of surrounding spaces, required: the service checks its form. @type {CellType} */
const trimmed = {
  read(raw, column) {
    const value = (raw ?? "").trim();
    return value === "" ? { error: `${column} is empty` } : { value };
  },
};

/**
 * The ISO 4217 exponent of a currency, as the service answers it (GET /v1/api/currencies, the
 * one table of exponents: docs/api/prices.md §16.1).
 * @param {Api} api
 * @param {string} currency
 * @returns {Promise<number>}
 */
export async function exponentOf(api, currency) {
  const res = await api.get(`/v1/api/currencies?filter.code=${encodeURIComponent(currency)}`);
  if (res.status !== 200) throw new Error(`GET currencies: ${describeFailure(res)}`);
  /** @type {{ code: string, exponent: number }[]} */
  const found = res.body?.data ?? [];
  const exponent = found[0]?.exponent;
  if (typeof exponent !== "number")
    throw new Error(`the service does not list the currency ${currency}`);
  return exponent;
}

/**
 * The pricelist of `--pricelist`, with the minor-unit digits of its currency.
 * @param {Api} api
 * @param {KindOptions} options
 * @returns {Promise<Context>}
 */
async function pricelistContext(api, options) {
  const raw = options.pricelist;
  if (typeof raw !== "string" || !/^\d{1,15}$/.test(raw) || Number(raw) < 1)
    throw new Error("prices need --pricelist <id> (a pricelist id such as 12)");
  const id = Number(raw);
  const res = await api.get(`/v1/api/pricelist/${id}`);
  if (res.status !== 200) throw new Error(`GET pricelist ${id}: ${describeFailure(res)}`);
  /** @type {{ id: number, name: string, currency: string, status: string }} */
  const pricelist = res.body;
  const digits = await exponentOf(api, pricelist.currency);
  const decimals = digits === 1 ? "1 decimal" : `${digits} decimals`;
  return {
    label: `pricelist ${id} "${pricelist.name}" (${pricelist.status}, ${pricelist.currency}: ${decimals})`,
    notes: [],
    stateKey: `pricelist ${id}`,
    readOnly:
      pricelist.status === "ARCHIVED"
        ? `pricelist ${id} is ARCHIVED: its prices cannot change`
        : undefined,
    pricelistId: id,
    digits,
    currency: pricelist.currency,
  };
}

const prices = defineKind({
  name: "prices",
  bodyKey: "prices",
  required: ["productCode", "minQuantity", "amount"],
  cells: {
    productCode: code(),
    minQuantity: whole(1, 1),
    amount,
    // Empty, or no such column: 1, the API's default (a row is written whole, so a sheet of a
    // list priced per 1,000 carries the column; the service refuses more than 10,000).
    priceUnit: whole(1, 1),
    validFrom: instant(null),
    validTo: instant(undefined),
    flatAmount,
  },
  prepare: pricelistContext,
  importPath: (ctx) => `/v1/api/pricelist/${ctx.pricelistId}/prices`,
  listPath: (ctx) =>
    `/v1/api/pricelist/${ctx.pricelistId}/prices?sortBy=productCode:ASC&sortBy=minQuantity:ASC&sortBy=validFrom:ASC`,
  key: (row) => `${row.productCode}\u0000${row.minQuantity}\u0000${row.validFrom ?? ""}`,
  repeatMessage: (row, line) =>
    `repeats ${row.productCode} with minQuantity ${row.minQuantity}` +
    `${row.validFrom ? ` from ${row.validFrom}` : ""} of line ${line}`,
});

/**
 * Exchange rates by (from, to, validFrom): the rate stays the decimal text the file holds (the
 * service checks it and keeps it exact, docs/api/prices.md §16.2); the export writes the normal
 * form and validFrom as the service answers it.
 */
const exchangeRates = defineKind({
  name: "exchange-rates",
  path: "/v1/api/exchange-rates",
  bodyKey: "rates",
  required: ["from", "to", "rate", "validFrom"],
  cells: { from: trimmed, to: trimmed, rate: trimmed, validFrom: trimmed },
  listPath: () => "/v1/api/exchange-rates?sortBy=from:ASC&sortBy=to:ASC&sortBy=validFrom:ASC",
  key: (row) => `${row.from}\u0000${row.to}\u0000${row.validFrom}`,
  repeatMessage: (row, line) =>
    `repeats the rate ${row.from}→${row.to} from ${row.validFrom} of line ${line}`,
});

/** Every kind by the name the command line takes, in the order a catalogue is best loaded. */
export const KINDS = /** @type {Readonly<Record<string, Kind>>} */ ({
  "product-groups": productGroups,
  brands,
  products,
  "customer-groups": customerGroups,
  customers,
  prices,
  "exchange-rates": exchangeRates,
});

/**
 * The kind named on the command line.
 * @param {string | undefined} name
 * @returns {Kind}
 */
export function kindOf(name) {
  const kind = name === undefined ? undefined : KINDS[name];
  if (!kind)
    throw new Error(
      `${name === undefined ? "a kind is required" : `unknown kind ${JSON.stringify(name)}`}: one of ${Object.keys(KINDS).join(", ")}`,
    );
  return kind;
}

/**
 * Where each column is, from the header record: names in any order and letter case; the required
 * ones must be there, the others may be.
 * @param {string[]} fields
 * @param {Kind} kind
 * @returns {{ ok: true, index: Map<string, number>, width: number } | { ok: false, error: string }}
 */
export function readHeader(fields, kind) {
  const names = fields.map((f) => f.trim().toLowerCase());
  const optional = kind.columns.filter((c) => !kind.required.includes(c));
  const expected = optional.length
    ? `${kind.required.join(",")}, optionally ${optional.join(",")}`
    : kind.columns.join(",");
  const problem = (/** @type {string} */ text) => ({
    ok: /** @type {const} */ (false),
    error: `the header must be ${expected} (${text})`,
  });
  if (fields.length === 1 && /[;\t]/.test(fields[0] ?? ""))
    return problem("separated by commas; this file uses semicolons or tabs");
  const unknown = fields.filter((_, i) => !kind.columns.some((c) => c.toLowerCase() === names[i]));
  const missing = kind.required.filter((c) => !names.includes(c.toLowerCase()));
  const repeated = kind.columns.filter(
    (c) => names.filter((n) => n === c.toLowerCase()).length > 1,
  );
  if (unknown.length || missing.length || repeated.length)
    return problem(
      [
        missing.length ? `missing ${missing.join(", ")}` : "",
        unknown.length ? `unknown ${unknown.map((u) => JSON.stringify(u)).join(", ")}` : "",
        repeated.length ? `repeated ${repeated.join(", ")}` : "",
      ]
        .filter(Boolean)
        .join("; "),
    );
  const index = new Map();
  for (const c of kind.columns) {
    const at = names.indexOf(c.toLowerCase());
    if (at >= 0) index.set(c, at);
  }
  return { ok: true, index, width: fields.length };
}

/**
 * One data record as a row of the kind's upsert body.
 * @param {import("./csv.mjs").CsvRecord} record
 * @param {{ index: Map<string, number>, width: number }} header
 * @param {Kind} kind
 * @param {Context} ctx
 * @returns {ReadRow}
 */
export function readRow(record, header, kind, ctx) {
  const { fields } = record;
  if (fields.length !== header.width)
    return { ok: false, error: `expected ${header.width} fields, found ${fields.length}` };
  /** @type {Cells} */
  const cell = (column) => {
    const i = header.index.get(column);
    if (i === undefined) return undefined;
    const value = /** @type {string} */ (fields[i]);
    return value === "" && !record.quotedEmpty?.includes(i) ? null : value;
  };
  return kind.readRow(cell, ctx);
}
