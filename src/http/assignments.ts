import { createRoute, type z } from "@hono/zod-openapi";
import type { Db } from "../db/client";
import { AssignResultSchema, UnassignResultSchema, type bulkCodes } from "../core/schemas";
import { errors, json, jsonBody } from "./openapi";
import { createRouter } from "./router";

/*
 * Bulk assign and unassign by code (docs/api/relations.md §5.1): every pair of
 * `POST <owner>/<targets>` and `POST <owner>/<targets>/unassign` is declared once, with
 * `assignmentRoutes` in the owner's routes file, and wired once, with `assignmentRouter` in its
 * handlers file. The paths, operationIds, bodies, answers and wording of /doc come from the
 * declaration, so every pair says the same thing the same way; the owner's service keeps its own
 * rules (who may take the codes, the 404 and 409 wording).
 */

/** A bulk body `{ <field>: [codes] }` (src/core/schemas.ts: CustomerGroupCodesSchema, …). */
type CodesBody = z.ZodObject<Record<string, ReturnType<typeof bulkCodes>>>;

/** What one side of the pair adds to the common wording. */
interface Side {
  /** The owner's own rules, sentences ("Works whatever the scope."). */
  rules?: string;
  /** Whether a rule of the owner can refuse the call (409). */
  conflicts?: boolean;
}

export interface AssignmentDeclaration<P extends z.ZodObject> {
  /** The owner, singular, as /doc names it: "channel", "trade condition". */
  owner: string;
  /** The assign path; unassign is this path plus /unassign. */
  path: `/v1/api/${string}`;
  /** The owner's path parameters (CodeParams, IdParams). */
  params: P;
  /** The body; its one field (`customerGroupCodes`) names the targets. */
  body: CodesBody;
  tags: string[];
  assign?: Side;
  unassign?: Side;
}

const words = (camel: string) => camel.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);
const pascal = (noun: string) =>
  noun.replace(/(^|\s)([a-z])/g, (_, _s, c: string) => c.toUpperCase());

const BULK_RULE = "1-1000 codes, duplicates counted once; each call is one atomic batch.";
const ASSIGN_RULE =
  "`assigned`: newly assigned; `skipped`: every other code (already assigned or unknown); " +
  "`notFound`: the unknown ones. Repeating the call is harmless.";
const UNASSIGN_RULE =
  "`unassigned`: codes that exist (also when they were not assigned); `notFound`: the rest. " +
  "Repeating the call is harmless.";

/** The route config of one side, before createRoute. */
function pairRoute<P extends z.ZodObject>(
  decl: AssignmentDeclaration<P>,
  side: "assign" | "unassign",
  targets: string,
) {
  const { rules, conflicts } = decl[side] ?? {};
  const assigning = side === "assign";
  return {
    method: "post" as const,
    path: assigning ? decl.path : `${decl.path}/unassign`,
    tags: decl.tags,
    operationId: assigning
      ? `assign${pascal(targets)}To${pascal(decl.owner)}`
      : `unassign${pascal(targets)}From${pascal(decl.owner)}`,
    summary: assigning
      ? `Bulk-assign ${targets} to a ${decl.owner} by code`
      : `Bulk-unassign ${targets} from a ${decl.owner} by code`,
    description: [BULK_RULE, assigning ? ASSIGN_RULE : UNASSIGN_RULE, rules]
      .filter(Boolean)
      .concat(`Unknown ${decl.owner} → 404.`)
      .join(" "),
    request: { params: decl.params, body: jsonBody(decl.body) },
    responses: assigning
      ? {
          201: json(AssignResultSchema, "What was assigned"),
          ...errors(400, 401, 403, 404, ...(conflicts ? ([409] as const) : []), 413, 415),
        }
      : {
          200: json(UnassignResultSchema, "What was unassigned"),
          ...errors(400, 401, 403, 404, ...(conflicts ? ([409] as const) : []), 413, 415),
        },
  };
}

/**
 * The routes of one assign/unassign pair. The operationIds and summaries are made of the
 * owner and the targets the body names: `customerGroupCodes` → assignCustomerGroupsToChannel,
 * unassignCustomerGroupsFromChannel.
 */
export function assignmentRoutes<P extends z.ZodObject>(decl: AssignmentDeclaration<P>) {
  const [field] = Object.keys(decl.body.shape);
  if (!field?.endsWith("Codes")) throw new Error(`assignment body field ${field}: not …Codes`);
  const targets = `${words(field.slice(0, -"Codes".length))}s`;
  return {
    field,
    params: decl.params,
    assign: createRoute(pairRoute(decl, "assign", targets)),
    unassign: createRoute(pairRoute(decl, "unassign", targets)),
  };
}

export interface AssignResult {
  assigned: string[];
  skipped: string[];
  notFound: string[];
}

export interface UnassignResult {
  unassigned: string[];
  notFound: string[];
}

/** The owner's service calls of a pair: its validated path parameters and the body's codes. */
export interface AssignmentActions<P extends z.ZodObject> {
  assign: (db: Db, owner: z.output<P>, codes: string[]) => Promise<AssignResult>;
  unassign: (db: Db, owner: z.output<P>, codes: string[]) => Promise<UnassignResult>;
}

/**
 * The two handlers of a pair, on a router of their own that the owner's router mounts
 * (`.route("/", handlers.customers)`): validated input → the owner's service → 201 or 200.
 */
export function assignmentRouter<P extends z.ZodObject>(
  routes: ReturnType<typeof assignmentRoutes<P>>,
  actions: AssignmentActions<P>,
) {
  // The routes are built at run time, so their input types are known here only as P and codes.
  const input = (valid: (target: never) => unknown) => ({
    owner: valid("param" as never) as z.output<P>,
    codes: (valid("json" as never) as Record<string, string[]>)[routes.field]!,
  });
  return createRouter()
    .openapi(routes.assign, async (c) => {
      const { owner, codes } = input(c.req.valid.bind(c.req));
      return c.json(await actions.assign(c.var.db, owner, codes), 201);
    })
    .openapi(routes.unassign, async (c) => {
      const { owner, codes } = input(c.req.valid.bind(c.req));
      return c.json(await actions.unassign(c.var.db, owner, codes), 200);
    });
}
