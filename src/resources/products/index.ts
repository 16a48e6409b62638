import { createRouter } from "../../http/router";
import * as handlers from "./products.handlers";
import * as routes from "./products.routes";

export { tag as productsTag } from "./products.routes";

export const products = createRouter()
  .openapi(routes.list, handlers.list)
  .openapi(routes.create, handlers.create)
  .openapi(routes.upsert, handlers.upsert)
  .openapi(routes.get, handlers.get)
  .openapi(routes.update, handlers.update)
  .openapi(routes.remove, handlers.remove);
