import { bodyLimit } from "hono/body-limit";
import { authenticate } from "./lib/auth";
import { requestContext } from "./lib/context";
import { ApiError, onError } from "./lib/errors";
import { notFoundHandler } from "./lib/not-found";
import { createRouter } from "./lib/router";
import { routers } from "./resources";

export const MAX_BODY_BYTES = 1024 * 1024;

const app = createRouter();

app.use("*", requestContext());
app.onError(onError);

app.get("/health", (c) => c.json({ status: "ok" }));

app.use("/v1/api/*", authenticate());
app.use(
  "/v1/api/*",
  bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw new ApiError(413, "PAYLOAD_TOO_LARGE", "the request body is larger than 1 MiB");
    },
  }),
);

for (const router of routers) app.route("/", router);

app.openAPIRegistry.registerComponent("securitySchemes", "apiKey", {
  type: "apiKey",
  in: "header",
  name: "x-webhook-signature",
  description: "An API key. Admin keys may do everything; read keys only GET and the price lookup.",
});

app.doc31("/doc", (c) => ({
  openapi: "3.1.0",
  info: {
    title: "Edge Pricing Service",
    version: "1.0.0",
    description:
      "Prices, pricelists, trade conditions and promotions for B2B storefronts. Money is integer minor units; percentages are basis points.",
  },
  servers: [{ url: new URL(c.req.url).origin }],
  security: [{ apiKey: [] }],
}));

app.notFound(notFoundHandler(app as never));

export { app };
