import { z } from "@hono/zod-openapi";
import { Code, Currency, Instant, IsoTimestamp } from "../../lib/schemas";
import { workedExampleAnswer, workedExampleRequest } from "./prices.examples";
import {
  ADJUSTMENT_KINDS,
  CONDITION_OUTCOMES,
  LINE_STATUSES,
  PRICELIST_LEVELS,
  PRICELIST_OUTCOMES,
  PROMOTION_OUTCOMES,
  RANK_KEYS,
} from "../../pricing";

export const MAX_RESOLVE_LINES = 500;
export const MAX_LOOKUP_PRODUCTS = 100;
export const MAX_QUANTITY = 1_000_000;

const Quantity = z
  .number()
  .int()
  .min(1)
  .max(MAX_QUANTITY)
  .openapi({ description: `Units, 1-${MAX_QUANTITY}`, example: 10 });

const At = Instant.openapi({
  description: "The instant to price at (ISO 8601 with zone, or a date); default now",
  example: "2025-06-15T10:00:00Z",
});

export const PriceResolveSchema = z
  .strictObject({
    channelCode: Code.openapi({ example: "WEB-DE" }),
    customerCode: Code.optional().openapi({
      example: "C-1001",
      description: "Omit for anonymous (public) prices",
    }),
    currency: Currency.optional().openapi({
      description: "Default: the currency of the channel's primary pricelist",
    }),
    at: At.optional(),
    explain: z
      .boolean()
      .optional()
      .openapi({ description: "List every candidate per line and why it lost" }),
    lines: z
      .array(z.strictObject({ productCode: Code.openapi({ example: "P-B" }), quantity: Quantity }))
      .min(1, "must have at least one line")
      .max(MAX_RESOLVE_LINES, `must have at most ${MAX_RESOLVE_LINES} lines`),
  })
  .openapi("PriceResolveRequest", { example: workedExampleRequest });

/** Query of the GET lookup: repeated `product`, one quantity for all. Strings: parsed in the handler. */
export const PriceLookupQuery = z.object({
  channel: Code.openapi({ param: { name: "channel", in: "query", required: true } }),
  customer: Code.optional().openapi({ param: { name: "customer", in: "query" } }),
  currency: Currency.optional().openapi({ param: { name: "currency", in: "query" } }),
  at: At.optional().openapi({ param: { name: "at", in: "query" } }),
  quantity: z
    .string()
    .regex(/^\d{1,7}$/, `must be a whole number 1-${MAX_QUANTITY}`)
    .optional()
    .openapi({
      param: { name: "quantity", in: "query" },
      type: "integer",
      description: `Units for every product, 1-${MAX_QUANTITY}; default 1`,
    }),
  product: z.union([Code, z.array(Code)]).openapi({
    param: { name: "product", in: "query", required: true, style: "form", explode: true },
    type: "array",
    items: { type: "string" },
    description: `Product codes, repeated: product=A&product=B (1-${MAX_LOOKUP_PRODUCTS})`,
  }),
  explain: z
    .enum(["true", "false"])
    .optional()
    .openapi({ param: { name: "explain", in: "query" } }),
});

const Adjustment = z
  .object({
    kind: z.enum(ADJUSTMENT_KINDS),
    id: z.number().int().openapi({ description: "Trade condition or promotion id" }),
    scope: z.string().nullable().openapi({ description: "Condition scope; null for a promotion" }),
    rung: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "1-8 (pricing rules); null for a promotion" }),
    valueBp: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "Basis points used, for percentages" }),
    amount: z.number().int().openapi({
      description: "Signed change of the unit amount: negative saves, positive charges",
    }),
  })
  .openapi("PriceAdjustment");

const PricelistExplain = z
  .object({
    level: z.enum(PRICELIST_LEVELS),
    pricelistId: z.number().int(),
    name: z.string(),
    outcome: z.enum(PRICELIST_OUTCOMES),
    decidedBy: z.enum(RANK_KEYS).nullable(),
    tierMinQuantity: z.number().int().nullable(),
    amount: z.number().int().nullable(),
    usedForListPrice: z.boolean(),
  })
  .openapi("PricelistExplain");

const ConditionExplain = z
  .object({
    id: z.number().int(),
    name: z.string(),
    type: z.string(),
    scope: z.string(),
    rung: z.number().int(),
    stackable: z.boolean(),
    priority: z.number().int(),
    outcome: z.enum(CONDITION_OUTCOMES),
    decidedBy: z.enum(RANK_KEYS).nullable(),
    discountType: z.string(),
    value: z.number().int().nullable(),
    amount: z.number().int().nullable(),
  })
  .openapi("TradeConditionExplain");

const PromotionExplain = z
  .object({
    id: z.number().int(),
    name: z.string(),
    stacking: z.string(),
    priority: z.number().int(),
    outcome: z.enum(PROMOTION_OUTCOMES),
    decidedBy: z.enum(RANK_KEYS).nullable(),
    discountType: z.string(),
    value: z.number().int(),
    amount: z.number().int().nullable(),
    saving: z.number().int().nullable(),
  })
  .openapi("PromotionExplain");

const LinePrice = z
  .object({
    productCode: z.string(),
    quantity: z.number().int(),
    status: z.enum(LINE_STATUSES).openapi({
      description:
        "OK; NO_PRICE (no pricelist has a price); UNKNOWN_PRODUCT; OUT_OF_RANGE (an amount would exceed 2^53-1)",
    }),
    finalUnitAmount: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "What the customer pays per unit" }),
    lineAmount: z.number().int().nullable().openapi({ description: "finalUnitAmount × quantity" }),
    regularUnitAmount: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "After trade conditions, before promotions" }),
    listUnitAmount: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "The public price: the channel's pricelists only" }),
    currency: z.string(),
    taxInclusive: z.boolean().nullable(),
    source: z
      .object({
        level: z.enum(PRICELIST_LEVELS),
        pricelistId: z.number().int(),
        tierMinQuantity: z.number().int(),
        baseUnitAmount: z.number().int(),
      })
      .nullable(),
    adjustments: z.array(Adjustment),
    tiers: z
      .array(z.object({ minQuantity: z.number().int(), amount: z.number().int() }))
      .openapi({ description: "The base pricelist's tiers for this product" }),
    explain: z
      .object({
        pricelists: z.array(PricelistExplain),
        tradeConditions: z.array(ConditionExplain),
        promotions: z.array(PromotionExplain),
      })
      .nullable()
      .openapi({ description: "Only with explain: every candidate and why it lost" }),
  })
  .openapi("LinePrice");

export const PriceAnswerSchema = z
  .object({
    channelCode: z.string(),
    customerCode: z.string().nullable(),
    currency: z.string(),
    at: IsoTimestamp,
    totalAmount: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "Sum of the OK lines' lineAmount" }),
    validUntil: IsoTimestamp.nullable().openapi({
      description:
        "The answer holds until this instant (the next validity edge); null = no known end",
    }),
    lines: z.array(LinePrice),
  })
  .openapi("PriceAnswer", { example: workedExampleAnswer });

/** Conditional request header of the GET lookup. */
export const PriceLookupHeaders = z.object({
  "if-none-match": z
    .string()
    .optional()
    .openapi({
      param: { name: "if-none-match", in: "header" },
      description:
        "An ETag of an earlier answer: 304 (no body) while it still describes the current answer",
      example: 'W/"k3W8qP1wV0c2sQv9Zt4yXbQm"',
    }),
});

export type PriceResolve = z.infer<typeof PriceResolveSchema>;
export type PriceLookup = z.infer<typeof PriceLookupQuery>;
