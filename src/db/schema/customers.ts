import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { timestamps } from "./columns";

export const customers = sqliteTable(
  "customers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    code: text("code").notNull().unique(),
    name: text("name").notNull(),
    ...timestamps,
  },
  (t) => [
    index("customers_name_idx").on(sql`lower(${t.name})`, t.id),
    // The list's sort by code (case-insensitive, then id), which `npm run export` pages through.
    index("customers_code_idx").on(sql`lower(${t.code})`, t.id),
  ],
);

export const customerGroups = sqliteTable(
  "customer_groups",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    code: text("code").notNull().unique(),
    name: text("name").notNull(),
    description: text("description"),
    ...timestamps,
  },
  (t) => [index("customer_groups_name_idx").on(sql`lower(${t.name})`, t.id)],
);

export const customerGroupMembers = sqliteTable(
  "customer_group_members",
  {
    customerGroupId: integer("customer_group_id")
      .notNull()
      .references(() => customerGroups.id, { onDelete: "cascade" }),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.customerGroupId, t.customerId] }),
    index("customer_group_members_customer_idx").on(t.customerId),
  ],
);
