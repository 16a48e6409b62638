import { requireAdmin } from "../../http/auth";
import { createRouter } from "../../http/router";
import * as handlers from "./webhooks.handlers";
import * as routes from "./webhooks.routes";

export { tag as webhooksTag } from "./webhooks.routes";

// Webhooks hold signing secrets and point into other systems: admin keys only, reads too, and
// for every path below /v1/api/webhooks (a read key learns nothing from a path no route takes).
const adminOnly = requireAdmin("read webhooks");

const router = createRouter();
router.use("/v1/api/webhooks", adminOnly);
router.use("/v1/api/webhooks/*", adminOnly);

export const webhooks = router
  .openapi(routes.list, handlers.list)
  .openapi(routes.create, handlers.create)
  .openapi(routes.get, handlers.get)
  .openapi(routes.update, handlers.update)
  .openapi(routes.remove, handlers.remove)
  .openapi(routes.rotate, handlers.rotate)
  .openapi(routes.deliveries, handlers.deliveries);
