import { and, count, eq, inArray, notExists, sql, type SQL } from "drizzle-orm";
import { blockersOf } from "../../db/blockers";
import { fromRow, insertRows, updateByCode } from "../../db/bulk";
import { rowsByCode, type FactParts } from "../../db/bulk-facts";
import { codeLink, defineLinks, linkedTo } from "../../db/links";
import { unlessForeignKey } from "../../db/outcomes";
import { linkWhere } from "../../db/writes";
import {
  customerLinks,
  customerPage,
  pricelistPage,
  selectPricelist,
  type PricelistRow,
} from "../../db/reads";
import {
  customerGroupMembers,
  customerGroupPricelists,
  customerGroups,
  customers,
  pricelists,
  promotionCustomerGroups,
  tradeConditionCustomerGroups,
} from "../../db/schema";
import { readPage, readPageOf, type ListRequest } from "../../list";
import { isUniqueViolation, type Db } from "../../db/client";
import { conflict } from "../../core/errors";
import type { CustomerGroupCreate, CustomerGroupUpdate } from "./customer-groups.schemas";

export type CustomerGroupRow = typeof customerGroups.$inferSelect;

export function listCustomerGroups(db: Db, list: ListRequest) {
  return readPage(
    db,
    db
      .select()
      .from(customerGroups)
      .where(list.where)
      .orderBy(...list.orderBy)
      .limit(list.limit)
      .offset(list.offset),
    db.select({ n: count() }).from(customerGroups).where(list.where),
  );
}

export const findCustomerGroup = (db: Db, code: string) =>
  db.select().from(customerGroups).where(eq(customerGroups.code, code)).get();

const duplicate = (err: unknown, code: string | undefined) =>
  isUniqueViolation(err) ? conflict(`customer group code ${code} already exists`) : err;

export async function createCustomerGroup(db: Db, input: CustomerGroupCreate) {
  try {
    return await db.insert(customerGroups).values(input).returning().get();
  } catch (err) {
    throw duplicate(err, input.code);
  }
}

export async function updateCustomerGroup(db: Db, code: string, input: CustomerGroupUpdate) {
  try {
    return await db
      .update(customerGroups)
      .set({ ...input, updatedAt: Date.now() })
      .where(eq(customerGroups.code, code))
      .returning()
      .get();
  } catch (err) {
    throw duplicate(err, input.code);
  }
}

/**
 * One statement: the group goes with its memberships and its pricelist and channel assignments
 * (ON DELETE CASCADE). The trade-condition targets would cascade too, so the statement itself
 * refuses while a condition names the group (undefined); a promotion's foreign key restricts
 * (FOREIGN_KEY).
 */
export const deleteCustomerGroup = (db: Db, code: string) => {
  const link = tradeConditionCustomerGroups;
  const targeted = db
    .select({ one: sql`1` })
    .from(link)
    .where(sql`${link.customerGroupId} = ${customerGroups.id}`);
  return unlessForeignKey(() =>
    db
      .delete(customerGroups)
      .where(and(eq(customerGroups.code, code), notExists(targeted)))
      .returning({ id: customerGroups.id })
      .get(),
  );
};

/** What names a customer group and so keeps it from being deleted. */
export const readCustomerGroupBlockers = blockersOf(customerGroups, [
  {
    kind: "tradeCondition",
    noun: "trade condition",
    column: tradeConditionCustomerGroups.customerGroupId,
    shown: tradeConditionCustomerGroups.tradeConditionId,
  },
  {
    kind: "promotion",
    noun: "promotion",
    column: promotionCustomerGroups.customerGroupId,
    shown: promotionCustomerGroups.promotionId,
  },
]);

export const findCustomerGroupId = async (db: Db, code: string) =>
  (
    await db
      .select({ id: customerGroups.id })
      .from(customerGroups)
      .where(eq(customerGroups.code, code))
      .get()
  )?.id;

/** The group's members, assigned and unassigned by code. */
export const groupLinks = defineLinks(customerGroups.id, {
  customerCodes: codeLink(
    customerGroupMembers.customerGroupId,
    customerGroupMembers.customerId,
    customers,
    "customer",
  ),
});

const selectGroupId = (db: Db, code: string) =>
  db.select({ id: customerGroups.id }).from(customerGroups).where(eq(customerGroups.code, code));

/** The group's id and the pricelist, in one round trip; either is undefined when unknown. */
export async function findGroupAndPricelist(db: Db, code: string, pricelistId: number) {
  const [group, pricelist] = await db.batch([
    selectGroupId(db, code),
    selectPricelist(db, pricelistId),
  ]);
  return { groupId: group[0]?.id, pricelist: pricelist[0] as PricelistRow | undefined };
}

/** Idempotent, while `guard` holds (see `linkWhere`). FOREIGN_KEY when the group was deleted after the checks. */
export const assignGroupPricelist = (
  db: Db,
  customerGroupId: number,
  pricelistId: number,
  guard: SQL,
) => linkWhere(db, customerGroupPricelists, { customerGroupId, pricelistId }, guard);

/**
 * One round trip: the delete, plus whether the group and the pricelist exist so the handler can
 * say which of the three 404s applies when nothing was deleted.
 */
export async function unassignGroupPricelist(db: Db, code: string, pricelistId: number) {
  const link = customerGroupPricelists;
  const [group, pricelist, deleted] = await db.batch([
    selectGroupId(db, code),
    db.select({ id: pricelists.id }).from(pricelists).where(eq(pricelists.id, pricelistId)),
    db
      .delete(link)
      .where(
        and(
          inArray(link.customerGroupId, selectGroupId(db, code)),
          eq(link.pricelistId, pricelistId),
        ),
      )
      .returning({ pricelistId: link.pricelistId }),
  ]);
  return {
    groupFound: group.length > 0,
    pricelistFound: pricelist.length > 0,
    unassigned: deleted.length > 0,
  };
}

// ---- read-outs: what was assigned to a group ----

const ofGroup = (code: string) => eq(customerGroups.code, code);

/** The group's members; undefined if no such group. */
export const listGroupCustomers = (db: Db, code: string, list: ListRequest) =>
  readPageOf(
    db,
    selectGroupId(db, code),
    ...customerPage(
      db,
      and(
        linkedTo(customerLinks.links.customerGroupCodes, customers.id, ofGroup(code)),
        list.where,
      ),
      list,
    ),
  );

/** A pricelist's groups, to find the pricelists of a group. */
const pricelistGroups = codeLink(
  customerGroupPricelists.pricelistId,
  customerGroupPricelists.customerGroupId,
  customerGroups,
  "customer group",
);

/** The pricelists assigned to the group; undefined if no such group. */
export const listGroupPricelists = (db: Db, code: string, list: ListRequest) =>
  readPageOf(
    db,
    selectGroupId(db, code),
    ...pricelistPage(
      db,
      and(linkedTo(pricelistGroups, pricelists.id, ofGroup(code)), list.where),
      list,
    ),
  );

// ---- bulk upserts by code (docs/api/relations.md §5.12) ----

/** A customer group as a bulk upsert judges and writes it. */
export interface CustomerGroupRecord {
  code: string;
  name: string;
  description: string | null;
}

const recordColumns = {
  code: customerGroups.code,
  name: customerGroups.name,
  description: customerGroups.description,
};

/** What a bulk upsert is judged on: the stored groups of its codes. */
export const customerGroupFacts = (codes: string[]): FactParts => ({
  stored: rowsByCode(customerGroups, recordColumns, codes),
});

/** The inserts of the new groups and the updates of the changed ones, a statement per chunk. */
export const customerGroupWrites = (
  db: Db,
  created: CustomerGroupRecord[],
  updated: CustomerGroupRecord[],
) => [
  ...insertRows(db, customerGroups, created),
  ...updateByCode(db, customerGroups, updated, fromRow(["name", "description"])),
];
