import {
  OpenAPIHono,
  type RouteConfig,
  type RouteConfigToEnv,
  type RouteHandler,
} from "@hono/zod-openapi";
import type { AppEnv } from "./env";
import { fromZodError } from "../core/errors";

/** Every router comes from here, so none misses the validation hook. */
export const createRouter = () =>
  new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw fromZodError(result.error, result.target);
    },
  });

/**
 * A handler of route R: the app's env plus what R's own middleware adds (`c.var.list` on list
 * routes, and only there).
 */
export type AppRouteHandler<R extends RouteConfig> = RouteHandler<R, AppEnv & RouteConfigToEnv<R>>;
