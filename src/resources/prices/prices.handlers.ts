import { invalid } from "../../lib/errors";
import type { AppRouteHandler } from "../../lib/router";
import { MAX_LOOKUP_PRODUCTS } from "./prices.schemas";
import { priceRequest } from "./prices.service";
import type * as routes from "./prices.routes";

export const resolve: AppRouteHandler<typeof routes.resolve> = async (c) => {
  const body = c.req.valid("json");
  const answer = await priceRequest(c.var.db, { ...body, location: "body" });
  return c.json(answer, 200);
};

export const lookup: AppRouteHandler<typeof routes.lookup> = async (c) => {
  const query = c.req.valid("query");
  const products = [query.product].flat();
  const quantity = Number(query.quantity ?? 1);
  const issues = [];
  if (products.length > MAX_LOOKUP_PRODUCTS) {
    issues.push({ path: "query.product", message: `at most ${MAX_LOOKUP_PRODUCTS} products` });
  }
  if (quantity < 1 || quantity > 1_000_000) {
    issues.push({ path: "query.quantity", message: "must be a whole number 1-1000000" });
  }
  if (issues.length) throw invalid(issues);
  const answer = await priceRequest(c.var.db, {
    channelCode: query.channel,
    customerCode: query.customer,
    currency: query.currency,
    at: query.at,
    explain: query.explain === "true",
    lines: products.map((productCode) => ({ productCode, quantity })),
    location: "query",
  });
  return c.json(answer, 200);
};
