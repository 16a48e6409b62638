import type { AppRouteHandler } from "../../http/router";
import { streamJson } from "../../http/stream";
import type * as routes from "./simulations.routes";
import {
  claimSimulation,
  simulatePrices as simulate,
  simulationJson,
  type Simulation,
} from "./simulations.service";

/** One simulation per key at a time (429 otherwise), its answer written as the client reads it. */
export const simulatePrices: AppRouteHandler<typeof routes.simulatePrices> = async (c) => {
  const release = claimSimulation(c.var.keyName);
  try {
    const simulation = await simulate(c.var.db, c.req.valid("json"));
    return streamJson<Simulation, 200>(c, simulationJson(simulation), 200, release);
  } catch (error) {
    release();
    throw error;
  }
};
