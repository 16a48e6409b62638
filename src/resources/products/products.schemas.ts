import { z } from "@hono/zod-openapi";
import { listOf } from "../../list";
import { bulkBody, Code, codesBody, IsoTimestamp, Name } from "../../core/schemas";

const productExample = {
  id: 1,
  code: "P-A",
  name: "Hex bolt M8x40",
  productGroupCode: "SCREWS",
  brandCode: "BOSCH",
  minOrderQuantity: 100,
  orderIncrement: 100,
  maxOrderQuantity: null,
  createdAt: "2025-01-01T00:00:00.000Z",
  updatedAt: "2025-01-01T00:00:00.000Z",
};

/** The largest quantity a price lookup takes: a rule beyond it could never be met. */
const MAX_ORDER_QUANTITY = 1_000_000;

const OrderQuantity = z.number().int().min(1).max(MAX_ORDER_QUANTITY);

/** The quantity rule of a product that names none: any quantity. */
export const ANY_QUANTITY = { minOrderQuantity: 1, orderIncrement: 1, maxOrderQuantity: null };

/** The group and the quantity rule, as create and update take them (docs/api/relations.md §5.9). */
const terms = {
  productGroupCode: Code.nullable().openapi({
    example: "SCREWS",
    description: "The product's group, or null for none; an unknown code → 400",
  }),
  brandCode: Code.nullable().openapi({
    example: "BOSCH",
    description: "The product's brand (docs/brands.md), or null for none; an unknown code → 400",
  }),
  minOrderQuantity: OrderQuantity.openapi({
    example: 100,
    description: `The smallest quantity that may be ordered, 1-${MAX_ORDER_QUANTITY}; default 1`,
  }),
  orderIncrement: OrderQuantity.openapi({
    example: 100,
    description: `Allowed quantities are minOrderQuantity + k × orderIncrement, 1-${MAX_ORDER_QUANTITY}; default 1`,
  }),
  maxOrderQuantity: OrderQuantity.nullable().openapi({
    example: null,
    description:
      "The largest quantity that may be ordered, ≥ minOrderQuantity; null (default) = no limit",
  }),
};

export const ProductSchema = z
  .object({
    id: z.number().int().openapi({ example: 1, description: "Assigned by the service" }),
    code: Code.openapi({ example: "P-A", description: "The product code (unique)" }),
    name: z.string().openapi({ example: "Hex bolt M8x40", description: "Display name" }),
    productGroupCode: Code.nullable().openapi({
      example: "SCREWS",
      description: "The product's own group, or null",
    }),
    brandCode: Code.nullable().openapi({
      example: "BOSCH",
      description: "The product's brand (docs/brands.md), or null",
    }),
    minOrderQuantity: z.number().int().openapi({
      example: 100,
      description: "The smallest quantity that may be ordered",
    }),
    orderIncrement: z.number().int().openapi({
      example: 100,
      description: "Allowed quantities are minOrderQuantity + k × orderIncrement (k ≥ 0)",
    }),
    maxOrderQuantity: z.number().int().nullable().openapi({
      example: null,
      description: "The largest quantity that may be ordered, or null for no limit",
    }),
    createdAt: IsoTimestamp.openapi({ description: "When the product was created" }),
    updatedAt: IsoTimestamp.openapi({ description: "When the product last changed" }),
  })
  .openapi("Product", {
    description:
      "A product that pricelists can price, in a product group or none, with the quantities " +
      "it may be ordered in",
    example: productExample,
  });

export const ProductCreateSchema = z
  .strictObject({
    code: Code.openapi({ example: "P-A", description: "The product code; unique (409 if taken)" }),
    name: Name.openapi({ example: "Hex bolt M8x40" }),
    productGroupCode: terms.productGroupCode.optional(),
    brandCode: terms.brandCode.optional(),
    minOrderQuantity: terms.minOrderQuantity.default(ANY_QUANTITY.minOrderQuantity),
    orderIncrement: terms.orderIncrement.default(ANY_QUANTITY.orderIncrement),
    maxOrderQuantity: terms.maxOrderQuantity.default(ANY_QUANTITY.maxOrderQuantity),
  })
  .openapi("ProductCreate", {
    description: "A new product",
    example: {
      code: "P-A",
      name: "Hex bolt M8x40",
      productGroupCode: "SCREWS",
      minOrderQuantity: 100,
      orderIncrement: 100,
    },
  });

export const ProductUpdateSchema = z
  .strictObject({
    code: Code.optional().openapi({ description: "A new product code; unique (409 if taken)" }),
    name: Name.optional(),
    productGroupCode: terms.productGroupCode.optional(),
    brandCode: terms.brandCode.optional(),
    minOrderQuantity: terms.minOrderQuantity.optional(),
    orderIncrement: terms.orderIncrement.optional(),
    maxOrderQuantity: terms.maxOrderQuantity.optional(),
  })
  .openapi("ProductUpdate", {
    description:
      "The fields to change; absent fields stay as they are. The merged record must keep " +
      "maxOrderQuantity ≥ minOrderQuantity",
    example: { name: "Hex bolt M8x40, zinc plated", maxOrderQuantity: 10000 },
  });

const ProductUpsertSchema = z
  .strictObject({
    code: Code.openapi({ example: "P-A", description: "The product code: the row's key" }),
    name: Name.openapi({ example: "Hex bolt M8x40" }),
    productGroupCode: terms.productGroupCode.optional(),
    brandCode: terms.brandCode.optional(),
    minOrderQuantity: terms.minOrderQuantity.optional(),
    orderIncrement: terms.orderIncrement.optional(),
    maxOrderQuantity: terms.maxOrderQuantity.optional(),
  })
  .openapi("ProductUpsert", {
    description:
      "A product by code: created if the code is new, else its named fields are set. An absent " +
      "optional field keeps the stored value (a new product takes the default); null clears it",
    example: { code: "P-A", name: "Hex bolt M8x40", productGroupCode: "SCREWS" },
  });

export const ProductsUpsertSchema = bulkBody("products", ProductUpsertSchema, "ProductsUpsert", {
  description: "Products to create or update by code",
  example: {
    products: [
      { code: "P-A", name: "Hex bolt M8x40", productGroupCode: "SCREWS", minOrderQuantity: 100 },
      { code: "P-B", name: "Hex nut M8", productGroupCode: null },
    ],
  },
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
export type ProductUpsert = z.infer<typeof ProductUpsertSchema>;

/** Products named by code (the body of deleting a pricelist's prices by product). */
export const ProductCodesSchema = codesBody(
  "productCodes",
  "Product",
  ["P-A", "P-B"],
  "ProductCodes",
);
