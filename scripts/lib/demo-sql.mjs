/** Turns the demo data into one SQL script: explicit ids, parents before children. */
import { buildDemoData } from "./demo-data.mjs";
import { CREATED } from "./demo-model.mjs";
import { checkWriteRules } from "./demo-rules.mjs";
import { inserts } from "./sql.mjs";

/** @typedef {import("./sql.mjs").SqlValue} SqlValue */
/** @typedef {import("./demo-model.mjs").DemoData} DemoData */

/** Children first: the order in which `--force` empties the tables (RESTRICT keys included). */
export const DATA_TABLES = [
  // Change requests name pricelists and products (npm run dev adds the demo's through the API).
  "change_request_writes",
  "change_request_attempts",
  "change_request_items",
  "change_requests",
  "pricelist_prices",
  "channel_pricelists",
  "customer_group_pricelists",
  "customer_pricelists",
  "promotion_products",
  "promotion_product_groups",
  "promotion_brands",
  "promotion_channels",
  "promotion_customer_groups",
  "trade_condition_products",
  "trade_condition_product_groups",
  "trade_condition_brands",
  "trade_condition_channels",
  "trade_condition_customer_groups",
  "trade_condition_customers",
  "trade_condition_scales",
  "pricelists",
  "promotions",
  "trade_conditions",
  "channel_customers",
  "channel_customer_groups",
  "customer_group_members",
  "customers",
  "customer_groups",
  "channels",
  "products",
  "brands",
  "product_groups",
  "exchange_rates",
];

/**
 * @param {DemoData} data
 * @returns {{ table: string, columns: string[], rows: SqlValue[][] }[]} parents before children
 */
export function demoRows(data) {
  /**
   * @param {string} kind
   * @param {readonly { code: string }[]} items
   */
  const idsOf = (kind, items) => {
    const map = new Map(items.map((item, i) => [item.code, i + 1]));
    return (/** @type {string} */ code) => {
      const id = map.get(code);
      if (id === undefined) throw new Error(`demo data names an unknown ${kind}: ${code}`);
      return id;
    };
  };
  const channelId = idsOf("channel", data.channels);
  const groupId = idsOf("customer group", data.groups);
  const productId = idsOf("product", data.products);
  const productGroupId = idsOf("product group", data.productGroups);
  const brandId = idsOf("brand", data.brands);
  const nullableId = (
    /** @type {(code: string) => number} */ idOf,
    /** @type {string | null} */ code,
  ) => (code === null ? null : idOf(code));
  // A derived list's base is inserted before it (the key is checked per statement).
  const pricelists = [...data.pricelists].sort((a, b) => a.id - b.id);
  for (const p of pricelists) {
    if (p.derivation && p.derivation.basePricelistId >= p.id) {
      throw new Error(`pricelist ${p.id}: its base needs a lower id`);
    }
  }
  const customers = [...data.customers].sort((a, b) => a.code.localeCompare(b.code));
  const customerId = idsOf("customer", customers);
  const stamp = (/** @type {number} */ id) => [CREATED + id * 60_000, CREATED + id * 60_000];
  const validity = (/** @type {{ validFrom: number | null, validTo: number | null }} */ r) => {
    if (r.validFrom !== null && r.validTo !== null && r.validFrom >= r.validTo) {
      throw new Error(`validFrom must be before validTo: ${JSON.stringify(r)}`);
    }
    return [r.validFrom, r.validTo];
  };
  checkWriteRules(data);
  const columns = (/** @type {string} */ names) => names.split(" ");

  return [
    {
      table: "exchange_rates",
      columns: columns("from_currency to_currency rate valid_from created_at updated_at"),
      rows: data.exchangeRates.map((r, i) => [r.from, r.to, r.rate, r.validFrom, ...stamp(i + 1)]),
    },
    {
      table: "channels",
      columns: columns("id code name is_active created_at updated_at"),
      rows: data.channels.map((c, i) => [i + 1, c.code, c.name, c.isActive, ...stamp(i + 1)]),
    },
    {
      table: "customer_groups",
      columns: columns("id code name description created_at updated_at"),
      rows: data.groups.map((g, i) => [i + 1, g.code, g.name, g.description, ...stamp(i + 1)]),
    },
    {
      table: "product_groups",
      columns: columns("id code name parent_id created_at updated_at"),
      rows: data.productGroups.map((g, i) => [
        i + 1,
        g.code,
        g.name,
        nullableId(productGroupId, g.parentCode),
        ...stamp(i + 1),
      ]),
    },
    {
      table: "brands",
      columns: columns("id code name created_at updated_at"),
      rows: data.brands.map((b, i) => [i + 1, b.code, b.name, ...stamp(i + 1)]),
    },
    {
      table: "products",
      columns: columns(
        "id code name product_group_id brand_id min_order_quantity order_increment max_order_quantity created_at updated_at",
      ),
      rows: data.products.map((p, i) => [
        i + 1,
        p.code,
        p.name,
        nullableId(productGroupId, p.productGroupCode),
        nullableId(brandId, p.brandCode),
        p.minOrderQuantity,
        p.orderIncrement,
        p.maxOrderQuantity,
        ...stamp(i + 1),
      ]),
    },
    {
      table: "customers",
      columns: columns("id code name created_at updated_at"),
      rows: customers.map((c, i) => [i + 1, c.code, c.name, ...stamp(i + 1)]),
    },
    {
      table: "channel_customer_groups",
      columns: columns("channel_id customer_group_id"),
      rows: data.channels.flatMap((c) => c.groupCodes.map((g) => [channelId(c.code), groupId(g)])),
    },
    {
      table: "channel_customers",
      columns: columns("channel_id customer_id"),
      rows: customers.flatMap((c) =>
        c.channelCodes.map((ch) => [channelId(ch), customerId(c.code)]),
      ),
    },
    {
      table: "customer_group_members",
      columns: columns("customer_group_id customer_id"),
      rows: customers.flatMap((c) => c.groupCodes.map((g) => [groupId(g), customerId(c.code)])),
    },
    {
      table: "pricelists",
      columns: columns(
        "id name scope kind status currency priority valid_from valid_to tax_inclusive allows_trade_discounts customer_id base_pricelist_id adjustment_bp rounding_mode rounding_step rounding_ending tier_mode created_at updated_at",
      ),
      rows: pricelists.map((p) => [
        p.id,
        p.name,
        p.scope,
        p.kind,
        p.status,
        p.currency,
        p.priority,
        ...validity(p),
        p.taxInclusive,
        p.allowsTradeDiscounts,
        nullableId(customerId, p.customerCode),
        p.derivation?.basePricelistId ?? null,
        p.derivation?.adjustmentBp ?? null,
        p.derivation?.rounding?.mode ?? null,
        p.derivation?.rounding?.step ?? null,
        p.derivation?.rounding?.ending ?? null,
        p.tierMode,
        ...stamp(p.id),
      ]),
    },
    {
      table: "pricelist_prices",
      columns: columns("pricelist_id product_id min_quantity amount price_unit flat_amount"),
      rows: pricelists.flatMap((p) =>
        p.prices.map((r) => [
          p.id,
          productId(r.productCode),
          r.minQuantity,
          r.amount,
          r.priceUnit ?? 1,
          r.flatAmount ?? 0,
        ]),
      ),
    },
    {
      table: "channel_pricelists",
      columns: columns("channel_id pricelist_id is_primary"),
      rows: data.pricelists.flatMap((p) =>
        p.channels.map((c) => [channelId(c.channelCode), p.id, c.primary]),
      ),
    },
    {
      table: "customer_group_pricelists",
      columns: columns("customer_group_id pricelist_id"),
      rows: data.pricelists.flatMap((p) => p.groupCodes.map((g) => [groupId(g), p.id])),
    },
    {
      table: "customer_pricelists",
      columns: columns("customer_id pricelist_id"),
      rows: data.pricelists.flatMap((p) => p.customerCodes.map((c) => [customerId(c), p.id])),
    },
    {
      table: "trade_conditions",
      columns: columns(
        "id name scope status type discount_type value currency valid_from valid_to priority stackable scale_basis created_at updated_at",
      ),
      rows: data.tradeConditions.map((t) => [
        t.id,
        t.name,
        t.scope,
        t.status,
        t.type,
        t.discountType,
        t.value,
        t.currency,
        ...validity(t),
        t.priority,
        t.stackable,
        t.scaleBasis,
        ...stamp(t.id),
      ]),
    },
    {
      table: "trade_condition_products",
      columns: columns("trade_condition_id product_id"),
      rows: data.tradeConditions.flatMap((t) => t.productCodes.map((p) => [t.id, productId(p)])),
    },
    {
      table: "trade_condition_product_groups",
      columns: columns("trade_condition_id product_group_id"),
      rows: data.tradeConditions.flatMap((t) =>
        t.productGroupCodes.map((g) => [t.id, productGroupId(g)]),
      ),
    },
    {
      table: "trade_condition_brands",
      columns: columns("trade_condition_id brand_id"),
      rows: data.tradeConditions.flatMap((t) => t.brandCodes.map((b) => [t.id, brandId(b)])),
    },
    {
      table: "trade_condition_channels",
      columns: columns("trade_condition_id channel_id"),
      rows: data.tradeConditions.flatMap((t) => t.channelCodes.map((c) => [t.id, channelId(c)])),
    },
    {
      table: "trade_condition_customer_groups",
      columns: columns("trade_condition_id customer_group_id"),
      rows: data.tradeConditions.flatMap((t) => t.groupCodes.map((g) => [t.id, groupId(g)])),
    },
    {
      table: "trade_condition_customers",
      columns: columns("trade_condition_id customer_id"),
      rows: data.tradeConditions.flatMap((t) => t.customerCodes.map((c) => [t.id, customerId(c)])),
    },
    {
      table: "trade_condition_scales",
      columns: columns("trade_condition_id min_quantity value"),
      rows: data.tradeConditions.flatMap((t) => t.scales.map((s) => [t.id, s.minimum, s.value])),
    },
    {
      table: "promotions",
      columns: columns(
        "id name status discount_type value currency valid_from valid_to priority stacking threshold_basis threshold_minimum created_at updated_at",
      ),
      rows: data.promotions.map((p) => [
        p.id,
        p.name,
        p.status,
        p.discountType,
        p.value,
        p.currency,
        ...validity(p),
        p.priority,
        p.stacking,
        p.threshold?.basis ?? null,
        p.threshold?.minimum ?? null,
        ...stamp(p.id),
      ]),
    },
    {
      table: "promotion_products",
      columns: columns("promotion_id product_id"),
      rows: data.promotions.flatMap((p) => p.productCodes.map((c) => [p.id, productId(c)])),
    },
    {
      table: "promotion_product_groups",
      columns: columns("promotion_id product_group_id"),
      rows: data.promotions.flatMap((p) =>
        p.productGroupCodes.map((g) => [p.id, productGroupId(g)]),
      ),
    },
    {
      table: "promotion_brands",
      columns: columns("promotion_id brand_id"),
      rows: data.promotions.flatMap((p) => p.brandCodes.map((b) => [p.id, brandId(b)])),
    },
    {
      table: "promotion_channels",
      columns: columns("promotion_id channel_id"),
      rows: data.promotions.flatMap((p) => p.channelCodes.map((c) => [p.id, channelId(c)])),
    },
    {
      table: "promotion_customer_groups",
      columns: columns("promotion_id customer_group_id"),
      rows: data.promotions.flatMap((p) => p.groupCodes.map((g) => [p.id, groupId(g)])),
    },
  ];
}

/**
 * The whole seed as one SQL script. No BEGIN/COMMIT: `wrangler d1 execute --local --file` runs
 * the statements as one D1 batch, which is already all-or-nothing.
 * @param {{ wipe?: boolean }} [options] empty every data table first
 * @returns {string}
 */
export function demoSql({ wipe = false } = {}) {
  const tables = demoRows(buildDemoData());
  const statements = [
    "-- Demo data of the edge pricing service, generated by scripts/seed.mjs. Do not edit.",
    ...(wipe ? DATA_TABLES.map((table) => `DELETE FROM ${table};`) : []),
    ...tables.flatMap(({ table, columns, rows }) => inserts(table, columns, rows)),
  ];
  return `${statements.join("\n")}\n`;
}
