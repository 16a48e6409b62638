import { z } from "@hono/zod-openapi";
import { listOf } from "../../list";
import { bulkCodes, Code, IsoTimestamp, Name } from "../../lib/schemas";
import { PricelistSchema } from "../pricelists/pricelists.schemas";

export const ChannelSchema = z
  .object({
    id: z.number().int().openapi({ example: 1 }),
    code: Code,
    name: z.string().openapi({ example: "Web shop Germany" }),
    isActive: z.boolean(),
    primaryPricelistId: z
      .number()
      .int()
      .nullable()
      .openapi({ example: 100, description: "The pricelist marked primary, or null" }),
    createdAt: IsoTimestamp,
    updatedAt: IsoTimestamp,
  })
  .openapi("Channel");

export const ChannelCreateSchema = z
  .strictObject({
    code: Code,
    name: Name.openapi({ example: "Web shop Germany" }),
    isActive: z.boolean().optional().openapi({ description: "Default true" }),
  })
  .openapi("ChannelCreate");

export const ChannelUpdateSchema = z
  .strictObject({ code: Code.optional(), name: Name.optional(), isActive: z.boolean().optional() })
  .openapi("ChannelUpdate");

export const ChannelListSchema = listOf(ChannelSchema, "ChannelList");

export const CustomerGroupCodesSchema = z
  .strictObject({ customerGroupCodes: bulkCodes(["WHOLESALE", "NORTH"]) })
  .openapi("CustomerGroupCodes");

export const CustomerCodesSchema = z
  .strictObject({ customerCodes: bulkCodes(["C-1001", "C-1002"]) })
  .openapi("CustomerCodes");

/** The body of every single-pricelist relation call (channels, customers, customer groups). */
export const PricelistRefSchema = z
  .strictObject({
    pricelistId: z
      .number()
      .int("must be a positive integer")
      .positive("must be a positive integer")
      .openapi({ example: 100 }),
  })
  .openapi("PricelistRef");

export const ChannelPricelistSchema = z
  .object({ channelCode: Code, pricelistId: z.number().int().openapi({ example: 100 }) })
  .openapi("ChannelPricelist");

export const ChannelWithPrimarySchema = ChannelSchema.extend({
  primaryPricelist: PricelistSchema.openapi({ description: "The pricelist now marked primary" }),
}).openapi("ChannelWithPrimaryPricelist");

export type ChannelCreate = z.infer<typeof ChannelCreateSchema>;
export type ChannelUpdate = z.infer<typeof ChannelUpdateSchema>;
