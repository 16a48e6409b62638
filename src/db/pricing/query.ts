import { sql } from "drizzle-orm";

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
   * Admin keys (docs/api/access.md §18): the channel's COST lists and the ACCRUAL conditions are
   * read too, in the same round trip. Never for a read key: its lookup reads what it did before.
   */
  costs: boolean;
  productCodes: string[];
}

/**
 * The request's values in the statements: placeholders, bound when the batch is sent. The SQL
 * depends on `explain` and `costs` only, so each statement is built and compiled once per pair of
 * their values (when
 * the module loads), not on every request: building the batch's SQL took about as long as a
 * 1-line request's D1 work.
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
