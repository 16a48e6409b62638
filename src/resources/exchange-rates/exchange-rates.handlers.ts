import type { AppRouteHandler } from "../../http/router";
import { findExchangeRate, listExchangeRates, toExchangeRate } from "./exchange-rates.repo";
import type * as routes from "./exchange-rates.routes";
import {
  missingExchangeRate as missing,
  removeExchangeRate,
  upsertExchangeRates,
} from "./exchange-rates.service";

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const list = c.var.list;
  const page = await listExchangeRates(c.var.db, list, c.req.valid("query").at);
  return c.json(list.envelope(page.rows.map(toExchangeRate), page.total), 200);
};

export const upsert: AppRouteHandler<typeof routes.upsert> = async (c) => {
  const { rates } = c.req.valid("json");
  return c.json(await upsertExchangeRates(c.var.db, rates), 200);
};

export const get: AppRouteHandler<typeof routes.get> = async (c) => {
  const key = c.req.valid("param");
  const row = await findExchangeRate(c.var.db, key);
  if (!row) throw missing(key);
  return c.json(toExchangeRate(row), 200);
};

export const remove: AppRouteHandler<typeof routes.remove> = async (c) => {
  await removeExchangeRate(c.var.db, c.req.valid("param"));
  return c.body(null, 204);
};
