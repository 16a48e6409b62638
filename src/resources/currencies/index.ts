import { createRouter } from "../../http/router";
import * as handlers from "./currencies.handlers";
import * as routes from "./currencies.routes";

export { tag as currenciesTag } from "./currencies.routes";

export const currencies = createRouter().openapi(routes.list, handlers.list);
