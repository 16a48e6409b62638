import { createRoute } from "@hono/zod-openapi";
import { errors, json } from "../../http/openapi";
import { MeSchema } from "./me.schemas";

/** The group of this resource's operations in /doc. */
export const tag = {
  name: "API key",
  description:
    "The key making the request: its name and role, so a client offers only what it may do",
};

export const get = createRoute({
  method: "get",
  path: "/v1/api/me",
  tags: [tag.name],
  operationId: "getMe",
  summary: "The name, owner and role of the API key making the request",
  description:
    "Answers who the key in the request header is: its name and its role (admin or read), " +
    "so that a client such as the back office (/app) shows a read key only what it may use and " +
    "says why the rest is not there (docs/app.md §6). Either role may ask; no D1 round trip.",
  responses: { 200: json(MeSchema, "The key's name and role"), ...errors(401) },
});
