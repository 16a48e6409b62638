import type { AppRouteHandler } from "../../http/router";
import { findProduct, listProducts, toProduct } from "./products.repo";
import type * as routes from "./products.routes";
import {
  createProduct,
  missingProduct as missing,
  removeProduct,
  updateProduct,
  upsertProducts,
} from "./products.service";

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const list = c.var.list;
  const page = await listProducts(c.var.db, list);
  return c.json(list.envelope(page.rows.map(toProduct), page.total), 200);
};

export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  const row = await createProduct(c.var.db, c.req.valid("json"));
  return c.json(toProduct(row), 201);
};

export const upsert: AppRouteHandler<typeof routes.upsert> = async (c) => {
  const { products } = c.req.valid("json");
  return c.json(await upsertProducts(c.var.db, products), 200);
};

export const get: AppRouteHandler<typeof routes.get> = async (c) => {
  const { code } = c.req.valid("param");
  const row = await findProduct(c.var.db, code);
  if (!row) throw missing(code);
  return c.json(toProduct(row), 200);
};

export const update: AppRouteHandler<typeof routes.update> = async (c) => {
  const { code } = c.req.valid("param");
  const row = await updateProduct(c.var.db, code, c.req.valid("json"));
  if (!row) throw missing(code);
  return c.json(toProduct(row), 200);
};

export const remove: AppRouteHandler<typeof routes.remove> = async (c) => {
  await removeProduct(c.var.db, c.req.valid("param").code);
  return c.body(null, 204);
};
