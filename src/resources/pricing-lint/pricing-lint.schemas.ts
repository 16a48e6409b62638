import { z } from "@hono/zod-openapi";
import { listOf } from "../../list";
import { LINT_CODES, LINT_RECORD_KINDS, LINT_SEVERITIES } from "../../pricing/vocabulary";

export const LintCodeSchema = z.enum(LINT_CODES).openapi("LintCode", {
  description: "What was found; docs/pricing-lint.md explains each code, its cause and its fix",
});

export const LintSeveritySchema = z.enum(LINT_SEVERITIES).openapi("LintSeverity", {
  description:
    "Fixed per code. ERROR: requests fail or prices collapse; WARNING: a rule does not do what " +
    "it says; INFO: housekeeping",
});

export const LintRecordSchema = z
  .object({
    kind: z.enum(LINT_RECORD_KINDS).openapi({ description: "The kind of record" }),
    id: z.number().int().optional().openapi({
      description: "For a pricelist, tradeCondition or promotion: its id",
      example: 42,
    }),
    code: z.string().optional().openapi({
      description: "For a product, productGroup, channel, customer or customerGroup: its code",
      example: "SCREWS",
    }),
  })
  .openapi("LintRecord", {
    description: "A record a finding names, by id or by code as the API addresses it",
    example: { kind: "tradeCondition", id: 42 },
  });

const findingExample = {
  code: "NEVER_WINS",
  severity: "WARNING",
  message:
    "trade condition 42 (DISCOUNT, CUSTOMER_GROUP) never wins: wherever and whenever it is a " +
    "candidate from now on, trade condition 41 is a candidate too and ranks before it " +
    "(priority 5 against 0)",
  records: [
    { kind: "tradeCondition", id: 42 },
    { kind: "tradeCondition", id: 41 },
  ],
};

export const LintFindingSchema = z
  .object({
    code: LintCodeSchema,
    severity: LintSeveritySchema,
    message: z.string().openapi({
      description: "A sentence naming the records and what happens to prices",
    }),
    records: z.array(LintRecordSchema).openapi({
      description: "The records the finding is about, the one to change first",
    }),
  })
  .openapi("LintFinding", {
    description: "Something in the pricing rules in force that does not do what it says",
    example: findingExample,
  });

export const LintFindingListSchema = listOf(LintFindingSchema, "LintFindingList", {
  path: "/v1/api/pricing/lint",
  data: [findingExample],
  sortBy: [
    ["severity", "ASC"],
    ["code", "ASC"],
  ],
});
