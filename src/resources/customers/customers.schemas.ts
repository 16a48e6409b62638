import { z } from "@hono/zod-openapi";
import { listOf } from "../../list";
import { bulkBody, Code, codesBody, IsoTimestamp, Name } from "../../core/schemas";
import { PricelistSchema, pricelistExample } from "../pricelists/pricelists.schemas";

const customerExample = {
  id: 1,
  code: "C-1001",
  name: "Muster GmbH",
  customerGroupCodes: ["RESELLER"],
  channelCodes: ["WEB-DE"],
  createdAt: "2025-01-01T00:00:00.000Z",
  updatedAt: "2025-01-01T00:00:00.000Z",
};

export const CustomerSchema = z
  .object({
    id: z.number().int().openapi({ example: 1, description: "Assigned by the service" }),
    code: Code.openapi({ example: "C-1001", description: "The customer code (unique)" }),
    name: z.string().openapi({ example: "Muster GmbH", description: "Display name" }),
    customerGroupCodes: z.array(Code).openapi({
      example: ["RESELLER"],
      description: "The groups the customer belongs to, sorted",
    }),
    channelCodes: z.array(Code).openapi({
      example: ["WEB-DE"],
      description: "The channels the customer may buy in, sorted",
    }),
    createdAt: IsoTimestamp.openapi({ description: "When the customer was created" }),
    updatedAt: IsoTimestamp.openapi({ description: "When the customer last changed" }),
  })
  .openapi("Customer", {
    description: "A business customer, with its group and channel memberships",
    example: customerExample,
  });

export const CustomerDetailSchema = CustomerSchema.extend({
  pricelists: z.array(PricelistSchema).openapi({
    description:
      "The customer's own pricelists (INDIVIDUAL ones it owns and GENERAL ones assigned to it), " +
      "INDIVIDUAL first, then priority descending, then id",
  }),
  // A union, not .nullable(): the generator would write allOf [$ref, { type: [object, null] }],
  // which no null satisfies.
  primaryPricelist: z.union([PricelistSchema, z.null()]).openapi({
    description: "The first of `pricelists` that is ACTIVE and valid now, or null",
  }),
}).openapi("CustomerDetail", {
  description: "A customer with its own pricelists and the primary one",
  example: {
    ...customerExample,
    pricelists: [pricelistExample],
    primaryPricelist: pricelistExample,
  },
});

/** A membership set: replaces the current one; duplicates counted once. */
const codeSet = (example: string[]) =>
  z
    .array(Code)
    .max(1000, "must name at most 1000 codes")
    .transform((codes) => [...new Set(codes)])
    .openapi({ example, description: "0-1000 codes; duplicates count once" });

const GroupCodes = codeSet(["RESELLER"]);
const ChannelCodes = codeSet(["WEB-DE"]);

export const CustomerCreateSchema = z
  .strictObject({
    code: Code.openapi({
      example: "C-1001",
      description: "The customer code; unique (409 if taken)",
    }),
    name: Name.openapi({ example: "Muster GmbH" }),
    customerGroupCodes: GroupCodes.optional().openapi({
      description: "The groups to put the customer in (0-1000 codes); unknown codes → 400",
    }),
    channelCodes: ChannelCodes.optional().openapi({
      description: "The channels to put the customer in (0-1000 codes); unknown codes → 400",
    }),
  })
  .openapi("CustomerCreate", {
    description: "A new customer",
    example: {
      code: "C-1001",
      name: "Muster GmbH",
      customerGroupCodes: ["RESELLER"],
      channelCodes: ["WEB-DE"],
    },
  });

export const CustomerUpdateSchema = z
  .strictObject({
    code: Code.optional().openapi({ description: "A new customer code; unique (409 if taken)" }),
    name: Name.optional(),
    customerGroupCodes: GroupCodes.optional().openapi({ description: "Replaces the groups" }),
    channelCodes: ChannelCodes.optional().openapi({ description: "Replaces the channels" }),
  })
  .openapi("CustomerUpdate", {
    description: "The fields to change; absent fields stay as they are",
    example: { customerGroupCodes: ["RESELLER", "NORTH"] },
  });

const CustomerUpsertSchema = z
  .strictObject({
    code: Code.openapi({ example: "C-1001", description: "The customer code: the row's key" }),
    name: Name.openapi({ example: "Muster GmbH" }),
    customerGroupCodes: GroupCodes.optional().openapi({
      description:
        "Replaces the customer's groups (0-1000 codes; [] removes all); absent: left as they are. " +
        "Unknown codes → 400",
    }),
    channelCodes: ChannelCodes.optional().openapi({
      description:
        "Replaces the customer's channels (0-1000 codes; [] removes all); absent: left as they " +
        "are. Unknown codes → 400",
    }),
  })
  .openapi("CustomerUpsert", {
    description:
      "A customer by code: created if the code is new, else its name is set and the memberships " +
      "given replace the stored ones",
    example: { code: "C-1001", name: "Muster GmbH", customerGroupCodes: ["RESELLER"] },
  });

export const CustomersUpsertSchema = bulkBody(
  "customers",
  CustomerUpsertSchema,
  "CustomersUpsert",
  {
    description: "Customers to create or update by code",
    example: {
      customers: [
        {
          code: "C-1001",
          name: "Muster GmbH",
          customerGroupCodes: ["RESELLER"],
          channelCodes: ["WEB-DE"],
        },
        { code: "C-1002", name: "Beispiel AG" },
      ],
    },
  },
);

export const CustomerListSchema = listOf(CustomerSchema, "CustomerList", {
  path: "/v1/api/customer",
  data: [customerExample],
});

export const CustomerPricelistSchema = z
  .object({
    customerCode: Code.openapi({ example: "C-1001", description: "The customer" }),
    pricelistId: z.number().int().openapi({ example: 100, description: "The pricelist" }),
  })
  .openapi("CustomerPricelist", {
    description: "A pricelist assigned to a customer",
    example: { customerCode: "C-1001", pricelistId: 100 },
  });

export type CustomerCreate = z.infer<typeof CustomerCreateSchema>;
export type CustomerUpdate = z.infer<typeof CustomerUpdateSchema>;
export type CustomerUpsert = z.infer<typeof CustomerUpsertSchema>;

/** Customers named by code: the body of every bulk assign or unassign of customers. */
export const CustomerCodesSchema = codesBody(
  "customerCodes",
  "Customer",
  ["C-1001", "C-1002"],
  "CustomerCodes",
);
