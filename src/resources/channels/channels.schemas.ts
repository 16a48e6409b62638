import { z } from "@hono/zod-openapi";
import { listOf } from "../../list";
import { Code, IsoTimestamp, Name } from "../../core/schemas";
import { CHANNEL_ROUNDING_MODES } from "../../pricing/vocabulary";
import { PricelistSchema, pricelistExample } from "../pricelists/pricelists.schemas";

const channelExample = {
  id: 1,
  code: "WEB-DE",
  name: "Web shop Germany",
  isActive: true,
  roundingMode: "HALF_UP",
  primaryPricelistId: 100,
  createdAt: "2025-01-01T00:00:00.000Z",
  updatedAt: "2025-01-01T00:00:00.000Z",
};

const RoundingMode = z.enum(CHANNEL_ROUNDING_MODES).openapi({
  description:
    "How lookups in the channel round percentage adjustments (on their magnitude) and line amounts: HALF_UP (a half away from zero, the default), HALF_EVEN (a half to the even neighbour), DOWN (toward zero), UP (away from zero); docs/pricing-rules.md §21",
  example: "HALF_UP",
});

export const ChannelSchema = z
  .object({
    id: z.number().int().openapi({ example: 1, description: "Assigned by the service" }),
    code: Code.openapi({ description: "The channel code (unique)" }),
    name: z.string().openapi({ example: "Web shop Germany", description: "Display name" }),
    isActive: z.boolean().openapi({ description: "Inactive channels cannot be priced (409)" }),
    roundingMode: RoundingMode,
    primaryPricelistId: z
      .number()
      .int()
      .nullable()
      .openapi({ example: 100, description: "The pricelist marked primary, or null" }),
    createdAt: IsoTimestamp.openapi({ description: "When the channel was created" }),
    updatedAt: IsoTimestamp.openapi({ description: "When the channel last changed" }),
  })
  .openapi("Channel", {
    description: "A sales channel (web shop, marketplace, ERP): where prices are asked for",
    example: channelExample,
  });

export const ChannelCreateSchema = z
  .strictObject({
    code: Code.openapi({ description: "The channel code; unique (409 if taken)" }),
    name: Name.openapi({ example: "Web shop Germany" }),
    isActive: z.boolean().optional().openapi({ description: "Default true" }),
    roundingMode: RoundingMode.optional().openapi({ description: "Default HALF_UP" }),
  })
  .openapi("ChannelCreate", {
    description: "A new channel",
    // Not a channel of the demo data, so "Try it out" in /ui creates it (WEB-DE is taken: 409).
    example: { code: "WEB-FR", name: "Web shop France", isActive: true },
  });

export const ChannelUpdateSchema = z
  .strictObject({
    code: Code.optional().openapi({ description: "A new channel code; unique (409 if taken)" }),
    name: Name.optional(),
    isActive: z
      .boolean()
      .optional()
      .openapi({ description: "false stops price lookups in the channel" }),
    roundingMode: RoundingMode.optional(),
  })
  .openapi("ChannelUpdate", {
    description: "The fields to change; absent fields stay as they are",
    example: { isActive: false },
  });

export const ChannelListSchema = listOf(ChannelSchema, "ChannelList", {
  path: "/v1/api/channel",
  data: [channelExample],
});

export const ChannelPricelistSchema = z
  .object({
    channelCode: Code.openapi({ description: "The channel" }),
    pricelistId: z.number().int().openapi({ example: 100, description: "The assigned pricelist" }),
  })
  .openapi("ChannelPricelist", {
    description: "A pricelist assigned to a channel",
    example: { channelCode: "WEB-DE", pricelistId: 100 },
  });

// A registered schema takes no use-site description (it would rename the component's): the
// object's description says what primaryPricelist is.
export const ChannelWithPrimarySchema = ChannelSchema.extend({
  primaryPricelist: PricelistSchema,
}).openapi("ChannelWithPrimaryPricelist", {
  description: "A channel with `primaryPricelist`, the pricelist now marked primary",
  example: { ...channelExample, primaryPricelist: pricelistExample },
});

export const AssignedPricelistSchema = PricelistSchema.extend({
  isPrimary: z
    .boolean()
    .openapi({ description: "Whether it is the channel's primary pricelist", example: true }),
}).openapi("AssignedPricelist", {
  description: "A pricelist assigned to a channel, as GET pricelist shows it, and its primary mark",
  example: { ...pricelistExample, isPrimary: true },
});

export const AssignedPricelistListSchema = listOf(
  AssignedPricelistSchema,
  "AssignedPricelistList",
  {
    path: "/v1/api/channel/WEB-DE/pricelists",
    data: [{ ...pricelistExample, isPrimary: true }],
  },
);

export type ChannelCreate = z.infer<typeof ChannelCreateSchema>;
export type ChannelUpdate = z.infer<typeof ChannelUpdateSchema>;
