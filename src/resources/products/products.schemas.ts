import { z } from "@hono/zod-openapi";
import { listOf } from "../../list";
import { Code, IsoTimestamp, Name } from "../../lib/schemas";

const productExample = {
  id: 1,
  code: "P-A",
  name: "Hex bolt M8x40",
  createdAt: "2025-01-01T00:00:00.000Z",
  updatedAt: "2025-01-01T00:00:00.000Z",
};

export const ProductSchema = z
  .object({
    id: z.number().int().openapi({ example: 1, description: "Assigned by the service" }),
    code: Code.openapi({ example: "P-A", description: "The product code (unique)" }),
    name: z.string().openapi({ example: "Hex bolt M8x40", description: "Display name" }),
    createdAt: IsoTimestamp.openapi({ description: "When the product was created" }),
    updatedAt: IsoTimestamp.openapi({ description: "When the product last changed" }),
  })
  .openapi("Product", {
    description: "A product that pricelists can price",
    example: productExample,
  });

export const ProductCreateSchema = z
  .strictObject({
    code: Code.openapi({ example: "P-A", description: "The product code; unique (409 if taken)" }),
    name: Name.openapi({ example: "Hex bolt M8x40" }),
  })
  .openapi("ProductCreate", {
    description: "A new product",
    example: { code: "P-A", name: "Hex bolt M8x40" },
  });

export const ProductUpdateSchema = z
  .strictObject({
    code: Code.optional().openapi({ description: "A new product code; unique (409 if taken)" }),
    name: Name.optional(),
  })
  .openapi("ProductUpdate", {
    description: "The fields to change; absent fields stay as they are",
    example: { name: "Hex bolt M8x40, zinc plated" },
  });

// `select` may trim items down to id plus the chosen fields.
export const ProductListSchema = listOf(
  ProductSchema.partial().required({ id: true }).openapi("ProductListItem", {
    description: "A product; with `select`, only id and the chosen fields",
    example: productExample,
  }),
  "ProductList",
  { path: "/v1/api/product", data: [productExample] },
);

export type ProductCreate = z.infer<typeof ProductCreateSchema>;
export type ProductUpdate = z.infer<typeof ProductUpdateSchema>;
