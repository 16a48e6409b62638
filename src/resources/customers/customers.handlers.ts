import type { AppRouteHandler } from "../../http/router";
import { missingPricelist } from "../pricelists/pricelists.service";
import {
  deleteCustomer,
  findCustomerDetail,
  listCustomers,
  listPricelistCustomers as readPricelistCustomers,
} from "./customers.repo";
import type * as routes from "./customers.routes";
import {
  assignPricelist as assignCustomerPricelist,
  createCustomer,
  missingCustomer as missing,
  toCustomer,
  toCustomerDetail,
  updateCustomer,
  upsertCustomers,
} from "./customers.service";

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const list = c.var.list;
  const page = await listCustomers(c.var.db, list);
  return c.json(list.envelope(page.rows.map(toCustomer), page.total), 200);
};

export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  const row = await createCustomer(c.var.db, c.req.valid("json"));
  return c.json(toCustomer(row), 201);
};

export const upsert: AppRouteHandler<typeof routes.upsert> = async (c) => {
  const { customers } = c.req.valid("json");
  return c.json(await upsertCustomers(c.var.db, customers), 200);
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
  await assignCustomerPricelist(c.var.db, code, pricelistId);
  return c.json({ customerCode: code, pricelistId }, 201);
};

export const listPricelistCustomers: AppRouteHandler<typeof routes.listPricelistCustomers> = async (
  c,
) => {
  const { id } = c.req.valid("param");
  const list = c.var.list;
  const page = await readPricelistCustomers(c.var.db, id, list, c.var.scope);
  if (!page) throw missingPricelist(id);
  return c.json(list.envelope(page.rows.map(toCustomer), page.total), 200);
};
