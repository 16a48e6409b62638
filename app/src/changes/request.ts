import type { components } from "../../../client/pricing-api";
import { decimalToMinor } from "../../../scripts/lib/money.mjs";
import { exponentOf } from "../../../src/pricing/currencies";
import { formatInstant, parseInstant } from "../lib/instant";

/*
 * The Changes page's forms as API bodies (docs/app.md §1): pure functions, no DOM, so
 * test/app/app-changes.test.ts holds them against the API's rules. Amounts are typed in the
 * pricelist's currency and become integer minor units exactly (no float); percentages become
 * basis points exactly.
 */

type Schemas = components["schemas"];
export type ChangeRequestCreate = Schemas["ChangeRequestCreate"];
type Rounding = NonNullable<Schemas["ChangeRequestAdjustPrices"]["rounding"]>;
export type RoundingMode = Rounding["mode"];
type PriceRow = Schemas["ChangeRequestPriceRow"];

/** What an answer is: the value, or a sentence about what is wrong. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** The API's bounds (docs/api/change-requests.md §17.1). */
export const MAX_PRICE_ROWS = 10_000;
const MIN_BP = -9999;
const MAX_BP = 100_000;

const PERCENT = /^([+-])?(\d{1,4})(?:[.,](\d{1,2}))?\s*%?$/;

/** "3" → 300, "-2.5" → -250, "+0,75 %" → 75: a percentage with at most two decimals, in bp. */
export function percentToBp(text: string): Parsed<number> {
  const m = PERCENT.exec(text.trim());
  if (!m) {
    return { ok: false, error: "must be a percentage like 3 or -2.5, with at most two decimals" };
  }
  const magnitude = Number(m[2]) * 100 + Number((m[3] ?? "").padEnd(2, "0"));
  const bp = m[1] === "-" ? -magnitude : magnitude;
  if (bp === 0) return { ok: false, error: "must not be 0: an adjustment of 0 % changes nothing" };
  if (bp < MIN_BP || bp > MAX_BP) {
    return { ok: false, error: "must be from -99.99 % to +1000 %" };
  }
  return { ok: true, value: bp };
}

/** An amount in `currency` ("5.19", or "5,19" when the comma is no separator) in minor units. */
export function amountToMinor(text: string, currency: string): Parsed<number> {
  const digits = exponentOf(currency) ?? 2;
  const answer = decimalToMinor(text.trim().replace(/^(\d+),(\d+)$/, "$1.$2"), digits, currency);
  return answer.ok ? answer : { ok: false, error: answer.error };
}

/** "G, H  I" → ["G", "H", "I"]: codes split by commas, semicolons or white space, each once. */
export const codesOf = (text: string) => [
  ...new Set(text.split(/[\s,;]+/).filter((c) => c !== "")),
];

/** The first instant of the month after `now`, UTC, as the fields show it: the default date. */
export function nextMonthLocal(now: number): string {
  const date = new Date(now);
  return formatInstant(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1));
}

/** The effective date typed (lib/instant.ts) as the API takes it; empty: null (when approved). */
function effectiveAtOf(text: string, problems: string[]): string | null {
  const parsed = parseInstant(text);
  if (!parsed.ok) problems.push(`Effective from: ${parsed.error}.`);
  return parsed.ok ? (parsed.value ?? null) : null;
}

export interface AdjustmentForm {
  title: string;
  pricelistId: string;
  productGroupCodes: string;
  /** Brands (docs/brands.md), comma-separated codes. */
  brandCodes: string;
  productCodes: string;
  percent: string;
  /** "" = no rounding */
  roundingMode: "" | RoundingMode;
  /** In the list's currency: "0.10" */
  step: string;
  /** In the list's currency: "0.09" */
  ending: string;
  /** "2027-01-01 00:00", UTC (lib/instant.ts); empty = when it is approved */
  effectiveAt: string;
}

export const emptyAdjustment = (now: number): AdjustmentForm => ({
  title: "",
  pricelistId: "",
  productGroupCodes: "",
  brandCodes: "",
  productCodes: "",
  percent: "",
  roundingMode: "",
  step: "",
  ending: "",
  effectiveAt: nextMonthLocal(now),
});

/**
 * The form with rounding `mode`: none clears the step and the ending (they mean nothing then, and
 * their fields are disabled); a mode chosen with both empty suggests a step of 0.10 ending in 0.09.
 */
export function withRounding(
  form: AdjustmentForm,
  mode: AdjustmentForm["roundingMode"],
): Pick<AdjustmentForm, "roundingMode" | "step" | "ending"> {
  if (mode === "") return { roundingMode: "", step: "", ending: "" };
  if (form.step === "" && form.ending === "") {
    return { roundingMode: mode, step: "0.10", ending: "0.09" };
  }
  return { roundingMode: mode, step: form.step, ending: form.ending };
}

type Built = { ok: true; request: ChangeRequestCreate } | { ok: false; problems: string[] };

const listId = (text: string) => (/^[1-9][0-9]{0,14}$/.test(text) ? Number(text) : null);

function roundingOf(form: AdjustmentForm, currency: string): Parsed<Rounding> {
  if (form.roundingMode === "") return { ok: false, error: "" };
  const step = amountToMinor(form.step, currency);
  if (!step.ok) return { ok: false, error: `Rounding step: ${step.error}.` };
  if (step.value < 1) return { ok: false, error: "Rounding step: must be more than 0." };
  const ending = amountToMinor(form.ending, currency);
  if (!ending.ok) return { ok: false, error: `Price ending: ${ending.error}.` };
  if (ending.value >= step.value) {
    return { ok: false, error: "Price ending: must be less than the rounding step." };
  }
  return { ok: true, value: { mode: form.roundingMode, step: step.value, ending: ending.value } };
}

/**
 * The body of a mass adjustment (one ADJUST_PRICES item), or every problem of the form. Neither
 * groups nor products: every product of the list, as the API reads it.
 */
export function adjustmentRequestOf(form: AdjustmentForm, currency: string): Built {
  const problems: string[] = [];
  if (form.title.trim() === "") problems.push("Title: type what the change is.");
  const pricelistId = listId(form.pricelistId);
  if (pricelistId === null) problems.push("Pricelist: choose one.");
  const bp = percentToBp(form.percent);
  if (!bp.ok) problems.push(`Change: ${bp.error}.`);
  const rounding = roundingOf(form, currency);
  if (!rounding.ok && rounding.error) problems.push(rounding.error);
  const effectiveAt = effectiveAtOf(form.effectiveAt, problems);
  if (problems.length || pricelistId === null || !bp.ok) return { ok: false, problems };
  const groups = codesOf(form.productGroupCodes);
  const brands = codesOf(form.brandCodes);
  const products = codesOf(form.productCodes);
  return {
    ok: true,
    request: {
      title: form.title.trim(),
      effectiveAt,
      items: [
        {
          kind: "ADJUST_PRICES",
          pricelistId,
          ...(groups.length ? { productGroupCodes: groups } : {}),
          ...(brands.length ? { brandCodes: brands } : {}),
          ...(products.length ? { productCodes: products } : {}),
          adjustmentBp: bp.value,
          rounding: rounding.ok ? rounding.value : null,
        },
      ],
    },
  };
}

export interface RowsForm {
  title: string;
  pricelistId: string;
  /** Pasted lines: product code, [minimum quantity,] price */
  rows: string;
  effectiveAt: string;
}

export const emptyRows = (now: number): RowsForm => ({
  title: "",
  pricelistId: "",
  rows: "",
  effectiveAt: nextMonthLocal(now),
});

/** The cells of a pasted line: split by tabs (a spreadsheet's copy), else semicolons, else commas. */
function cellsOf(line: string): string[] {
  const separator = line.includes("\t") ? "\t" : line.includes(";") ? ";" : ",";
  return line.split(separator).map((cell) => cell.trim());
}

/** One pasted line as a row, or what is wrong with it. */
function rowOf(cells: string[], currency: string): Parsed<PriceRow> {
  if (cells.length !== 2 && cells.length !== 3) {
    return { ok: false, error: "needs a product code, an optional minimum quantity and a price" };
  }
  const productCode = cells[0]!;
  // The API's code pattern (src/core/schemas.ts CODE_PATTERN), so a typo is named here.
  if (!/^(?!\.\.?$)[A-Za-z0-9._-]{1,64}$/.test(productCode)) {
    return { ok: false, error: `"${productCode}" is not a product code` };
  }
  const quantity = cells.length === 3 ? cells[1]! : "1";
  if (!/^[1-9][0-9]{0,14}$/.test(quantity)) {
    return { ok: false, error: `minimum quantity "${quantity}" is not a whole number from 1` };
  }
  const amount = amountToMinor(cells.at(-1)!, currency);
  if (!amount.ok) return { ok: false, error: amount.error };
  return { ok: true, value: { productCode, minQuantity: Number(quantity), amount: amount.value } };
}

/**
 * Pasted price rows, one a line ("P-1⇥5.19", "P-2;10;9,29", "P-3,1,12.00"), with the price in
 * the list's currency. A first line that is not a row but names columns is a header and skipped;
 * every other problem names its line. Each (product, minimum quantity) once.
 */
export function parsePriceRows(
  text: string,
  currency: string,
): { rows: PriceRow[]; problems: string[] } {
  const rows: PriceRow[] = [];
  const problems: string[] = [];
  const seen = new Map<string, number>();
  const lines = text.split(/\r?\n/);
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    const cells = cellsOf(line);
    const row = rowOf(cells, currency);
    if (!row.ok) {
      const header = rows.length === 0 && problems.length === 0 && !/\d/.test(cells.at(-1) ?? "");
      if (!header) problems.push(`Line ${i + 1}: ${row.error}.`);
      return;
    }
    const key = `${row.value.productCode} ${row.value.minQuantity}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      problems.push(
        `Line ${i + 1}: ${row.value.productCode} from ${row.value.minQuantity} is on line ${earlier} already.`,
      );
      return;
    }
    seen.set(key, i + 1);
    rows.push(row.value);
  });
  if (rows.length > MAX_PRICE_ROWS) {
    problems.push(`${rows.length} rows: a request holds at most ${MAX_PRICE_ROWS}.`);
  }
  return { rows, problems };
}

/** The body of pasted price rows (one SET_PRICES item), or every problem of the form. */
export function rowsRequestOf(form: RowsForm, currency: string): Built {
  const problems: string[] = [];
  if (form.title.trim() === "") problems.push("Title: type what the change is.");
  const pricelistId = listId(form.pricelistId);
  if (pricelistId === null) problems.push("Pricelist: choose one.");
  const parsed = parsePriceRows(form.rows, currency);
  problems.push(...parsed.problems);
  if (parsed.rows.length === 0 && parsed.problems.length === 0) {
    problems.push("Price rows: paste at least one row.");
  }
  const effectiveAt = effectiveAtOf(form.effectiveAt, problems);
  if (problems.length || pricelistId === null) return { ok: false, problems };
  return {
    ok: true,
    request: {
      title: form.title.trim(),
      effectiveAt,
      items: [{ kind: "SET_PRICES", pricelistId, rows: parsed.rows }],
    },
  };
}
