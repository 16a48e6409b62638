import { z } from "@hono/zod-openapi";
import { listOf } from "../../list";
import { bulkBody, Code, Description, IsoTimestamp, Name } from "../../core/schemas";

const customerGroupExample = {
  id: 1,
  code: "RESELLER",
  name: "Resellers",
  description: "Registered resellers",
  createdAt: "2025-01-01T00:00:00.000Z",
  updatedAt: "2025-01-01T00:00:00.000Z",
};

export const CustomerGroupSchema = z
  .object({
    id: z.number().int().openapi({ example: 1, description: "Assigned by the service" }),
    code: Code.openapi({ example: "RESELLER", description: "The customer group code (unique)" }),
    name: z.string().openapi({ example: "Resellers", description: "Display name" }),
    description: z
      .string()
      .nullable()
      .openapi({ example: "Registered resellers", description: "Free text, or null" }),
    createdAt: IsoTimestamp.openapi({ description: "When the group was created" }),
    updatedAt: IsoTimestamp.openapi({ description: "When the group last changed" }),
  })
  .openapi("CustomerGroup", {
    description: "A group of customers that pricelists, trade conditions and promotions can target",
    example: customerGroupExample,
  });

const NullableDescription = Description.nullable().openapi({
  example: "Registered resellers",
  description: "Free text, up to 1000 characters (line breaks and tabs allowed); null clears it",
});

export const CustomerGroupCreateSchema = z
  .strictObject({
    code: Code.openapi({
      example: "RESELLER",
      description: "The customer group code; unique (409 if taken)",
    }),
    name: Name.openapi({ example: "Resellers" }),
    description: NullableDescription.optional(),
  })
  .openapi("CustomerGroupCreate", {
    description: "A new customer group",
    example: { code: "RESELLER", name: "Resellers", description: "Registered resellers" },
  });

export const CustomerGroupUpdateSchema = z
  .strictObject({
    code: Code.optional().openapi({
      description: "A new customer group code; unique (409 if taken)",
    }),
    name: Name.optional(),
    description: NullableDescription.optional(),
  })
  .openapi("CustomerGroupUpdate", {
    description: "The fields to change; absent fields stay as they are",
    example: { name: "Resellers and distributors" },
  });

const CustomerGroupUpsertSchema = z
  .strictObject({
    code: Code.openapi({
      example: "RESELLER",
      description: "The customer group code: the row's key",
    }),
    name: Name.openapi({ example: "Resellers" }),
    description: NullableDescription.optional(),
  })
  .openapi("CustomerGroupUpsert", {
    description:
      "A customer group by code: created if the code is new, else its named fields are set; an " +
      "absent description keeps the stored one (null on a new group), null clears it",
    example: { code: "RESELLER", name: "Resellers", description: "Registered resellers" },
  });

export const CustomerGroupsUpsertSchema = bulkBody(
  "customerGroups",
  CustomerGroupUpsertSchema,
  "CustomerGroupsUpsert",
  {
    description: "Customer groups to create or update by code",
    example: {
      customerGroups: [
        { code: "RESELLER", name: "Resellers", description: "Registered resellers" },
        { code: "NORTH", name: "North" },
      ],
    },
  },
);

export const CustomerGroupListSchema = listOf(CustomerGroupSchema, "CustomerGroupList", {
  path: "/v1/api/customer-group",
  data: [customerGroupExample],
});

export const CustomerGroupPricelistSchema = z
  .object({
    customerGroupCode: Code.openapi({ example: "RESELLER", description: "The customer group" }),
    pricelistId: z.number().int().openapi({ example: 100, description: "The pricelist" }),
  })
  .openapi("CustomerGroupPricelist", {
    description: "A pricelist assigned to a customer group",
    example: { customerGroupCode: "RESELLER", pricelistId: 100 },
  });

export type CustomerGroupCreate = z.infer<typeof CustomerGroupCreateSchema>;
export type CustomerGroupUpdate = z.infer<typeof CustomerGroupUpdateSchema>;
export type CustomerGroupUpsert = z.infer<typeof CustomerGroupUpsertSchema>;
