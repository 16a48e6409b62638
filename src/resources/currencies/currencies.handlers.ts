import { pageInMemory } from "../../list";
import type { AppRouteHandler } from "../../http/router";
import { CURRENCY_EXPONENTS } from "../../pricing/currencies";
import { currencyList } from "./currencies.list";
import type * as routes from "./currencies.routes";

/** Every accepted currency, in code order (the tie-break order of the list). */
const CURRENCIES = [...CURRENCY_EXPONENTS].map(([code, exponent]) => ({ code, exponent }));

export const list: AppRouteHandler<typeof routes.list> = (c) => {
  const list = c.var.list;
  const page = pageInMemory(currencyList.config, list, CURRENCIES);
  return c.json(list.envelope(page.rows, page.total), 200);
};
