import { notFound } from "../../lib/errors";
import type { AppRouteHandler } from "../../lib/router";
import {
  createCustomerGroup,
  findCustomerGroup,
  listCustomerGroups,
  toCustomerGroup,
  updateCustomerGroup,
} from "./customer-groups.repo";
import type * as routes from "./customer-groups.routes";

const missing = (code: string) => notFound(`customer group ${code} not found`);

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const list = c.var.list;
  const page = await listCustomerGroups(c.var.db, list);
  return c.json(list.envelope(page.rows.map(toCustomerGroup), page.total), 200);
};

export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  const row = await createCustomerGroup(c.var.db, c.req.valid("json"));
  return c.json(toCustomerGroup(row), 201);
};

export const get: AppRouteHandler<typeof routes.get> = async (c) => {
  const { code } = c.req.valid("param");
  const row = await findCustomerGroup(c.var.db, code);
  if (!row) throw missing(code);
  return c.json(toCustomerGroup(row), 200);
};

export const update: AppRouteHandler<typeof routes.update> = async (c) => {
  const { code } = c.req.valid("param");
  const row = await updateCustomerGroup(c.var.db, code, c.req.valid("json"));
  if (!row) throw missing(code);
  return c.json(toCustomerGroup(row), 200);
};
