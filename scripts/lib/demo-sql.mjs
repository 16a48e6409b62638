/** Turns the demo data into one SQL script: explicit ids, parents before children. */
import { buildDemoData } from "./demo-data.mjs";
import { CREATED } from "./demo-model.mjs";
import { inserts } from "./sql.mjs";

/** @typedef {import("./sql.mjs").SqlValue} SqlValue */
/** @typedef {import("./demo-model.mjs").DemoData} DemoData */
/** @typedef {import("./demo-model.mjs").Promotion} Promotion */
/** @typedef {import("./demo-model.mjs").TradeCondition} TradeCondition */

/** Children first: the order in which `--force` empties the tables (RESTRICT keys included). */
export const DATA_TABLES = [
  "pricelist_prices",
  "channel_pricelists",
  "customer_group_pricelists",
  "customer_pricelists",
  "promotion_products",
  "promotion_product_groups",
  "promotion_channels",
  "promotion_customer_groups",
  "trade_condition_products",
  "trade_condition_product_groups",
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
  "product_groups",
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
  const customers = [...data.customers].sort((a, b) => a.code.localeCompare(b.code));
  const customerId = idsOf("customer", customers);
  const stamp = (/** @type {number} */ id) => [CREATED + id * 60_000, CREATED + id * 60_000];
  const validity = (/** @type {{ validFrom: number | null, validTo: number | null }} */ r) => {
    if (r.validFrom !== null && r.validTo !== null && r.validFrom >= r.validTo) {
      throw new Error(`validFrom must be before validTo: ${JSON.stringify(r)}`);
    }
    return [r.validFrom, r.validTo];
  };
  /** The body rules of docs/api.md §2, so the demo never holds what the API would refuse. */
  const checkValue = (/** @type {TradeCondition | Promotion} */ r) => {
    const fail = (/** @type {string} */ why) => {
      throw new Error(`${r.name}: ${why}`);
    };
    if ((r.discountType === "ABSOLUTE") !== (r.currency !== null)) fail("currency iff ABSOLUTE");
    const values = "scales" in r ? [r.value, ...r.scales.map((s) => s.value)] : [r.value];
    for (const v of values) {
      if (r.discountType === "PERCENTAGE" ? v < 1 || v > 10000 : v < 0) fail(`bad value ${v}`);
    }
    if ("type" in r) {
      if (r.type === "NET_PRICE" && r.discountType !== "ABSOLUTE") fail("NET_PRICE is ABSOLUTE");
      if (r.scope === "CHANNEL" && r.channelCodes.length === 0)
        fail("CHANNEL scope needs channels");
      if (r.scope !== "CUSTOMER_GROUP" && r.groupCodes.length > 0)
        fail("groups only for CUSTOMER_GROUP");
      if (r.scope !== "CUSTOMER" && r.customerCodes.length > 0) fail("customers only for CUSTOMER");
    }
  };
  data.tradeConditions.forEach(checkValue);
  data.promotions.forEach(checkValue);
  const columns = (/** @type {string} */ names) => names.split(" ");

  return [
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
      table: "products",
      columns: columns("id code name created_at updated_at"),
      rows: data.products.map((p, i) => [i + 1, p.code, p.name, ...stamp(i + 1)]),
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
        "id name scope status currency priority valid_from valid_to tax_inclusive allows_trade_discounts customer_id created_at updated_at",
      ),
      rows: data.pricelists.map((p) => {
        if ((p.scope === "INDIVIDUAL") !== (p.customerCode !== null)) {
          throw new Error(`pricelist ${p.id}: an owner iff INDIVIDUAL`);
        }
        return [
          p.id,
          p.name,
          p.scope,
          p.status,
          p.currency,
          p.priority,
          ...validity(p),
          p.taxInclusive,
          p.allowsTradeDiscounts,
          p.customerCode === null ? null : customerId(p.customerCode),
          ...stamp(p.id),
        ];
      }),
    },
    {
      table: "pricelist_prices",
      columns: columns("pricelist_id product_id min_quantity amount"),
      rows: data.pricelists.flatMap((p) =>
        p.prices.map((r) => [p.id, productId(r.productCode), r.minQuantity, r.amount]),
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
        "id name scope status type discount_type value currency valid_from valid_to priority stackable created_at updated_at",
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
        ...stamp(t.id),
      ]),
    },
    {
      table: "trade_condition_products",
      columns: columns("trade_condition_id product_id"),
      rows: data.tradeConditions.flatMap((t) => t.productCodes.map((p) => [t.id, productId(p)])),
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
      rows: data.tradeConditions.flatMap((t) =>
        t.scales.map((s) => [t.id, s.minQuantity, s.value]),
      ),
    },
    {
      table: "promotions",
      columns: columns(
        "id name status discount_type value currency valid_from valid_to priority stacking created_at updated_at",
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
        ...stamp(p.id),
      ]),
    },
    {
      table: "promotion_products",
      columns: columns("promotion_id product_id"),
      rows: data.promotions.flatMap((p) => p.productCodes.map((c) => [p.id, productId(c)])),
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
