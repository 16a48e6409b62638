import { z } from "@hono/zod-openapi";
import { listOf } from "../../list";
import {
  LINT_CODES,
  LINT_RECORD_KINDS,
  LINT_SEVERITIES,
  type LintCode,
} from "../../pricing/vocabulary";

/** One line per code for /doc; docs/pricing-lint.md has a section each. */
const CODE_SUMMARIES: Record<LintCode, string> = {
  CHANNEL_WITHOUT_PRIMARY: "an active channel has no primary pricelist",
  STACKABLES_TO_ZERO: "stackable percentage discounts one line meets add up to 100 % or more",
  MISSING_EXCHANGE_RATE:
    "an ACTIVE derived pricelist's base is in another currency and no rate of that pair holds now (or when the list starts)",
  RATE_ROUNDS_TO_ZERO:
    "an exchange rate small enough that a derived pricelist's smallest prices come out 0 (those lines answer NO_PRICE)",
  NEVER_WINS: "a non-stackable trade condition that another one always outranks",
  TIE_BY_ID: "two trade conditions of the same type, rung, targets and value: their ids decide",
  FLOOR_ABOVE_LIST: "a FLOOR row above the channel primary pricelist's price for the product",
  NO_FIRST_TIER: "a pricelist's rows for a product start above the product's first quantity",
  PRICE_GAP: "a pricelist's dated rows for a product and tier leave a hole in time",
  TIER_CLIFF: "adjacent tiers where buying fewer pieces costs more than reaching the next tier",
  GRADUATED_FIRST_TIER:
    "a GRADUATED pricelist whose first tier for a product starts above 1: no price below it, its first band from piece 1 all the same",
  UNREACHABLE_PRICELIST: "an ACTIVE SALES pricelist assigned nowhere and no derivation base",
  EMPTY_GROUP_TARGETED: "a condition or promotion names a product group that holds no product",
  EXPIRED_BUT_ACTIVE: "an ACTIVE pricelist, condition or promotion whose window has ended",
  BELOW_COST: "an active price or floor of a channel below the channel's cost of the product",
  QUOTE_BELOW_FLOOR: "a SENT or ACCEPTED quote's price below the floor of its line now",
};

export const LintCodeSchema = z.enum(LINT_CODES).openapi("LintCode", {
  description:
    "What was found (docs/pricing-lint.md: the trigger, why it matters, the fix). " +
    LINT_CODES.map((code) => `${code}: ${CODE_SUMMARIES[code]}`).join(". ") +
    ".",
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
      description: "For a pricelist, tradeCondition, promotion or quote: its id",
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
