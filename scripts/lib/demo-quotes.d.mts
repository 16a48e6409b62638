// The types of demo-quotes.mjs that the tests use (tsconfig.json has no allowJs), written by
// hand from its JSDoc; keep them in step with its exports.

import type { ExampleFCodes } from "./worked-examples.mjs";

/** One API call: method, path, JSON body (or undefined) and the API key; status and parsed body. */
export type Call = (
  method: string,
  path: string,
  body: unknown,
  key: string,
) => Promise<{ status: number; body: unknown }>;

export function seedExampleF(
  call: Call,
  adminKey: string,
  codes?: ExampleFCodes,
  label?: string,
): Promise<{ sales: number; cost: number; floor: number }>;

export const DEMO_QUOTE_CODES: ExampleFCodes;

export function addDemoQuotes(
  call: Call,
  keys: { admin: string; read: string; rep: string; manager: string },
  now: number,
): Promise<{
  pending: number;
  sent: number;
  renegotiating: number;
  agreement: number;
  draft: number;
}>;
