import { createRouter } from "../../http/router";
import * as handlers from "./me.handlers";
import * as routes from "./me.routes";

export { tag as meTag } from "./me.routes";

export const me = createRouter().openapi(routes.get, handlers.get);
