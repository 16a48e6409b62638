import { createRouter } from "../../http/router";
import * as handlers from "./product-groups.handlers";
import * as routes from "./product-groups.routes";

export { tag as productGroupsTag } from "./product-groups.routes";

export const productGroups = createRouter()
  .openapi(routes.list, handlers.list)
  .openapi(routes.create, handlers.create)
  .openapi(routes.upsert, handlers.upsert)
  .openapi(routes.get, handlers.get)
  .openapi(routes.update, handlers.update)
  .openapi(routes.remove, handlers.remove);
