import { z } from "@hono/zod-openapi";
import { listOf } from "../../list";
import { bulkCodes, Code, IsoTimestamp, Name } from "../../lib/schemas";

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

export type ChannelCreate = z.infer<typeof ChannelCreateSchema>;
export type ChannelUpdate = z.infer<typeof ChannelUpdateSchema>;
