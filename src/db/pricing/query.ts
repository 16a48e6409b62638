import { sql } from "drizzle-orm";
import type { Visibility } from "../visibility";

/**
 * What a price lookup asks the reader for (docs/architecture.md "A price request's path"): the
 * records that can price these products for this channel and customer, at `at`. With `explain`,
 * records of every status and window are read too, so the engine can say why one lost.
 */
export interface PriceQuery {
  channelCode: string;
  customerCode: string | null;
  currency: string | null;
  at: number;
  explain: boolean;
  /**
   * What the asking key sees (docs/api/access.md §18, src/db/visibility.ts). An admin's lookup
   * reads the channel's COST lists and the ACCRUAL conditions too, in the same round trip; a read
   * or sales key's never reads them.
   */
  scope: Visibility;
  /** Each code once (prepareCart): the product cache answers a part per code, in this order. */
  productCodes: string[];
}

/**
 * The request's values in the statements: placeholders, bound when the batch is sent. The SQL
 * depends on `explain` and the scope (`scope.key`) only, so each statement is built and compiled
 * once per pair of their values (when the module loads), not on every request: building the
 * batch's SQL took about as long as a 1-line request's D1 work.
 */
export const params = {
  channelCode: sql.placeholder("channelCode"),
  customerCode: sql.placeholder("customerCode"),
  currency: sql.placeholder("currency"),
  at: sql.placeholder("at"),
  /** A JSON array of the requested product codes. */
  productCodes: sql.placeholder("productCodes"),
};

export type Params = typeof params;

export const valuesOf = (query: PriceQuery): Record<keyof Params, unknown> => ({
  channelCode: query.channelCode,
  customerCode: query.customerCode,
  currency: query.currency,
  at: query.at,
  productCodes: JSON.stringify(query.productCodes),
});
