import { createRoute } from "@hono/zod-openapi";
import { errors, json } from "../../http/openapi";
import {
  ChangePageSchema,
  ChangesQuery,
  ExpiredCursorSchema,
  expiredCursorExample,
} from "./changes.schemas";

/** The group of this resource's operations in /doc. */
export const tag = {
  name: "Changes",
  description: "The change feed: every committed change of pricing data, in commit order",
};

export const list = createRoute({
  method: "get",
  path: "/v1/api/changes",
  tags: [tag.name],
  operationId: "listChanges",
  summary: "Read the change feed after a cursor",
  description:
    "Every committed change of pricing data, oldest first, read from the audit trail that each " +
    "write records in its own D1 batch: ids are commit order, so reading on from `next` misses " +
    "nothing and repeats nothing, whatever is written meanwhile. `affects` says whose prices may " +
    "have moved. Changes are kept as long as the audit trail (AUDIT_RETENTION_DAYS, 400 days " +
    "by default): without `after` (or with 0) the feed starts at the oldest change kept; a " +
    "cursor older than that → 410 EXPIRED_CURSOR with `oldestCursor`. A cursor past the " +
    "newest change answers an empty page. Read keys may call it. Webhooks push the same changes " +
    "(docs/api/feed-and-webhooks.md §13, §14).",
  request: { query: ChangesQuery },
  responses: {
    200: json(ChangePageSchema, "A page of changes"),
    410: {
      content: {
        "application/problem+json": { schema: ExpiredCursorSchema, example: expiredCursorExample },
      },
      description: "The cursor is older than the retention",
    },
    ...errors(400, 401),
  },
});
