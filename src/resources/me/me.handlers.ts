import type { AppRouteHandler } from "../../http/router";
import type * as routes from "./me.routes";

/** The key `authenticate` matched (src/http/auth.ts): nothing is read. */
export const get: AppRouteHandler<typeof routes.get> = (c) =>
  c.json({ name: c.var.keyName, owner: c.var.keyOwner, role: c.var.role }, 200);
