import { expect } from "vitest";
import { api } from "./helpers";

/** `POST /v1/api/quotes/{id}/{action}` with `key` (docs/quotes.md §3). */
export const act = (id: number, action: string, key: string, body?: unknown) =>
  api("POST", `/v1/api/quotes/${id}/${action}`, { key, body });

/** The same, asserting 200: the quote as the action answers it. */
export async function ok(id: number, action: string, key: string, body?: unknown) {
  const res = await act(id, action, key, body);
  expect(res.status, `${action}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}
