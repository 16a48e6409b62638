import { assignByCodes, unassignByCodes } from "../../db/links";
import type { Db } from "../../lib/db";
import { badRequest, conflict, invalid, notFound } from "../../lib/errors";
import { changesNothing, optimistically } from "../../lib/optimistic";
import type { AppRouteHandler } from "../../lib/router";
import { assertTransition } from "../../lib/status";
import { toCustomer } from "../customers/customers.repo";
import {
  checkPriceWrite,
  createIndividualPricelist,
  createPricelist,
  deleteDraftIndividualPricelist,
  findCustomerId,
  findPricelist,
  findPricelistId,
  listPricelistCustomers,
  listPrices as listPriceRows,
  listPricelists,
  pricelistGroups,
  pricelistProducts,
  toPricelist,
  updatePricelist,
  upsertPrices as upsertPriceRows,
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

const unknownCustomer = (code: string) =>
  badRequest(`customer ${code} not found`, [
    { path: "body.customerCode", message: `unknown customer ${code}` },
  ]);

export const createIndividual: AppRouteHandler<typeof routes.createIndividual> = async (c) => {
  const input = c.req.valid("json");
  const customerId = await findCustomerId(c.var.db, input.customerCode);
  if (customerId === undefined) throw unknownCustomer(input.customerCode);
  const row = await createIndividualPricelist(c.var.db, customerId, input);
  if (!row) throw unknownCustomer(input.customerCode);
  return c.json(toPricelist(row), 201);
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
  const row = await optimistically(`pricelist ${id}`, async () => {
    const current = await findPricelist(c.var.db, id);
    if (!current) throw missing(id);
    checkUpdate(current, input);
    return changesNothing(current, input) ? current : updatePricelist(c.var.db, current, input);
  });
  return c.json(toPricelist(row), 200);
};

/** Assignment to customer groups: a GENERAL pricelist that is not ARCHIVED. */
async function requireAssignable(db: Db, id: number) {
  const row = await findPricelist(db, id);
  if (!row) throw missing(id);
  if (row.scope === "INDIVIDUAL")
    throw conflict(
      `pricelist ${id} is INDIVIDUAL (customer ${row.customerCode}) and is never assigned elsewhere`,
    );
  if (row.status === "ARCHIVED")
    throw conflict(`pricelist ${id} is ARCHIVED and cannot be assigned`);
  return id;
}

async function requirePricelistId(db: Db, id: number) {
  if ((await findPricelistId(db, id)) === undefined) throw missing(id);
  return id;
}

export const assignCustomerGroups: AppRouteHandler<typeof routes.assignCustomerGroups> = async (
  c,
) => {
  const { id } = c.req.valid("param");
  const { customerGroupCodes } = c.req.valid("json");
  const owner = await requireAssignable(c.var.db, id);
  return c.json(await assignByCodes(c.var.db, pricelistGroups, owner, customerGroupCodes), 201);
};

export const unassignCustomerGroups: AppRouteHandler<typeof routes.unassignCustomerGroups> = async (
  c,
) => {
  const { id } = c.req.valid("param");
  const { customerGroupCodes } = c.req.valid("json");
  const owner = await requirePricelistId(c.var.db, id);
  return c.json(await unassignByCodes(c.var.db, pricelistGroups, owner, customerGroupCodes), 200);
};

export const removeIndividual: AppRouteHandler<typeof routes.removeIndividual> = async (c) => {
  const { id } = c.req.valid("param");
  if (await deleteDraftIndividualPricelist(c.var.db, id)) return c.body(null, 204);
  // Not deleted: find out why (a second round trip only on the error path).
  const row = await findPricelist(c.var.db, id);
  if (!row || row.scope !== "INDIVIDUAL") throw notFound(`individual pricelist ${id} not found`);
  throw conflict(
    `pricelist ${id} is ${row.status}; only a DRAFT individual pricelist can be deleted`,
  );
};

export const listCustomers: AppRouteHandler<typeof routes.listCustomers> = async (c) => {
  const { id } = c.req.valid("param");
  const list = c.var.list;
  const page = await listPricelistCustomers(c.var.db, id, list);
  if (!page) throw missing(id);
  return c.json(list.envelope(page.rows.map(toCustomer), page.total), 200);
};

export const listPrices: AppRouteHandler<typeof routes.listPrices> = async (c) => {
  const { id } = c.req.valid("param");
  const list = c.var.list;
  const page = await listPriceRows(c.var.db, id, list);
  if (!page) throw missing(id);
  return c.json(list.envelope(page.rows, page.total), 200);
};

/** 404, then 409 (ARCHIVED), then 400 naming every unknown product; one round trip. */
async function requirePriceWrite(db: Db, id: number, productCodes: string[]) {
  const check = await checkPriceWrite(db, id, productCodes);
  if (!check) throw missing(id);
  if (check.status === "ARCHIVED")
    throw conflict(`pricelist ${id} is ARCHIVED; its prices cannot change`);
  return check.unknownCodes;
}

export const upsertPrices: AppRouteHandler<typeof routes.upsertPrices> = async (c) => {
  const { id } = c.req.valid("param");
  const { prices } = c.req.valid("json");
  const codes = prices.map((row) => row.productCode);
  const unknown = new Set(await requirePriceWrite(c.var.db, id, codes));
  if (unknown.size) throw invalid(unknownProductIssues(prices, unknown));
  const upserted = await upsertPriceRows(c.var.db, id, prices);
  if (upserted === undefined) throw missing(id);
  return c.json({ upserted }, 200);
};

function unknownProductIssues(prices: { productCode: string }[], unknown: Set<string>) {
  return [
    { path: "body.prices", message: `unknown product codes: ${[...unknown].join(", ")}` },
    ...prices.flatMap((row, i) =>
      unknown.has(row.productCode)
        ? [{ path: `body.prices.${i}.productCode`, message: `unknown product ${row.productCode}` }]
        : [],
    ),
  ];
}

export const deletePrices: AppRouteHandler<typeof routes.deletePrices> = async (c) => {
  const { id } = c.req.valid("param");
  const { productCodes } = c.req.valid("json");
  await requirePriceWrite(c.var.db, id, []);
  const result = await unassignByCodes(c.var.db, pricelistProducts, id, productCodes);
  return c.json({ deleted: result.unassigned, notFound: result.notFound }, 200);
};
