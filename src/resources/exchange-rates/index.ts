import { createRouter } from "../../http/router";
import * as handlers from "./exchange-rates.handlers";
import * as routes from "./exchange-rates.routes";

export { tag as exchangeRatesTag } from "./exchange-rates.routes";

export const exchangeRates = createRouter()
  .openapi(routes.list, handlers.list)
  .openapi(routes.upsert, handlers.upsert)
  .openapi(routes.get, handlers.get)
  .openapi(routes.remove, handlers.remove);
