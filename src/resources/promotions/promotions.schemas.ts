import { z } from "@hono/zod-openapi";
import { listOf } from "../../list";
import {
  Currency,
  IsoTimestamp,
  Name,
  OptionalInstant,
  PriceUnit,
  Priority,
  Status,
} from "../../core/schemas";
import {
  noTargets,
  targetListsCreate,
  targetListsRead,
  targetListsUpdate,
} from "../../core/targeting";
// The discount vocabulary and its rules are the trade conditions'; promotions reuse them as is.
import {
  codeList,
  CreateStatus,
  discountTerms,
  DiscountTypeSchema,
  DiscountValue,
} from "../trade-conditions/trade-conditions.schemas";
import { PROMOTION_STACKINGS, THRESHOLD_BASES } from "../../pricing/vocabulary";

export const StackingSchema = z.enum(PROMOTION_STACKINGS).openapi("PromotionStacking", {
  description:
    "BEST_OF: the customer gets the better of promotion and regular price. ON_TOP: applies to the regular price.",
});

export const ThresholdSchema = z
  .strictObject({
    basis: z.enum(THRESHOLD_BASES).openapi({
      description:
        "QUANTITY: the quantities of the request's eligible lines the promotion reaches. VALUE: their regular amount × quantity, in the promotion's currency (required then)",
    }),
    minimum: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).openapi({
      example: 10000,
      description:
        "The promotion is a candidate once the basis reaches this (≥ 1; minor units for VALUE)",
    }),
  })
  .openapi("PromotionThreshold", {
    description: "What the lines the promotion reaches must add up to before it applies",
    example: { basis: "VALUE", minimum: 10000 },
  });

export type Threshold = z.infer<typeof ThresholdSchema>;

const promotionExample = {
  id: 7,
  name: "Summer sale",
  status: "ACTIVE",
  discountType: "PERCENTAGE",
  value: 1500,
  currency: null,
  priceUnit: 1,
  validFrom: "2025-06-01T00:00:00.000Z",
  validTo: "2025-07-01T00:00:00.000Z",
  priority: 0,
  stacking: "BEST_OF",
  ...noTargets(),
  productCodes: ["P-C"],
  channelCodes: ["WEB-DE"],
  customerGroupCodes: [],
  threshold: null,
  createdAt: "2025-05-20T00:00:00.000Z",
  updatedAt: "2025-05-20T00:00:00.000Z",
};

export const PromotionSchema = z
  .object({
    id: z.number().int().openapi({ example: 7, description: "Assigned by the service" }),
    name: z.string().openapi({ example: "Summer sale", description: "Display name" }),
    status: Status,
    ...discountTerms,
    priority: z.number().int().openapi({
      example: 0,
      description: "Higher wins among promotions with the same saving",
    }),
    stacking: StackingSchema,
    ...targetListsRead(),
    channelCodes: z.array(z.string()).openapi({ description: "Empty = all channels" }),
    customerGroupCodes: z.array(z.string()).openapi({ description: "Empty = everyone" }),
    threshold: ThresholdSchema.nullable().openapi({
      description: "What the lines it reaches must add up to before it applies; null = none",
    }),
    createdAt: IsoTimestamp.openapi({ description: "When the promotion was created" }),
    updatedAt: IsoTimestamp.openapi({ description: "When the promotion last changed" }),
  })
  .openapi("Promotion", {
    description: "A time-limited price reduction for products, channels and customer groups",
    example: promotionExample,
  });

export const PromotionCreateSchema = z
  .strictObject({
    name: Name.openapi({ example: "Summer sale" }),
    discountType: DiscountTypeSchema,
    value: DiscountValue,
    currency: Currency.nullable().optional().openapi({
      description:
        "Required for ABSOLUTE values and for a VALUE threshold; otherwise absent or null for PERCENTAGE",
    }),
    priceUnit: PriceUnit.default(1).openapi({
      description:
        "The pieces an ABSOLUTE value is for, 1-10000; default 1; only 1 for PERCENTAGE (docs/pricing-rules.md §20)",
      example: 1,
    }),
    status: CreateStatus.default("DRAFT"),
    validFrom: OptionalInstant.openapi({ description: "Inclusive start; null or absent = always" }),
    validTo: OptionalInstant.openapi({ description: "Exclusive end; null or absent = open-ended" }),
    priority: Priority.default(0).openapi({
      description: "Higher wins among promotions with the same saving; default 0",
    }),
    stacking: StackingSchema.default("BEST_OF"),
    ...targetListsCreate(),
    channelCodes: codeList(["WEB-DE"])
      .default([])
      .openapi({ description: "The channels it applies in; empty (default) = all" }),
    customerGroupCodes: codeList(["WHOLESALE"])
      .default([])
      .openapi({ description: "The customer groups it is for; empty (default) = everyone" }),
    threshold: ThresholdSchema.nullable()
      .default(null)
      .openapi({ description: "What the lines it reaches must add up to; null (default) = none" }),
  })
  .openapi("PromotionCreate", {
    description: "A new promotion; stacking defaults to BEST_OF",
    example: {
      name: "Summer sale",
      discountType: "PERCENTAGE",
      value: 1500,
      status: "ACTIVE",
      validFrom: "2025-06-01T00:00:00Z",
      validTo: "2025-07-01T00:00:00Z",
      productCodes: ["P-C"],
      channelCodes: ["WEB-DE"],
    },
  });

export const PromotionUpdateSchema = z
  .strictObject({
    name: Name.optional(),
    discountType: DiscountTypeSchema.optional(),
    value: DiscountValue.optional(),
    currency: Currency.nullable().optional().openapi({
      description:
        "Required for ABSOLUTE values and for a VALUE threshold; otherwise null for PERCENTAGE",
    }),
    priceUnit: PriceUnit.optional().openapi({
      description: "The pieces an ABSOLUTE value is for, 1-10000; only 1 for PERCENTAGE",
    }),
    status: Status.optional(),
    validFrom: OptionalInstant.openapi({ description: "Inclusive start; null = always" }),
    validTo: OptionalInstant.openapi({ description: "Exclusive end; null = open-ended" }),
    priority: Priority.optional(),
    stacking: StackingSchema.optional(),
    ...targetListsUpdate(),
    channelCodes: codeList(["WEB-DE"]).optional().openapi({ description: "Replaces the list" }),
    customerGroupCodes: codeList(["WHOLESALE"])
      .optional()
      .openapi({ description: "Replaces the list" }),
    threshold: ThresholdSchema.nullable()
      .optional()
      .openapi({ description: "Replaces the threshold; null removes it" }),
  })
  .openapi("PromotionUpdate", {
    description:
      "Any subset of the create fields. The merged record is validated with the create rules; ARCHIVED promotions cannot be edited.",
    example: { validTo: "2025-07-15T00:00:00Z" },
  });

export const PromotionListSchema = listOf(PromotionSchema, "PromotionList", {
  path: "/v1/api/promotion",
  data: [promotionExample],
});

export type PromotionCreate = z.infer<typeof PromotionCreateSchema>;
export type PromotionUpdate = z.infer<typeof PromotionUpdateSchema>;
