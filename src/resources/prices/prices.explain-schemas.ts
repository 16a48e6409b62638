import { z } from "@hono/zod-openapi";
import { IsoTimestamp } from "../../core/schemas";
import { distanceDescription } from "../../core/targeting";
import {
  CONDITION_OUTCOMES,
  CONDITION_SCOPES,
  CONDITION_TYPES,
  DISCOUNT_TYPES,
  FLOOR_OUTCOMES,
  PRICELIST_LEVELS,
  PRICELIST_OUTCOMES,
  PROMOTION_OUTCOMES,
  PROMOTION_STACKINGS,
  QUOTE_LOCKS,
  QUOTE_MODES,
  QUOTE_OUTCOMES,
  RANK_KEYS,
  SCALE_BASES,
  THRESHOLD_BASES,
} from "../../pricing";

/*
 * A line's `explain` (docs/pricing-rules.md §9) and where a derived tier came from, as the price
 * answer (prices.schemas.ts) declares them.
 */

const ExchangeRateUsed = z
  .object({
    from: z.string().openapi({ description: "The base's currency", example: "EUR" }),
    to: z.string().openapi({ description: "The derived list's currency", example: "CHF" }),
    rate: z.string().openapi({
      description: "The rate in force, as its exact decimal text (never a float)",
      example: "0.94",
    }),
    validFrom: IsoTimestamp.openapi({ description: "Where that rate starts to hold" }),
  })
  .nullable()
  .openapi("PriceExchangeRate", {
    description:
      "The rate the base's amount was converted at (docs/pricing-rules.md §19); null when the base is in the list's currency",
  });

export const DerivedFrom = z
  .object({
    pricelistId: z.number().int().openapi({ description: "The base pricelist (one step up)" }),
    unitAmount: z.number().int().openapi({
      description:
        "The base's amount for the same tier, in the base's currency, per the tier's price unit",
    }),
    exchangeRate: ExchangeRateUsed,
  })
  .nullable()
  .openapi("PriceDerivedFrom", {
    description:
      "Set when the tier was computed from the pricelist's base (it has no own rows for the product); else null",
  });

export const ADMIN_ONLY =
  "Admin keys only: absent from a read key's answer (docs/api/access.md §18). ";

const DecidedBy = z.enum(RANK_KEYS).nullable().openapi({
  description:
    "For LOWER_RANK: the first ranking key in which it lost to the winner (PRIORITY, VALID_TO, AMOUNT, ID); else null",
});

export const PricelistExplain = z
  .object({
    level: z
      .enum(PRICELIST_LEVELS)
      .openapi({ description: "Where the pricelist reaches the request" }),
    pricelistId: z.number().int().openapi({ description: "The pricelist" }),
    name: z.string().openapi({ description: "Its name" }),
    outcome: z.enum(PRICELIST_OUTCOMES).openapi({
      description:
        "USED (the base price), LOWER_RANK, LOWER_LEVEL, or the first check it failed: NOT_ACTIVE, OTHER_CURRENCY, NO_EXCHANGE_RATE (its base is in another currency and no rate of that pair is in force), NO_PRICE_FOR_PRODUCT, OUT_OF_WINDOW, NO_TIER_FOR_QUANTITY, ROUNDS_TO_ZERO (derived from a positive amount, its tier came out 0: no price)",
    }),
    decidedBy: DecidedBy,
    tierMinQuantity: z.number().int().nullable().openapi({
      description:
        "The tier it has for the line, when it has one: also when NOT_ACTIVE or OUT_OF_WINDOW (what it would have priced), never in another currency",
    }),
    amount: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "That tier's amount, per its priceUnit pieces" }),
    priceUnit: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "The pieces that tier's amount is for; null without a tier" }),
    usedForListPrice: z.boolean().openapi({ description: "This entry gave listUnitAmount" }),
    derivedFrom: DerivedFrom,
  })
  .openapi("PricelistExplain", { description: "A pricelist candidate of a line" });

export const ConditionExplain = z
  .object({
    id: z.number().int().openapi({ description: "The trade condition" }),
    name: z.string().openapi({ description: "Its name" }),
    type: z.enum(CONDITION_TYPES).openapi({
      description: "Its type (ACCRUAL only in an admin key's explain, docs/api/access.md §18)",
    }),
    scope: z.enum(CONDITION_SCOPES).openapi({ description: "Whom it targets" }),
    rung: z.number().int().openapi({
      description:
        "1-12 for this line; lower is more specific (its listed rung when it does not reach the product)",
    }),
    distance: z.number().int().nullable().openapi({ description: distanceDescription() }),
    stackable: z.boolean().openapi({ description: "Whether it stacks on the winner" }),
    priority: z.number().int().openapi({ description: "Its priority" }),
    outcome: z.enum(CONDITION_OUTCOMES).openapi({
      description:
        "APPLIED, LOWER_RUNG, LOWER_RANK, SWITCHED_OFF_BY_NET_PRICE, NOT_DISCOUNTABLE, SUPERSEDED_BY_PROMOTION, or the first check it failed",
    }),
    decidedBy: DecidedBy,
    discountType: z
      .enum(DISCOUNT_TYPES)
      .openapi({ description: "PERCENTAGE: basis points; ABSOLUTE: minor units" }),
    priceUnit: z.number().int().openapi({
      description:
        "The pieces its ABSOLUTE value (or net price) is for; its effect on the line is in the line's priceUnit",
    }),
    scaleBasis: z.enum(SCALE_BASES).openapi({
      description:
        "What its scale rows compare with: the line quantity, or the order's quantity or value over the lines it reaches",
    }),
    basisValue: z.number().int().nullable().openapi({
      description:
        "The basis value its scale rows were compared with; null without scales or when not evaluated",
    }),
    value: z
      .number()
      .int()
      .nullable()
      .openapi({
        description:
          "The value used for this line (its scale row at basisValue, or its value); null when no scale row applies. " +
          "Stopped by a check before that (NOT_ACTIVE, OTHER_CURRENCY, OTHER_CHANNEL, NOT_TARGETED, OTHER_PRODUCT, " +
          "OUT_OF_WINDOW): its configured value, so a reader sees what it would have done",
      }),
    amount: z.number().int().nullable().openapi({
      description:
        "Its signed effect on the unit amount (an ACCRUAL: what it accrues, ≥ 0); null when not evaluated",
    }),
  })
  .openapi("TradeConditionExplain", { description: "A trade condition candidate of a line" });

export const PromotionExplain = z
  .object({
    id: z.number().int().openapi({ description: "The promotion" }),
    name: z.string().openapi({ description: "Its name" }),
    stacking: z.enum(PROMOTION_STACKINGS).openapi({
      description: "BEST_OF: the better of it and the regular price; ON_TOP: on the regular price",
    }),
    priority: z.number().int().openapi({ description: "Its priority" }),
    outcome: z.enum(PROMOTION_OUTCOMES).openapi({
      description:
        "APPLIED, LOWER_RANK, SUPERSEDED_BY_REGULAR_PRICE, NO_SAVING, or the first check it failed",
    }),
    decidedBy: DecidedBy,
    discountType: z
      .enum(DISCOUNT_TYPES)
      .openapi({ description: "PERCENTAGE: basis points; ABSOLUTE: minor units" }),
    value: z.number().int().openapi({ description: "Basis points or minor units" }),
    priceUnit: z.number().int().openapi({
      description: "The pieces its ABSOLUTE value is for; its amount is in the line's priceUnit",
    }),
    amount: z.number().int().nullable().openapi({
      description: "Its adjustment of the unit amount; null when not evaluated",
    }),
    saving: z.number().int().nullable().openapi({
      description: "regularUnitAmount minus the amount it would give; what ranks promotions",
    }),
    threshold: z
      .object({
        basis: z.enum(THRESHOLD_BASES).openapi({
          description: "QUANTITY: Σ quantities; VALUE: Σ regularUnitAmount × quantity",
        }),
        minimum: z.number().int().openapi({ description: "The sum it needs" }),
        sum: z.number().int().openapi({
          description: "The sum over the request's eligible lines the promotion reaches",
        }),
      })
      .nullable()
      .openapi({
        description: "Its threshold and the sum compared with it; null without one or not summed",
      }),
  })
  .openapi("PromotionExplain", { description: "A promotion candidate of a line" });

export const FloorExplain = z
  .object({
    pricelistId: z.number().int().openapi({ description: "The FLOOR pricelist" }),
    name: z.string().openapi({ description: "Its name" }),
    priority: z.number().int().openapi({ description: "Its priority" }),
    outcome: z.enum(FLOOR_OUTCOMES).openapi({
      description:
        "USED (the line's floor), LOWER_RANK, or the first check it failed: NOT_ACTIVE, OTHER_CURRENCY, NO_EXCHANGE_RATE (derived from a COST list in another currency, no rate in force), NO_PRICE_FOR_PRODUCT, OUT_OF_WINDOW, NO_TIER_FOR_QUANTITY, NO_BASE_PRICE, NOT_ELIGIBLE",
    }),
    decidedBy: DecidedBy,
    tierMinQuantity: z.number().int().nullable().openapi({
      description:
        "The tier it has for the line, when it has one: also when NOT_ACTIVE or OUT_OF_WINDOW, never in another currency",
    }),
    amount: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "That tier's minimum amount, per its priceUnit pieces" }),
    priceUnit: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "The pieces that tier's amount is for; null without a tier" }),
    effectiveAmount: z.number().int().nullable().openapi({
      description:
        "USED: min(amount in the line's priceUnit, rounded up; baseUnitAmount), what adjustments may not go below; else null",
    }),
    regularAdjustment: z.number().int().nullable().openapi({
      description: "USED: what it added after the trade conditions (0 when nothing); else null",
    }),
    finalAdjustment: z.number().int().nullable().openapi({
      description: "USED: what it added after the promotion (0 when nothing); else null",
    }),
  })
  .openapi("FloorExplain", { description: "A FLOOR pricelist of the channel, for a line" });

export const CostExplain = z
  .object({
    pricelistId: z.number().int().openapi({ description: "The COST pricelist" }),
    name: z.string().openapi({ description: "Its name" }),
    priority: z.number().int().openapi({ description: "Its priority" }),
    outcome: z.enum(FLOOR_OUTCOMES).openapi({
      description:
        "USED (the line's cost), LOWER_RANK, or the first check it failed, as for a FLOOR pricelist",
    }),
    decidedBy: DecidedBy,
    tierMinQuantity: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "The tier it has for the line, as for a FLOOR pricelist" }),
    amount: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "That tier's cost, per its priceUnit pieces" }),
    priceUnit: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "The pieces that tier's amount is for; null without a tier" }),
    costUnitAmount: z.number().int().nullable().openapi({
      description: "USED: the cost per the line's priceUnit pieces (half up); else null",
    }),
  })
  .openapi("CostExplain", {
    description:
      "A COST pricelist of the channel, for a line (admin keys only, docs/pricing-rules.md §23)",
  });

export const QuoteExplain = z
  .object({
    quoteId: z.number().int().openapi({ description: "The quote", example: 42 }),
    revision: z.number().int().openapi({ description: "Its revision", example: 2 }),
    mode: z.enum(QUOTE_MODES).openapi({
      description: "ONCE (the quote the request named) or AGREEMENT (the customer's, unnamed)",
    }),
    lock: z.enum(QUOTE_LOCKS).openapi({
      description: "FIXED (the quoted amount is the price) or BETTER_OF (the lower of both)",
    }),
    outcome: z.enum(QUOTE_OUTCOMES).openapi({
      description:
        "APPLIED (the quoted amount priced the line), USUAL_PRICE_WON (BETTER_OF above the usual price), QUOTE_QUANTITY_MISMATCH (the named ONCE quote has the product at another quantity), OUT_OF_WINDOW (an agreement before its acceptance or from its validTo on), NOT_ELIGIBLE (the line is not priced as usual) or LOWER_RANK (another quote of the product ranks first); docs/pricing-rules.md §28.3",
    }),
    quantity: z
      .number()
      .int()
      .openapi({ description: "The quantity the quote line names (ONCE: the only one it prices)" }),
    quotedUnitAmount: z.number().int().nullable().openapi({
      description:
        "The quoted amount per the line's priceUnit pieces (half up); null when it cannot be exact",
    }),
    priceUnit: z
      .number()
      .int()
      .openapi({ description: "The pieces both unit amounts are for: the line's price unit" }),
    usualUnitAmount: z.number().int().nullable().openapi({
      description: "The line's final amount without the quote; null when not priced as usual",
    }),
    validTo: IsoTimestamp.openapi({ description: "The quote holds until then" }),
  })
  .openapi("QuoteExplain", {
    description:
      "A quote naming the line's product, for a line (docs/pricing-rules.md §28): present in explain when the request carries quotes",
  });
