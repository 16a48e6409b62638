import { createRouter } from "../../http/router";
import * as handlers from "./prices.handlers";
import * as routes from "./prices.routes";

export { tag as pricesTag } from "./prices.routes";

export const prices = createRouter()
  .openapi(routes.resolve, handlers.resolve)
  .openapi(routes.lookup, handlers.lookup);
