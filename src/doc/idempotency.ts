import { z, type OpenAPIHono } from "@hono/zod-openapi";
import { IDEMPOTENCY_HEADER } from "../http/idempotency";
import { errors } from "../http/openapi";
import { readOnly } from "../http/read-only";

const DESCRIPTION =
  "Makes a retry of this write safe: the first answer (status and body) is stored with the " +
  "write and replayed for 24 hours to any request with the same key and the same method, path " +
  "and body (with `idempotent-replayed: true`); the write happens once. Scoped to the API key's " +
  "name. The same key with another request → 409 IDEMPOTENCY_KEY_REUSED; while the first " +
  "request is still running, a retry waits up to 5 s, then → 409 IDEMPOTENCY_KEY_IN_USE. " +
  "1-255 visible ASCII characters; a UUID is a good choice. See docs/api/resources.md §4.4.";

const IdempotencyKey = z
  .string()
  .regex(/^[\x21-\x7e]{1,255}$/)
  .optional()
  .openapi({
    // No example: Swagger UI fills an example into every "Try it out", and one fixed key sent
    // with every write makes each write after the first a 409 IDEMPOTENCY_KEY_REUSED.
    param: { name: IDEMPOTENCY_HEADER, in: "header", required: false, description: DESCRIPTION },
  });

const IDEMPOTENCY_CONFLICTS =
  "an Idempotency-Key reused for another request (IDEMPOTENCY_KEY_REUSED) or still in progress " +
  "(IDEMPOTENCY_KEY_IN_USE)";

/**
 * Every write accepts Idempotency-Key (src/http/idempotency.ts runs before every route), so the
 * header and its 409s are declared here once, on every route that writes, instead of on each
 * route by hand: a new write route gets them without anyone remembering to.
 */
export function declareIdempotencyKeys(registry: OpenAPIHono["openAPIRegistry"]) {
  const header = registry.registerParameter("IdempotencyKey", IdempotencyKey);
  for (const definition of registry.definitions) {
    if (definition.type !== "route") continue;
    const { route } = definition;
    const middleware = [(route as { middleware?: unknown }).middleware ?? []].flat();
    if (route.method === "get" || middleware.includes(readOnly)) continue;
    route.request = { ...route.request, headers: z.object({ [IDEMPOTENCY_HEADER]: header }) };
    const listed = route.responses[409] as { description: string } | undefined;
    const conflict = listed ?? errors(409)[409];
    route.responses[409] = {
      ...conflict,
      description: listed
        ? `${listed.description}; or ${IDEMPOTENCY_CONFLICTS}`
        : `Conflict: ${IDEMPOTENCY_CONFLICTS}`,
    };
  }
}
