import { createRouter } from "../../http/router";
import * as handlers from "./brands.handlers";
import * as routes from "./brands.routes";

export { tag as brandsTag } from "./brands.routes";

export const brands = createRouter()
  .openapi(routes.list, handlers.list)
  .openapi(routes.create, handlers.create)
  .openapi(routes.upsert, handlers.upsert)
  .openapi(routes.get, handlers.get)
  .openapi(routes.update, handlers.update)
  .openapi(routes.remove, handlers.remove);
