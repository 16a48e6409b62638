import { assignByCodes, unassignByCodes } from "../../db/links";
import type { Db } from "../../lib/db";
import { notFound } from "../../lib/errors";
import type { AppRouteHandler } from "../../lib/router";
import {
  channelGroups,
  createChannel,
  deleteChannel,
  findChannel,
  findChannelId,
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

async function requireChannelId(db: Db, code: string) {
  const id = await findChannelId(db, code);
  if (id === undefined) throw missing(code);
  return id;
}

export const assignCustomerGroups: AppRouteHandler<typeof routes.assignCustomerGroups> = async (
  c,
) => {
  const { code } = c.req.valid("param");
  const { customerGroupCodes } = c.req.valid("json");
  const result = await assignByCodes(
    c.var.db,
    channelGroups,
    await requireChannelId(c.var.db, code),
    customerGroupCodes,
  );
  return c.json(result, 201);
};

export const unassignCustomerGroups: AppRouteHandler<typeof routes.unassignCustomerGroups> = async (
  c,
) => {
  const { code } = c.req.valid("param");
  const { customerGroupCodes } = c.req.valid("json");
  const result = await unassignByCodes(
    c.var.db,
    channelGroups,
    await requireChannelId(c.var.db, code),
    customerGroupCodes,
  );
  return c.json(result, 200);
};
