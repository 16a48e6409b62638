import { assignByCodes, unassignByCodes } from "../../db/links";
import type { Db } from "../../lib/db";
import { notFound } from "../../lib/errors";
import type { AppRouteHandler } from "../../lib/router";
import { assertAssignable } from "../channels/channels.repo";
import {
  assignGroupPricelist,
  createCustomerGroup,
  findCustomerGroup,
  findCustomerGroupId,
  findGroupAndPricelist,
  groupMembersLink,
  listCustomerGroups,
  toCustomerGroup,
  unassignGroupPricelist,
  updateCustomerGroup,
} from "./customer-groups.repo";
import type * as routes from "./customer-groups.routes";

const missing = (code: string) => notFound(`customer group ${code} not found`);
const missingPricelist = (id: number) => notFound(`pricelist ${id} not found`);

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const list = c.var.list;
  const page = await listCustomerGroups(c.var.db, list);
  return c.json(list.envelope(page.rows.map(toCustomerGroup), page.total), 200);
};

export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  const row = await createCustomerGroup(c.var.db, c.req.valid("json"));
  return c.json(toCustomerGroup(row), 201);
};

export const get: AppRouteHandler<typeof routes.get> = async (c) => {
  const { code } = c.req.valid("param");
  const row = await findCustomerGroup(c.var.db, code);
  if (!row) throw missing(code);
  return c.json(toCustomerGroup(row), 200);
};

export const update: AppRouteHandler<typeof routes.update> = async (c) => {
  const { code } = c.req.valid("param");
  const row = await updateCustomerGroup(c.var.db, code, c.req.valid("json"));
  if (!row) throw missing(code);
  return c.json(toCustomerGroup(row), 200);
};

export const assignPricelist: AppRouteHandler<typeof routes.assignPricelist> = async (c) => {
  const { code } = c.req.valid("param");
  const { pricelistId } = c.req.valid("json");
  const { groupId, pricelist } = await findGroupAndPricelist(c.var.db, code, pricelistId);
  if (groupId === undefined) throw missing(code);
  if (!pricelist) throw missingPricelist(pricelistId);
  assertAssignable(pricelist, `customer group ${code}`);
  if (!(await assignGroupPricelist(c.var.db, groupId, pricelistId))) throw missing(code);
  return c.json({ customerGroupCode: code, pricelistId }, 201);
};

export const unassignPricelist: AppRouteHandler<typeof routes.unassignPricelist> = async (c) => {
  const { code } = c.req.valid("param");
  const { pricelistId } = c.req.valid("json");
  const result = await unassignGroupPricelist(c.var.db, code, pricelistId);
  if (!result.groupFound) throw missing(code);
  if (!result.pricelistFound) throw missingPricelist(pricelistId);
  if (!result.unassigned) {
    throw notFound(`pricelist ${pricelistId} is not assigned to customer group ${code}`);
  }
  return c.json({ customerGroupCode: code, pricelistId }, 200);
};

async function requireGroupId(db: Db, code: string) {
  const id = await findCustomerGroupId(db, code);
  if (id === undefined) throw missing(code);
  return id;
}

export const assignCustomers: AppRouteHandler<typeof routes.assignCustomers> = async (c) => {
  const { code } = c.req.valid("param");
  const { customerCodes } = c.req.valid("json");
  const groupId = await requireGroupId(c.var.db, code);
  const result = await assignByCodes(c.var.db, groupMembersLink, groupId, customerCodes);
  return c.json(result, 201);
};

export const unassignCustomers: AppRouteHandler<typeof routes.unassignCustomers> = async (c) => {
  const { code } = c.req.valid("param");
  const { customerCodes } = c.req.valid("json");
  const groupId = await requireGroupId(c.var.db, code);
  const result = await unassignByCodes(c.var.db, groupMembersLink, groupId, customerCodes);
  return c.json(result, 200);
};
