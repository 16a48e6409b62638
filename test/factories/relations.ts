import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { api, created, uid, type ApiResponse } from "../helpers";

/** Records for the relation tests, created through the API. */
export const createChannel = () => created("/v1/api/channel", { code: uid("CH"), name: "Channel" });
export const createGroup = () =>
  created("/v1/api/customer-group", { code: uid("G"), name: "Group" });
export const createCustomer = (overrides: Record<string, unknown> = {}) =>
  created("/v1/api/customer", { code: uid("C"), name: "Customer", ...overrides });

export const createGeneral = (body: Record<string, unknown> = {}) =>
  created("/v1/api/pricelist", { name: "General", currency: "EUR", status: "ACTIVE", ...body });
export const createIndividual = (customerCode: string) =>
  created("/v1/api/pricelist/individual", { customerCode, name: "Individual", currency: "EUR" });

export async function archive(id: number) {
  const res = await api("PATCH", `/v1/api/pricelist/${id}`, { body: { status: "ARCHIVED" } });
  expect(res.status).toBe(200);
  return res.body;
}

/** D1 round trips of a request, from its Server-Timing header. */
export function roundTrips(res: ApiResponse): number {
  const match = /^db;desc="(\d+) quer(y|ies)"/.exec(res.headers.get("server-timing") ?? "");
  if (!match) throw new Error(`no server-timing: ${res.headers.get("server-timing")}`);
  return Number(match[1]);
}

export const getChannel = async (code: string) =>
  (await api("GET", `/v1/api/channel/${code}`)).body;
export const getCustomer = async (code: string) =>
  (await api("GET", `/v1/api/customer/${code}`)).body;
export const getPricelist = async (id: number) =>
  (await api("GET", `/v1/api/pricelist/${id}`)).body;

/** Link rows that no endpoint lists, read straight from D1. */
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
