import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, type AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { timestamps } from "./columns";

/**
 * Product groups form a forest: `parentId` names another group or none
 * (docs/api/relations.md §5.7). A group with children, products, conditions or promotions stays
 * until they let go of it (deleting it would silently regroup products or widen a condition). The
 * children's key is NO ACTION rather than RESTRICT: checked at the end of the statement, so one
 * DELETE may remove a whole tree (a reset of the demo data) while the API's delete of one group is
 * still refused.
 */
export const productGroups = sqliteTable(
  "product_groups",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    code: text("code").notNull().unique(),
    name: text("name").notNull(),
    parentId: integer("parent_id").references((): AnySQLiteColumn => productGroups.id, {
      onDelete: "no action",
    }),
    ...timestamps,
  },
  (t) => [
    index("product_groups_parent_idx").on(t.parentId),
    index("product_groups_name_idx").on(sql`lower(${t.name})`, t.id),
  ],
);

/**
 * Brands (docs/brands.md): a product names one or none. Trade conditions and promotions that name
 * a brand reach its products (docs/pricing-rules.md §31). A brand stays while a product, a
 * condition or a promotion names it (RESTRICT).
 */
export const brands = sqliteTable(
  "brands",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    code: text("code").notNull().unique(),
    name: text("name").notNull(),
    ...timestamps,
  },
  (t) => [index("brands_name_idx").on(sql`lower(${t.name})`, t.id)],
);

export const products = sqliteTable(
  "products",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    code: text("code").notNull().unique(),
    name: text("name").notNull(),
    ...timestamps,
    /** The product's own group, or none. */
    productGroupId: integer("product_group_id").references(() => productGroups.id, {
      onDelete: "restrict",
    }),
    /** Quantity rule: q is allowed when q >= min, (q - min) % increment = 0 and q <= max. */
    minOrderQuantity: integer("min_order_quantity").notNull().default(1),
    orderIncrement: integer("order_increment").notNull().default(1),
    maxOrderQuantity: integer("max_order_quantity"),
    /** The product's brand, or none. */
    brandId: integer("brand_id").references(() => brands.id, { onDelete: "restrict" }),
  },
  (t) => [
    index("products_name_idx").on(sql`lower(${t.name})`, t.id),
    // The list's sort by code (case-insensitive, then id), which `npm run export` pages through.
    index("products_code_idx").on(sql`lower(${t.code})`, t.id),
    index("products_group_idx").on(t.productGroupId),
    index("products_brand_idx").on(t.brandId),
    // What the price loader reads of each requested product (its group, brand and quantity rule), from
    // the index alone: a lookup by code needs no table row (the loader names it: INDEXED BY).
    index("products_lookup_idx").on(
      t.code,
      t.productGroupId,
      t.minOrderQuantity,
      t.orderIncrement,
      t.maxOrderQuantity,
      t.brandId,
    ),
  ],
);
