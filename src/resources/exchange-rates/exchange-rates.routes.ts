import { createRoute } from "@hono/zod-openapi";
import { errors, json, jsonBody, withRules } from "../../http/openapi";
import { MAX_BULK_ROWS } from "../../core/schemas";
import { exchangeRateList } from "./exchange-rates.list";
import {
  ExchangeRateKeyParams,
  ExchangeRateListQuery,
  ExchangeRateListSchema,
  ExchangeRateSchema,
  ExchangeRatesUpsertResultSchema,
  ExchangeRatesUpsertSchema,
} from "./exchange-rates.schemas";

/** The group of this resource's operations in /doc. */
export const tag = {
  name: "Exchange rates",
  description:
    "Directional rates between currencies as exact decimal strings, each holding from its " +
    "validFrom until the next one of its pair",
};

const tags = [tag.name];

export const list = exchangeRateList.route({
  method: "get",
  path: "/v1/api/exchange-rates",
  tags,
  operationId: "listExchangeRates",
  summary: "List exchange rates (paginated; ?at= for the rates in force then)",
  description:
    "Sorted by pair, then validFrom, by default; sort by `from`, `to`, `validFrom`; " +
    "`filter.from` and `filter.to` ($eq) keep one currency on either side. Each rate carries " +
    "`validTo`, the next validFrom of its pair (null for the latest). With `at`, only the rate " +
    "of each pair in force at that instant is listed. One D1 round trip (docs/api/prices.md §16.2).",
  request: { query: ExchangeRateListQuery },
  responses: { 200: json(ExchangeRateListSchema, "A page of exchange rates"), ...errors(400, 401) },
});

export const upsert = createRoute({
  method: "put",
  path: "/v1/api/exchange-rates",
  tags,
  operationId: "upsertExchangeRates",
  summary: `Create or update 1-${MAX_BULK_ROWS} exchange rates by (from, to, validFrom), atomically`,
  description: withRules(
    "Each row is one rate by its key (from, to, validFrom): a new key creates it, a known one " +
      'gets the row\'s rate. `rate` is a decimal string (`"0.92"`), greater than 0, with at most ' +
      "12 significant digits; a JSON number is a 400 asking for a string. `from` and `to` are " +
      "accepted currencies (GET /v1/api/currencies) and differ. All or nothing: any bad row and " +
      "nothing is written; the 400 names every bad row by index and field " +
      "(`body.rates.3.rate`). A key may appear once per body. Answers how many rates were " +
      "created, updated and unchanged; an unchanged row is not written (no audit entry, no new " +
      "pricing version). Any other write moves the pricing data version, as a price write does. " +
      "Two D1 round trips whatever the number of rows (docs/api/prices.md §16.2, docs/api/relations.md §5.12).",
    "rate",
  ),
  request: { body: jsonBody(ExchangeRatesUpsertSchema) },
  responses: {
    200: json(ExchangeRatesUpsertResultSchema, "How many rates the body created, updated, left"),
    ...errors(400, 401, 403, 409, 413, 415),
  },
});

export const get = createRoute({
  method: "get",
  path: "/v1/api/exchange-rates/{from}/{to}/{validFrom}",
  tags,
  operationId: "getExchangeRate",
  summary: "Get an exchange rate by its pair and validFrom",
  description:
    "`validFrom` is the rate's instant (`2027-01-01T00:00:00Z`, or the date `2027-01-01` for " +
    "midnight UTC); the rate answers with its `validTo`. No rate with that key → 404.",
  request: { params: ExchangeRateKeyParams },
  responses: { 200: json(ExchangeRateSchema, "The rate"), ...errors(400, 401, 404) },
});

export const remove = createRoute({
  method: "delete",
  path: "/v1/api/exchange-rates/{from}/{to}/{validFrom}",
  tags,
  operationId: "deleteExchangeRate",
  summary: "Delete an exchange rate",
  description:
    "Removes the rate of that key; the pair's previous rate then holds until the one after it " +
    "(its `validTo` moves). Moves the pricing data version. No rate with that key → 404.",
  request: { params: ExchangeRateKeyParams },
  responses: {
    204: { description: "Deleted" },
    ...errors(400, 401, 403, 404, 413),
  },
});
