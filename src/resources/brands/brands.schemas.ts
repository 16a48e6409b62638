import { z } from "@hono/zod-openapi";
import { listOf } from "../../list";
import { bulkBody, Code, IsoTimestamp, Name } from "../../core/schemas";

const brandExample = {
  id: 4,
  code: "BOSCH",
  name: "Bosch",
  createdAt: "2025-01-01T00:00:00.000Z",
  updatedAt: "2025-01-01T00:00:00.000Z",
};

export const BrandSchema = z
  .object({
    id: z.number().int().openapi({ example: 4, description: "Assigned by the service" }),
    code: Code.openapi({ example: "BOSCH", description: "The brand code (unique)" }),
    name: z.string().openapi({ example: "Bosch", description: "Display name" }),
    createdAt: IsoTimestamp.openapi({ description: "When the brand was created" }),
    updatedAt: IsoTimestamp.openapi({ description: "When the brand last changed" }),
  })
  .openapi("Brand", {
    description:
      "A brand products name by `brandCode`; trade conditions and promotions that name it in " +
      "`brandCodes` reach its products, on the group rung after every group (docs/brands.md)",
    example: brandExample,
  });

export const BrandCreateSchema = z
  .strictObject({
    code: Code.openapi({ example: "BOSCH", description: "The brand code; unique (409 if taken)" }),
    name: Name.openapi({ example: "Bosch" }),
  })
  .openapi("BrandCreate", {
    description: "A new brand",
    example: { code: "BOSCH", name: "Bosch" },
  });

export const BrandUpdateSchema = z
  .strictObject({
    code: Code.optional().openapi({ description: "A new brand code; unique (409 if taken)" }),
    name: Name.optional(),
  })
  .openapi("BrandUpdate", {
    description: "The fields to change; absent fields stay as they are",
    example: { name: "Bosch Professional" },
  });

const BrandUpsertSchema = z
  .strictObject({
    code: Code.openapi({ example: "BOSCH", description: "The brand code: the row's key" }),
    name: Name.openapi({ example: "Bosch" }),
  })
  .openapi("BrandUpsert", {
    description: "A brand by code: created if the code is new, else its name is set",
    example: { code: "BOSCH", name: "Bosch" },
  });

export const BrandsUpsertSchema = bulkBody("brands", BrandUpsertSchema, "BrandsUpsert", {
  description: "Brands to create or update by code",
  example: {
    brands: [
      { code: "BOSCH", name: "Bosch" },
      { code: "MAKITA", name: "Makita" },
    ],
  },
});

export const BrandListSchema = listOf(BrandSchema, "BrandList", {
  path: "/v1/api/brand",
  data: [brandExample],
});

export type BrandCreate = z.infer<typeof BrandCreateSchema>;
export type BrandUpdate = z.infer<typeof BrandUpdateSchema>;
export type BrandUpsert = z.infer<typeof BrandUpsertSchema>;
