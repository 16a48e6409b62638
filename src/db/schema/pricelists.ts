import { sql } from "drizzle-orm";
import {
  check,
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
  type AnySQLiteColumn,
} from "drizzle-orm/sqlite-core";
import { channels } from "./channels";
import { timestamps, validity } from "./columns";
import { customerGroups, customers } from "./customers";
import { products } from "./products";
import {
  PRICELIST_KINDS,
  PRICELIST_SCOPES,
  ROUNDING_MODES,
  STATUSES,
  TIER_MODES,
} from "../../pricing/vocabulary";

export const pricelists = sqliteTable(
  "pricelists",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    scope: text("scope", { enum: PRICELIST_SCOPES }).notNull(),
    status: text("status", { enum: STATUSES }).notNull().default("DRAFT"),
    currency: text("currency").notNull(),
    priority: integer("priority").notNull().default(0),
    ...validity,
    taxInclusive: integer("tax_inclusive", { mode: "boolean" }).notNull().default(false),
    allowsTradeDiscounts: integer("allows_trade_discounts", { mode: "boolean" }).notNull(),
    /** Owner of an INDIVIDUAL pricelist; null for GENERAL ones. Owned pricelists go with the customer. */
    customerId: integer("customer_id").references(() => customers.id, { onDelete: "cascade" }),
    ...timestamps,
    /**
     * SALES prices in step 1; FLOOR holds minimum unit prices of the channels it is assigned to;
     * COST what products cost there (docs/pricing-rules.md §23, admin keys only).
     */
    kind: text("kind", { enum: PRICELIST_KINDS }).notNull().default("SALES"),
    /**
     * The derivation (docs/api/relations.md §5.8): base and adjustment are set together or both
     * null; the rounding's mode, step and ending together, and only with a base. A base stays while
     * a list derives from it; NO ACTION (checked at the end of the statement), so one DELETE may
     * still remove a base with the lists deriving from it (a reset of the demo data).
     */
    basePricelistId: integer("base_pricelist_id").references((): AnySQLiteColumn => pricelists.id, {
      onDelete: "no action",
    }),
    adjustmentBp: integer("adjustment_bp"),
    roundingMode: text("rounding_mode", { enum: ROUNDING_MODES }),
    roundingStep: integer("rounding_step"),
    roundingEnding: integer("rounding_ending"),
    /** How its tiers price a line (docs/pricing-rules.md §29); migration 0029. */
    tierMode: text("tier_mode", { enum: TIER_MODES }).notNull().default("VOLUME"),
  },
  (t) => [
    check(
      "pricelists_owner_matches_scope",
      sql`(${t.scope} = 'INDIVIDUAL') = (${t.customerId} IS NOT NULL)`,
    ),
    index("pricelists_customer_idx").on(t.customerId),
    index("pricelists_name_idx").on(sql`lower(${t.name})`, t.id),
    index("pricelists_scope_status_idx").on(t.scope, t.status),
    index("pricelists_base_idx").on(t.basePricelistId),
    // The COST lists, which a read key never sees (docs/api/access.md §18): its change feed leaves
    // out their entries by asking for these ids (migration 0024).
    index("pricelists_cost_idx")
      .on(t.id)
      .where(sql`${t.kind} = 'COST'`),
  ],
);

/** Quantity tiers: the row with the largest minQuantity <= q prices a line of q. */
/**
 * "From always": the key's stand-in for a null validFrom (docs/pricing-rules.md §17), so that one
 * undated row per product and tier stays unique (NULLs are distinct in a unique index).
 */
export const ALWAYS = -9007199254740991;

export const pricelistPrices = sqliteTable(
  "pricelist_prices",
  {
    pricelistId: integer("pricelist_id")
      .notNull()
      .references(() => pricelists.id, { onDelete: "cascade" }),
    // RESTRICT: a product with prices cannot be deleted (409).
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "restrict" }),
    minQuantity: integer("min_quantity").notNull().default(1),
    /** Epoch ms, inclusive; null: from always. Rows of one timeline never overlap. */
    validFrom: integer("valid_from"),
    /** Epoch ms, exclusive; null: open-ended. */
    validTo: integer("valid_to"),
    amount: integer("amount").notNull(),
    /**
     * The pieces `amount` is the price of, 1-10,000 (docs/pricing-rules.md §20); migration 0023
     * adds it with a column CHECK of that range.
     */
    priceUnit: integer("price_unit").notNull().default(1),
    /**
     * A GRADUATED list's charge for reaching the row's band, once per line (docs/pricing-rules.md
     * §29); 0 on VOLUME lists. Migration 0029 adds it with a column CHECK (≥ 0).
     */
    flatAmount: integer("flat_amount").notNull().default(0),
  },
  (t) => [
    // A timeline is (list, product, minQuantity); its rows are keyed by validFrom (migration 0020).
    uniqueIndex("pricelist_prices_key").on(
      t.pricelistId,
      t.productId,
      t.minQuantity,
      sql`coalesce(${t.validFrom}, ${sql.raw(String(ALWAYS))})`,
    ),
    // By product, then list: the price reader reads the requested products' rows in the lists
    // that can price from this index alone (no table row; 500 lines: some 1,000 rows).
    index("pricelist_prices_lookup_idx").on(
      t.productId,
      t.pricelistId,
      t.minQuantity,
      t.validFrom,
      t.validTo,
      t.amount,
      t.priceUnit,
      t.flatAmount,
    ),
    check(
      "pricelist_prices_window",
      sql`${t.validTo} is null or ${t.validFrom} is null or ${t.validTo} > ${t.validFrom}`,
    ),
  ],
);

/** Channel assignment; at most one row per channel carries the primary mark. */
export const channelPricelists = sqliteTable(
  "channel_pricelists",
  {
    channelId: integer("channel_id")
      .notNull()
      .references(() => channels.id, { onDelete: "cascade" }),
    pricelistId: integer("pricelist_id")
      .notNull()
      .references(() => pricelists.id, { onDelete: "cascade" }),
    isPrimary: integer("is_primary", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.channelId, t.pricelistId] }),
    index("channel_pricelists_pricelist_idx").on(t.pricelistId),
    uniqueIndex("channel_pricelists_one_primary")
      .on(t.channelId)
      .where(sql`${t.isPrimary} = 1`),
  ],
);

export const customerGroupPricelists = sqliteTable(
  "customer_group_pricelists",
  {
    customerGroupId: integer("customer_group_id")
      .notNull()
      .references(() => customerGroups.id, { onDelete: "cascade" }),
    pricelistId: integer("pricelist_id")
      .notNull()
      .references(() => pricelists.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.customerGroupId, t.pricelistId] }),
    index("customer_group_pricelists_pricelist_idx").on(t.pricelistId),
  ],
);

export const customerPricelists = sqliteTable(
  "customer_pricelists",
  {
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
    pricelistId: integer("pricelist_id")
      .notNull()
      .references(() => pricelists.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.pricelistId] }),
    index("customer_pricelists_pricelist_idx").on(t.pricelistId),
  ],
);
