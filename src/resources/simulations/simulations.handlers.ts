import type { AppRouteHandler } from "../../lib/http/router";
import type * as routes from "./simulations.routes";
import { simulatePrices as simulate } from "./simulations.service";

export const simulatePrices: AppRouteHandler<typeof routes.simulatePrices> = async (c) => {
  const simulation = await simulate(c.var.db, c.req.valid("json"));
  return c.json(simulation, 200);
};
