import type { AppRouteHandler } from "../../http/router";
import { findPromotion, listPromotions, toPromotion } from "./promotions.repo";
import type * as routes from "./promotions.routes";
import {
  createPromotion,
  missingPromotion as missing,
  updatePromotion,
} from "./promotions.service";

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const list = c.var.list;
  const page = await listPromotions(c.var.db, list);
  return c.json(list.envelope(page.rows.map(toPromotion), page.total), 200);
};

export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  const row = await createPromotion(c.var.db, c.req.valid("json"));
  return c.json(toPromotion(row), 201);
};

export const get: AppRouteHandler<typeof routes.get> = async (c) => {
  const { id } = c.req.valid("param");
  const row = await findPromotion(c.var.db, id);
  if (!row) throw missing(id);
  return c.json(toPromotion(row), 200);
};

export const update: AppRouteHandler<typeof routes.update> = async (c) => {
  const { id } = c.req.valid("param");
  const row = await updatePromotion(c.var.db, id, c.req.valid("json"));
  if (!row) throw missing(id);
  return c.json(toPromotion(row), 200);
};
