import { z } from "@hono/zod-openapi";
import { ROLES } from "../../lib/http/env";

export const MeSchema = z
  .object({
    name: z.string().openapi({
      description:
        "The key's name in API_KEYS (docs/security.md), as the audit trail and change requests " +
        "show it; never the key itself",
      example: "dev-read-key",
    }),
    role: z.enum(ROLES).openapi({
      description:
        "admin: every operation. read: the reads (GET, the price lookup) without cost, margin or " +
        "accruals; writes, simulations, change requests, the audit trail and the pricing lint " +
        "answer 403 (docs/api.md §6)",
      example: "read",
    }),
  })
  .openapi("Me", {
    description: "The API key that made the request",
    example: { name: "dev-read-key", role: "read" },
  });
