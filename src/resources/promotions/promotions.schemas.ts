import { z } from "@hono/zod-openapi";
import { listOf } from "../../list";
import { Currency, IsoTimestamp, Name, OptionalInstant, Priority, Status } from "../../lib/schemas";
// The discount vocabulary and its rules are the trade conditions'; promotions reuse them as is.
import {
  codeList,
  CreateStatus,
  DiscountTypeSchema,
  DiscountValue,
} from "../trade-conditions/trade-conditions.schemas";

export const StackingSchema = z.enum(["BEST_OF", "ON_TOP"]).openapi("PromotionStacking", {
  description:
    "BEST_OF: the customer gets the better of promotion and regular price. ON_TOP: applies to the regular price.",
});

export const PromotionSchema = z
  .object({
    id: z.number().int().openapi({ example: 7 }),
    name: z.string().openapi({ example: "Summer sale" }),
    status: Status,
    discountType: DiscountTypeSchema,
    value: DiscountValue,
    currency: z.string().nullable().openapi({ example: null }),
    validFrom: IsoTimestamp.nullable(),
    validTo: IsoTimestamp.nullable(),
    priority: z.number().int().openapi({ example: 0 }),
    stacking: StackingSchema,
    productCodes: z.array(z.string()).openapi({ description: "Empty = all products" }),
    channelCodes: z.array(z.string()).openapi({ description: "Empty = all channels" }),
    customerGroupCodes: z.array(z.string()).openapi({ description: "Empty = everyone" }),
    createdAt: IsoTimestamp,
    updatedAt: IsoTimestamp,
  })
  .openapi("Promotion");

export const PromotionCreateSchema = z
  .strictObject({
    name: Name.openapi({ example: "Summer sale" }),
    discountType: DiscountTypeSchema,
    value: DiscountValue,
    currency: Currency.nullable().optional(),
    status: CreateStatus.default("DRAFT"),
    validFrom: OptionalInstant,
    validTo: OptionalInstant,
    priority: Priority.default(0),
    stacking: StackingSchema.default("BEST_OF"),
    productCodes: codeList(["P-A"]).default([]),
    channelCodes: codeList(["WEB-DE"]).default([]),
    customerGroupCodes: codeList(["WHOLESALE"]).default([]),
  })
  .openapi("PromotionCreate");

export const PromotionUpdateSchema = z
  .strictObject({
    name: Name.optional(),
    discountType: DiscountTypeSchema.optional(),
    value: DiscountValue.optional(),
    currency: Currency.nullable().optional(),
    status: Status.optional(),
    validFrom: OptionalInstant,
    validTo: OptionalInstant,
    priority: Priority.optional(),
    stacking: StackingSchema.optional(),
    productCodes: codeList(["P-A"]).optional().openapi({ description: "Replaces the list" }),
    channelCodes: codeList(["WEB-DE"]).optional().openapi({ description: "Replaces the list" }),
    customerGroupCodes: codeList(["WHOLESALE"])
      .optional()
      .openapi({ description: "Replaces the list" }),
  })
  .openapi("PromotionUpdate", {
    description:
      "Any subset of the create fields. The merged record is validated with the create rules; ARCHIVED promotions cannot be edited.",
  });

export const PromotionListSchema = listOf(PromotionSchema, "PromotionList");

export type PromotionCreate = z.infer<typeof PromotionCreateSchema>;
export type PromotionUpdate = z.infer<typeof PromotionUpdateSchema>;
