import { z } from "@hono/zod-openapi";
import { CURRENCIES, isCurrency } from "./currencies";
import { unsafeTextReason } from "./text";
import { STATUSES } from "../pricing/vocabulary";
import { windowIssues } from "./status";

/** Building blocks shared by the resource schemas. */

/**
 * One code, unanchored (a list of codes is built from it): 1-64 of A-Z a-z 0-9 . _ - but not "." or ".." (URLs resolve those as dot
 * segments, so such a record could never be addressed). Written without lookaround, which RE2
 * and Rust's regex do not have, so every JSON Schema validator reads /doc's patterns
 * (docs/api/resources.md §1): not a dot first, or one dot then not a dot, or two dots and more.
 */
export const ONE_CODE =
  "(?:[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}|\\.[A-Za-z0-9_-][A-Za-z0-9._-]{0,62}|\\.\\.[A-Za-z0-9._-]{1,62})";
export const CODE_PATTERN = new RegExp(`^${ONE_CODE}$`);

export const Code = z
  .string()
  .regex(CODE_PATTERN, "must be 1-64 characters of A-Z a-z 0-9 . _ - (not . or ..)")
  .openapi({
    example: "WEB-DE",
    description:
      "A code, the business key of a record: 1-64 characters of A-Z a-z 0-9 . _ - (not . or ..)",
  });

/** Free text may not hide what it says (src/core/text.ts): checked after trimming. */
const safeText = (multiline: boolean) => (value: string, ctx: z.core.$RefinementCtx<string>) => {
  const reason = unsafeTextReason(value, multiline);
  if (reason) ctx.addIssue({ code: "custom", message: reason });
};

/**
 * The characters free text may hold, for /doc (src/core/text.ts decides): no control
 * characters (a description keeps tab and line breaks), no bidirectional controls. Written so
 * that every validator reads it alike (docs/api/resources.md §1): ECMAScript with and without the
 * `u` flag, RE2, Rust's regex, Python: code points up to U+00FF as `\xHH`, the others as the
 * characters themselves (RE2 has no `\u`), no surrogate code points (Rust refuses them; without `u`
 * they would refuse every emoji), no lookaround. Lone surrogates are refused by the server and are
 * no text to a validator that reads strings as Unicode: the description says so.
 */
const BIDI_CONTROLS = "\u202a-\u202e\u2066-\u2069";
const textPattern = (controls: string) => `[^${controls}\\x7f-\\x9f${BIDI_CONTROLS}]`;
const NAME_CHAR = textPattern("\\x00-\\x1f");
const DESCRIPTION_CHAR = textPattern("\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f");
/**
 * A name character that trimming keeps (ECMAScript's white space and line terminators are
 * trimmed: U+0020, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF).
 */
const NAME_SOLID =
  "[^\\x00-\\x20\\x7f-\\xa0\u1680\u2000-\u200a\u2028-\u202f\u205f\u2066-\u2069\u3000\ufeff]";

export const Name = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(200)
  .superRefine(safeText(false))
  .openapi({
    // Something besides spaces, which are trimmed.
    pattern: `^${NAME_CHAR}*${NAME_SOLID}${NAME_CHAR}*$`,
    description:
      "Display name, 1-200 characters (surrounding spaces trimmed); no control characters or " +
      "bidirectional controls; the server also refuses lone surrogates (not Unicode text)",
  });

/** Longer free text: line breaks and tabs allowed, other control characters not. */
export const Description = z
  .string()
  .max(1000)
  .superRefine(safeText(true))
  .openapi({
    pattern: `^${DESCRIPTION_CHAR}*$`,
    description:
      "Free text, up to 1000 characters; line breaks and tabs allowed, other control characters, " +
      "bidirectional controls and lone surrogates not",
  });

export const Currency = z
  .string()
  // abort: a malformed code gets one issue, not also "not in circulation".
  .regex(/^[A-Z]{3}$/, { message: "must be an ISO 4217 code such as EUR", abort: true })
  .refine(isCurrency, "must be the ISO 4217 code of a currency in circulation, such as EUR")
  .openapi("Currency", {
    enum: [...CURRENCIES],
    example: "EUR",
    description: "ISO 4217 code of a currency in circulation (src/core/currencies.ts)",
  });

export const Status = z.enum(STATUSES).openapi("Status", {
  description:
    "Lifecycle status. Allowed changes: DRAFT→ACTIVE, ACTIVE→INACTIVE, INACTIVE→ACTIVE, any→ARCHIVED (final).",
});

/** Integer minor units of the currency (EUR 12.34 -> 1234). */
export const Amount = z
  .number()
  .int()
  .min(0)
  .max(Number.MAX_SAFE_INTEGER)
  .openapi({ description: "Integer minor units of the currency (EUR 12.34 = 1234)" });

/** The most pieces one amount may be the price of (docs/pricing-rules.md §20). */
export const MAX_PRICE_UNIT = 10_000;

/**
 * The pieces an amount is the price of (docs/pricing-rules.md §20): 1-10,000, default 1; the
 * caller adds `.default(1)` where a body may leave it out.
 */
export const PriceUnit = z.number().int().min(1).max(MAX_PRICE_UNIT).openapi({
  description:
    "The pieces the amount is the price of, 1-10000 (1250 per 1000 = 12.50 a thousand); default 1",
  example: 1,
});

export const Priority = z
  .number()
  .int()
  .min(-1_000_000)
  .max(1_000_000)
  .openapi({ description: "Higher wins among candidates of the same kind" });

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * What `parseInstant` takes, as a pattern for /doc (list filters on date-times): a date, or a
 * date-time with a zone. The calendar (no 30 February) and the years 0000-9999 in UTC are
 * checked by the parser only.
 */
export const INSTANT_PATTERN =
  "[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])" +
  "(?:[Tt](?:[01][0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9](?:\\.[0-9]{1,9})?)?" +
  "(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9]))?";

/** Midnight UTC of a date; unlike Date.UTC, years 0-99 stay years 0-99 (not 1900-1999). */
function utcDate(year: number, monthIndex: number, day: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, day);
  return date.getTime();
}

// Instants answer as toISOString(), which is RFC 3339 only for the years 0000-9999 UTC.
const MIN_INSTANT = utcDate(0, 0, 1);
const MAX_INSTANT = utcDate(10_000, 0, 1) - 1;

/** ISO 8601 date-time with a zone, or a date meaning midnight UTC; epoch ms, or undefined if invalid. */
export function parseInstant(value: string): number | undefined {
  const m = DATE_TIME.exec(value) ?? DATE.exec(value);
  if (!m) return undefined;
  const [year, month, day, hour = 0, minute = 0, second = 0] = m
    .slice(1, 7)
    .map((v) => Number(v ?? 0));
  const daysInMonth = new Date(utcDate(year!, month!, 0)).getUTCDate();
  if (month! < 1 || month! > 12 || day! < 1 || day! > daysInMonth) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const ms =
    m.length > 4 && m[4] !== undefined ? Date.parse(value) : utcDate(year!, month! - 1, day!);
  return Number.isFinite(ms) && ms >= MIN_INSTANT && ms <= MAX_INSTANT ? ms : undefined;
}

/** Accepts an ISO instant and yields epoch ms. */
export const Instant = z
  .string()
  .transform((value, ctx) => {
    const ms = parseInstant(value);
    if (ms === undefined) {
      ctx.addIssue({
        code: "custom",
        message: "must be an ISO 8601 date-time with zone, or a date, in the years 0000-9999 UTC",
      });
      return z.NEVER;
    }
    return ms;
  })
  .openapi({
    type: "string",
    format: "date-time",
    example: "2025-01-01T00:00:00.000Z",
    description: "ISO 8601 date-time with zone, or a date meaning midnight UTC",
  });

/** An optional instant that `null` clears (an open window edge). */
export const OptionalInstant = Instant.nullable()
  .optional()
  .openapi({
    type: ["string", "null"],
    format: "date-time",
    description: "ISO 8601 instant; null = open",
  });

export const IsoTimestamp = z.string().openapi({
  format: "date-time",
  example: "2025-01-01T00:00:00.000Z",
  description: "An instant, ISO 8601 in UTC",
});

export const iso = (ms: number) => new Date(ms).toISOString();
export const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

/** Bulk bodies: 1-1000 codes, duplicates counted once. */
export const bulkCodes = (example: string[]) =>
  z
    .array(Code)
    .min(1, "must name at least one code")
    .max(1000, "must name at most 1000 codes")
    .transform((codes) => [...new Set(codes)])
    .openapi({ example, description: "1-1000 codes; duplicates count once" });

/**
 * A bulk body `{ <field>: [codes] }`, one OpenAPI component shared by every route that takes it;
 * each is declared by the resource whose codes it lists (`CustomerCodesSchema` in customers).
 */
export function codesBody<F extends string>(
  field: F,
  noun: string,
  example: string[],
  component: string,
) {
  return z
    .strictObject({
      [field]: bulkCodes(example).openapi({
        description: `${noun} codes, 1-1000; duplicates count once`,
      }),
    } as Record<F, ReturnType<typeof bulkCodes>>)
    .openapi(component, {
      description: `${noun}s named by code`,
      example: { [field]: example },
    });
}

/**
 * Customer groups named by code. Here rather than in customer-groups: pricelists take it too, and
 * customer-groups sits above pricelists (it assigns them), so pricelists may not import it.
 */
export const CustomerGroupCodesSchema = codesBody(
  "customerGroupCodes",
  "Customer group",
  ["WHOLESALE", "NORTH"],
  "CustomerGroupCodes",
);

/* Bulk upserts by code (docs/api/relations.md §5.12): the body and the answer of every one. */

export const MAX_BULK_ROWS = 1000;

/** Each code at most once per body: the outcome must not depend on the order of the rows. */
function checkDistinctCodes(field: string, rows: { code: string }[], ctx: z.RefinementCtx) {
  const first = new Map<string, number>();
  rows.forEach((row, i) => {
    const earlier = first.get(row.code);
    if (earlier === undefined) first.set(row.code, i);
    else
      ctx.addIssue({
        code: "custom",
        path: [field, i, "code"],
        message: `repeats code ${row.code} of row ${earlier}`,
      });
  });
}

/** A bulk upsert body `{ <field>: [1-1000 rows] }`, each row's code at most once. */
export function bulkBody<F extends string, R extends z.ZodType<{ code: string }>>(
  field: F,
  row: R,
  component: string,
  meta: { description: string; example: Record<F, unknown[]> },
) {
  const rows = z
    .array(row)
    .min(1, "must contain at least one row")
    .max(MAX_BULK_ROWS, `must contain at most ${MAX_BULK_ROWS} rows`)
    .openapi({ description: `1-${MAX_BULK_ROWS} rows, each code at most once` });
  return z
    .strictObject({ [field]: rows } as Record<F, typeof rows>)
    .superRefine((body, ctx) =>
      checkDistinctCodes(field, (body as Record<F, { code: string }[]>)[field], ctx),
    )
    .openapi(component, meta);
}

export const BulkUpsertResultSchema = z
  .object({
    created: z.array(Code).openapi({ description: "Codes of the records created, in body order" }),
    updated: z.array(Code).openapi({
      description: "Codes of the existing records the body changed, in body order",
    }),
    unchanged: z.number().int().openapi({
      description:
        "How many rows matched their stored record already: nothing was written for them",
    }),
  })
  .openapi("BulkUpsertResult", {
    description: "What a bulk upsert did, row by row",
    example: { created: ["P-C"], updated: ["P-A"], unchanged: 998 },
  });

export type BulkResult = z.infer<typeof BulkUpsertResultSchema>;

/** The validity window rule shared by pricelists, conditions and promotions. */
export function checkWindow(
  window: { validFrom?: number | null; validTo?: number | null },
  ctx: z.RefinementCtx,
): void {
  for (const issue of windowIssues(window, "validTo")) {
    ctx.addIssue({ code: "custom", path: [issue.path], message: issue.message });
  }
}

export const AssignResultSchema = z
  .object({
    assigned: z.array(Code).openapi({ description: "Newly assigned codes" }),
    skipped: z
      .array(Code)
      .openapi({ description: "Every code not newly assigned: already assigned or unknown" }),
    notFound: z.array(Code).openapi({ description: "The unknown codes among the skipped ones" }),
  })
  .openapi("AssignResult", {
    description: "The outcome of a bulk assign",
    example: { assigned: ["WHOLESALE"], skipped: ["NORTH", "NOPE"], notFound: ["NOPE"] },
  });

export const UnassignResultSchema = z
  .object({
    unassigned: z
      .array(Code)
      .openapi({ description: "Codes that exist (also when they were not assigned)" }),
    notFound: z.array(Code).openapi({ description: "Codes that do not exist" }),
  })
  .openapi("UnassignResult", {
    description: "The outcome of a bulk unassign",
    example: { unassigned: ["WHOLESALE", "NORTH"], notFound: ["NOPE"] },
  });
