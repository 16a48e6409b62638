import { createRouter } from "../../http/router";
import * as handlers from "./quotes.handlers";
import * as routes from "./quotes.routes";

export { tag as quotesTag } from "./quotes.routes";

// The policy before {id}: "policy" is no id.
export const quotes = createRouter()
  .openapi(routes.getPolicy, handlers.getPolicy)
  .openapi(routes.putPolicy, handlers.putPolicy)
  .openapi(routes.list, handlers.list)
  .openapi(routes.create, handlers.create)
  .openapi(routes.get, handlers.get)
  .openapi(routes.update, handlers.update)
  .openapi(routes.submit, handlers.submit)
  .openapi(routes.approve, handlers.approve)
  .openapi(routes.reject, handlers.reject)
  .openapi(routes.send, handlers.send)
  .openapi(routes.accept, handlers.accept)
  .openapi(routes.decline, handlers.decline)
  .openapi(routes.withdraw, handlers.withdraw)
  .openapi(routes.redeem, handlers.redeem);
