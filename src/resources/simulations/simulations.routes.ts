import { createRoute } from "@hono/zod-openapi";
import { requireAdmin } from "../../http/auth";
import { errors, json, jsonBody, tooManyError } from "../../http/openapi";
import { readOnly } from "../../http/read-only";
import {
  MAX_SIMULATED_CUSTOMERS,
  MAX_SIMULATED_PRODUCTS,
  SimulationRequestSchema,
  SimulationSchema,
} from "./simulations.schemas";
import { keyBusy, SIMULATION_LIMITS } from "./simulations.service";

/** The group of this resource's operations in /doc. */
export const tag = {
  name: "Simulations",
  description: "What a change would do to prices, before it is published (admin keys only)",
};

/** D1 round trips of one simulation, whatever its size (docs/simulation.md §3). */
export const SIMULATION_ROUND_TRIPS = 2;

export const simulatePrices = createRoute({
  method: "post",
  path: "/v1/api/simulations/prices",
  tags: [tag.name],
  operationId: "simulatePrices",
  summary: `Simulate a change set on the prices of up to ${MAX_SIMULATED_CUSTOMERS} customers × ${MAX_SIMULATED_PRODUCTS} products (admin keys only)`,
  description:
    "Prices every selected customer (and, with `anonymous`, the anonymous buyer) for every " +
    "selected product in the channel twice on the same data read once: as stored, and with the " +
    "change set applied as an overlay (records to activate treated as ACTIVE, records to " +
    "deactivate as INACTIVE, tiers set). Each product is priced as a one-line order of " +
    "`quantity`, as GET /v1/api/prices prices it, without explain. Answers a row for every " +
    "(customer, product) whose line differs, with both lines as the price lookup shows them, the " +
    "difference per unit (minor units and basis points) and what changed, and a summary. " +
    "Records of other channels may be named: they change nothing here. Nothing is written (no " +
    `audit entry, no new pricing version, no change feed entry). Bounded: at most ` +
    `${MAX_SIMULATED_CUSTOMERS} buyers × ${MAX_SIMULATED_PRODUCTS} products, read in ` +
    `${SIMULATION_ROUND_TRIPS} D1 round trips whatever the size (the selection and the change ` +
    "set, then the data). Errors: unknown channel 404; inactive channel 409 CHANNEL_INACTIVE; " +
    "no currency given and no primary pricelist 400 CURRENCY_REQUIRED; unknown customers, " +
    "products, groups or records, customers not in the channel, activating an ACTIVE or " +
    "ARCHIVED record, deactivating one that is not ACTIVE, tiers of an ARCHIVED pricelist, and a " +
    "selection that is empty or too large: 400 naming the field. At most " +
    `${SIMULATION_LIMITS.perKey} simulation per API key and ${SIMULATION_LIMITS.perIsolate} in all ` +
    "run at once on one server instance (a Workers isolate): past that, 429 " +
    `TOO_MANY_SIMULATIONS with Retry-After (${SIMULATION_LIMITS.retryAfterSeconds} s). The answer ` +
    "is written as it is read; the work yields between steps, so price lookups on the same " +
    "instance keep being answered meanwhile. docs/simulation.md has the rules.",
  // A read: nothing is written, so no idempotency record and any D1 replica may answer it.
  middleware: [readOnly, requireAdmin("simulate price changes")],
  request: { body: jsonBody(SimulationRequestSchema) },
  responses: {
    200: json(SimulationSchema, "The prices the change set changes"),
    ...errors(400, 401, 403, 404, 409, 413, 415),
    ...tooManyError(
      "TOO_MANY_SIMULATIONS: a simulation of this API key is still running, or as many as a " +
        `server instance runs at once (${SIMULATION_LIMITS.perIsolate}); or RATE_LIMITED: the ` +
        "key's read limit is used up. Retry after the Retry-After seconds",
      keyBusy(),
    ),
  },
});
