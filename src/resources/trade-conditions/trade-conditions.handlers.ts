import { sql } from "drizzle-orm";
import { assignByCodes, unassignByCodes } from "../../db/links";
import type { Db } from "../../lib/db";
import { conflict, notFound } from "../../lib/errors";
import type { AppRouteHandler } from "../../lib/router";
import {
  conditionCustomers,
  conditionGroups,
  createTradeCondition,
  findTradeCondition,
  findTradeConditionState,
  listCustomerTradeConditions,
  listTradeConditions,
  toCustomerTradeCondition,
  toTradeCondition,
  updateTradeCondition,
} from "./trade-conditions.repo";
import type * as routes from "./trade-conditions.routes";

const missing = (id: number) => notFound(`trade condition ${id} not found`);

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const list = c.var.list;
  const channel = c.req.valid("header")["x-channel"];
  const page = await listTradeConditions(c.var.db, list, channel);
  if (!page) throw notFound(`channel ${channel} not found`);
  return c.json(list.envelope(page.rows.map(toTradeCondition), page.total), 200);
};

export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  const row = await createTradeCondition(c.var.db, c.req.valid("json"));
  return c.json(toTradeCondition(row), 201);
};

export const get: AppRouteHandler<typeof routes.get> = async (c) => {
  const { id } = c.req.valid("param");
  const row = await findTradeCondition(c.var.db, id);
  if (!row) throw missing(id);
  return c.json(toTradeCondition(row), 200);
};

export const update: AppRouteHandler<typeof routes.update> = async (c) => {
  const { id } = c.req.valid("param");
  const row = await updateTradeCondition(c.var.db, id, c.req.valid("json"));
  if (!row) throw missing(id);
  return c.json(toTradeCondition(row), 200);
};

/**
 * The condition whose targets change: it must exist (404) and not be ARCHIVED (409); an
 * assignment also needs the scope that the targets belong to (409 naming the actual scope).
 */
async function requireTargetable(db: Db, id: number, scope?: "CUSTOMER_GROUP" | "CUSTOMER") {
  const state = await findTradeConditionState(db, id);
  if (!state) throw missing(id);
  if (state.status === "ARCHIVED") {
    throw conflict(`trade condition ${id} is ARCHIVED and can no longer be edited`);
  }
  if (scope && state.scope !== scope) {
    throw conflict(
      `trade condition ${id} has scope ${state.scope}; only ${scope}-scope conditions take ` +
        (scope === "CUSTOMER" ? "customers" : "customer groups"),
    );
  }
  return id;
}

/**
 * Assigns targets only while the condition still has that scope and is not ARCHIVED: the check
 * above runs a round trip earlier, so the insert re-checks it, and a miss is reported as the 409
 * it would have been.
 */
async function assignTargets(
  db: Db,
  id: number,
  scope: "CUSTOMER_GROUP" | "CUSTOMER",
  codes: string[],
) {
  await requireTargetable(db, id, scope);
  const spec = scope === "CUSTOMER" ? conditionCustomers : conditionGroups;
  const guard = sql`exists (select 1 from trade_conditions where id = ${id}
    and scope = ${scope} and status <> 'ARCHIVED')`;
  const result = await assignByCodes(db, spec, id, codes, guard);
  if (result.assigned.length === 0 && result.notFound.length < codes.length) {
    await requireTargetable(db, id, scope);
  }
  return result;
}

export const assignCustomerGroups: AppRouteHandler<typeof routes.assignCustomerGroups> = async (
  c,
) => {
  const { customerGroupCodes } = c.req.valid("json");
  const id = c.req.valid("param").id;
  return c.json(await assignTargets(c.var.db, id, "CUSTOMER_GROUP", customerGroupCodes), 201);
};

export const unassignCustomerGroups: AppRouteHandler<typeof routes.unassignCustomerGroups> = async (
  c,
) => {
  const id = await requireTargetable(c.var.db, c.req.valid("param").id);
  const { customerGroupCodes } = c.req.valid("json");
  return c.json(await unassignByCodes(c.var.db, conditionGroups, id, customerGroupCodes), 200);
};

export const assignCustomers: AppRouteHandler<typeof routes.assignCustomers> = async (c) => {
  const { customerCodes } = c.req.valid("json");
  const id = c.req.valid("param").id;
  return c.json(await assignTargets(c.var.db, id, "CUSTOMER", customerCodes), 201);
};

export const unassignCustomers: AppRouteHandler<typeof routes.unassignCustomers> = async (c) => {
  const id = await requireTargetable(c.var.db, c.req.valid("param").id);
  const { customerCodes } = c.req.valid("json");
  return c.json(await unassignByCodes(c.var.db, conditionCustomers, id, customerCodes), 200);
};

export const listForCustomer: AppRouteHandler<typeof routes.listForCustomer> = async (c) => {
  const list = c.var.list;
  const { code } = c.req.valid("param");
  const page = await listCustomerTradeConditions(c.var.db, code, list);
  if (!page) throw notFound(`customer ${code} not found`);
  return c.json(list.envelope(page.rows.map(toCustomerTradeCondition), page.total), 200);
};
