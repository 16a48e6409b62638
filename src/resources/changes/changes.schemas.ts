import { z } from "@hono/zod-openapi";
import { IsoTimestamp } from "../../core/schemas";
import { TARGET_FIELD_LIST, targetAffects } from "../../core/targeting";
import { ProblemSchema } from "../../http/openapi";
import { AUDIT_ACTIONS, CHANGE_EVENTS } from "../../pricing/vocabulary";

export const MAX_CHANGES = 1000;
export const DEFAULT_CHANGES = 100;

const CURSOR_WORDING = `must be a whole number 0-${Number.MAX_SAFE_INTEGER} (a cursor from this feed)`;

/**
 * A cursor: a whole number 0 … 2^53 − 1 (the id of a change; 0 = before the first), every one of
 * which is exact in JSON and in D1; /doc declares both bounds.
 */
export const Cursor = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,15})$/, CURSOR_WORDING)
  .transform(Number)
  .refine((n) => n <= Number.MAX_SAFE_INTEGER, CURSOR_WORDING)
  .openapi({ type: "integer", minimum: 0, maximum: Number.MAX_SAFE_INTEGER, example: 1811 });

export const ChangesQuery = z.object({
  after: Cursor.optional().openapi({
    param: { name: "after", in: "query" },
    description:
      "The cursor of the last change already read (`next` of the previous page). 0, the " +
      "default, is the start of the feed: the oldest change still kept, also after the " +
      "retention has deleted older ones",
  }),
  limit: z
    .string()
    .regex(/^[1-9][0-9]{0,3}$/, `must be a whole number 1-${MAX_CHANGES}`)
    .transform(Number)
    .refine((n) => n <= MAX_CHANGES, `must be a whole number 1-${MAX_CHANGES}`)
    .optional()
    .openapi({
      param: { name: "limit", in: "query" },
      type: "integer",
      minimum: 1,
      maximum: MAX_CHANGES,
      description: `Changes per page, 1-${MAX_CHANGES}; default ${DEFAULT_CHANGES}`,
      example: 100,
    }),
});

const codes = (example: string[], description: string) =>
  z.array(z.string()).optional().openapi({ example, description });

export const AffectsSchema = z
  .object({
    ...targetAffects(),
    pricelistIds: z
      .array(z.number().int())
      .optional()
      .openapi({
        example: [7, 9],
        description: "Pricelists whose prices moved (derived lists included)",
      }),
    channelCodes: codes(["WEB-DE"], "Channels in which prices may have moved"),
    customerCodes: codes(["C-1001"], "Customers whose prices may have moved"),
    customerGroupCodes: codes(["B2B"], "Customer groups: every member of them"),
  })
  .openapi("ChangeAffects", {
    description:
      `Whose prices may have moved, in four dimensions: products (${TARGET_FIELD_LIST}), ` +
      "pricelists, channels, customers (customerCodes, customerGroupCodes). " +
      "A dimension with none of its lists is open: any record of it may be affected. One with " +
      "lists is narrowed to the records they name (an empty list: none). See docs/api/feed-and-webhooks.md §13.2",
    example: { pricelistIds: [7, 9], productCodes: ["P-A"] },
  });

const changeExample = {
  cursor: 1812,
  at: "2025-06-14T08:30:00.000Z",
  event: "prices",
  entity: "pricelistPrice",
  key: { pricelistId: 7, productId: 12, minQuantity: 1, validFrom: null },
  action: "UPDATE",
  operation: "upsertPricelistPrices",
  requestId: "3f1c2a9e-8d7b-4c61-9a52-0e4f7b6d1c23",
  affects: { pricelistIds: [7, 9], productCodes: ["P-A"] },
};

export const ChangeSchema = z
  .object({
    cursor: z.number().int().openapi({
      example: 1812,
      description: "The change's place in the feed, ascending in commit order; read on `after` it",
    }),
    at: IsoTimestamp.openapi({ description: "When the write committed (the database's clock)" }),
    event: z
      .enum(CHANGE_EVENTS)
      .openapi({ description: "The kind of change a webhook subscribes to" }),
    entity: z.string().openapi({
      example: "pricelistPrice",
      description:
        "What changed, as in the audit trail: a record or a link (docs/api/feed-and-webhooks.md §11)",
    }),
    key: z.record(z.string(), z.union([z.number(), z.string()]).nullable()).openapi({
      example: { pricelistId: 7, productId: 12, minQuantity: 1, validFrom: null },
      description:
        "The row: its id and code where it has them, else its key columns (a price row's: pricelistId, productId, minQuantity and validFrom, null for an undated row); for a bulk upsert's memberships, recorded per customer, the customer's id (docs/api/feed-and-webhooks.md §11.1)",
    }),
    action: z.enum(AUDIT_ACTIONS).openapi({ description: "What happened to the row" }),
    operation: z.string().openapi({
      example: "upsertPricelistPrices",
      description: "The operationId of the writing request",
    }),
    requestId: z.string().openapi({
      example: "3f1c2a9e-8d7b-4c61-9a52-0e4f7b6d1c23",
      description: "The server's id of the writing request, shared by every change it made",
    }),
    affects: AffectsSchema,
  })
  .openapi("Change", {
    description: "One committed change of pricing data (one row of the audit trail)",
    example: changeExample,
  });

export const ChangePageSchema = z
  .object({
    data: z.array(ChangeSchema).openapi({ description: "The changes of this page, oldest first" }),
    next: z
      .number()
      .int()
      .openapi({
        example: 1812,
        description:
          "The cursor to send as `after` next: the last change's, or further when the page " +
          "passed over nothing but entries that are not yours to see",
      }),
    hasMore: z.boolean().openapi({
      description: "Whether more changes had committed when this page was read",
    }),
  })
  .openapi("ChangePage", {
    description: "Changes in commit order after the given cursor",
    example: { data: [changeExample], next: 1812, hasMore: false },
  });

export const ExpiredCursorSchema = ProblemSchema.extend({
  oldestCursor: z.number().int().openapi({
    example: 1811,
    description: "The oldest cursor still served: read on from it (changes before it are gone)",
  }),
}).openapi("ExpiredCursorProblem", {
  description: "The cursor is older than the audit retention (EXPIRED_CURSOR)",
});

export const expiredCursorExample = {
  type: "urn:problem:pricing:expired-cursor",
  title: "Gone",
  status: 410,
  detail: "cursor 1200 is older than the retention; the oldest cursor served is 1811",
  code: "EXPIRED_CURSOR",
  oldestCursor: 1811,
  requestId: "3f1c2a9e-8d7b-4c61-9a52-0e4f7b6d1c23",
};
