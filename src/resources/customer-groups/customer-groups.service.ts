import { deleteUnlessNamed } from "../../db/blockers";
import { assignByCodes, unassignByCodes } from "../../db/links";
import { FOREIGN_KEY } from "../../db/outcomes";
import type { Db } from "../../lib/db";
import { notFound } from "../../lib/errors";
import { assertAssignable, missingPricelist } from "../pricelists/pricelists.service";
import {
  assignGroupPricelist,
  deleteCustomerGroup,
  findCustomerGroupId,
  findGroupAndPricelist,
  groupLinks,
  readCustomerGroupBlockers,
  unassignGroupPricelist,
} from "./customer-groups.repo";

export const missingGroup = (code: string) => notFound(`customer group ${code} not found`);

/** With its memberships and assignments; 409 while a trade condition or promotion names it. */
export const removeCustomerGroup = (db: Db, code: string) =>
  deleteUnlessNamed({
    label: `customer group ${code}`,
    remove: () => deleteCustomerGroup(db, code),
    read: () => readCustomerGroupBlockers(db, code),
    missing: () => missingGroup(code),
  });

export async function assignPricelist(db: Db, code: string, pricelistId: number) {
  const { groupId, pricelist } = await findGroupAndPricelist(db, code, pricelistId);
  if (groupId === undefined) throw missingGroup(code);
  if (!pricelist) throw missingPricelist(pricelistId);
  assertAssignable(pricelist, "CUSTOMER_GROUP", `customer group ${code}`);
  if ((await assignGroupPricelist(db, groupId, pricelistId)) === FOREIGN_KEY) {
    throw missingGroup(code);
  }
}

/** Which of the three 404s applies when nothing was unassigned. */
export async function unassignPricelist(db: Db, code: string, pricelistId: number) {
  const result = await unassignGroupPricelist(db, code, pricelistId);
  if (!result.groupFound) throw missingGroup(code);
  if (!result.pricelistFound) throw missingPricelist(pricelistId);
  if (!result.unassigned) {
    throw notFound(`pricelist ${pricelistId} is not assigned to customer group ${code}`);
  }
}

async function requireGroupId(db: Db, code: string) {
  const id = await findCustomerGroupId(db, code);
  if (id === undefined) throw missingGroup(code);
  return id;
}

export async function assignCustomers(db: Db, code: string, codes: string[]) {
  const groupId = await requireGroupId(db, code);
  return assignByCodes(db, groupLinks.links.customerCodes, groupId, codes);
}

export async function unassignCustomers(db: Db, code: string, codes: string[]) {
  const groupId = await requireGroupId(db, code);
  return unassignByCodes(db, groupLinks.links.customerCodes, groupId, codes);
}
