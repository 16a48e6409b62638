import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { channels } from "./channels";
import { timestamps, validity } from "./columns";
import { customerGroups } from "./customers";
import { brands, productGroups, products } from "./products";
import {
  DISCOUNT_TYPES,
  PROMOTION_STACKINGS,
  STATUSES,
  THRESHOLD_BASES,
} from "../../pricing/vocabulary";

export const promotions = sqliteTable(
  "promotions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    status: text("status", { enum: STATUSES }).notNull().default("DRAFT"),
    discountType: text("discount_type", { enum: DISCOUNT_TYPES }).notNull(),
    value: integer("value").notNull(),
    currency: text("currency"),
    ...validity,
    priority: integer("priority").notNull().default(0),
    stacking: text("stacking", { enum: PROMOTION_STACKINGS }).notNull().default("BEST_OF"),
    ...timestamps,
    /** The threshold: basis and minimum both set, or both null (no threshold). */
    thresholdBasis: text("threshold_basis", { enum: THRESHOLD_BASES }),
    thresholdMinimum: integer("threshold_minimum"),
    /**
     * The pieces an ABSOLUTE value is for, 1-10,000 (docs/pricing-rules.md §20); migration 0023
     * adds it with a column CHECK of that range.
     */
    priceUnit: integer("price_unit").notNull().default(1),
  },
  (t) => [
    index("promotions_name_idx").on(sql`lower(${t.name})`, t.id),
    index("promotions_status_idx").on(t.status),
  ],
);

// RESTRICT on products, channels and groups: an emptied list would mean "everyone".
export const promotionProducts = sqliteTable(
  "promotion_products",
  {
    promotionId: integer("promotion_id")
      .notNull()
      .references(() => promotions.id, { onDelete: "cascade" }),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "restrict" }),
  },
  (t) => [
    primaryKey({ columns: [t.promotionId, t.productId] }),
    index("promotion_products_product_idx").on(t.productId),
  ],
);

export const promotionProductGroups = sqliteTable(
  "promotion_product_groups",
  {
    promotionId: integer("promotion_id")
      .notNull()
      .references(() => promotions.id, { onDelete: "cascade" }),
    productGroupId: integer("product_group_id")
      .notNull()
      .references(() => productGroups.id, { onDelete: "restrict" }),
  },
  (t) => [
    primaryKey({ columns: [t.promotionId, t.productGroupId] }),
    index("promotion_product_groups_group_idx").on(t.productGroupId),
  ],
);

/** Brands whose products the promotion reaches (docs/pricing-rules.md §31). */
export const promotionBrands = sqliteTable(
  "promotion_brands",
  {
    promotionId: integer("promotion_id")
      .notNull()
      .references(() => promotions.id, { onDelete: "cascade" }),
    brandId: integer("brand_id")
      .notNull()
      .references(() => brands.id, { onDelete: "restrict" }),
  },
  (t) => [
    primaryKey({ columns: [t.promotionId, t.brandId] }),
    index("promotion_brands_brand_idx").on(t.brandId),
  ],
);

export const promotionChannels = sqliteTable(
  "promotion_channels",
  {
    promotionId: integer("promotion_id")
      .notNull()
      .references(() => promotions.id, { onDelete: "cascade" }),
    channelId: integer("channel_id")
      .notNull()
      .references(() => channels.id, { onDelete: "restrict" }),
  },
  (t) => [
    primaryKey({ columns: [t.promotionId, t.channelId] }),
    index("promotion_channels_channel_idx").on(t.channelId),
  ],
);

export const promotionCustomerGroups = sqliteTable(
  "promotion_customer_groups",
  {
    promotionId: integer("promotion_id")
      .notNull()
      .references(() => promotions.id, { onDelete: "cascade" }),
    customerGroupId: integer("customer_group_id")
      .notNull()
      .references(() => customerGroups.id, { onDelete: "restrict" }),
  },
  (t) => [
    primaryKey({ columns: [t.promotionId, t.customerGroupId] }),
    index("promotion_customer_groups_group_idx").on(t.customerGroupId),
  ],
);
