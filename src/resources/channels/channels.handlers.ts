import { unassignByCodes } from "../../db/links";
import type { Db } from "../../lib/db";
import { notFound } from "../../lib/errors";
import type { AppRouteHandler } from "../../lib/router";
import { toPricelist } from "../pricelists/pricelists.repo";
import {
  assertAssignable,
  assignChannelPricelist,
  assignToChannel,
  channelCustomersLink,
  channelGroups,
  clearPrimaryPricelist as clearPrimary,
  createChannel,
  deleteChannel,
  findChannel,
  findChannelAndPricelist,
  findChannelId,
  listChannels,
  setPrimaryPricelist as setPrimary,
  toChannel,
  updateChannel,
} from "./channels.repo";
import type * as routes from "./channels.routes";

const missing = (code: string) => notFound(`channel ${code} not found`);
const missingPricelist = (id: number) => notFound(`pricelist ${id} not found`);

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
  const channelId = await requireChannelId(c.var.db, code);
  const result = await assignToChannel(c.var.db, channelGroups, channelId, customerGroupCodes);
  if (!result) throw missing(code);
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

export const assignCustomers: AppRouteHandler<typeof routes.assignCustomers> = async (c) => {
  const { code } = c.req.valid("param");
  const { customerCodes } = c.req.valid("json");
  const channelId = await requireChannelId(c.var.db, code);
  const result = await assignToChannel(c.var.db, channelCustomersLink, channelId, customerCodes);
  if (!result) throw missing(code);
  return c.json(result, 201);
};

export const unassignCustomers: AppRouteHandler<typeof routes.unassignCustomers> = async (c) => {
  const { code } = c.req.valid("param");
  const { customerCodes } = c.req.valid("json");
  const channelId = await requireChannelId(c.var.db, code);
  const result = await unassignByCodes(c.var.db, channelCustomersLink, channelId, customerCodes);
  return c.json(result, 200);
};

/** The channel's id and an assignable pricelist, or the 404/409 that stops the write. */
async function requireAssignment(db: Db, code: string, pricelistId: number) {
  const { channelId, pricelist } = await findChannelAndPricelist(db, code, pricelistId);
  if (channelId === undefined) throw missing(code);
  if (!pricelist) throw missingPricelist(pricelistId);
  assertAssignable(pricelist, `channel ${code}`);
  return { channelId, pricelist };
}

export const assignPricelist: AppRouteHandler<typeof routes.assignPricelist> = async (c) => {
  const { code } = c.req.valid("param");
  const { pricelistId } = c.req.valid("json");
  const { channelId } = await requireAssignment(c.var.db, code, pricelistId);
  if (!(await assignChannelPricelist(c.var.db, channelId, pricelistId))) throw missing(code);
  return c.json({ channelCode: code, pricelistId }, 201);
};

export const setPrimaryPricelist: AppRouteHandler<typeof routes.setPrimaryPricelist> = async (
  c,
) => {
  const { code } = c.req.valid("param");
  const { pricelistId } = c.req.valid("json");
  const { channelId, pricelist } = await requireAssignment(c.var.db, code, pricelistId);
  const row = await setPrimary(c.var.db, channelId, pricelistId);
  if (!row) throw missing(code);
  return c.json({ ...toChannel(row), primaryPricelist: toPricelist(pricelist) }, 200);
};

export const clearPrimaryPricelist: AppRouteHandler<typeof routes.clearPrimaryPricelist> = async (
  c,
) => {
  const { code } = c.req.valid("param");
  if (!(await clearPrimary(c.var.db, code))) throw missing(code);
  return c.body(null, 204);
};
