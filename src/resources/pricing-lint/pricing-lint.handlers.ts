import { pageInMemory } from "../../list";
import type { AppRouteHandler } from "../../lib/http/router";
import { lintList } from "./pricing-lint.list";
import type * as routes from "./pricing-lint.routes";
import { lintPricing } from "./pricing-lint.service";

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const list = c.var.list;
  const page = pageInMemory(lintList.config, list, await lintPricing(c.var.db, Date.now()));
  return c.json(list.envelope(page.rows, page.total), 200);
};
