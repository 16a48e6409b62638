import { notFound } from "../../lib/errors";
import type { AppRouteHandler } from "../../lib/router";
import { assertAssignable } from "../channels/channels.repo";
import {
  assignCustomerPricelist,
  createCustomer,
  deleteCustomer,
  findCustomerAndPricelist,
  findCustomerDetail,
  listCustomers,
  toCustomer,
  toCustomerDetail,
  updateCustomer,
} from "./customers.repo";
import type * as routes from "./customers.routes";

const missing = (code: string) => notFound(`customer ${code} not found`);

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const list = c.var.list;
  const page = await listCustomers(c.var.db, list);
  return c.json(list.envelope(page.rows.map(toCustomer), page.total), 200);
};

export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  const row = await createCustomer(c.var.db, c.req.valid("json"));
  return c.json(toCustomer(row), 201);
};

export const get: AppRouteHandler<typeof routes.get> = async (c) => {
  const { code } = c.req.valid("param");
  const found = await findCustomerDetail(c.var.db, code);
  if (!found) throw missing(code);
  return c.json(toCustomerDetail(found, Date.now()), 200);
};

export const update: AppRouteHandler<typeof routes.update> = async (c) => {
  const { code } = c.req.valid("param");
  const row = await updateCustomer(c.var.db, code, c.req.valid("json"));
  if (!row) throw missing(code);
  return c.json(toCustomer(row), 200);
};

export const remove: AppRouteHandler<typeof routes.remove> = async (c) => {
  const { code } = c.req.valid("param");
  if (!(await deleteCustomer(c.var.db, code))) throw missing(code);
  return c.body(null, 204);
};

export const assignPricelist: AppRouteHandler<typeof routes.assignPricelist> = async (c) => {
  const { code } = c.req.valid("param");
  const { pricelistId } = c.req.valid("json");
  const { customerId, pricelist } = await findCustomerAndPricelist(c.var.db, code, pricelistId);
  if (customerId === undefined) throw missing(code);
  if (!pricelist) throw notFound(`pricelist ${pricelistId} not found`);
  // The customer's own INDIVIDUAL pricelist is already its own: nothing to write (unless ARCHIVED).
  const own = pricelist.customerId === customerId;
  if (!own || pricelist.status === "ARCHIVED") assertAssignable(pricelist, `customer ${code}`);
  if (!own && !(await assignCustomerPricelist(c.var.db, customerId, pricelistId))) {
    throw missing(code);
  }
  return c.json({ customerCode: code, pricelistId }, 201);
};
