import { assignmentRouter } from "../../http/assignments";
import type { AppRouteHandler } from "../../http/router";
import { toCustomer } from "../customers/customers.service";
import { toPricelist } from "../pricelists/pricelists.service";
import {
  createCustomerGroup,
  findCustomerGroup,
  listCustomerGroups,
  listGroupCustomers,
  listGroupPricelists,
  updateCustomerGroup,
} from "./customer-groups.repo";
import * as routes from "./customer-groups.routes";
import {
  assignCustomers as assignMembers,
  assignPricelist as assignGroupPricelist,
  missingGroup as missing,
  removeCustomerGroup,
  toCustomerGroup,
  unassignCustomers as unassignMembers,
  unassignPricelist as unassignGroupPricelist,
  upsertCustomerGroups,
} from "./customer-groups.service";

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const list = c.var.list;
  const page = await listCustomerGroups(c.var.db, list);
  return c.json(list.envelope(page.rows.map(toCustomerGroup), page.total), 200);
};

export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  const row = await createCustomerGroup(c.var.db, c.req.valid("json"));
  return c.json(toCustomerGroup(row), 201);
};

export const upsert: AppRouteHandler<typeof routes.upsert> = async (c) => {
  const { customerGroups } = c.req.valid("json");
  return c.json(await upsertCustomerGroups(c.var.db, customerGroups), 200);
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

export const remove: AppRouteHandler<typeof routes.remove> = async (c) => {
  await removeCustomerGroup(c.var.db, c.req.valid("param").code);
  return c.body(null, 204);
};

export const assignPricelist: AppRouteHandler<typeof routes.assignPricelist> = async (c) => {
  const { code } = c.req.valid("param");
  const { pricelistId } = c.req.valid("json");
  await assignGroupPricelist(c.var.db, code, pricelistId);
  return c.json({ customerGroupCode: code, pricelistId }, 201);
};

export const unassignPricelist: AppRouteHandler<typeof routes.unassignPricelist> = async (c) => {
  const { code } = c.req.valid("param");
  const { pricelistId } = c.req.valid("json");
  await unassignGroupPricelist(c.var.db, code, pricelistId);
  return c.json({ customerGroupCode: code, pricelistId }, 200);
};

export const customerAssignments = assignmentRouter(routes.customerAssignments, {
  assign: (db, { code }, codes) => assignMembers(db, code, codes),
  unassign: (db, { code }, codes) => unassignMembers(db, code, codes),
});

export const listCustomers: AppRouteHandler<typeof routes.listCustomers> = async (c) => {
  const { code } = c.req.valid("param");
  const page = await listGroupCustomers(c.var.db, code, c.var.list);
  if (!page) throw missing(code);
  return c.json(c.var.list.envelope(page.rows.map(toCustomer), page.total), 200);
};

export const listPricelists: AppRouteHandler<typeof routes.listPricelists> = async (c) => {
  const { code } = c.req.valid("param");
  const page = await listGroupPricelists(c.var.db, code, c.var.list);
  if (!page) throw missing(code);
  return c.json(
    c.var.list.envelope(
      page.rows.map((row) => toPricelist(row)),
      page.total,
    ),
    200,
  );
};
