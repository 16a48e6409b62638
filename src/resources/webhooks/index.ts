import { createRouter } from "../../lib/router";
import * as handlers from "./webhooks.handlers";
import * as routes from "./webhooks.routes";

export { tag as webhooksTag } from "./webhooks.routes";

export const webhooks = createRouter()
  .openapi(routes.list, handlers.list)
  .openapi(routes.create, handlers.create)
  .openapi(routes.get, handlers.get)
  .openapi(routes.update, handlers.update)
  .openapi(routes.remove, handlers.remove)
  .openapi(routes.rotate, handlers.rotate)
  .openapi(routes.deliveries, handlers.deliveries);
