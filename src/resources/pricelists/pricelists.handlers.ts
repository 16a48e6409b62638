import { assignmentRouter } from "../../http/assignments";
import type { AppRouteHandler } from "../../http/router";
import {
  findSeenPricelist,
  listPrices as listPriceRows,
  listPricelists,
  toPrice,
} from "./pricelists.repo";
import * as routes from "./pricelists.routes";
import {
  assignCustomerGroups as assignGroups,
  createPricelist,
  createIndividual as createIndividualPricelist,
  deletePrices as deletePriceRows,
  missingPricelist as missing,
  removeIndividual as removeIndividualPricelist,
  toPricelist,
  unassignCustomerGroups as unassignGroups,
  updatePricelist,
  upsertPrices as upsertPriceRows,
} from "./pricelists.service";

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const list = c.var.list;
  const page = await listPricelists(c.var.db, list, c.var.scope);
  return c.json(list.envelope(page.rows.map(toPricelist), page.total), 200);
};

export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  return c.json(toPricelist(await createPricelist(c.var.db, c.req.valid("json"))), 201);
};

export const createIndividual: AppRouteHandler<typeof routes.createIndividual> = async (c) => {
  const row = await createIndividualPricelist(c.var.db, c.req.valid("json"));
  return c.json(toPricelist(row), 201);
};

export const get: AppRouteHandler<typeof routes.get> = async (c) => {
  const { id } = c.req.valid("param");
  // A COST pricelist, and a FLOOR derived from one, does not exist for a read key
  // (docs/api/access.md §18).
  const row = await findSeenPricelist(c.var.db, id, c.var.scope);
  if (!row) throw missing(id);
  return c.json(toPricelist(row), 200);
};

export const update: AppRouteHandler<typeof routes.update> = async (c) => {
  const { id } = c.req.valid("param");
  const row = await updatePricelist(c.var.db, id, c.req.valid("json"));
  return c.json(toPricelist(row), 200);
};

export const customerGroupAssignments = assignmentRouter(routes.customerGroupAssignments, {
  assign: (db, { id }, codes) => assignGroups(db, id, codes),
  unassign: (db, { id }, codes) => unassignGroups(db, id, codes),
});

export const removeIndividual: AppRouteHandler<typeof routes.removeIndividual> = async (c) => {
  await removeIndividualPricelist(c.var.db, c.req.valid("param").id);
  return c.body(null, 204);
};

export const listPrices: AppRouteHandler<typeof routes.listPrices> = async (c) => {
  const { id } = c.req.valid("param");
  const list = c.var.list;
  const { at } = c.req.valid("query");
  const page = await listPriceRows(c.var.db, id, list, c.var.scope, at);
  if (!page) throw missing(id);
  return c.json(list.envelope(page.rows.map(toPrice), page.total), 200);
};

export const upsertPrices: AppRouteHandler<typeof routes.upsertPrices> = async (c) => {
  const { id } = c.req.valid("param");
  const { prices } = c.req.valid("json");
  return c.json(await upsertPriceRows(c.var.db, id, prices), 200);
};

export const deletePrices: AppRouteHandler<typeof routes.deletePrices> = async (c) => {
  const { id } = c.req.valid("param");
  const { productCodes } = c.req.valid("json");
  return c.json(await deletePriceRows(c.var.db, id, productCodes), 200);
};
