/**
 * The app's router: Hono, plus `openapi(route, handler)`, which validates a route's params, query,
 * headers and JSON body with the zod schemas of its definition (`createRoute` of
 * @hono/zod-openapi) as `OpenAPIHono.openapi` does, and records the definition. The Worker never
 * generates the OpenAPI document (the build does, docs/architecture.md §1.2), so its router leaves
 * `OpenAPIHono` and the document generator it brings out of the bundle (docs/performance.md "The
 * Worker bundle"); src/doc/document.ts hands the recorded definitions to the generator under Node.
 */
import type {
  OpenAPIHono,
  RouteConfig,
  RouteConfigToEnv,
  RouteHandler,
  z,
} from "@hono/zod-openapi";
import { Hono, type Context, type Env, type HonoRequest, type MiddlewareHandler } from "hono";
import type { Schema as HonoSchema } from "hono/types";
import { HTTPException } from "hono/http-exception";
import { mergePath } from "hono/utils/url";
import type { AppEnv } from "./env";
import { fromZodError } from "../core/errors";

/**
 * A handler of route R: the app's env plus what R's own middleware adds (`c.var.list` on list
 * routes, and only there).
 */
export type AppRouteHandler<R extends RouteConfig> = RouteHandler<R, AppEnv & RouteConfigToEnv<R>>;

/** A route as the router recorded it: its definition without its middleware, at its full path. */
export type RouteDefinition = Omit<RouteConfig, "middleware" | "hide">;

/** The handler `OpenAPIHono.openapi` takes for route R, typed alike (types only, nothing runs). */
declare const _openApiHono: OpenAPIHono<AppEnv>;
type HandlerOf<R extends RouteConfig> = Parameters<typeof _openApiHono.openapi<R>>[1];

type Target = "param" | "query" | "header" | "json";

/** A schema a route's request names, whatever zod type it is. */
type Schema = z.ZodType;

/**
 * What a route's validator reads of the request, as hono/validator reads it for these targets
 * (its form and cookie targets, which no route here has, stay out of the bundle). A JSON body is
 * read after `jsonOnly` let its content-type through: one that does not parse is a 400; without
 * a content-type (`jsonOnly` lets only an empty body through) it is {}.
 */
async function read(c: Context, target: Target): Promise<Record<string, unknown>> {
  if (target === "param") return c.req.param();
  if (target === "header") return c.req.header();
  if (target === "query") {
    const entries = Object.entries(c.req.queries());
    return Object.fromEntries(entries.map(([k, v]) => [k, v.length === 1 ? v[0] : v]));
  }
  if (!c.req.header("content-type")) return {};
  try {
    return await c.req.json();
  } catch {
    throw new HTTPException(400, { message: "Malformed JSON in request body" });
  }
}

/**
 * Validates `target` with `schema` and hands the parsed value to the handler (`c.req.valid`); an
 * invalid one is a 400 problem naming each field (fromZodError), as the hook of OpenAPIHono did.
 * Header names arrive lower-cased: a schema's own spelling of them is restored first.
 */
function validate(target: Target, schema: Schema): MiddlewareHandler {
  const shape = (schema as { shape?: Record<string, unknown> }).shape;
  const spelling =
    target === "header" && shape
      ? new Map(Object.keys(shape).map((key) => [key.toLowerCase(), key]))
      : undefined;
  return async (c, next) => {
    const value = await read(c, target);
    const input = spelling
      ? Object.fromEntries(Object.entries(value).map(([k, v]) => [spelling.get(k) ?? k, v]))
      : value;
    const result = await schema.safeParseAsync(input);
    if (!result.success) throw fromZodError(result.error, target);
    c.req.addValidatedData(target, result.data as never);
    await next();
  };
}

/** `application/json` and its `+json` kinds, as a declared media type. */
const isJson = (mediaType: string) => /^application\/([a-z-.]+\+)?json/i.test(mediaType);
/** A request's content-type that is JSON, parameters allowed. */
const JSON_REQUEST = /^application\/([a-z-.]+\+)?json(;\s*[a-zA-Z0-9-]+=([^;]+))*$/i;

/** Whether the request has a body of at least one byte, without using it up. */
async function hasBody(req: HonoRequest): Promise<boolean> {
  const request = req.raw;
  if (request.body === null) return false;
  // Read before (strictJsonBody): Hono keeps what it read.
  if (request.bodyUsed) return (await req.arrayBuffer()).byteLength > 0;
  const body = request.clone().body;
  if (body === null) return false;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return false;
      if (value.byteLength > 0) return true;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

/** 415 for a body that is not the JSON a route declares (or any body without a content-type). */
const jsonOnly: MiddlewareHandler = async (c, next) => {
  const contentType = c.req.header("content-type");
  if (contentType ? !JSON_REQUEST.test(contentType) : await hasBody(c.req)) {
    throw new HTTPException(415, { message: "Unsupported Media Type" });
  }
  await next();
};

/** The validators of a route's request, in OpenAPIHono's order: query, params, headers, body. */
function validatorsOf(route: RouteConfig): MiddlewareHandler[] {
  const { query, params, headers, cookies, body } = route.request ?? {};
  if (cookies) throw new Error(`${route.method} ${route.path}: cookies are not read by this API`);
  const out: MiddlewareHandler[] = [];
  if (query) out.push(validate("query", query as Schema));
  if (params) out.push(validate("param", params as Schema));
  if (headers) out.push(validate("header", headers as Schema));
  const content = body?.content ?? {};
  const mediaTypes = Object.keys(content);
  if (mediaTypes.length === 0) return out;
  if (!mediaTypes.every(isJson)) {
    throw new Error(
      `${route.method} ${route.path}: bodies are JSON only (${mediaTypes.join(", ")})`,
    );
  }
  out.push(jsonOnly);
  for (const mediaType of mediaTypes) {
    const json = validate("json", (content[mediaType] as { schema: Schema }).schema);
    out.push(
      body?.required
        ? json
        : async (c, next) => {
            if (c.req.header("content-type")) return json(c, next);
            c.req.addValidatedData("json", {});
            await next();
          },
    );
  }
  return out;
}

/** OpenAPI's `{param}` is Hono's `:param`, and back. */
const toHono = (path: string) => path.replaceAll(/\/{(.+?)}/g, "/:$1");
const toOpenApi = (path: string) => path.replaceAll(/:([^/]+)/g, "{$1}");

export class AppRouter extends Hono<AppEnv> {
  /** Every route of this router and of the routers mounted on it, in registration order. */
  readonly definitions: RouteDefinition[] = [];

  /** Adds `route`: its own middleware, its request's validators, then `handler`. */
  openapi<R extends RouteConfig>(route: R, handler: HandlerOf<R>): this {
    const { middleware, hide, ...definition } = route;
    if (!hide) this.definitions.push(definition);
    const own = middleware ? [middleware].flat() : [];
    this.on(
      [route.method],
      [toHono(route.path)],
      ...(own as MiddlewareHandler[]),
      ...validatorsOf(route),
      handler as never,
    );
    return this;
  }

  override route<SubPath extends string, SubEnv extends Env, SubSchema extends HonoSchema>(
    path: SubPath,
    app: Hono<SubEnv, SubSchema, string>,
  ): this {
    super.route(path, app);
    if (app instanceof AppRouter) {
      for (const definition of app.definitions) {
        this.definitions.push({ ...definition, path: mergePath(toOpenApi(path), definition.path) });
      }
    }
    return this;
  }
}

/** Every router comes from here. */
export const createRouter = () => new AppRouter();
