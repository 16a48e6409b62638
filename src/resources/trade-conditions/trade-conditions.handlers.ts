import { notFound } from "../../core/errors";
import { assignmentRouter } from "../../http/assignments";
import type { AppRouteHandler } from "../../http/router";
import {
  findSeenTradeCondition,
  listCustomerTradeConditions,
  listTradeConditions,
  toCustomerTradeCondition,
  toTradeCondition,
} from "./trade-conditions.repo";
import * as routes from "./trade-conditions.routes";
import {
  assignTargets,
  createTradeCondition,
  missingCondition as missing,
  unassignTargets,
  updateTradeCondition,
} from "./trade-conditions.service";

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const list = c.var.list;
  const channel = c.req.valid("header")["x-channel"];
  const page = await listTradeConditions(c.var.db, list, c.var.scope, channel);
  if (!page) throw notFound(`channel ${channel} not found`);
  return c.json(list.envelope(page.rows.map(toTradeCondition), page.total), 200);
};

export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  const row = await createTradeCondition(c.var.db, c.req.valid("json"));
  return c.json(toTradeCondition(row), 201);
};

export const get: AppRouteHandler<typeof routes.get> = async (c) => {
  const { id } = c.req.valid("param");
  // An ACCRUAL condition does not exist for a read key (docs/api/access.md §18).
  const row = await findSeenTradeCondition(c.var.db, id, c.var.scope);
  if (!row) throw missing(id);
  return c.json(toTradeCondition(row), 200);
};

export const update: AppRouteHandler<typeof routes.update> = async (c) => {
  const { id } = c.req.valid("param");
  const row = await updateTradeCondition(c.var.db, id, c.req.valid("json"));
  if (!row) throw missing(id);
  return c.json(toTradeCondition(row), 200);
};

export const customerGroupAssignments = assignmentRouter(routes.customerGroupAssignments, {
  assign: (db, { id }, codes) => assignTargets(db, id, "CUSTOMER_GROUP", codes),
  unassign: (db, { id }, codes) => unassignTargets(db, id, "CUSTOMER_GROUP", codes),
});

export const customerAssignments = assignmentRouter(routes.customerAssignments, {
  assign: (db, { id }, codes) => assignTargets(db, id, "CUSTOMER", codes),
  unassign: (db, { id }, codes) => unassignTargets(db, id, "CUSTOMER", codes),
});

export const listForCustomer: AppRouteHandler<typeof routes.listForCustomer> = async (c) => {
  const list = c.var.list;
  const { code } = c.req.valid("param");
  const page = await listCustomerTradeConditions(c.var.db, code, list, c.var.scope);
  if (!page) throw notFound(`customer ${code} not found`);
  return c.json(list.envelope(page.rows.map(toCustomerTradeCondition), page.total), 200);
};
