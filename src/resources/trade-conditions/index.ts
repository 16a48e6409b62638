import { createRouter } from "../../lib/router";
import * as handlers from "./trade-conditions.handlers";
import * as routes from "./trade-conditions.routes";

export const tradeConditions = createRouter()
  .openapi(routes.list, handlers.list)
  .openapi(routes.create, handlers.create)
  .openapi(routes.get, handlers.get)
  .openapi(routes.update, handlers.update);
