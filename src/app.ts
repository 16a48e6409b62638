import { home } from "./doc/home";
import { servedDocument } from "./doc/served";
import { apiReference } from "./doc/ui";
import { operationIndex } from "./http/context";
import { authenticate } from "./http/auth";
import { strictJsonBody } from "./http/body";
import { requestContext } from "./http/context";
import { onError } from "./core/errors";
import { idempotency } from "./http/idempotency";
import { methodNotAllowed, notFoundHandler } from "./http/not-found";
import { rateLimit } from "./http/rate-limit";
import { createRouter } from "./http/router";
import { corsFromEnv, limitBodySize, securityHeaders } from "./http/security";
import { routers } from "./resources";
import { announceChanges } from "./webhooks/announce";

const app = createRouter();

/** The audit trail names each write by its route's operationId, read once from its definition. */
let operations: Map<string, string> | undefined;
const operationOf = (method: string, route: string) =>
  (operations ??= operationIndex(app.definitions)).get(`${method} ${route}`);

// Every request, errors included: request id, D1 session, security headers, CORS.
app.use("*", requestContext(operationOf));
app.use("*", securityHeaders());
app.use("*", corsFromEnv());
// A known path with another method: 405 + Allow, before any key, limit or body is looked at.
app.use("*", methodNotAllowed(app as never));
app.onError(onError);

// Public: where to go from /, the health check and the API reference page.
app.route("/", home);
app.get("/health", (c) => c.json({ status: "ok" }));
app.route("/", apiReference);

// The API: an API key, its rate limit, bounded and strictly read bodies, then idempotent
// retries of writes, before any route; after a committed write, the webhook queue is told.
app.use("/v1/api/*", authenticate());
app.use("/v1/api/*", rateLimit());
app.use("/v1/api/*", limitBodySize());
app.use("/v1/api/*", strictJsonBody());
app.use("/v1/api/*", idempotency());
app.use("/v1/api/*", announceChanges());

for (const router of routers) app.route("/", router);

// GET /doc describes every route registered above: the document the build generated from them
// (src/openapi.ts), served as a static asset.
app.route("/", servedDocument);

app.notFound(notFoundHandler);

export { app };
