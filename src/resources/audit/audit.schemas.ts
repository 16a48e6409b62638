import { z } from "@hono/zod-openapi";
import { listOf } from "../../list";
import { IsoTimestamp } from "../../lib/schemas";

const Row = z.record(z.string(), z.unknown());

export const AuditEntrySchema = z
  .object({
    id: z.number().int().openapi({ example: 1812, description: "Ascending in write order" }),
    at: IsoTimestamp.openapi({ description: "When the write committed (the database's clock)" }),
    requestId: z.string().openapi({
      example: "3f1c2a9e-8d7b-4c61-9a52-0e4f7b6d1c23",
      description: "The writing request's x-request-id, shared by all its entries",
    }),
    keyName: z.string().openapi({
      example: "back-office",
      description: "Name of the API key that wrote (from API_KEYS; never the key)",
    }),
    operation: z
      .string()
      .openapi({ example: "upsertPricelistPrices", description: "The route's operationId" }),
    method: z.string().openapi({ example: "PUT" }),
    path: z.string().openapi({ example: "/v1/api/pricelist/7/prices" }),
    entity: z.string().openapi({
      example: "pricelistPrice",
      description:
        "What changed: the singular name of the record or link (product, pricelist, pricelistPrice, customerGroupMember, ...)",
    }),
    entityKey: z.record(z.string(), z.union([z.number(), z.string()])).openapi({
      example: { pricelistId: 7, productId: 12, minQuantity: 1 },
      description: "The row: its id and code where it has them, else its key columns",
    }),
    action: z.enum(["INSERT", "UPDATE", "DELETE"]),
    before: Row.nullable().openapi({
      example: { amount: 1250 },
      description:
        "null for INSERT; the whole row for DELETE; for UPDATE only the fields that changed",
    }),
    after: Row.nullable().openapi({
      example: { amount: 1190 },
      description:
        "null for DELETE; the whole row for INSERT; for UPDATE only the fields that changed",
    }),
  })
  .openapi("AuditEntry");

export const AuditEntryListSchema = listOf(AuditEntrySchema, "AuditEntryList");
