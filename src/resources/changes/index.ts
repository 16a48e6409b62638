import { createRouter } from "../../http/router";
import * as handlers from "./changes.handlers";
import * as routes from "./changes.routes";

export { tag as changesTag } from "./changes.routes";

export const changes = createRouter().openapi(routes.list, handlers.list);
