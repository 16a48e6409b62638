import { notFound } from "../../lib/errors";
import type { AppRouteHandler } from "../../lib/router";
import {
  createChannel,
  deleteChannel,
  findChannel,
  listChannels,
  toChannel,
  updateChannel,
} from "./channels.repo";
import type * as routes from "./channels.routes";

const missing = (code: string) => notFound(`channel ${code} not found`);

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const list = c.var.list;
  const page = await listChannels(c.var.db, list);
  return c.json(list.envelope(page.rows.map(toChannel), page.total), 200);
};

export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  const row = await createChannel(c.var.db, c.req.valid("json"));
  return c.json(toChannel(row), 201);
};

export const get: AppRouteHandler<typeof routes.get> = async (c) => {
  const { code } = c.req.valid("param");
  const row = await findChannel(c.var.db, code);
  if (!row) throw missing(code);
  return c.json(toChannel(row), 200);
};

export const update: AppRouteHandler<typeof routes.update> = async (c) => {
  const { code } = c.req.valid("param");
  const row = await updateChannel(c.var.db, code, c.req.valid("json"));
  if (!row) throw missing(code);
  return c.json(toChannel(row), 200);
};

export const remove: AppRouteHandler<typeof routes.remove> = async (c) => {
  const { code } = c.req.valid("param");
  if (!(await deleteChannel(c.var.db, code))) throw missing(code);
  return c.body(null, 204);
};
