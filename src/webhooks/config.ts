import { createDb, DbMeter } from "../db/client";
import type { Bindings } from "../http/env";
import type { DeliveryConfig } from "./deliver";
import { targetRules } from "./safety";

/** The first retry's delay when WEBHOOK_RETRY_BASE_SECONDS is unset or not a whole number 1-3600. */
export const DEFAULT_RETRY_BASE_SECONDS = 30;

export function retryBaseSeconds(value: string | undefined): number {
  const seconds = Number(value);
  return Number.isInteger(seconds) && seconds >= 1 && seconds <= 3600
    ? seconds
    : DEFAULT_RETRY_BASE_SECONDS;
}

export const deliveryConfig = (env: Bindings): DeliveryConfig => ({
  ...targetRules(env),
  retryBaseSeconds: retryBaseSeconds(env.WEBHOOK_RETRY_BASE_SECONDS),
});

/** The engine's database handle: the primary, no audit source (its writes are no pricing data). */
export const engineDb = (env: Bindings) => createDb(env.DB, new DbMeter());
