import { z } from "@hono/zod-openapi";
import { listOf } from "../../list";
import { Code, IsoTimestamp, Name } from "../../lib/schemas";

export const CustomerGroupSchema = z
  .object({
    id: z.number().int().openapi({ example: 1 }),
    code: Code.openapi({ example: "RESELLER" }),
    name: z.string().openapi({ example: "Resellers" }),
    description: z.string().nullable().openapi({ example: "Registered resellers" }),
    createdAt: IsoTimestamp,
    updatedAt: IsoTimestamp,
  })
  .openapi("CustomerGroup");

const Description = z
  .string()
  .max(1000)
  .nullable()
  .openapi({ example: "Registered resellers", description: "Free text; null clears it" });

export const CustomerGroupCreateSchema = z
  .strictObject({
    code: Code.openapi({ example: "RESELLER" }),
    name: Name.openapi({ example: "Resellers" }),
    description: Description.optional(),
  })
  .openapi("CustomerGroupCreate");

export const CustomerGroupUpdateSchema = z
  .strictObject({
    code: Code.optional(),
    name: Name.optional(),
    description: Description.optional(),
  })
  .openapi("CustomerGroupUpdate");

export const CustomerGroupListSchema = listOf(CustomerGroupSchema, "CustomerGroupList");

export const CustomerGroupPricelistSchema = z
  .object({
    customerGroupCode: Code.openapi({ example: "RESELLER" }),
    pricelistId: z.number().int().openapi({ example: 100 }),
  })
  .openapi("CustomerGroupPricelist");

export type CustomerGroupCreate = z.infer<typeof CustomerGroupCreateSchema>;
export type CustomerGroupUpdate = z.infer<typeof CustomerGroupUpdateSchema>;
