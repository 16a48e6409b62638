import type { AppRouteHandler } from "../../http/router";
import { findProductGroup, listProductGroups, toProductGroup } from "./product-groups.repo";
import type * as routes from "./product-groups.routes";
import {
  createProductGroup,
  missingProductGroup as missing,
  removeProductGroup,
  updateProductGroup,
  upsertProductGroups,
} from "./product-groups.service";

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const list = c.var.list;
  const page = await listProductGroups(c.var.db, list);
  return c.json(list.envelope(page.rows.map(toProductGroup), page.total), 200);
};

export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  const row = await createProductGroup(c.var.db, c.req.valid("json"));
  return c.json(toProductGroup(row), 201);
};

export const upsert: AppRouteHandler<typeof routes.upsert> = async (c) => {
  const { productGroups } = c.req.valid("json");
  return c.json(await upsertProductGroups(c.var.db, productGroups), 200);
};

export const get: AppRouteHandler<typeof routes.get> = async (c) => {
  const { code } = c.req.valid("param");
  const row = await findProductGroup(c.var.db, code);
  if (!row) throw missing(code);
  return c.json(toProductGroup(row), 200);
};

export const update: AppRouteHandler<typeof routes.update> = async (c) => {
  const { code } = c.req.valid("param");
  const row = await updateProductGroup(c.var.db, code, c.req.valid("json"));
  if (!row) throw missing(code);
  return c.json(toProductGroup(row), 200);
};

export const remove: AppRouteHandler<typeof routes.remove> = async (c) => {
  await removeProductGroup(c.var.db, c.req.valid("param").code);
  return c.body(null, 204);
};
