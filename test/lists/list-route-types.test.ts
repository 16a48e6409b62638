import { describe, expect, it } from "vitest";
import type { AppRouteHandler } from "../../src/http/router";
import { productList } from "../../src/resources/products/products.list";
import * as products from "../../src/resources/products/products.routes";

/**
 * `c.var.list` exists in a handler's type only where the route runs the list middleware, and
 * only defineList(…).route adds it, together with the OpenAPI parameters. The handlers below are
 * never mounted: `npm run typecheck` is their test, and each `@ts-expect-error` fails it if the
 * line compiles.
 */
export const listHandler: AppRouteHandler<typeof products.list> = async (c) => {
  void c.var.list.limit;
  throw new Error("never mounted");
};

export const notAListHandler: AppRouteHandler<typeof products.get> = async (c) => {
  // @ts-expect-error GET /v1/api/product/{code} runs no list middleware, so it has no c.var.list
  void c.var.list;
  throw new Error("never mounted");
};

export const noHalfListRoute = productList.route({
  method: "get",
  path: "/v1/api/type-test",
  // @ts-expect-error the list supplies the parameters; a route cannot bring its own
  parameters: [],
  responses: { 204: { description: "Never mounted" } },
});

describe("list routes", () => {
  it("carry the list middleware and its parameters together; other routes neither", () => {
    expect(products.list.middleware).toHaveLength(1);
    expect(products.list.parameters.map((p) => p.name)).toContain("sortBy");
    expect("middleware" in products.get).toBe(false);
    expect("parameters" in products.get).toBe(false);
  });
});
