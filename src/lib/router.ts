import { OpenAPIHono, type RouteConfig, type RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "./env";
import { fromZodError } from "./errors";

/** Every router comes from here, so none misses the validation hook. */
export const createRouter = () =>
  new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw fromZodError(result.error, result.target);
    },
  });

export type AppRouteHandler<R extends RouteConfig> = RouteHandler<R, AppEnv>;
