import { expect } from "vitest";
import { api } from "../shared/helpers";

/** Sends each write and insists on its success status, so a setup step never fails silently. */
async function step(method: string, path: string, body: unknown, status: number) {
  const res = await api(method, path, { body });
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(status);
  return res.body;
}

/** Moves a pricelist through the allowed transitions; returns it as the last PATCH left it. */
export async function setPricelistStatus(id: number, ...steps: string[]) {
  let last: any;
  for (const status of steps) {
    last = await step("PATCH", `/v1/api/pricelist/${id}`, { status }, 200);
  }
  return last;
}

export const archivePricelist = (id: number) => setPricelistStatus(id, "ARCHIVED");

/** Moves a trade condition through the allowed transitions; returns the last answer. */
export async function setTradeConditionStatus(id: number, ...steps: string[]) {
  let last: any;
  for (const status of steps) {
    last = await step("PATCH", `/v1/api/trade-conditions/${id}`, { status }, 200);
  }
  return last;
}

export const archiveTradeCondition = (id: number) => setTradeConditionStatus(id, "ARCHIVED");

/** Seed endpoint 13. */
export const assignPricelistToCustomer = (customerCode: string, pricelistId: number) =>
  step("POST", `/v1/api/customer/${customerCode}/pricelist`, { pricelistId }, 201);

/** Seed endpoint 14: assigned, not primary. */
export const assignPricelistToChannel = (channelCode: string, pricelistId: number) =>
  step("POST", `/v1/api/channel/${channelCode}/pricelist`, { pricelistId }, 201);

/** Seed endpoint 6: assigns if needed and marks it primary. */
export const setPrimaryPricelist = (channelCode: string, pricelistId: number) =>
  step("PUT", `/v1/api/channel/${channelCode}/pricelist/primary`, { pricelistId }, 200);
