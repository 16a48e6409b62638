import { FOREIGN_KEY } from "../../db/outcomes";
import { conflict, notFound } from "../../lib/errors";
import type { AppRouteHandler } from "../../lib/router";
import {
  createProduct,
  deleteProduct,
  findProduct,
  listProducts,
  toProduct,
  updateProduct,
} from "./products.repo";
import type * as routes from "./products.routes";

const missing = (code: string) => notFound(`product ${code} not found`);

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const list = c.var.list;
  const page = await listProducts(c.var.db, list);
  return c.json(list.envelope(page.rows.map(toProduct), page.total), 200);
};

export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  const row = await createProduct(c.var.db, c.req.valid("json"));
  return c.json(toProduct(row), 201);
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
  const { code } = c.req.valid("param");
  const deleted = await deleteProduct(c.var.db, code);
  if (deleted === FOREIGN_KEY) {
    throw conflict(
      `product ${code} still has prices or is named by a trade condition or promotion`,
    );
  }
  if (!deleted) throw missing(code);
  return c.body(null, 204);
};
