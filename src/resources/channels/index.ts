import { createRouter } from "../../http/router";
import * as handlers from "./channels.handlers";
import * as routes from "./channels.routes";

export { tag as channelsTag } from "./channels.routes";

export const channels = createRouter()
  .openapi(routes.list, handlers.list)
  .openapi(routes.create, handlers.create)
  .openapi(routes.get, handlers.get)
  .openapi(routes.update, handlers.update)
  .openapi(routes.remove, handlers.remove)
  .route("/", handlers.customerGroupAssignments)
  .route("/", handlers.customerAssignments)
  .openapi(routes.assignPricelist, handlers.assignPricelist)
  .openapi(routes.setPrimaryPricelist, handlers.setPrimaryPricelist)
  .openapi(routes.clearPrimaryPricelist, handlers.clearPrimaryPricelist)
  .openapi(routes.listPricelists, handlers.listPricelists)
  .openapi(routes.listCustomers, handlers.listCustomers)
  .openapi(routes.listCustomerGroups, handlers.listCustomerGroups);
