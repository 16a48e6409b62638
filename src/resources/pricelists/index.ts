import { createRouter } from "../../lib/router";
import * as handlers from "./pricelists.handlers";
import * as routes from "./pricelists.routes";

export const pricelists = createRouter()
  .openapi(routes.list, handlers.list)
  .openapi(routes.create, handlers.create)
  .openapi(routes.createIndividual, handlers.createIndividual)
  .openapi(routes.get, handlers.get)
  .openapi(routes.update, handlers.update);
