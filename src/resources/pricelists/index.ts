import { createRouter } from "../../http/router";
import * as handlers from "./pricelists.handlers";
import * as routes from "./pricelists.routes";

export { tag as pricelistsTag } from "./pricelists.routes";

export const pricelists = createRouter()
  .openapi(routes.list, handlers.list)
  .openapi(routes.create, handlers.create)
  .openapi(routes.createIndividual, handlers.createIndividual)
  .openapi(routes.get, handlers.get)
  .openapi(routes.update, handlers.update)
  .route("/", handlers.customerGroupAssignments)
  .openapi(routes.removeIndividual, handlers.removeIndividual)
  .openapi(routes.listPrices, handlers.listPrices)
  .openapi(routes.upsertPrices, handlers.upsertPrices)
  .openapi(routes.deletePrices, handlers.deletePrices);
