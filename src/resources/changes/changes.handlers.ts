import { readChanges } from "../../feed/read";
import { ApiError } from "../../core/errors";
import type { AppRouteHandler } from "../../http/router";
import type * as routes from "./changes.routes";
import { DEFAULT_CHANGES } from "./changes.schemas";

/**
 * An expired cursor: the problem names the oldest cursor still served
 * (docs/api/feed-and-webhooks.md §13.3).
 */
export const expiredCursor = (after: number, oldest: number) =>
  new ApiError(
    410,
    "EXPIRED_CURSOR",
    `cursor ${after} is older than the retention; the oldest cursor served is ${oldest}`,
    undefined,
    { extensions: { oldestCursor: oldest } },
  );

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const { after = 0, limit = DEFAULT_CHANGES } = c.req.valid("query");
  // A read key gets no change of a COST pricelist or an ACCRUAL condition (docs/api/access.md §18).
  const page = await readChanges(c.var.db, { after, limit }, c.var.scope);
  if ("expired" in page) throw expiredCursor(after, page.expired);
  return c.json({ data: page.changes, next: page.next, hasMore: page.hasMore }, 200);
};
