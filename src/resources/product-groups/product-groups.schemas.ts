import { z } from "@hono/zod-openapi";
import { listOf } from "../../list";
import { bulkBody, Code, IsoTimestamp, Name } from "../../core/schemas";

const productGroupExample = {
  id: 3,
  code: "SCREWS",
  name: "Screws",
  parentCode: "FAST",
  createdAt: "2025-01-01T00:00:00.000Z",
  updatedAt: "2025-01-01T00:00:00.000Z",
};

const ParentCode = Code.nullable().openapi({
  example: "FAST",
  description:
    "The parent group's code, or null for a root. Unknown → 400; a parent that would make a " +
    "cycle, or a branch deeper than 8 levels, → 409 naming the chain",
});

export const ProductGroupSchema = z
  .object({
    id: z.number().int().openapi({ example: 3, description: "Assigned by the service" }),
    code: Code.openapi({ example: "SCREWS", description: "The product group code (unique)" }),
    name: z.string().openapi({ example: "Screws", description: "Display name" }),
    parentCode: Code.nullable().openapi({
      example: "FAST",
      description: "The parent group's code, or null for a root",
    }),
    createdAt: IsoTimestamp.openapi({ description: "When the group was created" }),
    updatedAt: IsoTimestamp.openapi({ description: "When the group last changed" }),
  })
  .openapi("ProductGroup", {
    description:
      "A group of products in a forest of at most 8 levels; trade conditions and promotions that " +
      "name a group reach the products of the group and of every group below it",
    example: productGroupExample,
  });

export const ProductGroupCreateSchema = z
  .strictObject({
    code: Code.openapi({
      example: "SCREWS",
      description: "The product group code; unique (409 if taken)",
    }),
    name: Name.openapi({ example: "Screws" }),
    parentCode: ParentCode.optional(),
  })
  .openapi("ProductGroupCreate", {
    description: "A new product group; without parentCode it is a root",
    example: { code: "SCREWS", name: "Screws", parentCode: "FAST" },
  });

export const ProductGroupUpdateSchema = z
  .strictObject({
    code: Code.optional().openapi({
      description: "A new product group code; unique (409 if taken)",
    }),
    name: Name.optional(),
    parentCode: ParentCode.optional(),
  })
  .openapi("ProductGroupUpdate", {
    description:
      "The fields to change; absent fields stay as they are; parentCode null makes it a root",
    example: { parentCode: "FASTENERS" },
  });

const ProductGroupUpsertSchema = z
  .strictObject({
    code: Code.openapi({ example: "SCREWS", description: "The product group code: the row's key" }),
    name: Name.openapi({ example: "Screws" }),
    parentCode: Code.nullable()
      .optional()
      .openapi({
        example: "FAST",
        description:
          "The parent group's code: a stored group or one of the same body (before or after this " +
          "row); null for a root; absent: a new group is a root, a stored one keeps its parent. " +
          "Unknown, a cycle or a branch deeper than 8 levels → 400 on the row",
      }),
  })
  .openapi("ProductGroupUpsert", {
    description:
      "A product group by code: created if the code is new, else its named fields are set",
    example: { code: "SCREWS", name: "Screws", parentCode: "FAST" },
  });

export const ProductGroupsUpsertSchema = bulkBody(
  "productGroups",
  ProductGroupUpsertSchema,
  "ProductGroupsUpsert",
  {
    description: "Product groups to create or update by code",
    example: {
      productGroups: [
        { code: "SCREWS", name: "Screws", parentCode: "FAST" },
        { code: "FAST", name: "Fasteners", parentCode: null },
      ],
    },
  },
);

export const ProductGroupListSchema = listOf(ProductGroupSchema, "ProductGroupList", {
  path: "/v1/api/product-group",
  data: [productGroupExample],
});

export type ProductGroupCreate = z.infer<typeof ProductGroupCreateSchema>;
export type ProductGroupUpdate = z.infer<typeof ProductGroupUpdateSchema>;
export type ProductGroupUpsert = z.infer<typeof ProductGroupUpsertSchema>;
