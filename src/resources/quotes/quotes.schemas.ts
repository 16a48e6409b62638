import { z } from "@hono/zod-openapi";
import { listOf } from "../../list";
import { Amount, Code, Instant, IsoTimestamp } from "../../core/schemas";
import { QUOTE_LOCKS, QUOTE_MODES, QUOTE_STATUSES } from "../../pricing/vocabulary";
import { Adjustment, Quantity } from "../prices/prices.schemas";

/* The quote in the API (docs/quotes.md): bodies, the quote as read, the policy. */

/** The bounds of a quote (docs/quotes.md §2). */
export const MAX_QUOTE_LINES = 100;
/** How far ahead validTo may lie: 366 days. */
export const MAX_VALIDITY_MS = 366 * 24 * 60 * 60 * 1000;
export const MAX_TIERS = 5;
export const MAX_APPROVERS = 50;
const MAX_REASON = 1000;
const MAX_ORDER_REF = 200;

const Bp = z
  .number({ error: () => "must be a whole number ≥ 0 of basis points" })
  .int("must be a whole number ≥ 0 of basis points")
  .min(0, "must be a whole number ≥ 0 of basis points")
  .max(10_000, "must be at most 10000 (100 %)");

const Reason = (description: string) =>
  z.string().trim().min(1).max(MAX_REASON).openapi({ description, example: "price too high" });

const LineInput = z
  .strictObject({
    productCode: Code.openapi({ example: "P-B", description: "The product, at most once a quote" }),
    quantity: Quantity.openapi({ example: 60, description: "The pieces quoted for" }),
    unitAmount: Amount.optional().openapi({
      example: 350,
      description:
        "The quoted price of the line's priceUnit pieces, minor units; absent: the regular price",
    }),
  })
  .openapi("QuoteLineInput", { description: "A line to quote" });

const Lines = z
  .array(LineInput)
  .min(1, "must contain at least one line")
  .max(MAX_QUOTE_LINES, `must contain at most ${MAX_QUOTE_LINES} lines`)
  .openapi({ description: `1-${MAX_QUOTE_LINES} lines, a product at most once` });

const ValidTo = Instant.openapi({
  example: "2027-03-31T23:59:59Z",
  description: "Until when the quote holds: in the future, at most 366 days ahead (else 422)",
});

const Mode = z.enum(QUOTE_MODES).openapi({
  description:
    "ONCE: priced by naming the quote in one order, then redeemed; AGREEMENT: the customer's price in the channel from acceptance until validTo",
});
const Lock = z.enum(QUOTE_LOCKS).openapi({
  description: "FIXED: the quoted price is the price; BETTER_OF: the lower of it and the usual one",
});

const createExample = {
  customerCode: "K-1",
  channelCode: "WEB",
  validTo: "2027-03-31T23:59:59Z",
  mode: "ONCE",
  lock: "FIXED",
  lines: [{ productCode: "P-B", quantity: 60, unitAmount: 350 }],
};

export const QuoteCreateSchema = z
  .strictObject({
    customerCode: Code.openapi({ example: "K-1", description: "The buyer" }),
    channelCode: Code.openapi({ example: "WEB", description: "The channel it buys in" }),
    validTo: ValidTo,
    mode: Mode.default("ONCE"),
    lock: Lock.default("FIXED"),
    lines: Lines,
  })
  .openapi("QuoteCreate", { description: "A new quote (DRAFT)", example: createExample });

export const QuoteUpdateSchema = z
  .strictObject({
    validTo: ValidTo.optional(),
    mode: Mode.optional(),
    lock: Lock.optional(),
    lines: Lines.optional(),
  })
  .openapi("QuoteUpdate", {
    description:
      "Replaces what it names and prices every line again (DRAFT or RENEGOTIATING; a PATCH in RENEGOTIATING starts the next revision)",
    example: { lines: [{ productCode: "P-B", quantity: 60, unitAmount: 360 }] },
  });

export const QuoteRejectSchema = z
  .strictObject({ reason: Reason("Why: the rep reads it in rejectionReason") })
  .openapi("QuoteReject", { example: { reason: "cut too deep for this volume" } });

export const QuoteDeclineSchema = z
  .strictObject({
    reason: Reason("Why the buyer declines").optional(),
    renegotiate: z.boolean().default(false).openapi({
      description: "true: RENEGOTIATING (the rep may PATCH a next revision) instead of DECLINED",
    }),
  })
  .openapi("QuoteDecline", { example: { reason: "too expensive", renegotiate: true } });

export const QuoteRedeemSchema = z
  .strictObject({
    orderRef: z.string().trim().min(1).max(MAX_ORDER_REF).openapi({
      example: "SO-2027-0042",
      description: "The order the quote was used in",
    }),
  })
  .openapi("QuoteRedeem", { example: { orderRef: "SO-2027-0042" } });

const nullableInstant = (description: string) =>
  IsoTimestamp.nullable().openapi({ description, type: ["string", "null"] });

export const QuoteLineSchema = z
  .object({
    productCode: z.string().openapi({ example: "P-B", description: "The product" }),
    quantity: z.number().int().openapi({ example: 60, description: "The pieces quoted for" }),
    regularUnitAmount: z.number().int().openapi({
      example: 391,
      description: "What this customer pays without the quote (finalUnitAmount of the resolve)",
    }),
    priceUnit: z.number().int().openapi({
      example: 1,
      description: "The pieces every unit amount of the line is the price of",
    }),
    floorUnitAmount: z.number().int().nullable().optional().openapi({
      example: 320,
      description: "Admin and sales keys only: the line's effective floor; null: none",
    }),
    quotedUnitAmount: z.number().int().openapi({ example: 350, description: "The quoted price" }),
    lineAmount: z.number().int().openapi({
      example: 21000,
      description: "quotedUnitAmount × quantity / priceUnit, in the channel's rounding mode",
    }),
    cutBp: z.number().int().openapi({
      example: 1049,
      description: "max(0, ⌈(regular − quoted) × 10000 / regular⌉)",
    }),
    marginBp: z.number().int().nullable().optional().openapi({
      example: 1428,
      description:
        "Admin and sales keys only: ⌊(quoted − cost) × 10000 / quoted⌋; null without a cost or when quoted is 0",
    }),
    costUnitAmount: z.number().int().nullable().optional().openapi({
      example: 300,
      description: "Admin keys only: the line's cost; null: none",
    }),
    adjustments: z.array(Adjustment).openapi({
      description: "The regular price's breakdown as priced: the receipt, unchanged later",
    }),
  })
  .openapi("QuoteLine", { description: "A line as priced and judged by the engine" });

const RevisionSchema = z
  .object({
    revision: z.number().int().openapi({ example: 1, description: "Which revision" }),
    approvedBy: z.string().openapi({
      example: "manager",
      description: "The approver's key name, `policy` or `envelope`",
    }),
    approvedAt: IsoTimestamp,
    validTo: IsoTimestamp,
    totalAmount: z
      .number()
      .int()
      .openapi({ example: 21000, description: "Σ lineAmount as approved" }),
  })
  .openapi("QuoteRevision", { description: "A revision as approved" });

const quoteFields = {
  id: z.number().int().openapi({ example: 7, description: "The quote's number" }),
  status: z.enum(QUOTE_STATUSES).openapi({
    description:
      "As read: EXPIRED once validTo has passed unless ACCEPTED, DECLINED, WITHDRAWN or REDEEMED",
  }),
  revision: z.number().int().openapi({ example: 1, description: "1, then +1 per renegotiation" }),
  customerCode: z.string().openapi({ example: "K-1", description: "The buyer" }),
  channelCode: z.string().openapi({ example: "WEB", description: "The channel it buys in" }),
  currency: z
    .string()
    .openapi({ example: "EUR", description: "The currency of every amount of the quote" }),
  mode: Mode,
  lock: Lock,
  validTo: IsoTimestamp,
  totalAmount: z.number().int().openapi({ example: 21000, description: "Σ lineAmount" }),
  requiredTier: z.string().nullable().openapi({
    example: "MANAGER",
    description: "The tier whose approvers may approve it (PENDING_APPROVAL); else null",
  }),
  author: z.string().openapi({ example: "rep-1", description: "The key name that created it" }),
  writers: z.array(z.string()).openapi({
    example: ["rep-1"],
    description:
      "The owners of the keys that wrote it (created it or changed it by PATCH), in the order they first wrote. None of them may approve or reject it",
  }),
  writtenByCaller: z.boolean().openapi({
    example: false,
    description:
      "Whether the owner of the API key of this call is among `writers`: approve and reject with it answer 403 SELF_APPROVAL",
  }),
  submittedAt: nullableInstant("The last submit"),
  approvedBy: z.string().nullable().openapi({
    example: "manager",
    description: "The approving key's name, `policy` or `envelope`",
  }),
  approvedAt: nullableInstant("When it was approved"),
  rejectedBy: z.string().nullable().openapi({ description: "The key name that last rejected it" }),
  rejectionReason: z
    .string()
    .nullable()
    .openapi({ description: "Why it was last rejected; null: never" }),
  sentAt: nullableInstant("When it was sent to the buyer"),
  acceptedAt: nullableInstant("When the buyer accepted it"),
  declinedAt: nullableInstant("When the buyer declined it"),
  declineReason: z
    .string()
    .nullable()
    .openapi({ description: "Why the buyer declined, when they said" }),
  withdrawnAt: nullableInstant("When it was withdrawn"),
  redeemedAt: nullableInstant("When a ONCE quote was redeemed"),
  orderRef: z.string().nullable().openapi({ description: "The order the redeem named" }),
  pricedAt: IsoTimestamp.openapi({ description: "When the lines were last priced" }),
  createdAt: IsoTimestamp,
  updatedAt: IsoTimestamp,
};

const quoteExample = {
  id: 7,
  status: "PENDING_APPROVAL",
  revision: 1,
  customerCode: "K-1",
  channelCode: "WEB",
  currency: "EUR",
  mode: "ONCE",
  lock: "FIXED",
  validTo: "2027-03-31T23:59:59.000Z",
  totalAmount: 21000,
  requiredTier: "MANAGER",
  author: "rep-1",
  writers: ["rep-1"],
  writtenByCaller: false,
  submittedAt: "2027-01-10T09:00:00.000Z",
  approvedBy: null,
  approvedAt: null,
  rejectedBy: null,
  rejectionReason: null,
  sentAt: null,
  acceptedAt: null,
  declinedAt: null,
  declineReason: null,
  withdrawnAt: null,
  redeemedAt: null,
  orderRef: null,
  pricedAt: "2027-01-10T09:00:00.000Z",
  createdAt: "2027-01-10T08:55:00.000Z",
  updatedAt: "2027-01-10T09:00:00.000Z",
};

export const QuoteSchema = z
  .object({
    ...quoteFields,
    lines: z.array(QuoteLineSchema).openapi({ description: "The lines, in their order" }),
    revisions: z.array(RevisionSchema).openapi({
      description:
        "The approved revisions, oldest first: a later one within one is approved by `envelope`",
    }),
  })
  .openapi("Quote", {
    description: "A quote with its lines as priced and judged (docs/quotes.md)",
    example: {
      ...quoteExample,
      lines: [
        {
          productCode: "P-B",
          quantity: 60,
          regularUnitAmount: 391,
          priceUnit: 1,
          floorUnitAmount: 320,
          quotedUnitAmount: 350,
          lineAmount: 21000,
          cutBp: 1049,
          marginBp: 1428,
          adjustments: [],
        },
      ],
      revisions: [],
    },
  });

export const QuoteSummarySchema = z
  .object({
    ...quoteFields,
    lineCount: z.number().int().openapi({ example: 1, description: "GET the quote for its lines" }),
  })
  .openapi("QuoteSummary", {
    description: "A quote without its lines",
    example: { ...quoteExample, lineCount: 1 },
  });

export const QuoteListSchema = listOf(QuoteSummarySchema, "QuoteList", {
  path: "/v1/api/quotes",
  data: [{ ...quoteExample, lineCount: 1 }],
});

const Limits = {
  maxCutBp: Bp.openapi({ example: 1500, description: "The largest cut of a line (bp)" }),
  minMarginBp: Bp.nullable().openapi({
    example: 1000,
    description: "The smallest margin of a line (bp); null: no margin test",
  }),
};

const TierSchema = z
  .strictObject({
    name: Code.openapi({ example: "MANAGER", description: "What requiredTier names" }),
    ...Limits,
    approvers: z
      .array(
        z
          .string()
          .regex(
            /^[A-Za-z0-9._-]{1,64}$/,
            "must be a key owner: 1-64 letters, digits, '.', '_' or '-'",
          ),
      )
      .max(MAX_APPROVERS)
      .openapi({
        example: ["manager"],
        description:
          "The owners of the sales keys that approve at this tier and below (admin keys approve at every tier)",
      }),
  })
  .openapi("QuoteApprovalTier");

const policyExample = {
  autoApprove: { maxCutBp: 200, minMarginBp: 2500 },
  tiers: [
    { name: "REP", maxCutBp: 500, minMarginBp: 2000, approvers: ["rep-1", "rep-2"] },
    { name: "MANAGER", maxCutBp: 1500, minMarginBp: 1000, approvers: ["manager"] },
    { name: "DIRECTOR", maxCutBp: 3000, minMarginBp: null, approvers: ["director"] },
  ],
};

export const QuotePolicySchema = z
  .strictObject({
    autoApprove: z.strictObject(Limits).nullable().openapi({
      description: "Within these limits a submit approves at once (`policy`); null: never",
    }),
    tiers: z
      .array(TierSchema)
      .max(MAX_TIERS, `must contain at most ${MAX_TIERS} tiers`)
      .openapi({ description: `0-${MAX_TIERS} tiers in rising authority, names unique` }),
  })
  .openapi("QuotePolicy", {
    description: "How a submitted quote is approved (docs/quotes.md §4)",
    example: policyExample,
  });

export const QuotePolicyStateSchema = z
  .object({
    autoApprove: QuotePolicySchema.shape.autoApprove,
    tiers: QuotePolicySchema.shape.tiers,
    setBy: z
      .string()
      .nullable()
      .openapi({ description: "The key name whose PUT set it; null: the default" }),
    updatedAt: IsoTimestamp,
  })
  .openapi("QuotePolicyState", {
    example: { ...policyExample, setBy: "dev-admin-key", updatedAt: "2027-01-02T08:00:00.000Z" },
  });

export type QuoteCreate = z.infer<typeof QuoteCreateSchema>;
export type QuoteUpdate = z.infer<typeof QuoteUpdateSchema>;
export type QuoteLineInput = z.infer<typeof LineInput>;
export type QuotePolicyInput = z.infer<typeof QuotePolicySchema>;
