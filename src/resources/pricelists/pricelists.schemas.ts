import { z } from "@hono/zod-openapi";
import { listOf } from "../../list";
import {
  Amount,
  Code,
  Currency,
  IsoTimestamp,
  Name,
  OptionalInstant,
  Priority,
  Status,
  bulkCodes,
  checkWindow,
} from "../../lib/schemas";

export const PRICELIST_SCOPES = ["GENERAL", "INDIVIDUAL"] as const;

export const PricelistSchema = z
  .object({
    id: z.number().int().openapi({ example: 100 }),
    name: z.string().openapi({ example: "Web DE list" }),
    scope: z.enum(PRICELIST_SCOPES).openapi({
      description:
        "GENERAL: assignable to channels, groups and customers. INDIVIDUAL: owned by one customer.",
    }),
    status: Status,
    currency: Currency,
    priority: z.number().int().openapi({ description: "Higher wins inside a pricing level" }),
    validFrom: IsoTimestamp.nullable(),
    validTo: IsoTimestamp.nullable().openapi({ description: "Exclusive end; null = open-ended" }),
    taxInclusive: z.boolean(),
    allowsTradeDiscounts: z.boolean(),
    customerCode: Code.nullable().openapi({
      description: "Owner of an INDIVIDUAL pricelist, else null",
    }),
    createdAt: IsoTimestamp,
    updatedAt: IsoTimestamp,
  })
  .openapi("Pricelist");

const common = {
  name: Name.openapi({ example: "Web DE list" }),
  currency: Currency,
  priority: Priority.optional().openapi({ description: "Default 0" }),
  validFrom: OptionalInstant,
  validTo: OptionalInstant,
  taxInclusive: z.boolean().optional().openapi({ description: "Default false" }),
};

export const PricelistCreateSchema = z
  .strictObject({
    ...common,
    status: z.enum(["DRAFT", "ACTIVE"]).optional().openapi({ description: "Default DRAFT" }),
    allowsTradeDiscounts: z.boolean().optional().openapi({ description: "Default true" }),
  })
  .superRefine(checkWindow)
  .openapi("PricelistCreate");

export const IndividualPricelistCreateSchema = z
  .strictObject({
    customerCode: Code.openapi({ example: "C-1001" }),
    ...common,
    allowsTradeDiscounts: z.boolean().optional().openapi({ description: "Default false" }),
  })
  .superRefine(checkWindow)
  .openapi("IndividualPricelistCreate");

export const PricelistUpdateSchema = z
  .strictObject({
    name: common.name.optional(),
    currency: Currency.optional().openapi({ description: "Changeable only while DRAFT" }),
    status: Status.optional(),
    priority: Priority.optional(),
    validFrom: OptionalInstant,
    validTo: OptionalInstant,
    taxInclusive: z.boolean().optional(),
    allowsTradeDiscounts: z.boolean().optional(),
  })
  .openapi("PricelistUpdate");

export const PricelistListSchema = listOf(PricelistSchema, "PricelistList");

export type PricelistCreate = z.infer<typeof PricelistCreateSchema>;
export type IndividualPricelistCreate = z.infer<typeof IndividualPricelistCreateSchema>;
export type PricelistUpdate = z.infer<typeof PricelistUpdateSchema>;

export const CustomerGroupCodesSchema = z
  .strictObject({ customerGroupCodes: bulkCodes(["RESELLER", "WHOLESALE"]) })
  .openapi("PricelistCustomerGroupCodes");

export const ProductCodesSchema = z
  .strictObject({ productCodes: bulkCodes(["P-A", "P-B"]) })
  .openapi("PricelistProductCodes");

export const PriceSchema = z
  .object({
    productCode: Code.openapi({ example: "P-A" }),
    minQuantity: z.number().int().openapi({
      example: 1,
      description: "The tier applies to lines of at least this quantity",
    }),
    amount: z.number().int().openapi({
      example: 1250,
      description: "Unit price in minor units of the pricelist's currency",
    }),
  })
  .openapi("Price");

export const PriceListSchema = listOf(PriceSchema, "PriceList");

const PriceInputSchema = z
  .strictObject({
    productCode: Code.openapi({ example: "P-A" }),
    minQuantity: z
      .number()
      .int()
      .min(1)
      .max(Number.MAX_SAFE_INTEGER)
      .default(1)
      .openapi({ description: "Quantity tier, integer >= 1; default 1", example: 1 }),
    amount: Amount.openapi({
      example: 1250,
      description: "Unit price, integer minor units >= 0",
    }),
  })
  .openapi("PriceInput");

/** Each (productCode, minQuantity) at most once per body: the upsert must not depend on row order. */
function checkDistinctTiers(
  prices: { productCode: string; minQuantity: number }[],
  ctx: z.RefinementCtx,
): void {
  const first = new Map<string, number>();
  prices.forEach((row, i) => {
    const key = JSON.stringify([row.productCode, row.minQuantity]);
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, i);
    else
      ctx.addIssue({
        code: "custom",
        path: ["prices", i],
        message: `repeats productCode ${row.productCode} with minQuantity ${row.minQuantity} of row ${earlier}`,
      });
  });
}

export const PricesUpsertSchema = z
  .strictObject({
    prices: z
      .array(PriceInputSchema)
      .min(1, "must contain at least one row")
      .max(1000, "must contain at most 1000 rows"),
  })
  .superRefine((body, ctx) => checkDistinctTiers(body.prices, ctx))
  .openapi("PricesUpsert", {
    example: {
      prices: [
        { productCode: "P-A", amount: 1250 },
        { productCode: "P-A", minQuantity: 10, amount: 1100 },
        { productCode: "P-B", minQuantity: 1, amount: 899 },
      ],
    },
  });

export const PricesUpsertResultSchema = z
  .object({
    upserted: z.number().int().openapi({ example: 3, description: "Rows written" }),
  })
  .openapi("PricesUpsertResult");

export const PricesDeleteResultSchema = z
  .object({
    deleted: z.array(Code).openapi({
      description: "Codes of existing products; all their tiers in this pricelist are gone",
    }),
    notFound: z.array(Code).openapi({ description: "Codes that name no product" }),
  })
  .openapi("PricesDeleteResult");

export type PriceInput = z.output<typeof PriceInputSchema>;
