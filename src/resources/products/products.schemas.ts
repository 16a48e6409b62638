import { z } from "@hono/zod-openapi";
import { listOf } from "../../list";
import { Code, IsoTimestamp, Name } from "../../lib/schemas";

export const ProductSchema = z
  .object({
    id: z.number().int().openapi({ example: 1 }),
    code: Code.openapi({ example: "P-A" }),
    name: z.string().openapi({ example: "Hex bolt M8x40" }),
    createdAt: IsoTimestamp,
    updatedAt: IsoTimestamp,
  })
  .openapi("Product");

export const ProductCreateSchema = z
  .strictObject({
    code: Code.openapi({ example: "P-A" }),
    name: Name.openapi({ example: "Hex bolt M8x40" }),
  })
  .openapi("ProductCreate");

export const ProductUpdateSchema = z
  .strictObject({ code: Code.optional(), name: Name.optional() })
  .openapi("ProductUpdate");

// `select` may trim items down to id plus the chosen fields.
export const ProductListSchema = listOf(
  ProductSchema.partial().required({ id: true }).openapi("ProductListItem"),
  "ProductList",
);

export type ProductCreate = z.infer<typeof ProductCreateSchema>;
export type ProductUpdate = z.infer<typeof ProductUpdateSchema>;
