import { assignmentRouter } from "../../http/assignments";
import type { AppRouteHandler } from "../../http/router";
import { toCustomerGroup } from "../customer-groups/customer-groups.service";
import { toCustomer } from "../customers/customers.service";
import { toPricelist } from "../pricelists/pricelists.service";
import {
  clearPrimaryPricelist as clearPrimary,
  createChannel,
  findChannel,
  listChannelCustomerGroups,
  listChannelCustomers,
  listChannelPricelists,
  listChannels,
  toChannel,
  updateChannel,
  type ChannelPricelistRow,
} from "./channels.repo";
import * as routes from "./channels.routes";
import {
  assignLinked,
  assignPricelist as assignChannelPricelist,
  missingChannel as missing,
  removeChannel,
  setPrimaryPricelist as setPrimary,
  unassignLinked,
} from "./channels.service";

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
  await removeChannel(c.var.db, c.req.valid("param").code);
  return c.body(null, 204);
};

export const customerGroupAssignments = assignmentRouter(routes.customerGroupAssignments, {
  assign: (db, { code }, codes) => assignLinked(db, code, "customerGroupCodes", codes),
  unassign: (db, { code }, codes) => unassignLinked(db, code, "customerGroupCodes", codes),
});

export const customerAssignments = assignmentRouter(routes.customerAssignments, {
  assign: (db, { code }, codes) => assignLinked(db, code, "customerCodes", codes),
  unassign: (db, { code }, codes) => unassignLinked(db, code, "customerCodes", codes),
});

export const assignPricelist: AppRouteHandler<typeof routes.assignPricelist> = async (c) => {
  const { code } = c.req.valid("param");
  const { pricelistId } = c.req.valid("json");
  await assignChannelPricelist(c.var.db, code, pricelistId);
  return c.json({ channelCode: code, pricelistId }, 201);
};

export const setPrimaryPricelist: AppRouteHandler<typeof routes.setPrimaryPricelist> = async (
  c,
) => {
  const { code } = c.req.valid("param");
  const { pricelistId } = c.req.valid("json");
  const { channel, pricelist } = await setPrimary(c.var.db, code, pricelistId);
  return c.json({ ...toChannel(channel), primaryPricelist: toPricelist(pricelist) }, 200);
};

export const clearPrimaryPricelist: AppRouteHandler<typeof routes.clearPrimaryPricelist> = async (
  c,
) => {
  const { code } = c.req.valid("param");
  if (!(await clearPrimary(c.var.db, code))) throw missing(code);
  return c.body(null, 204);
};

const toAssignedPricelist = (row: ChannelPricelistRow) => ({
  ...toPricelist(row),
  isPrimary: row.isPrimary,
});

export const listPricelists: AppRouteHandler<typeof routes.listPricelists> = async (c) => {
  const { code } = c.req.valid("param");
  const page = await listChannelPricelists(c.var.db, code, c.var.list, c.var.scope);
  if (!page) throw missing(code);
  const rows = page.rows.map(toAssignedPricelist);
  return c.json(c.var.list.envelope(rows, page.total), 200);
};

export const listCustomers: AppRouteHandler<typeof routes.listCustomers> = async (c) => {
  const { code } = c.req.valid("param");
  const page = await listChannelCustomers(c.var.db, code, c.var.list);
  if (!page) throw missing(code);
  return c.json(c.var.list.envelope(page.rows.map(toCustomer), page.total), 200);
};

export const listCustomerGroups: AppRouteHandler<typeof routes.listCustomerGroups> = async (c) => {
  const { code } = c.req.valid("param");
  const page = await listChannelCustomerGroups(c.var.db, code, c.var.list);
  if (!page) throw missing(code);
  return c.json(c.var.list.envelope(page.rows.map(toCustomerGroup), page.total), 200);
};
