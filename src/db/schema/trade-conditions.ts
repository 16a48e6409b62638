import { sql } from "drizzle-orm";
import {
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import { channels } from "./channels";
import { timestamps, validity } from "./columns";
import { customerGroups, customers } from "./customers";
import { brands, productGroups, products } from "./products";
import {
  CONDITION_SCOPES,
  CONDITION_TYPES,
  DISCOUNT_TYPES,
  SCALE_BASES,
  STATUSES,
} from "../../pricing/vocabulary";

export const tradeConditions = sqliteTable(
  "trade_conditions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    scope: text("scope", { enum: CONDITION_SCOPES }).notNull(),
    status: text("status", { enum: STATUSES }).notNull().default("DRAFT"),
    type: text("type", { enum: CONDITION_TYPES }).notNull(),
    discountType: text("discount_type", { enum: DISCOUNT_TYPES }).notNull(),
    /** Basis points for PERCENTAGE, minor units of `currency` for ABSOLUTE. */
    value: integer("value").notNull(),
    currency: text("currency"),
    ...validity,
    priority: integer("priority").notNull().default(0),
    stackable: integer("stackable", { mode: "boolean" }).notNull().default(false),
    ...timestamps,
    /** What the scale rows' minimum is compared with (ORDER_VALUE needs `currency`). */
    scaleBasis: text("scale_basis", { enum: SCALE_BASES }).notNull().default("LINE_QUANTITY"),
    /**
     * The pieces an ABSOLUTE value (a NET_PRICE) is for, 1-10,000 (docs/pricing-rules.md §20);
     * migration 0023 adds it with a column CHECK of that range.
     */
    priceUnit: integer("price_unit").notNull().default(1),
  },
  (t) => [
    index("trade_conditions_name_idx").on(sql`lower(${t.name})`, t.id),
    index("trade_conditions_status_scope_idx").on(t.status, t.scope),
    // The ACCRUAL conditions, which a read key never sees (docs/api/access.md §18; migration 0024).
    index("trade_conditions_accrual_idx")
      .on(t.id)
      .where(sql`${t.type} = 'ACCRUAL'`),
  ],
);

/**
 * The links through which a condition reaches customers (channels, customer groups, customers)
 * have an id of their own: the API shows it (GET /v1/api/customer/{code}/trade-conditions), and
 * an INTEGER PRIMARY KEY is the rowid, which VACUUM never renumbers. AUTOINCREMENT keeps a
 * deleted link's id from being given to a new one.
 */
const linkId = integer("id").primaryKey({ autoIncrement: true });

// Products and channels are RESTRICT: deleting one must not silently widen a condition
// whose list would become empty (= all).
export const tradeConditionProducts = sqliteTable(
  "trade_condition_products",
  {
    tradeConditionId: integer("trade_condition_id")
      .notNull()
      .references(() => tradeConditions.id, { onDelete: "cascade" }),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "restrict" }),
  },
  (t) => [
    primaryKey({ columns: [t.tradeConditionId, t.productId] }),
    index("trade_condition_products_product_idx").on(t.productId),
  ],
);

/** Product groups whose products (and their descendants' products) the condition reaches. */
export const tradeConditionProductGroups = sqliteTable(
  "trade_condition_product_groups",
  {
    tradeConditionId: integer("trade_condition_id")
      .notNull()
      .references(() => tradeConditions.id, { onDelete: "cascade" }),
    productGroupId: integer("product_group_id")
      .notNull()
      .references(() => productGroups.id, { onDelete: "restrict" }),
  },
  (t) => [
    primaryKey({ columns: [t.tradeConditionId, t.productGroupId] }),
    index("trade_condition_product_groups_group_idx").on(t.productGroupId),
  ],
);

/** Brands whose products the condition reaches (docs/pricing-rules.md §31). */
export const tradeConditionBrands = sqliteTable(
  "trade_condition_brands",
  {
    tradeConditionId: integer("trade_condition_id")
      .notNull()
      .references(() => tradeConditions.id, { onDelete: "cascade" }),
    brandId: integer("brand_id")
      .notNull()
      .references(() => brands.id, { onDelete: "restrict" }),
  },
  (t) => [
    primaryKey({ columns: [t.tradeConditionId, t.brandId] }),
    index("trade_condition_brands_brand_idx").on(t.brandId),
  ],
);

export const tradeConditionChannels = sqliteTable(
  "trade_condition_channels",
  {
    id: linkId,
    tradeConditionId: integer("trade_condition_id")
      .notNull()
      .references(() => tradeConditions.id, { onDelete: "cascade" }),
    channelId: integer("channel_id")
      .notNull()
      .references(() => channels.id, { onDelete: "restrict" }),
  },
  (t) => [
    uniqueIndex("trade_condition_channels_unique").on(t.tradeConditionId, t.channelId),
    index("trade_condition_channels_channel_idx").on(t.channelId),
  ],
);

export const tradeConditionScales = sqliteTable(
  "trade_condition_scales",
  {
    tradeConditionId: integer("trade_condition_id")
      .notNull()
      .references(() => tradeConditions.id, { onDelete: "cascade" }),
    /** The API's `minimum` (formerly `minQuantity`, the column's name), of the scale basis. */
    minQuantity: integer("min_quantity").notNull(),
    value: integer("value").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tradeConditionId, t.minQuantity] })],
);

/** Targets of CUSTOMER_GROUP-scope conditions. */
export const tradeConditionCustomerGroups = sqliteTable(
  "trade_condition_customer_groups",
  {
    id: linkId,
    tradeConditionId: integer("trade_condition_id")
      .notNull()
      .references(() => tradeConditions.id, { onDelete: "cascade" }),
    customerGroupId: integer("customer_group_id")
      .notNull()
      .references(() => customerGroups.id, { onDelete: "cascade" }),
  },
  (t) => [
    uniqueIndex("trade_condition_customer_groups_unique").on(t.tradeConditionId, t.customerGroupId),
    index("trade_condition_customer_groups_group_idx").on(t.customerGroupId),
  ],
);

/** Targets of CUSTOMER-scope conditions. */
export const tradeConditionCustomers = sqliteTable(
  "trade_condition_customers",
  {
    id: linkId,
    tradeConditionId: integer("trade_condition_id")
      .notNull()
      .references(() => tradeConditions.id, { onDelete: "cascade" }),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
  },
  (t) => [
    uniqueIndex("trade_condition_customers_unique").on(t.tradeConditionId, t.customerId),
    index("trade_condition_customers_customer_idx").on(t.customerId),
  ],
);
