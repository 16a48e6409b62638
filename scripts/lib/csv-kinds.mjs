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
import { decimalToMinor, minorDigits, minorToDecimal } from "./money.mjs";
import { describeFailure } from "./csv-http.mjs";

/** The API's code rule (docs/api.md §1, src/lib/schemas.ts CODE_PATTERN). */
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

/** Collects the problems of one row, so a line names all of them at once. */
function rowReader(/** @type {Cells} */ cell) {
  /** @type {string[]} */
  const errors = [];
  /** @type {Row} */
  const row = {};

  /** A code; `optional`: empty is null. */
  const code = (/** @type {string} */ column, { optional = false } = {}) => {
    const raw = cell(column);
    if (raw === undefined) return;
    const value = (raw ?? "").trim();
    if (value === "") {
      if (optional) row[column] = null;
      else errors.push(`${column} is empty`);
    } else if (CODE.test(value)) row[column] = value;
    else errors.push(`${column} ${JSON.stringify(value)} is not a code (${CODE_RULE})`);
  };

  /** Text as written (the service trims names); `optional`: empty is null. */
  const text = (/** @type {string} */ column, { optional = false } = {}) => {
    const raw = cell(column);
    if (raw === undefined) return;
    if (raw === null && !optional) errors.push(`${column} is empty`);
    else row[column] = raw;
  };

  /** A whole number; empty is `empty` (null, or the default). */
  const whole = (/** @type {string} */ column, /** @type {number | null} */ empty) => {
    const raw = cell(column);
    if (raw === undefined) return;
    const value = (raw ?? "").trim();
    if (value === "") row[column] = empty;
    else if (/^\d{1,15}$/.test(value)) row[column] = Number(value);
    else errors.push(`${column} ${JSON.stringify(value)} is not a whole number`);
  };

  /** Codes joined by `;`; empty is none. */
  const codeList = (/** @type {string} */ column) => {
    const raw = cell(column);
    if (raw === undefined) return;
    const codes = (raw ?? "").trim() === "" ? [] : (raw ?? "").split(";").map((c) => c.trim());
    const bad = codes.filter((c) => !CODE.test(c));
    if (bad.length === 0) row[column] = codes;
    else
      errors.push(
        `${column} holds ${bad.map((c) => (c === "" ? "an empty code" : JSON.stringify(c))).join(", ")}: codes (${CODE_RULE}) joined by ;`,
      );
  };

  /** @returns {ReadRow} */
  const done = () => (errors.length ? { ok: false, error: errors.join("; ") } : { ok: true, row });
  return { code, text, whole, codeList, row, errors, done };
}

/** The master-data kinds need nothing but the service. */
const noContext = async () => ({ label: "", notes: [], stateKey: "" });
const byCode = (/** @type {Row} */ row) => String(row.code);
const repeatsCode = (/** @type {Row} */ row, /** @type {number} */ line) =>
  `repeats code ${row.code} of line ${line}`;
/** `null` stays an empty cell; a number or text is written as is. */
const cellsOf = (/** @type {any} */ item, /** @type {readonly string[]} */ columns) =>
  columns.map((c) => item[c] ?? null);

/** @type {Kind} */
const products = {
  name: "products",
  columns: [
    "code",
    "name",
    "productGroupCode",
    "minOrderQuantity",
    "orderIncrement",
    "maxOrderQuantity",
  ],
  required: ["code", "name"],
  bodyKey: "products",
  prepare: noContext,
  importPath: () => "/v1/api/product",
  listPath: () => "/v1/api/product?sortBy=code:ASC",
  key: byCode,
  repeatMessage: repeatsCode,
  readRow(cell) {
    const r = rowReader(cell);
    r.code("code");
    r.text("name");
    r.code("productGroupCode", { optional: true });
    r.whole("minOrderQuantity", 1);
    r.whole("orderIncrement", 1);
    r.whole("maxOrderQuantity", null);
    return r.done();
  },
  toRecord: (item) => cellsOf(item, products.columns),
};

/** @type {Kind} */
const productGroups = {
  name: "product-groups",
  columns: ["code", "name", "parentCode"],
  required: ["code", "name"],
  bodyKey: "productGroups",
  deferOn: "parentCode",
  prepare: noContext,
  importPath: () => "/v1/api/product-group",
  listPath: () => "/v1/api/product-group?sortBy=code:ASC",
  key: byCode,
  repeatMessage: repeatsCode,
  readRow(cell) {
    const r = rowReader(cell);
    r.code("code");
    r.text("name");
    r.code("parentCode", { optional: true });
    return r.done();
  },
  toRecord: (item) => cellsOf(item, productGroups.columns),
};

/** @type {Kind} */
const customerGroups = {
  name: "customer-groups",
  columns: ["code", "name", "description"],
  required: ["code", "name"],
  bodyKey: "customerGroups",
  prepare: noContext,
  importPath: () => "/v1/api/customer-group",
  listPath: () => "/v1/api/customer-group?sortBy=code:ASC",
  key: byCode,
  repeatMessage: repeatsCode,
  readRow(cell) {
    const r = rowReader(cell);
    r.code("code");
    r.text("name");
    r.text("description", { optional: true });
    return r.done();
  },
  toRecord: (item) => cellsOf(item, customerGroups.columns),
};

/** Memberships in one cell; none is an empty cell. @param {string[]} codes */
const codesCell = (codes) => (codes.length > 0 ? codes.join(";") : null);

/** @type {Kind} */
const customers = {
  name: "customers",
  columns: ["code", "name", "customerGroupCodes", "channelCodes"],
  required: ["code", "name"],
  bodyKey: "customers",
  prepare: noContext,
  importPath: () => "/v1/api/customer",
  listPath: () => "/v1/api/customer?sortBy=code:ASC",
  key: byCode,
  repeatMessage: repeatsCode,
  readRow(cell) {
    const r = rowReader(cell);
    r.code("code");
    r.text("name");
    r.codeList("customerGroupCodes");
    r.codeList("channelCodes");
    return r.done();
  },
  toRecord: (item) => [
    item.code,
    item.name,
    codesCell(item.customerGroupCodes),
    codesCell(item.channelCodes),
  ],
};

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
  const { digits, known } = minorDigits(pricelist.currency);
  const decimals = digits === 1 ? "1 decimal" : `${digits} decimals`;
  const notes = known
    ? []
    : [`${pricelist.currency} is not in the table of minor units: assuming 2 decimals`];
  return {
    readOnly:
      pricelist.status === "ARCHIVED"
        ? `pricelist ${id} is ARCHIVED: its prices cannot change`
        : undefined,
    label: `pricelist ${id} "${pricelist.name}" (${pricelist.status}, ${pricelist.currency}: ${decimals})`,
    notes,
    stateKey: `pricelist ${id}`,
    pricelistId: id,
    digits,
    currency: pricelist.currency,
  };
}

/** @type {Kind} */
const prices = {
  name: "prices",
  columns: ["productCode", "minQuantity", "amount"],
  required: ["productCode", "minQuantity", "amount"],
  bodyKey: "prices",
  prepare: pricelistContext,
  importPath: (ctx) => `/v1/api/pricelist/${ctx.pricelistId}/prices`,
  listPath: (ctx) =>
    `/v1/api/pricelist/${ctx.pricelistId}/prices?sortBy=productCode:ASC&sortBy=minQuantity:ASC`,
  key: (row) => `${row.productCode}\u0000${row.minQuantity}`,
  repeatMessage: (row, line) =>
    `repeats ${row.productCode} with minQuantity ${row.minQuantity} of line ${line}`,
  readRow(cell, ctx) {
    const r = rowReader(cell);
    r.code("productCode");
    const quantity = (cell("minQuantity") ?? "").trim();
    const minQuantity = /^\d{1,16}$/.test(quantity) ? Number(quantity) : NaN;
    if (quantity === "") r.row.minQuantity = 1;
    else if (minQuantity >= 1 && Number.isSafeInteger(minQuantity)) r.row.minQuantity = minQuantity;
    else r.errors.push(`minQuantity ${JSON.stringify(quantity)} is not a whole number >= 1`);
    const amount = decimalToMinor(cell("amount") ?? "", ctx.digits ?? 2, ctx.currency);
    if (amount.ok) r.row.amount = amount.value;
    else r.errors.push(amount.error);
    return r.done();
  },
  toRecord: (item, ctx) => [
    item.productCode,
    item.minQuantity,
    minorToDecimal(item.amount, ctx.digits ?? 2),
  ],
};

/** Every kind by the name the command line takes, in the order a catalogue is best loaded. */
export const KINDS = /** @type {Readonly<Record<string, Kind>>} */ ({
  "product-groups": productGroups,
  products,
  "customer-groups": customerGroups,
  customers,
  prices,
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
