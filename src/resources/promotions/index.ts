import { createRouter } from "../../http/router";
import * as handlers from "./promotions.handlers";
import * as routes from "./promotions.routes";

export { tag as promotionsTag } from "./promotions.routes";

export const promotions = createRouter()
  .openapi(routes.list, handlers.list)
  .openapi(routes.create, handlers.create)
  .openapi(routes.get, handlers.get)
  .openapi(routes.update, handlers.update);
