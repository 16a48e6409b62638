import { requireAdmin } from "../../http/auth";
import { createRouter } from "../../http/router";
import * as handlers from "./change-requests.handlers";
import * as routes from "./change-requests.routes";

export { tag as changeRequestsTag } from "./change-requests.routes";

// Change requests move every price and show every impact: admin keys only, reads too, for every
// path below /v1/api/change-requests (docs/api/change-requests.md §17).
const adminOnly = requireAdmin("read change requests");

const router = createRouter();
router.use("/v1/api/change-requests", adminOnly);
router.use("/v1/api/change-requests/*", adminOnly);

// The policy before {id}: "policy" is no id.
export const changeRequests = router
  .openapi(routes.getPolicy, handlers.getPolicy)
  .openapi(routes.putPolicy, handlers.putPolicy)
  .openapi(routes.approvePolicy, handlers.approveProposedPolicy)
  .openapi(routes.list, handlers.list)
  .openapi(routes.create, handlers.create)
  .openapi(routes.get, handlers.get)
  .openapi(routes.update, handlers.update)
  .openapi(routes.submit, handlers.submit)
  .openapi(routes.approve, handlers.approve)
  .openapi(routes.reject, handlers.reject)
  .openapi(routes.withdraw, handlers.withdraw)
  .openapi(routes.cancel, handlers.cancel);
