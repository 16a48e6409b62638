import { z } from "@hono/zod-openapi";
import { listOf } from "../../list";
import { Currency, Instant, IsoTimestamp, MAX_BULK_ROWS } from "../../core/schemas";
import { MAX_RATE_DIGITS, MAX_RATE_LENGTH, parseRate } from "../../pricing/exchange";

/** The words of every refusal of a rate sent as a JSON number (docs/api/prices.md §16.2). */
export const RATE_NOT_A_STRING =
  'must be a decimal string such as "0.92", not a JSON number: send the rate as a string, so no digit is lost to floating point';

/**
 * A rate as a decimal string (docs/api/prices.md §16.2), checked and normalised by the pricing core
 * (src/pricing/exchange.ts), so the API, the stored text and the engine agree on its value.
 */
const RateText = z
  .string({
    error: (issue) => (typeof issue.input === "number" ? RATE_NOT_A_STRING : undefined),
  })
  .transform((text, ctx) => {
    const rate = parseRate(text);
    if (rate.ok) return rate.text;
    ctx.addIssue({ code: "custom", message: rate.message });
    return z.NEVER;
  })
  .openapi({
    type: "string",
    pattern: "^[0-9]+(\\.[0-9]+)?$",
    maxLength: MAX_RATE_LENGTH,
    example: "0.92",
    description:
      `How many units of \`to\` one unit of \`from\` buys, as a **decimal string** ("0.92", ` +
      `"150.25"): greater than 0, at most ${MAX_RATE_DIGITS} significant digits, digits and at ` +
      "most one decimal point. Never a JSON number (400): a float would lose digits. Stored " +
      'and answered in its normal form ("000.9200" → "0.92")',
  });

const validFromDescription =
  "From when the rate holds: until the next validFrom of the same pair (a rate is never " +
  "inverted nor combined with another: USD→EUR says nothing about EUR→USD)";

const rateExample = {
  from: "USD",
  to: "EUR",
  rate: "0.92",
  validFrom: "2027-01-01T00:00:00.000Z",
  validTo: "2027-02-01T00:00:00.000Z",
  createdAt: "2026-12-20T09:30:00.000Z",
  updatedAt: "2026-12-20T09:30:00.000Z",
};

export const ExchangeRateSchema = z
  .object({
    from: Currency.openapi({ example: "USD", description: "The currency converted from" }),
    to: Currency.openapi({ example: "EUR", description: "The currency converted to" }),
    rate: z.string().openapi({
      example: "0.92",
      description: "Units of `to` per unit of `from`, an exact decimal string in normal form",
    }),
    validFrom: IsoTimestamp.openapi({ description: validFromDescription }),
    validTo: IsoTimestamp.nullable().openapi({
      description:
        "Derived, not stored: the next validFrom of the same pair, where this rate stops " +
        "holding; null while no later rate is known",
    }),
    createdAt: IsoTimestamp.openapi({ description: "When the rate was first written" }),
    updatedAt: IsoTimestamp.openapi({ description: "When the rate last changed" }),
  })
  .openapi("ExchangeRate", {
    description: "A directional exchange rate, holding from its validFrom to the pair's next one",
    example: rateExample,
  });

export const ExchangeRateUpsertSchema = z
  .strictObject({
    from: Currency.openapi({ example: "USD", description: "The currency converted from" }),
    to: Currency.openapi({ example: "EUR", description: "The currency converted to; not `from`" }),
    rate: RateText,
    validFrom: Instant.openapi({ description: validFromDescription }),
  })
  .superRefine((row, ctx) => {
    if (row.from === row.to) {
      ctx.addIssue({
        code: "custom",
        path: ["to"],
        message: `must differ from from (${row.from}): a rate converts one currency into another`,
      });
    }
  })
  .openapi("ExchangeRateUpsert", {
    description: "A rate by (from, to, validFrom): created if new, else its rate is set",
    example: { from: "USD", to: "EUR", rate: "0.92", validFrom: "2027-01-01T00:00:00Z" },
  });

export type ExchangeRateUpsert = z.infer<typeof ExchangeRateUpsertSchema>;

/** A rate's key as the body writes it, for the repeat check. */
const keyOf = (row: ExchangeRateUpsert) => `${row.from}>${row.to}@${row.validFrom}`;

/** Each (from, to, validFrom) at most once per body: the outcome must not depend on row order. */
function checkDistinctKeys(rows: ExchangeRateUpsert[], ctx: z.RefinementCtx) {
  const first = new Map<string, number>();
  rows.forEach((row, i) => {
    const earlier = first.get(keyOf(row));
    if (earlier === undefined) first.set(keyOf(row), i);
    else
      ctx.addIssue({
        code: "custom",
        path: ["rates", i, "validFrom"],
        message: `repeats the rate ${row.from}→${row.to} from ${new Date(row.validFrom).toISOString()} of row ${earlier}`,
      });
  });
}

export const ExchangeRatesUpsertSchema = z
  .strictObject({
    rates: z
      .array(ExchangeRateUpsertSchema)
      .min(1, "must contain at least one row")
      .max(MAX_BULK_ROWS, `must contain at most ${MAX_BULK_ROWS} rows`)
      .openapi({
        description: `1-${MAX_BULK_ROWS} rates, each (from, to, validFrom) at most once`,
      }),
  })
  .superRefine((body, ctx) => checkDistinctKeys(body.rates, ctx))
  .openapi("ExchangeRatesUpsert", {
    description: "Exchange rates to create or update by (from, to, validFrom)",
    example: {
      rates: [
        { from: "USD", to: "EUR", rate: "0.92", validFrom: "2027-01-01T00:00:00Z" },
        { from: "USD", to: "EUR", rate: "0.90", validFrom: "2027-02-01T00:00:00Z" },
        { from: "USD", to: "JPY", rate: "150.25", validFrom: "2027-01-01T00:00:00Z" },
      ],
    },
  });

export const ExchangeRatesUpsertResultSchema = z
  .object({
    created: z.number().int().openapi({ description: "How many rates were new" }),
    updated: z.number().int().openapi({ description: "How many stored rates got a new rate" }),
    unchanged: z.number().int().openapi({
      description: "How many rows matched their stored rate already: nothing was written for them",
    }),
  })
  .openapi("ExchangeRatesUpsertResult", {
    description: "What a bulk upsert of rates did, row by row",
    example: { created: 2, updated: 1, unchanged: 997 },
  });

export type ExchangeRatesUpsertResult = z.infer<typeof ExchangeRatesUpsertResultSchema>;

export const ExchangeRateListQuery = z.object({
  at: Instant.optional().openapi({
    param: { name: "at", in: "query", required: false },
    example: "2027-01-15T00:00:00Z",
    description:
      "Only the rate of each pair in force at this instant: the one with the latest validFrom " +
      "not after it (a pair with no rate yet then is left out)",
  }),
});

/** A rate's key in a path: `/v1/api/exchange-rates/USD/EUR/2027-01-01T00:00:00Z`. */
export const ExchangeRateKeyParams = z.object({
  from: Currency.openapi({
    param: { name: "from", in: "path", required: true, example: "USD" },
    example: "USD",
    description: "The currency converted from",
  }),
  to: Currency.openapi({
    param: { name: "to", in: "path", required: true, example: "EUR" },
    example: "EUR",
    description: "The currency converted to",
  }),
  validFrom: Instant.openapi({
    param: { name: "validFrom", in: "path", required: true },
    example: "2027-01-01T00:00:00Z",
    description: "The rate's validFrom, as an ISO 8601 instant or a date (midnight UTC)",
  }),
});

export const ExchangeRateListSchema = listOf(ExchangeRateSchema, "ExchangeRateList", {
  path: "/v1/api/exchange-rates",
  data: [rateExample],
});
