import { z } from "@hono/zod-openapi";
import { listOf } from "../../list";
import { IsoTimestamp } from "../../core/schemas";
import { AUDIT_ACTIONS } from "../../pricing/vocabulary";

const Row = z.record(z.string(), z.unknown());

const auditEntryExample = {
  id: 1812,
  at: "2025-06-14T08:30:00.000Z",
  requestId: "3f1c2a9e-8d7b-4c61-9a52-0e4f7b6d1c23",
  correlationId: "erp-sync-2025-06-14-0042",
  keyName: "back-office",
  operation: "upsertPricelistPrices",
  method: "PUT",
  path: "/v1/api/pricelist/7/prices",
  entity: "pricelistPrice",
  entityKey: { pricelistId: 7, productId: 12, minQuantity: 1, validFrom: null },
  action: "UPDATE",
  before: { amount: 1250 },
  after: { amount: 1190 },
};

export const AuditEntrySchema = z
  .object({
    id: z.number().int().openapi({ example: 1812, description: "Ascending in write order" }),
    at: IsoTimestamp.openapi({ description: "When the write committed (the database's clock)" }),
    requestId: z.string().openapi({
      example: "3f1c2a9e-8d7b-4c61-9a52-0e4f7b6d1c23",
      description:
        "The server's id of the writing request (its x-request-id response header), shared by all its entries",
    }),
    correlationId: z.string().nullable().openapi({
      example: "erp-sync-2025-06-14-0042",
      description:
        "The x-request-id the client sent (1-128 visible ASCII characters; else null): the client's own reference, recorded as given and not unique",
    }),
    keyName: z.string().openapi({
      example: "back-office",
      description: "Name of the API key that wrote (from API_KEYS; never the key)",
    }),
    operation: z
      .string()
      .openapi({ example: "upsertPricelistPrices", description: "The route's operationId" }),
    method: z.string().openapi({ example: "PUT", description: "The writing request's method" }),
    path: z.string().openapi({
      example: "/v1/api/pricelist/7/prices",
      description: "The writing request's path",
    }),
    entity: z.string().openapi({
      example: "pricelistPrice",
      description:
        "What changed: the singular name of the record or link (product, pricelist, pricelistPrice, customerGroupMember, ...)",
    }),
    entityKey: z.record(z.string(), z.union([z.number(), z.string()]).nullable()).openapi({
      example: { pricelistId: 7, productId: 12, minQuantity: 1, validFrom: null },
      description:
        "The row: its id and code where it has them, else its key columns (a price row's: pricelistId, productId, minQuantity and validFrom, null for an undated row); for the memberships of a bulk upsert of customers, recorded per customer, the customer's id (docs/api/feed-and-webhooks.md §11.1)",
    }),
    action: z.enum(AUDIT_ACTIONS).openapi({ description: "What happened to the row" }),
    before: Row.nullable().openapi({
      example: { amount: 1250 },
      description:
        "null for INSERT; the whole row for DELETE (for a bulk upsert's memberships, the customer's id and the ids of all it left); for UPDATE only the fields that changed",
    }),
    after: Row.nullable().openapi({
      example: { amount: 1190 },
      description:
        "null for DELETE; the whole row for INSERT (for a bulk upsert's memberships, the customer's id and the ids of all it joined); for UPDATE only the fields that changed",
    }),
  })
  .openapi("AuditEntry", {
    description:
      "One inserted, updated or deleted row, or, for the memberships a bulk upsert of customers writes, all those one customer gained or lost in one table",
    example: auditEntryExample,
  });

export const AuditEntryListSchema = listOf(AuditEntrySchema, "AuditEntryList", {
  path: "/v1/api/audit",
  data: [auditEntryExample],
});
