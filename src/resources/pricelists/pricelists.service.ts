import { assignByCodes, unassignByCodes } from "../../db/links";
import { FOREIGN_KEY } from "../../db/outcomes";
import type { Db } from "../../lib/db";
import { badRequest, conflict, invalid, notFound, unknownCodesIssue } from "../../lib/errors";
import { changesNothing, optimistically } from "../../lib/optimistic";
import { assertNotArchived, assertTransition, windowIssues } from "../../lib/status";
import {
  checkPriceWrite,
  createIndividualPricelist,
  deleteDraftIndividualPricelist,
  findCustomerId,
  findPricelist,
  findPricelistId,
  pricelistLinks,
  PRODUCT_GONE,
  updatePricelist as writePricelist,
  upsertPrices as upsertPriceRows,
  type PricelistRow,
} from "./pricelists.repo";
import type {
  IndividualPricelistCreate,
  PriceUpsertRow,
  PricelistUpdate,
} from "./pricelists.schemas";

export const missingPricelist = (id: number) => notFound(`pricelist ${id} not found`);
const label = (id: number) => `pricelist ${id}`;

export const PRICELIST_NOT_ASSIGNABLE = "PRICELIST_NOT_ASSIGNABLE";

/**
 * "Can this pricelist be assigned here?", for channels, customer groups and customers alike
 * (`target` names the place: "channel WEB-DE"). ARCHIVED pricelists are assignable nowhere; an
 * INDIVIDUAL one belongs to its owner, where it already applies. Answers whether a link must be
 * written (false: the owner's own pricelist), or refuses with 409 PRICELIST_NOT_ASSIGNABLE.
 */
export function assertAssignable(
  pricelist: PricelistRow,
  target: string,
  customerId?: number,
): boolean {
  if (pricelist.status === "ARCHIVED") {
    throw conflict(
      `pricelist ${pricelist.id} is ARCHIVED and cannot be assigned to ${target}`,
      PRICELIST_NOT_ASSIGNABLE,
    );
  }
  if (pricelist.scope !== "INDIVIDUAL") return true;
  if (customerId !== undefined && pricelist.customerId === customerId) return false;
  throw conflict(
    `pricelist ${pricelist.id} is INDIVIDUAL (owned by customer ${pricelist.customerCode}) ` +
      `and cannot be assigned to ${target}`,
    PRICELIST_NOT_ASSIGNABLE,
  );
}

const unknownCustomer = (code: string) =>
  badRequest(`customer ${code} not found`, [
    { path: "body.customerCode", message: `unknown customer ${code}` },
  ]);

export async function createIndividual(db: Db, input: IndividualPricelistCreate) {
  const customerId = await findCustomerId(db, input.customerCode);
  if (customerId === undefined) throw unknownCustomer(input.customerCode);
  const row = await createIndividualPricelist(db, customerId, input);
  if (row === FOREIGN_KEY) throw unknownCustomer(input.customerCode);
  return row;
}

/** The rules a change must keep, checked against the stored record. */
function checkUpdate(current: PricelistRow, input: PricelistUpdate): void {
  if (input.status) assertTransition(label(current.id), current.status, input.status);
  assertNotArchived(label(current.id), current.status);
  if (input.currency && input.currency !== current.currency && current.status !== "DRAFT") {
    throw conflict(
      `pricelist ${current.id} is ${current.status}; its currency can change only while DRAFT`,
    );
  }
  const issues = windowIssues({
    validFrom: input.validFrom !== undefined ? input.validFrom : current.validFrom,
    validTo: input.validTo !== undefined ? input.validTo : current.validTo,
  });
  if (issues.length) throw invalid(issues);
}

export const updatePricelist = (db: Db, id: number, input: PricelistUpdate) =>
  optimistically(label(id), async () => {
    const current = await findPricelist(db, id);
    if (!current) throw missingPricelist(id);
    checkUpdate(current, input);
    if (changesNothing(current, input)) return current;
    const row = await writePricelist(db, current, input);
    if (row === FOREIGN_KEY) throw missingPricelist(id);
    return row;
  });

/** Bulk assignment to customer groups, under the rule every other assignment follows. */
export async function assignCustomerGroups(db: Db, id: number, codes: string[]) {
  const pricelist = await findPricelist(db, id);
  if (!pricelist) throw missingPricelist(id);
  assertAssignable(pricelist, "customer groups");
  return assignByCodes(db, pricelistLinks.links.customerGroupCodes, id, codes);
}

/** Works in every status, so an ARCHIVED pricelist can still be detached. */
export async function unassignCustomerGroups(db: Db, id: number, codes: string[]) {
  if ((await findPricelistId(db, id)) === undefined) throw missingPricelist(id);
  return unassignByCodes(db, pricelistLinks.links.customerGroupCodes, id, codes);
}

export async function removeIndividual(db: Db, id: number) {
  if (await deleteDraftIndividualPricelist(db, id)) return;
  // Not deleted: find out why (a second round trip only on the error path).
  const row = await findPricelist(db, id);
  if (!row || row.scope !== "INDIVIDUAL") throw notFound(`individual pricelist ${id} not found`);
  throw conflict(
    `pricelist ${id} is ${row.status}; only a DRAFT individual pricelist can be deleted`,
  );
}

/** 404, then 409 (ARCHIVED), then the unknown product codes; one round trip. */
async function requirePriceWrite(db: Db, id: number, productCodes: string[]) {
  const check = await checkPriceWrite(db, id, productCodes);
  if (!check) throw missingPricelist(id);
  assertNotArchived(label(id), check.status);
  return check.unknownCodes;
}

function unknownProductIssues(prices: { productCode: string }[], unknown: string[]) {
  const named = new Set(unknown);
  return [
    unknownCodesIssue("prices", "product", unknown),
    ...prices.flatMap((row, i) =>
      named.has(row.productCode)
        ? [{ path: `body.prices.${i}.productCode`, message: `unknown product ${row.productCode}` }]
        : [],
    ),
  ];
}

/** Every row in one statement, or nothing: 400 naming every unknown product first. */
export async function upsertPrices(db: Db, id: number, prices: PriceUpsertRow[]) {
  const unknown = await requirePriceWrite(
    db,
    id,
    prices.map((row) => row.productCode),
  );
  if (unknown.length) throw invalid(unknownProductIssues(prices, unknown));
  const upserted = await upsertPriceRows(db, id, prices);
  if (upserted === FOREIGN_KEY) throw missingPricelist(id);
  if (upserted === PRODUCT_GONE) {
    throw conflict("a product was deleted while the prices were written; nothing was written");
  }
  return upserted;
}

export async function deletePrices(db: Db, id: number, productCodes: string[]) {
  await requirePriceWrite(db, id, []);
  const result = await unassignByCodes(db, pricelistLinks.links.productCodes, id, productCodes);
  return { deleted: result.unassigned, notFound: result.notFound };
}
