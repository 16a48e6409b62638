import { createRouter } from "../../http/router";
import * as handlers from "./simulations.handlers";
import * as routes from "./simulations.routes";

export { tag as simulationsTag } from "./simulations.routes";

export const simulations = createRouter().openapi(routes.simulatePrices, handlers.simulatePrices);
