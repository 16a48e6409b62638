import { badRequest, conflict, notFound } from "../../lib/errors";
import type { AppRouteHandler } from "../../lib/router";
import { assertTransition } from "../../lib/status";
import {
  createIndividualPricelist,
  createPricelist,
  findCustomerId,
  findPricelist,
  listPricelists,
  toPricelist,
  updatePricelist,
  type PricelistRow,
} from "./pricelists.repo";
import type { PricelistUpdate } from "./pricelists.schemas";
import type * as routes from "./pricelists.routes";

const missing = (id: number) => notFound(`pricelist ${id} not found`);

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const list = c.var.list;
  const page = await listPricelists(c.var.db, list);
  return c.json(list.envelope(page.rows.map(toPricelist), page.total), 200);
};

export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  return c.json(toPricelist(await createPricelist(c.var.db, c.req.valid("json"))), 201);
};

export const createIndividual: AppRouteHandler<typeof routes.createIndividual> = async (c) => {
  const input = c.req.valid("json");
  const customerId = await findCustomerId(c.var.db, input.customerCode);
  if (customerId === undefined) {
    throw badRequest(`customer ${input.customerCode} not found`, [
      { path: "body.customerCode", message: `unknown customer ${input.customerCode}` },
    ]);
  }
  return c.json(toPricelist(await createIndividualPricelist(c.var.db, customerId, input)), 201);
};

export const get: AppRouteHandler<typeof routes.get> = async (c) => {
  const { id } = c.req.valid("param");
  const row = await findPricelist(c.var.db, id);
  if (!row) throw missing(id);
  return c.json(toPricelist(row), 200);
};

/** The rules a change must keep, checked against the stored record. */
function checkUpdate(current: PricelistRow, input: PricelistUpdate): void {
  if (input.status) assertTransition(`pricelist ${current.id}`, current.status, input.status);
  if (current.status === "ARCHIVED")
    throw conflict(`pricelist ${current.id} is ARCHIVED and cannot change`);
  if (input.currency && input.currency !== current.currency && current.status !== "DRAFT") {
    throw conflict(
      `pricelist ${current.id} is ${current.status}; its currency can change only while DRAFT`,
    );
  }
  const from = input.validFrom !== undefined ? input.validFrom : current.validFrom;
  const to = input.validTo !== undefined ? input.validTo : current.validTo;
  if (from !== null && to !== null && from >= to) {
    throw badRequest("validTo must be after validFrom", [
      { path: "body.validTo", message: "must be after validFrom" },
    ]);
  }
}

export const update: AppRouteHandler<typeof routes.update> = async (c) => {
  const { id } = c.req.valid("param");
  const input = c.req.valid("json");
  const current = await findPricelist(c.var.db, id);
  if (!current) throw missing(id);
  checkUpdate(current, input);
  const row = await updatePricelist(c.var.db, current, input);
  if (!row) throw missing(id);
  return c.json(toPricelist(row), 200);
};
