import type { AppRouteHandler } from "../../http/router";
import { findBrand, insertBrand, listBrands, toBrand, writeBrand } from "./brands.repo";
import type * as routes from "./brands.routes";
import { missingBrand as missing, removeBrand, upsertBrands } from "./brands.service";

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const list = c.var.list;
  const page = await listBrands(c.var.db, list);
  return c.json(list.envelope(page.rows.map(toBrand), page.total), 200);
};

export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  const row = await insertBrand(c.var.db, c.req.valid("json"));
  return c.json(toBrand(row), 201);
};

export const upsert: AppRouteHandler<typeof routes.upsert> = async (c) => {
  const { brands } = c.req.valid("json");
  return c.json(await upsertBrands(c.var.db, brands), 200);
};

export const get: AppRouteHandler<typeof routes.get> = async (c) => {
  const { code } = c.req.valid("param");
  const row = await findBrand(c.var.db, code);
  if (!row) throw missing(code);
  return c.json(toBrand(row), 200);
};

export const update: AppRouteHandler<typeof routes.update> = async (c) => {
  const { code } = c.req.valid("param");
  const row = await writeBrand(c.var.db, code, c.req.valid("json"));
  if (!row) throw missing(code);
  return c.json(toBrand(row), 200);
};

export const remove: AppRouteHandler<typeof routes.remove> = async (c) => {
  await removeBrand(c.var.db, c.req.valid("param").code);
  return c.body(null, 204);
};
