import { count, eq, getTableColumns, type SQL } from "drizzle-orm";
import type { Db } from "./client";
import { codeLink, defineLinks } from "./links";
import {
  channelCustomers,
  channels,
  customerGroupMembers,
  customerGroups,
  customers,
  pricelists,
} from "./schema";

/*
 * Read shapes that several resources share. They live here, below the resources, so that
 * repositories never import each other: pricelists list customers, customers show their
 * pricelists, and channels, customers and groups check a pricelist before assigning it.
 */

/** Pricelist columns plus the owner's code: select with `.from(pricelists).leftJoin(customers, ownerJoin)`. */
export const pricelistColumns = { ...getTableColumns(pricelists), customerCode: customers.code };
export const ownerJoin = eq(customers.id, pricelists.customerId);

export type PricelistRow = typeof pricelists.$inferSelect & { customerCode: string | null };

/** The pricelist with its owner's code, as a statement that can join a read batch. */
export const selectPricelist = (db: Db, id: number) =>
  db
    .select(pricelistColumns)
    .from(pricelists)
    .leftJoin(customers, ownerJoin)
    .where(eq(pricelists.id, id));

/** A customer's memberships, written by customer create and update, read with every customer. */
export const customerLinks = defineLinks(customers.id, {
  customerGroupCodes: codeLink(
    customerGroupMembers.customerId,
    customerGroupMembers.customerGroupId,
    customerGroups,
    "customer group",
  ),
  channelCodes: codeLink(
    channelCustomers.customerId,
    channelCustomers.channelId,
    channels,
    "channel",
  ),
});

/** Customer columns plus its group and channel codes as JSON arrays, in the same statement. */
export const customerColumns = { ...getTableColumns(customers), ...customerLinks.columns };

export type CustomerRow = typeof customers.$inferSelect & {
  customerGroupCodes: string;
  channelCodes: string;
};

/** The window of a list page (a `ListRequest` of src/list is one). */
export interface PageWindow {
  orderBy: SQL[];
  limit: number;
  offset: number;
}

/** A page of the pricelists meeting `where` (with their owners' codes) and its count, to batch. */
export const pricelistPage = (db: Db, where: SQL | undefined, list: PageWindow) =>
  [
    db
      .select(pricelistColumns)
      .from(pricelists)
      .leftJoin(customers, ownerJoin)
      .where(where)
      .orderBy(...list.orderBy)
      .limit(list.limit)
      .offset(list.offset),
    db.select({ n: count() }).from(pricelists).where(where),
  ] as const;

/** A page of the customers meeting `where` (with their memberships) and its count, to batch. */
export const customerPage = (db: Db, where: SQL | undefined, list: PageWindow) =>
  [
    db
      .select(customerColumns)
      .from(customers)
      .where(where)
      .orderBy(...list.orderBy)
      .limit(list.limit)
      .offset(list.offset),
    db.select({ n: count() }).from(customers).where(where),
  ] as const;
