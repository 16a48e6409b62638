import { count, eq } from "drizzle-orm";
import { customerGroups } from "../../db/schema";
import { defineList, readPage, type ListRequest } from "../../list";
import { isUniqueViolation, type Db } from "../../lib/db";
import { conflict } from "../../lib/errors";
import { iso } from "../../lib/schemas";
import type { CustomerGroupCreate, CustomerGroupUpdate } from "./customer-groups.schemas";

type CustomerGroupRow = typeof customerGroups.$inferSelect;

export const toCustomerGroup = (row: CustomerGroupRow) => ({
  id: row.id,
  code: row.code,
  name: row.name,
  description: row.description,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});

export const customerGroupList = defineList({
  fields: {
    id: { column: customerGroups.id, type: "number", sortable: true },
    code: { column: customerGroups.code, type: "text", sortable: true, searchable: true },
    name: { column: customerGroups.name, type: "text", sortable: true, searchable: true },
  },
});

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
