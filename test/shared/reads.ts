import { env } from "cloudflare:workers";
import { api } from "./helpers";

/** Records as their own endpoints show them. */
export const getChannel = async (code: string) =>
  (await api("GET", `/v1/api/channel/${code}`)).body;
export const getCustomer = async (code: string) =>
  (await api("GET", `/v1/api/customer/${code}`)).body;
export const getPricelist = async (id: number) =>
  (await api("GET", `/v1/api/pricelist/${id}`)).body;

/** Rows of `table` whose `column` is `value`: what a cascade left behind. */
export async function countRows(table: string, column: string, value: number) {
  const row = await env.DB.prepare(`select count(*) as n from ${table} where ${column} = ?`)
    .bind(value)
    .first<{ n: number }>();
  return row!.n;
}

// Link rows that no endpoint lists, read straight from D1.

export async function channelPricelists(channelCode: string) {
  const { results } = await env.DB.prepare(
    `select l.pricelist_id as id, l.is_primary as isPrimary from channel_pricelists l
     join channels c on c.id = l.channel_id where c.code = ? order by l.pricelist_id`,
  )
    .bind(channelCode)
    .all<{ id: number; isPrimary: number }>();
  return results.map((r) => ({ id: r.id, primary: r.isPrimary === 1 }));
}

export async function groupPricelists(groupCode: string) {
  const { results } = await env.DB.prepare(
    `select l.pricelist_id as id from customer_group_pricelists l
     join customer_groups g on g.id = l.customer_group_id where g.code = ? order by l.pricelist_id`,
  )
    .bind(groupCode)
    .all<{ id: number }>();
  return results.map((r) => r.id);
}

export async function customerPricelistRows(customerCode: string) {
  const { results } = await env.DB.prepare(
    `select l.pricelist_id as id from customer_pricelists l
     join customers c on c.id = l.customer_id where c.code = ? order by l.pricelist_id`,
  )
    .bind(customerCode)
    .all<{ id: number }>();
  return results.map((r) => r.id);
}

/** `n` codes that exist nowhere. */
export const missingCodes = (n: number, prefix = "MISSING") =>
  Array.from({ length: n }, (_, i) => `${prefix}-${i}`);
