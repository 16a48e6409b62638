import { createRouter } from "../../http/router";
import * as handlers from "./trade-conditions.handlers";
import * as routes from "./trade-conditions.routes";

export { tag as tradeConditionsTag } from "./trade-conditions.routes";

export const tradeConditions = createRouter()
  .openapi(routes.list, handlers.list)
  .openapi(routes.create, handlers.create)
  .openapi(routes.get, handlers.get)
  .openapi(routes.update, handlers.update)
  .route("/", handlers.customerGroupAssignments)
  .route("/", handlers.customerAssignments)
  // Seed endpoint 2 lives under customer/ but is a view of trade conditions, so it is served here.
  .openapi(routes.listForCustomer, handlers.listForCustomer);
