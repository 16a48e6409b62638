import { pageInMemory } from "../../list";
import type { AppRouteHandler } from "../../http/router";
import { answered, filterable, lintList } from "./pricing-lint.list";
import type * as routes from "./pricing-lint.routes";
import { lintPricing } from "./pricing-lint.service";

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const list = c.var.list;
  const findings = (await lintPricing(c.var.db, Date.now())).map(filterable);
  const page = pageInMemory(lintList.config, list, findings);
  return c.json(list.envelope(page.rows.map(answered), page.total), 200);
};
