import { z } from "@hono/zod-openapi";
import { listOf } from "../../list";
import { Code, IsoTimestamp, Name } from "../../lib/schemas";
import { PricelistSchema } from "../pricelists/pricelists.schemas";

export const CustomerSchema = z
  .object({
    id: z.number().int().openapi({ example: 1 }),
    code: Code.openapi({ example: "C-1001" }),
    name: z.string().openapi({ example: "Muster GmbH" }),
    customerGroupCodes: z.array(Code).openapi({ example: ["RESELLER"], description: "Sorted" }),
    channelCodes: z.array(Code).openapi({ example: ["WEB-DE"], description: "Sorted" }),
    createdAt: IsoTimestamp,
    updatedAt: IsoTimestamp,
  })
  .openapi("Customer");

export const CustomerDetailSchema = CustomerSchema.extend({
  pricelists: z.array(PricelistSchema).openapi({
    description:
      "The customer's own pricelists (INDIVIDUAL ones it owns and GENERAL ones assigned to it), " +
      "INDIVIDUAL first, then priority descending, then id",
  }),
  primaryPricelist: PricelistSchema.nullable().openapi({
    description: "The first of `pricelists` that is ACTIVE and valid now, or null",
  }),
}).openapi("CustomerDetail");

/** A membership set: replaces the current one; duplicates counted once. */
const codeSet = (example: string[]) =>
  z
    .array(Code)
    .max(1000, "must name at most 1000 codes")
    .transform((codes) => [...new Set(codes)])
    .openapi({ example });

const GroupCodes = codeSet(["RESELLER"]);
const ChannelCodes = codeSet(["WEB-DE"]);

export const CustomerCreateSchema = z
  .strictObject({
    code: Code.openapi({ example: "C-1001" }),
    name: Name.openapi({ example: "Muster GmbH" }),
    customerGroupCodes: GroupCodes.optional(),
    channelCodes: ChannelCodes.optional(),
  })
  .openapi("CustomerCreate");

export const CustomerUpdateSchema = z
  .strictObject({
    code: Code.optional(),
    name: Name.optional(),
    customerGroupCodes: GroupCodes.optional().openapi({ description: "Replaces the groups" }),
    channelCodes: ChannelCodes.optional().openapi({ description: "Replaces the channels" }),
  })
  .openapi("CustomerUpdate");

export const CustomerListSchema = listOf(CustomerSchema, "CustomerList");

export const CustomerPricelistSchema = z
  .object({
    customerCode: Code.openapi({ example: "C-1001" }),
    pricelistId: z.number().int().openapi({ example: 100 }),
  })
  .openapi("CustomerPricelist");

export type CustomerCreate = z.infer<typeof CustomerCreateSchema>;
export type CustomerUpdate = z.infer<typeof CustomerUpdateSchema>;
