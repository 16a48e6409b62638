import { deleteUnlessNamed } from "../../db/blockers";
import { assignByCodes, unassignByCodes } from "../../db/links";
import { FOREIGN_KEY } from "../../db/outcomes";
import { BulkPlan, upsertInBulk } from "../../db/bulk-plan";
import type { Db } from "../../db/client";
import { notFound } from "../../core/errors";
import { patchOf } from "../../db/optimistic";
import { iso } from "../../core/schemas";
import { assertAssignable, linkWhile, missingPricelist } from "../pricelists/pricelists.service";
import {
  assignGroupPricelist,
  deleteCustomerGroup,
  customerGroupFacts,
  customerGroupWrites,
  findCustomerGroupId,
  findGroupAndPricelist,
  groupLinks,
  readCustomerGroupBlockers,
  unassignGroupPricelist,
  type CustomerGroupRecord,
  type CustomerGroupRow,
} from "./customer-groups.repo";
import type { CustomerGroupUpsert } from "./customer-groups.schemas";

/** A customer group as the API shows it, wherever one is shown. */
export const toCustomerGroup = (row: CustomerGroupRow) => ({
  id: row.id,
  code: row.code,
  name: row.name,
  description: row.description,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});

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
  const target = `customer group ${code}`;
  assertAssignable(pricelist, "CUSTOMER_GROUP", target);
  const linked = await linkWhile(db, pricelistId, "CUSTOMER_GROUP", target, (guard) =>
    assignGroupPricelist(db, groupId, pricelistId, guard),
  );
  if (linked === FOREIGN_KEY) throw missingGroup(code);
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

/**
 * `PUT /v1/api/customer-group`: 1-1000 groups by code, all or nothing, in two round trips; a
 * group has no rules beyond its body's, so only what changes is decided here.
 */
export function upsertCustomerGroups(db: Db, rows: CustomerGroupUpsert[]) {
  const facts = customerGroupFacts(rows.map((row) => row.code));
  return upsertInBulk<{ stored: CustomerGroupRecord[] }>(
    db,
    "the customer groups",
    facts,
    (read) => {
      const stored = new Map(read.stored.map((group) => [group.code, group]));
      const plan = new BulkPlan<CustomerGroupRecord, CustomerGroupRecord>("customerGroups");
      for (const row of rows) {
        const current = stored.get(row.code);
        plan.add(current, { description: null, ...current, ...patchOf(row) });
      }
      return { plan, writes: () => customerGroupWrites(db, plan.created, plan.updated) };
    },
  );
}
