import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { CHANNEL_ROUNDING_MODES } from "../../pricing/vocabulary";
import { timestamps } from "./columns";
import { customerGroups, customers } from "./customers";

export const channels = sqliteTable(
  "channels",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    code: text("code").notNull().unique(),
    name: text("name").notNull(),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    ...timestamps,
    /** How lookups in the channel round percentages and line amounts (docs/pricing-rules.md §21). */
    roundingMode: text("rounding_mode", { enum: CHANNEL_ROUNDING_MODES })
      .notNull()
      .default("HALF_UP"),
  },
  (t) => [
    index("channels_name_idx").on(sql`lower(${t.name})`, t.id),
    index("channels_created_at_idx").on(t.createdAt, t.id),
  ],
);

/** Customers that buy in a channel. */
export const channelCustomers = sqliteTable(
  "channel_customers",
  {
    channelId: integer("channel_id")
      .notNull()
      .references(() => channels.id, { onDelete: "cascade" }),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.channelId, t.customerId] }),
    index("channel_customers_customer_idx").on(t.customerId),
  ],
);

/** Customer groups whose pricelists and conditions count in a channel. */
export const channelCustomerGroups = sqliteTable(
  "channel_customer_groups",
  {
    channelId: integer("channel_id")
      .notNull()
      .references(() => channels.id, { onDelete: "cascade" }),
    customerGroupId: integer("customer_group_id")
      .notNull()
      .references(() => customerGroups.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.channelId, t.customerGroupId] }),
    index("channel_customer_groups_group_idx").on(t.customerGroupId),
  ],
);
