import { createRouter } from "../../http/router";
import * as handlers from "./audit.handlers";
import * as routes from "./audit.routes";

export { tag as auditTag } from "./audit.routes";

export const audit = createRouter().openapi(routes.list, handlers.list);
