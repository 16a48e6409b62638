import { createRouter } from "../../http/router";
import * as handlers from "./customer-groups.handlers";
import * as routes from "./customer-groups.routes";

export { tag as customerGroupsTag } from "./customer-groups.routes";

export const customerGroups = createRouter()
  .openapi(routes.list, handlers.list)
  .openapi(routes.create, handlers.create)
  .openapi(routes.upsert, handlers.upsert)
  .openapi(routes.get, handlers.get)
  .openapi(routes.update, handlers.update)
  .openapi(routes.remove, handlers.remove)
  .openapi(routes.assignPricelist, handlers.assignPricelist)
  .openapi(routes.unassignPricelist, handlers.unassignPricelist)
  .route("/", handlers.customerAssignments)
  .openapi(routes.listCustomers, handlers.listCustomers)
  .openapi(routes.listPricelists, handlers.listPricelists);
