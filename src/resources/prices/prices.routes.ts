import { createRoute } from "@hono/zod-openapi";
import { MAX_AGE_SECONDS, STALE_HEADER } from "./prices.cache";
import { errors, json, jsonBody } from "../../http/openapi";
import { readOnly } from "../../http/read-only";
import {
  MAX_LOOKUP_PRODUCTS,
  MAX_RESOLVE_LINES,
  PriceAnswerSchema,
  PriceLookupHeaders,
  PriceLookupQuery,
  PriceResolveSchema,
} from "./prices.schemas";

/** The group of this resource's operations in /doc. */
export const tag = {
  name: "Prices",
  description:
    "What a customer pays: a cart (POST /v1/api/prices/resolve) or product pages (GET /v1/api/prices)",
};

const tags = [tag.name];

const RULES =
  "Base price from the most specific pricelist level that has one (INDIVIDUAL, CUSTOMER, CUSTOMER_GROUP, " +
  "CHANNEL_PRIMARY, CHANNEL; a derived list's tiers come from its base, adjusted and rounded to its price " +
  "ending), then the product's quantity rule (quantityRule on every line; QUANTITY_NOT_ALLOWED with " +
  "suggestedQuantities otherwise), then trade conditions (NET_PRICE, DISCOUNT, SURCHARGE; one winner per " +
  "type from the most specific of 12 rungs: customer, group, channel, global × product listed, product " +
  "group reached (closer group first), all products; scales on the line quantity, the order quantity or " +
  "the order value), the channel's floor, the best promotion (thresholds on the quantity or value of the " +
  "lines it reaches), and the floor again (FLOOR adjustments). Integers only: amounts in minor units. " +
  "Unknown products, products without a price and amounts past 2^53-1 are per-line statuses, not errors; " +
  "with such a line totalAmount is null and complete false, and pricedTotalAmount sums the OK lines. " +
  "Errors: unknown channel or customer 404; inactive channel 409 CHANNEL_INACTIVE; customer not in the " +
  "channel 409 CUSTOMER_NOT_IN_CHANNEL; no currency given and no primary pricelist 400 CURRENCY_REQUIRED. " +
  "A read key may call it. One D1 round trip whatever the number of lines; two for the first lookup " +
  "in a channel after a write that can change prices, when the isolate's cached channel and customer " +
  'contexts are read again (Server-Timing: ctx;desc="hit", "miss", "off" or "stale"). Through a D1 stall: ' +
  "when the check that the data is current takes longer than D1_STALL_MS (2 s; D1_BUSY_STALL_MS, 20 ms, " +
  "while this server's own change request or simulation holds D1), a lookup whose " +
  "context this server holds answers from it with x-price-stale: age=<seconds since the data was " +
  "last confirmed current> and Cache-Control no-store, up to D1_STALE_MAX_S (60 s) old; past that 503 " +
  "DATABASE_STALLED with Retry-After. docs/pricing-rules.md has the rules and two worked examples.";

const CACHING =
  "Caching: the answer carries an ETag derived from the pricing data version (bumped by every " +
  "write that can change a price) and the normalized request, strong with `at`, weak without " +
  "(then only the echoed `at` differs within one validity interval). If-None-Match is answered " +
  `with 304. Cache-Control is private, max-age ${MAX_AGE_SECONDS} s with \`at\`; without it ` +
  `the seconds until validUntil, at most ${MAX_AGE_SECONDS}.`;

/** Present only on an answer from the server's data during a D1 stall. */
const STALE = {
  [STALE_HEADER]: {
    description:
      "Only during a D1 stall: `age=<s>`, the whole seconds since the data this answer was priced " +
      "from was last confirmed current; such an answer has no ETag and Cache-Control no-store",
    schema: { type: "string" as const },
  },
};

const CACHE_HEADERS = {
  ETag: {
    description: "Version of the answer: data version + normalized request",
    schema: { type: "string" as const },
  },
  "Cache-Control": {
    description: `private, max-age=0-${MAX_AGE_SECONDS}`,
    schema: { type: "string" as const },
  },
};

export const resolve = createRoute({
  method: "post",
  path: "/v1/api/prices/resolve",
  tags,
  operationId: "resolvePrices",
  summary: `Price a cart: what a customer pays for up to ${MAX_RESOLVE_LINES} lines in a channel`,
  description: RULES,
  // A read: read keys may call it and any D1 replica may answer it.
  middleware: [readOnly],
  request: { body: jsonBody(PriceResolveSchema) },
  responses: {
    200: { ...json(PriceAnswerSchema, "The priced lines"), headers: STALE },
    ...errors(400, 401, 404, 409, 413, 415, 503),
  },
});

export const lookup = createRoute({
  method: "get",
  path: "/v1/api/prices",
  tags,
  operationId: "lookupPrices",
  summary: `Price up to ${MAX_LOOKUP_PRODUCTS} products at one quantity (product pages and listings)`,
  description: `${RULES} ${CACHING}`,
  request: { query: PriceLookupQuery, headers: PriceLookupHeaders },
  responses: {
    200: {
      ...json(PriceAnswerSchema, "The priced products"),
      headers: { ...CACHE_HEADERS, ...STALE },
    },
    304: {
      description: "Not modified: the If-None-Match tag still matches",
      headers: CACHE_HEADERS,
    },
    ...errors(400, 401, 404, 409, 503),
  },
});
