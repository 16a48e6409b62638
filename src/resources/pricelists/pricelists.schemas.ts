import { z } from "@hono/zod-openapi";
import { listOf } from "../../list";
import {
  checkWindow,
  Code,
  Currency,
  Instant,
  IsoTimestamp,
  Name,
  Priority,
  Status,
} from "../../lib/schemas";

export const PRICELIST_SCOPES = ["GENERAL", "INDIVIDUAL"] as const;

export const PricelistSchema = z
  .object({
    id: z.number().int().openapi({ example: 100 }),
    name: z.string().openapi({ example: "Web DE list" }),
    scope: z.enum(PRICELIST_SCOPES).openapi({
      description:
        "GENERAL: assignable to channels, groups and customers. INDIVIDUAL: owned by one customer.",
    }),
    status: Status,
    currency: Currency,
    priority: z.number().int().openapi({ description: "Higher wins inside a pricing level" }),
    validFrom: IsoTimestamp.nullable(),
    validTo: IsoTimestamp.nullable().openapi({ description: "Exclusive end; null = open-ended" }),
    taxInclusive: z.boolean(),
    allowsTradeDiscounts: z.boolean(),
    customerCode: Code.nullable().openapi({
      description: "Owner of an INDIVIDUAL pricelist, else null",
    }),
    createdAt: IsoTimestamp,
    updatedAt: IsoTimestamp,
  })
  .openapi("Pricelist");

const common = {
  name: Name.openapi({ example: "Web DE list" }),
  currency: Currency,
  priority: Priority.optional().openapi({ description: "Default 0" }),
  validFrom: Instant.nullable().optional(),
  validTo: Instant.nullable().optional(),
  taxInclusive: z.boolean().optional().openapi({ description: "Default false" }),
};

export const PricelistCreateSchema = z
  .strictObject({
    ...common,
    status: z.enum(["DRAFT", "ACTIVE"]).optional().openapi({ description: "Default DRAFT" }),
    allowsTradeDiscounts: z.boolean().optional().openapi({ description: "Default true" }),
  })
  .superRefine(checkWindow)
  .openapi("PricelistCreate");

export const IndividualPricelistCreateSchema = z
  .strictObject({
    customerCode: Code.openapi({ example: "C-1001" }),
    ...common,
    allowsTradeDiscounts: z.boolean().optional().openapi({ description: "Default false" }),
  })
  .superRefine(checkWindow)
  .openapi("IndividualPricelistCreate");

export const PricelistUpdateSchema = z
  .strictObject({
    name: common.name.optional(),
    currency: Currency.optional().openapi({ description: "Changeable only while DRAFT" }),
    status: Status.optional(),
    priority: Priority.optional(),
    validFrom: Instant.nullable().optional(),
    validTo: Instant.nullable().optional(),
    taxInclusive: z.boolean().optional(),
    allowsTradeDiscounts: z.boolean().optional(),
  })
  .openapi("PricelistUpdate");

export const PricelistListSchema = listOf(PricelistSchema, "PricelistList");

export type PricelistCreate = z.infer<typeof PricelistCreateSchema>;
export type IndividualPricelistCreate = z.infer<typeof IndividualPricelistCreateSchema>;
export type PricelistUpdate = z.infer<typeof PricelistUpdateSchema>;
