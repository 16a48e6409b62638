import { notFound } from "../../lib/errors";
import type { AppRouteHandler } from "../../lib/router";
import {
  createTradeCondition,
  findTradeCondition,
  listTradeConditions,
  toTradeCondition,
  updateTradeCondition,
} from "./trade-conditions.repo";
import type * as routes from "./trade-conditions.routes";

const missing = (id: number) => notFound(`trade condition ${id} not found`);

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const list = c.var.list;
  const channel = c.req.valid("header")["x-channel"];
  const page = await listTradeConditions(c.var.db, list, channel);
  if (!page) throw notFound(`channel ${channel} not found`);
  return c.json(list.envelope(page.rows.map(toTradeCondition), page.total), 200);
};

export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  const row = await createTradeCondition(c.var.db, c.req.valid("json"));
  return c.json(toTradeCondition(row), 201);
};

export const get: AppRouteHandler<typeof routes.get> = async (c) => {
  const { id } = c.req.valid("param");
  const row = await findTradeCondition(c.var.db, id);
  if (!row) throw missing(id);
  return c.json(toTradeCondition(row), 200);
};

export const update: AppRouteHandler<typeof routes.update> = async (c) => {
  const { id } = c.req.valid("param");
  const row = await updateTradeCondition(c.var.db, id, c.req.valid("json"));
  if (!row) throw missing(id);
  return c.json(toTradeCondition(row), 200);
};
