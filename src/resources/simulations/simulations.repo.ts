import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { channelCurrency } from "../../db/pricing/facts";
import { READ_DIMENSIONS } from "../../db/pricing/reach";
import { CHANNEL_ROUNDING_MODES, STATUSES, type TargetField } from "../../pricing";
import {
  decodedBatch,
  flag,
  int,
  member,
  nullableInt,
  nullableText,
  select,
  statement,
  text,
} from "../../db/rows";

/*
 * The publish simulation's reads (docs/simulation.md §3), TWO D1 round trips whatever the size:
 * 1. the selection and the change set: the channel, the customers and products the request
 *    selects (named, sampled, or in product groups with their descendants) and the records it
 *    names, so that the service can refuse a bad request before anything large is read;
 * 2. everything the engine needs to price every selected customer (and the anonymous buyer) for
 *    every selected product in the channel, as ONE batch of channel-wide statements: each customer's
 *    groups and reaching pricelists, the pricelists with their rows, the trade conditions and
 *    promotions that reach any of them, and the product facts. Like the price loader's batch, but
 *    for a set of customers, and with the records the change set activates read whatever their
 *    status, so "after" can price with them.
 */

// ------------------------------------------------------------------------------------------------
// Round trip 1: the selection and the change set
// ------------------------------------------------------------------------------------------------

/** How the request selects customers or products (the service has validated the shape). */
export type Selection =
  | { kind: "codes"; codes: readonly string[] }
  | { kind: "sample"; size: number }
  /** The products of these codes of a targeting dimension (not products: those are `codes`). */
  | { kind: "targets"; field: TargetField; codes: readonly string[] };

export interface SelectionQuery {
  channelCode: string;
  currency: string | null;
  customers: Extract<Selection, { kind: "codes" | "sample" }> | null;
  products: Selection;
  pricelistIds: readonly number[];
  tradeConditionIds: readonly number[];
  promotionIds: readonly number[];
  /** The product codes the change set's tiers name. */
  priceProductCodes: readonly string[];
}

const json = (values: readonly unknown[]) => JSON.stringify(values);
const each = (values: readonly unknown[]) => sql`(select value from json_each(${json(values)}))`;
/** The list order of products and customers sorted by code (their code index, migration 0000). */
const byCode = (table: string) => sql.raw(`order by lower(${table}.code), ${table}.id`);

/** A named or selected entry: its place in the request's list (null when sampled) and whether it exists. */
const entryFields = (index: SQL, code: SQL, known: SQL) => ({
  index: nullableInt(index),
  code: text(code),
  known: flag(known),
});

const channelStatement = (query: SelectionQuery) =>
  statement(
    select({
      code: text(sql`ch.code`),
      isActive: flag(sql`ch.is_active`),
      roundingMode: member(CHANNEL_ROUNDING_MODES, sql`ch.rounding_mode`),
      currency: nullableText(channelCurrency(query.currency, sql`ch.id`)),
    }),
    sql`from channels ch where ch.code = ${query.channelCode}`,
  );

function customersStatement(query: SelectionQuery) {
  const channel = sql`(select id from channels where code = ${query.channelCode})`;
  const selection = query.customers;
  if (selection?.kind === "codes") {
    const inChannel = sql`exists (select 1 from channel_customers cc
      where cc.customer_id = cu.id and cc.channel_id = ${channel})`;
    return statement(
      select({
        ...entryFields(sql`j.key`, sql`j.value`, sql`cu.id is not null`),
        inChannel: flag(inChannel),
      }),
      sql`from json_each(${json(selection.codes)}) j left join customers cu on cu.code = j.value`,
    );
  }
  return statement(
    select({ ...entryFields(sql`null`, sql`cu.code`, sql`1`), inChannel: flag(sql`1`) }),
    sql`from customers cu join channel_customers cc on cc.customer_id = cu.id
      where cc.channel_id = ${channel} ${byCode("cu")} limit ${selection?.size ?? 0}`,
  );
}

/** ENTRY: a code the request named; PRODUCT: a product the selection holds. */
const PRODUCT_ROWS = ["ENTRY", "PRODUCT"] as const;

/** One more than the largest selection, so that a larger one is seen without reading it all. */
const productsBeyond = (max: number) => max + 1;

function selectedProductsStatement(query: SelectionQuery, max: number) {
  const columns = (kind: (typeof PRODUCT_ROWS)[number], index: SQL, code: SQL, known: SQL) =>
    select({
      kind: member(PRODUCT_ROWS, sql.raw(`'${kind}'`)),
      ...entryFields(index, code, known),
    });
  const selection = query.products;
  if (selection.kind === "sample") {
    return statement(
      columns("PRODUCT", sql`null`, sql`pr.code`, sql`1`),
      sql`from products pr ${byCode("pr")} limit ${selection.size}`,
    );
  }
  const dimension =
    selection.kind === "targets"
      ? READ_DIMENSIONS.find((d) => d.field === selection.field)
      : undefined;
  const named = sql`from json_each(${json(selection.codes)}) j
    left join ${sql.raw(dimension?.target ?? "products")} t on t.code = j.value`;
  const entries = columns("ENTRY", sql`j.key`, sql`j.value`, sql`t.id is not null`);
  const products = dimension?.products?.(sql`${json(selection.codes)}`);
  if (!products) return statement(entries, named);
  return statement(
    entries,
    sql`${named} union all select * from (select ${columns("PRODUCT", sql`null`, sql`pr.code`, sql`1`).list}
      from products pr where ${products.where}
      ${byCode("pr")} limit ${productsBeyond(max)})`,
    products.with,
  );
}

const RECORD_KINDS = ["pricelist", "tradeCondition", "promotion"] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

function recordsStatement(query: SelectionQuery) {
  const part = (kind: RecordKind, table: string, ids: readonly number[]) =>
    sql`select ${sql.raw(`'${kind}'`)} as kind, id, status from ${sql.raw(table)}
      where id in ${each(ids)}`;
  return statement(
    select({
      kind: member(RECORD_KINDS, sql`kind`),
      id: int(sql`id`),
      status: member(STATUSES, sql`status`),
    }),
    sql`from (${part("pricelist", "pricelists", query.pricelistIds)}
      union all ${part("tradeCondition", "trade_conditions", query.tradeConditionIds)}
      union all ${part("promotion", "promotions", query.promotionIds)})`,
  );
}

const priceProductsStatement = (query: SelectionQuery) =>
  statement(
    select({ code: text(sql`code`) }),
    sql`from products where code in ${each(query.priceProductCodes)}`,
  );

/** Round trip 1: what the request selects and names, as stored. */
export async function loadSelection(db: Db, query: SelectionQuery, maxProducts: number) {
  const [channel, customers, products, records, priceProducts] = await decodedBatch(db, [
    channelStatement(query),
    customersStatement(query),
    selectedProductsStatement(query, maxProducts),
    recordsStatement(query),
    priceProductsStatement(query),
  ]);
  return {
    channel: channel[0],
    customers,
    products,
    records,
    priceProductCodes: new Set(priceProducts.map((row) => row.code)),
  };
}

export type StoredSelection = Awaited<ReturnType<typeof loadSelection>>;
