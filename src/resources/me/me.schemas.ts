import { z } from "@hono/zod-openapi";
import { ROLES } from "../../http/env";

export const MeSchema = z
  .object({
    name: z.string().openapi({
      description:
        "The key's name in API_KEYS (docs/security.md), as the audit trail and change requests " +
        "show it; never the key itself",
      example: "dev-read-key",
    }),
    owner: z.string().openapi({
      description:
        "Whose key it is (docs/api/access.md §6): the same for every key its owner rotates through; " +
        "change requests name owners, and four eyes compare them",
      example: "dev-read",
    }),
    role: z.enum(ROLES).openapi({
      description:
        "admin: every operation. read: the reads (GET, the price lookup) without cost, margin or " +
        "accruals; writes, simulations, change requests, the audit trail and the pricing lint " +
        "answer 403 (docs/api/access.md §6)",
      example: "read",
    }),
  })
  .openapi("Me", {
    description: "The API key that made the request",
    example: { name: "dev-read-key", owner: "dev-read", role: "read" },
  });
