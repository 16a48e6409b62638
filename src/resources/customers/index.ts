import { createRouter } from "../../http/router";
import * as handlers from "./customers.handlers";
import * as routes from "./customers.routes";

export { tag as customersTag } from "./customers.routes";

export const customers = createRouter()
  .openapi(routes.list, handlers.list)
  .openapi(routes.create, handlers.create)
  .openapi(routes.upsert, handlers.upsert)
  .openapi(routes.get, handlers.get)
  .openapi(routes.update, handlers.update)
  .openapi(routes.remove, handlers.remove)
  .openapi(routes.assignPricelist, handlers.assignPricelist)
  .openapi(routes.listPricelistCustomers, handlers.listPricelistCustomers);
