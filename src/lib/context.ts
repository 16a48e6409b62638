import type { MiddlewareHandler } from "hono";
import { createDb, DbMeter } from "./db";
import type { AppEnv } from "./env";

const REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

/** Request id, the metered database handle, and the headers every response carries. */
export const requestContext = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const incoming = c.req.header("x-request-id");
  const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
  const meter = new DbMeter();
  c.set("requestId", requestId);
  c.set("meter", meter);
  c.set("db", createDb(c.env.DB, meter));
  await next();
  c.header("x-request-id", requestId);
  c.header("server-timing", meter.serverTiming());
  c.header("x-content-type-options", "nosniff");
};
