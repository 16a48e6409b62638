import { errors, json } from "../../http/openapi";
import { currencyList } from "./currencies.list";
import { CurrencyListSchema } from "./currencies.schemas";

/** The group of this resource's operations in /doc. */
export const tag = {
  name: "Currencies",
  description: "The accepted ISO 4217 currencies and the decimals of their minor units",
};

export const list = currencyList.route({
  method: "get",
  path: "/v1/api/currencies",
  tags: [tag.name],
  operationId: "listCurrencies",
  summary: "List the accepted currencies with their exponents",
  description:
    "Every currency a pricelist, condition or rate may be in, with its ISO 4217 exponent: the " +
    "number of decimals of the minor unit that every amount of the API counts in (docs/api/prices.md " +
    "§16.1). By code by default; sort by `code` or `exponent`; `filter.code` and " +
    "`filter.exponent` ($eq, $in). Read from the service's own table: no D1 round trip.",
  responses: { 200: json(CurrencyListSchema, "A page of currencies"), ...errors(400, 401) },
});
