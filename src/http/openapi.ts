import { createRoute, z } from "@hono/zod-openapi";
import { BLOCKER_KINDS } from "../pricing/vocabulary";
import { MISSING_KEY } from "./auth";
import {
  databaseStalled,
  inUse,
  MAX_BLOCKERS_SHOWN,
  type ApiError,
  problemType,
  TITLES,
  type ErrorStatus,
  type NamedBlocker,
} from "../core/errors";
import { RATE_LIMITS, rateLimitedDetail } from "./rate-limit";
import { BulkUpsertResultSchema, Code, MAX_BULK_ROWS } from "../core/schemas";

const BlockerSchema = z
  .object({
    kind: z.enum(BLOCKER_KINDS).openapi({ description: "What the records are" }),
    count: z.number().int().openapi({ example: 2, description: "How many there are, all of them" }),
    codes: z
      .array(z.string())
      .optional()
      .openapi({
        description: `The first ${MAX_BLOCKERS_SHOWN} by code, sorted (products and product groups)`,
      }),
    ids: z
      .array(z.number().int())
      .optional()
      .openapi({
        description: `The first ${MAX_BLOCKERS_SHOWN} by id, ascending (pricelists, trade conditions, promotions)`,
      }),
  })
  .openapi("Blocker", {
    description: "Records of one kind that still name the record a delete was refused for",
    example: { kind: "tradeCondition", count: 2, ids: [12, 14] },
  });

export const ProblemSchema = z
  .object({
    type: z.string().openapi({
      example: "urn:problem:pricing:not-found",
      description: "URI naming the kind of problem (RFC 9457), one per code",
    }),
    title: z.string().openapi({ example: "Not Found", description: "The HTTP status text" }),
    status: z.number().int().openapi({ example: 404, description: "The HTTP status code" }),
    detail: z.string().openapi({
      example: "pricelist 42 not found",
      description: "What went wrong with this request, for humans",
    }),
    code: z.string().openapi({ example: "NOT_FOUND", description: "Stable machine-readable code" }),
    errors: z
      .array(
        z.object({
          path: z.string().openapi({ description: "The field: body.x, query.y or path.z" }),
          message: z.string().openapi({ description: "What is wrong with it" }),
        }),
      )
      .optional()
      .openapi({
        description: "Every validation issue, with the field path (body.x, query.y, path.z)",
      }),
    blockers: z.array(BlockerSchema).optional().openapi({
      description:
        "Only with code IN_USE (a refused delete): each kind of record in the way, with its count and the first codes or ids",
    }),
    requestId: z.string().openapi({
      description: "The server's id of this request, as in the x-request-id response header",
    }),
  })
  .openapi("Problem", { description: "An error, as RFC 9457 problem details" });

const DESCRIPTIONS: Record<ErrorStatus, string> = {
  400: "Invalid input: malformed JSON, wrong types, or a bad query",
  401: "Missing or unknown API key",
  403: "The key's role may not make this call",
  404: "Unknown record",
  405: "Method not allowed on this path",
  409: "Conflict with the current state",
  410: "No longer available",
  413: "Body larger than 1 MiB",
  415: "Body is not application/json",
  422: "Well-formed, but the rules refuse it: the problem's code says which, `errors` names the field",
  429: "Too many requests for this API key (reads and writes have limits of their own); retry after the Retry-After seconds",
  500: "Unexpected error",
  503: "DATABASE_STALLED: the database did not answer in time and the prices this server holds are too old to answer with; retry after the Retry-After seconds",
};

export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  content: { "application/json": { schema } },
  description,
});

export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  content: { "application/json": { schema } },
  required: true,
});

/** One typical body per status, so readers of /doc see what each error looks like. */
const EXAMPLES: Record<ErrorStatus, [code: string, detail: string]> = {
  400: ["VALIDATION_FAILED", "body.currency: must be an ISO 4217 code such as EUR"],
  401: ["UNAUTHORIZED", MISSING_KEY],
  403: ["FORBIDDEN", "a read key cannot make changes; use an admin key"],
  404: ["NOT_FOUND", "pricelist 42 not found"],
  405: ["METHOD_NOT_ALLOWED", "DELETE is not allowed on /v1/api/product"],
  409: ["CONFLICT", "channel code WEB-DE already exists"],
  410: [
    "EXPIRED_CURSOR",
    "cursor 1200 is older than the retention; the oldest cursor served is 1811",
  ],
  413: ["PAYLOAD_TOO_LARGE", "the request body is larger than 1 MiB"],
  415: ["UNSUPPORTED_MEDIA_TYPE", "the request body must be sent as application/json"],
  422: ["BELOW_FLOOR", "line 0 (P-B): the quoted 310 is below the floor of 320"],
  429: ["RATE_LIMITED", rateLimitedDetail("read", RATE_LIMITS.read.defaultPeriod)],
  500: ["INTERNAL_ERROR", "an unexpected error occurred; quote the requestId"],
  // The defaults of D1_STALL_MS and D1_STALE_MAX_S (src/db/pricing/stall.ts).
  503: ["DATABASE_STALLED", databaseStalled(2000, 60, 5).detail],
};

/** The field of the 422 example (a quote line's price below its floor, docs/quotes.md §2). */
const BELOW_FLOOR_ISSUE = { path: "body.lines.0.unitAmount", message: "is below the floor of 320" };

function example(status: ErrorStatus, invalid?: { path: string; message: string }) {
  const [code, detail] = invalid
    ? ["VALIDATION_FAILED", `${invalid.path}: ${invalid.message}`]
    : EXAMPLES[status];
  const issue = invalid ?? {
    path: "body.currency",
    message: "must be an ISO 4217 code such as EUR",
  };
  return {
    type: problemType(code),
    title: TITLES[status],
    status,
    detail,
    code,
    ...(status === 400 ? { errors: [issue] } : {}),
    ...(status === 422 ? { errors: [BELOW_FLOOR_ISSUE] } : {}),
    requestId: "3f1c2a9e-8d7b-4c61-9a52-0e4f7b6d1c23",
  };
}

/**
 * The 400 of a route whose body has no `currency`, with an example naming one of its own fields
 * (the generic example names `body.currency`), in place of `errors(400)`'s.
 */
export function invalidError(path: string, message: string): Record<400, ProblemResponse> {
  return {
    400: {
      content: {
        "application/problem+json": {
          schema: ProblemSchema,
          example: example(400, { path, message }),
        },
      },
      description: DESCRIPTIONS[400],
    },
  };
}

type ProblemResponse = {
  content: {
    "application/problem+json": {
      schema: typeof ProblemSchema;
      example: ReturnType<typeof example> | ReturnType<typeof inUseExample>;
    };
  };
  description: string;
  headers?: Record<string, { description: string; schema: { type: "integer" } }>;
};

/** A 503 says when to come back too. */
const RETRY_LATER = {
  "Retry-After": {
    description: "Seconds to wait before trying again",
    schema: { type: "integer" as const },
  },
};

/** A 429 says when to come back. */
const RETRY_AFTER = {
  "Retry-After": {
    description: "Seconds until the key's request budget is renewed",
    schema: { type: "integer" as const },
  },
};

/** Error responses of a route. Whatever sits behind an API key (401) can also be rate-limited (429). */
export function errors<S extends ErrorStatus>(...listed: S[]): Record<S | 429, ProblemResponse> {
  const statuses: ErrorStatus[] =
    listed.includes(401 as S) && !listed.includes(429 as S) ? [...listed, 429] : listed;
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      {
        content: {
          "application/problem+json": { schema: ProblemSchema, example: example(status) },
        },
        description: DESCRIPTIONS[status],
        ...(status === 429 ? { headers: RETRY_AFTER } : {}),
        ...(status === 503 ? { headers: RETRY_LATER } : {}),
      },
    ]),
  ) as Record<S | 429, ProblemResponse>;
}

function inUseExample(subject: string, blockers: NamedBlocker[]) {
  const { code, detail, extensions } = inUse(subject, blockers);
  const { requestId, ...generic } = example(409);
  return { ...generic, type: problemType(code), detail, code, ...extensions, requestId };
}

/**
 * The 409 of a delete that other records can stand in the way of
 * (docs/api/errors-and-limits.md §7.2), in place of the generic one; the example is worded by
 * `inUse` itself.
 */
export function inUseError(
  subject: string,
  blockers: NamedBlocker[],
): Record<409, ProblemResponse> {
  return {
    409: {
      content: {
        "application/problem+json": {
          schema: ProblemSchema,
          example: inUseExample(subject, blockers),
        },
      },
      description: "IN_USE: other records still name it; `blockers` lists them",
    },
  };
}

/** The largest id a path takes: 15 digits, well inside the integers JSON and D1 hold exactly. */
export const MAX_ID = 999_999_999_999_999;

/**
 * A route's 429 when it refuses for a reason of its own besides the key's rate limit (another
 * code, same status), in place of the generic one: `description` names both, the example is the
 * route's own refusal.
 */
export function tooManyError(description: string, refusal: ApiError): Record<429, ProblemResponse> {
  const { requestId, ...generic } = example(429);
  const { code, detail } = refusal;
  return {
    429: {
      content: {
        "application/problem+json": {
          schema: ProblemSchema,
          example: { ...generic, type: problemType(code), detail, code, requestId },
        },
      },
      description,
      headers: {
        "Retry-After": {
          description: "Seconds to wait before trying again",
          schema: { type: "integer" as const },
        },
      },
    },
  };
}

export const IdParams = z.object({
  id: z
    .string()
    .regex(/^[1-9][0-9]*$/, { message: "must be a positive integer", abort: true })
    .refine((id) => id.length <= 15, `must be at most ${MAX_ID}`)
    .transform(Number)
    .openapi({
      param: { name: "id", in: "path", required: true },
      type: "integer",
      minimum: 1,
      maximum: MAX_ID,
      example: 42,
      description: `The record's id (a positive integer, at most ${MAX_ID})`,
    }),
});

export const CodeParams = z.object({
  code: Code.openapi({
    param: { name: "code", in: "path", required: true },
    description: "The record's code",
  }),
});

export const security = [{ apiKey: [] }];

/**
 * `PUT <collection>`, a bulk upsert by code (docs/api/relations.md §5.12): what every one says in
 * /doc, with the resource's own rules (`rules`, sentences) in the middle.
 */
export function bulkUpsertRoute<B extends z.ZodType>(route: {
  path: string;
  tags: string[];
  operationId: string;
  /** The records, plural: "products". */
  noun: string;
  /** An example path of a bad row's field: "body.products.12.name". */
  example: string;
  rules: string;
  body: B;
}) {
  return createRoute({
    method: "put",
    path: route.path,
    tags: route.tags,
    operationId: route.operationId,
    summary: `Create or update 1-${MAX_BULK_ROWS} ${route.noun} by code, atomically`,
    description:
      `Each row is one of the ${route.noun} by \`code\`: a new code creates it, a known one gets ` +
      "the fields the row names (an absent optional field keeps its value; null clears a " +
      `nullable one). ${route.rules} All or nothing: any bad row and nothing is written; the 400 ` +
      `names every bad row by index and field (\`${route.example}\`). A code may appear once per ` +
      "body. Answers the codes created and updated; a row that matches its stored record is " +
      "counted in `unchanged` and not written (no audit entry, no new pricing version), so " +
      "re-sending unchanged data writes nothing. At most 3 D1 round trips whatever the number " +
      "of rows (two: a read, a write); a concurrent change in between makes it judge again, or " +
      "answer 409 CONCURRENT_UPDATE under heavy contention (docs/api/relations.md §5.12).",
    request: { body: jsonBody(route.body) },
    responses: {
      200: json(BulkUpsertResultSchema, "What the body created, updated and left unchanged"),
      ...errors(400, 401, 403, 409, 413, 415),
    },
  });
}

/**
 * The rules of a body that join two fields, which JSON Schema cannot state, in the words of the
 * 400 they answer (docs/api/resources.md §1): each operation's description names its own.
 */
const CROSS_FIELD_RULES = {
  window: "`validTo` must be after `validFrom` (a null side is open)",
  rounding: "a rounding's `ending` must be below its `step`",
  rate: "a rate's `from` and `to` must differ",
  effectiveAt: "`effectiveAt` must not be in the past",
} as const;

/** `description`, then the cross-field rules the operation's body must follow. */
export function withRules(
  description: string,
  ...rules: (keyof typeof CROSS_FIELD_RULES)[]
): string {
  const named = rules.map((rule) => CROSS_FIELD_RULES[rule]);
  return `${description} Rules across fields (a 400 naming the field otherwise): ${named.join("; ")}.`;
}
