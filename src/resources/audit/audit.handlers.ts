import type { AppRouteHandler } from "../../http/router";
import { listAuditEntries, toAuditEntry } from "./audit.repo";
import type * as routes from "./audit.routes";

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const list = c.var.list;
  const page = await listAuditEntries(c.var.db, list);
  return c.json(list.envelope(page.rows.map(toAuditEntry), page.total), 200);
};
