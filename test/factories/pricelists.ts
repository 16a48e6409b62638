import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { api, created, uid, type ApiResponse } from "../helpers";

/** Factories for the pricelist relation and price tests; every code is unique. */

export const createCustomer = (overrides: Record<string, unknown> = {}) =>
  created("/v1/api/customer", { code: uid("C"), name: "Customer", ...overrides });
export const createGroup = () =>
  created("/v1/api/customer-group", { code: uid("G"), name: "Group" });

export const createGeneral = (body: Record<string, unknown> = {}) =>
  created("/v1/api/pricelist", { name: `List ${uid("N")}`, currency: "EUR", ...body });

export const createIndividual = (customerCode: string) =>
  created("/v1/api/pricelist/individual", { customerCode, name: "Individual", currency: "EUR" });

/** Moves a pricelist through the allowed transitions to `status`. */
export async function setStatus(id: number, ...steps: string[]) {
  for (const status of steps) {
    const res = await api("PATCH", `/v1/api/pricelist/${id}`, { body: { status } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
}

/** Assigning a pricelist to a customer gets its own endpoint (13); until then a row straight into D1. */
export async function assignToCustomer(customerId: number, pricelistId: number) {
  await env.DB.prepare("insert into customer_pricelists (customer_id, pricelist_id) values (?, ?)")
    .bind(customerId, pricelistId)
    .run();
}

export async function countRows(table: string, column: string, value: number) {
  const row = await env.DB.prepare(`select count(*) as n from ${table} where ${column} = ?`)
    .bind(value)
    .first<{ n: number }>();
  return row!.n;
}

/** The number of D1 round trips the Server-Timing header reports. */
export function roundTrips(res: ApiResponse): number {
  const m = /^db;desc="(\d+) quer(?:y|ies)"/.exec(res.headers.get("server-timing") ?? "");
  if (!m) throw new Error(`no server-timing: ${res.headers.get("server-timing")}`);
  return Number(m[1]);
}
