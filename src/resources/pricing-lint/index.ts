import { createRouter } from "../../http/router";
import * as handlers from "./pricing-lint.handlers";
import * as routes from "./pricing-lint.routes";

export { tag as pricingLintTag } from "./pricing-lint.routes";

export const pricingLint = createRouter().openapi(routes.list, handlers.list);
