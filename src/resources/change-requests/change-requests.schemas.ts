import { z } from "@hono/zod-openapi";
import { listOf } from "../../list";
import {
  Amount,
  Code,
  Description,
  IsoTimestamp,
  Name,
  OptionalInstant,
  PriceUnit,
} from "../../core/schemas";
import { CHANGE_REQUEST_STATUSES, CHANGE_REQUEST_TARGET_KINDS } from "../../pricing/vocabulary";
import { targetSelectors } from "../../core/targeting";
import { RoundingSchema } from "../pricelists/pricelists.schemas";
import { ImpactSchema, impactExample } from "./change-requests.impact-schemas";

export type { Impact } from "./change-requests.impact-schemas";

/** The bounds of a change request (docs/api/change-requests.md §17.1). */
export const MAX_ITEMS = 100;
export const MAX_PRICE_ROWS = 10_000;

type Ctx = z.core.$RefinementCtx<unknown>;

const Id = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

const PricelistId = Id.openapi({ example: 1, description: "The pricelist whose rows change" });

const PriceRowSchema = z
  .strictObject({
    productCode: Code.openapi({ example: "P-1", description: "The product" }),
    minQuantity: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).default(1).openapi({
      example: 1,
      description: "Quantity tier, integer ≥ 1; default 1",
    }),
    amount: Amount.openapi({
      example: 519,
      description: "The price of priceUnit pieces from effectiveAt",
    }),
    priceUnit: PriceUnit.default(1).openapi({
      example: 1,
      description:
        "The pieces amount is the price of, 1-10000; default 1 (docs/pricing-rules.md §20)",
    }),
    flatAmount: Amount.optional().openapi({
      example: 0,
      description:
        "GRADUATED lists: added once when a line reaches this tier's band (docs/pricing-rules.md §29); absent: the tier's flat amount in force stays (0 for a new tier)",
    }),
  })
  .openapi("ChangeRequestPriceRow", {
    description: "A tier written from the request's effectiveAt",
    example: { productCode: "P-1", minQuantity: 1, amount: 519, priceUnit: 1 },
  });

const SetPricesSchema = z
  .strictObject({
    kind: z.literal("SET_PRICES").openapi({ description: "Writes these rows" }),
    pricelistId: PricelistId,
    rows: z
      .array(PriceRowSchema)
      .min(1, "must contain at least one row")
      .max(MAX_PRICE_ROWS, `must contain at most ${MAX_PRICE_ROWS} rows`)
      .openapi({
        description:
          "Rows written with validFrom = effectiveAt by the timeline rules " +
          "(docs/pricing-rules.md §17); each (productCode, minQuantity) at most once",
      }),
  })
  .superRefine((item, ctx) => {
    const seen = new Map<string, number>();
    item.rows.forEach((row, i) => {
      const key = JSON.stringify([row.productCode, row.minQuantity]);
      const earlier = seen.get(key);
      if (earlier === undefined) seen.set(key, i);
      else
        ctx.addIssue({
          code: "custom",
          path: ["rows", i],
          message: `repeats productCode ${row.productCode} with minQuantity ${row.minQuantity} of row ${earlier}`,
        });
    });
  })
  .openapi("ChangeRequestSetPrices", {
    description: "SET_PRICES: tiers of one pricelist from effectiveAt",
    example: {
      kind: "SET_PRICES",
      pricelistId: 1,
      rows: [{ productCode: "P-1", minQuantity: 1, amount: 519 }],
    },
  });

const AdjustPricesSchema = z
  .strictObject({
    kind: z.literal("ADJUST_PRICES").openapi({ description: "Adjusts the rows in force" }),
    pricelistId: PricelistId,
    ...targetSelectors("Rows of the products"),
    adjustmentBp: z.number().int().min(-9999).max(100_000).openapi({
      example: 300,
      description: "Basis points added to each amount, −9999 to 100000 (300 = +3 %)",
    }),
    rounding: RoundingSchema.nullable()
      .default(null)
      .openapi({ description: "The price ending after the adjustment, or null (default)" }),
  })
  .openapi("ChangeRequestAdjustPrices", {
    description:
      "ADJUST_PRICES: every tier in force at effectiveAt of the selected products, " +
      "round_half_up(amount × (10000 + adjustmentBp) / 10000), then the rounding, from effectiveAt",
    example: {
      kind: "ADJUST_PRICES",
      pricelistId: 1,
      productGroupCodes: ["G"],
      adjustmentBp: 300,
      rounding: { mode: "UP", step: 10, ending: 9 },
    },
  });

const TargetSchema = z
  .strictObject({
    kind: z.enum(CHANGE_REQUEST_TARGET_KINDS).openapi({ description: "What the record is" }),
    id: Id.openapi({ example: 5, description: "The record's id" }),
  })
  .openapi("ChangeRequestTarget", {
    description: "A pricelist, trade condition or promotion",
    example: { kind: "promotion", id: 5 },
  });

const ActivateSchema = z
  .strictObject({
    kind: z.literal("ACTIVATE").openapi({ description: "Activates the target" }),
    target: TargetSchema,
  })
  .openapi("ChangeRequestActivate", {
    description:
      "ACTIVATE: a DRAFT or INACTIVE record becomes ACTIVE with validFrom = max(its validFrom, effectiveAt)",
    example: { kind: "ACTIVATE", target: { kind: "promotion", id: 5 } },
  });

const DeactivateSchema = z
  .strictObject({
    kind: z.literal("DEACTIVATE").openapi({ description: "Ends the target" }),
    target: TargetSchema,
  })
  .openapi("ChangeRequestDeactivate", {
    description: "DEACTIVATE: an ACTIVE record gets validTo = min(its validTo, effectiveAt)",
    example: { kind: "DEACTIVATE", target: { kind: "tradeCondition", id: 8 } },
  });

export const ItemSchema = z
  .discriminatedUnion(
    "kind",
    [SetPricesSchema, AdjustPricesSchema, ActivateSchema, DeactivateSchema],
    {
      error: (issue) =>
        issue.code === "invalid_union" && issue.input && typeof issue.input === "object"
          ? "must have kind SET_PRICES, ADJUST_PRICES, ACTIVATE or DEACTIVATE"
          : "must be an object",
    },
  )
  .openapi("ChangeRequestItem", {
    description: "One change, made at the request's effectiveAt",
    example: {
      kind: "ADJUST_PRICES",
      pricelistId: 1,
      productGroupCodes: ["G"],
      adjustmentBp: 300,
      rounding: { mode: "UP", step: 10, ending: 9 },
    },
  });

export type ChangeRequestItem = z.infer<typeof ItemSchema>;

/** At most MAX_PRICE_ROWS rows in all; each record at most once among ACTIVATE and DEACTIVATE. */
function checkItems(items: readonly ChangeRequestItem[], ctx: Ctx) {
  const rows = items.reduce(
    (n, item) => n + (item.kind === "SET_PRICES" ? item.rows.length : 0),
    0,
  );
  if (rows > MAX_PRICE_ROWS) {
    ctx.addIssue({
      code: "custom",
      path: ["items"],
      message: `hold ${rows} price rows; at most ${MAX_PRICE_ROWS} in all`,
    });
  }
  const targets = new Map<string, number>();
  items.forEach((item, i) => {
    if (item.kind !== "ACTIVATE" && item.kind !== "DEACTIVATE") return;
    const key = `${item.target.kind} ${item.target.id}`;
    const earlier = targets.get(key);
    if (earlier === undefined) targets.set(key, i);
    else
      ctx.addIssue({
        code: "custom",
        path: ["items", i, "target"],
        message: `names ${key} again (item ${earlier})`,
      });
  });
}

const Items = z
  .array(ItemSchema)
  .min(1, "must contain at least one item")
  .max(MAX_ITEMS, `must contain at most ${MAX_ITEMS} items`)
  .openapi({
    description: `1-${MAX_ITEMS} items, made in this order; at most ${MAX_PRICE_ROWS} SET_PRICES rows in all`,
  });

const EffectiveAt = OptionalInstant.openapi({
  description:
    "When the change takes effect: an instant not in the past, or null (default): the moment it is applied",
});

const exampleItems = [
  {
    kind: "ADJUST_PRICES",
    pricelistId: 1,
    productGroupCodes: ["G"],
    adjustmentBp: 300,
    rounding: { mode: "UP", step: 10, ending: 9 },
  },
];

export const ChangeRequestCreateSchema = z
  .strictObject({
    title: Name.openapi({
      example: "2027 increase",
      description: "What the change is, 1-200 characters",
    }),
    effectiveAt: EffectiveAt.transform((value) => value ?? null),
    items: Items,
  })
  .superRefine((body, ctx) => checkItems(body.items, ctx))
  .openapi("ChangeRequestCreate", {
    description: "A new change request (DRAFT)",
    example: { title: "2027 increase", effectiveAt: "2027-01-01T00:00:00Z", items: exampleItems },
  });

export const ChangeRequestUpdateSchema = z
  .strictObject({
    title: Name.optional().openapi({ description: "What the change is, 1-200 characters" }),
    effectiveAt: EffectiveAt,
    items: Items.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.items) checkItems(body.items, ctx);
  })
  .openapi("ChangeRequestUpdate", {
    description: "The fields to change (DRAFT only); items, when given, replace every item",
    example: { effectiveAt: "2027-02-01T00:00:00Z" },
  });

export const ChangeRequestRejectSchema = z
  .strictObject({
    reason: Description.refine((value) => value.trim() !== "", "must not be empty").openapi({
      // What JSON Schema can say of "not empty"; the server also refuses spaces alone.
      minLength: 1,
      example: "Too early: wait for the supplier's new terms",
      description: "Why, for the author (1-1000 characters, not only spaces)",
    }),
  })
  .openapi("ChangeRequestReject", {
    description: "Why the request is rejected",
    example: { reason: "Too early: wait for the supplier's new terms" },
  });

const count = (description: string) => z.number().int().openapi({ description });

const instantOrNull = (description: string) => IsoTimestamp.nullable().openapi({ description });
const keyOrNull = (description: string) => z.string().nullable().openapi({ description });

const requestFields = {
  id: Id.openapi({ example: 7, description: "Assigned by the service" }),
  title: z.string().openapi({ example: "2027 increase", description: "What the change is" }),
  status: z.enum(CHANGE_REQUEST_STATUSES).openapi({
    description:
      "DRAFT → (submit) PENDING_APPROVAL → (approve) APPLIED; REJECTED; CANCELLED (docs/api/change-requests.md §17.2)",
  }),
  effectiveAt: instantOrNull("When it takes effect; null: when it is applied"),
  author: z.string().openapi({ example: "anna", description: "The key name that created it" }),
  writers: z.array(z.string()).openapi({
    example: ["anna"],
    description:
      "The key names that wrote it: its author and every key that changed it (PATCH). None of them may approve it",
  }),
  writtenByCaller: z.boolean().openapi({
    example: false,
    description:
      "Whether the API key of this call is among `writers`: approve with it answers 403 SELF_APPROVAL",
  }),
  submittedAt: instantOrNull("When it was last submitted"),
  approvedBy: keyOrNull("The approving key's name, or `policy`"),
  approvedAt: instantOrNull("When it was approved"),
  appliedAt: instantOrNull("When its changes were written"),
  rejectedBy: keyOrNull("The rejecting key's name"),
  rejectionReason: keyOrNull("Why it was rejected"),
  impact: ImpactSchema.nullable().openapi({ description: "Computed at submit; null before" }),
  createdAt: IsoTimestamp.openapi({ description: "When it was created" }),
  updatedAt: IsoTimestamp.openapi({ description: "When it last changed" }),
};

const requestExample = {
  id: 7,
  title: "2027 increase",
  status: "PENDING_APPROVAL",
  effectiveAt: "2027-01-01T00:00:00.000Z",
  author: "anna",
  writers: ["anna"],
  writtenByCaller: false,
  submittedAt: "2026-11-20T09:00:00.000Z",
  approvedBy: null,
  approvedAt: null,
  appliedAt: null,
  rejectedBy: null,
  rejectionReason: null,
  impact: impactExample,
  createdAt: "2026-11-20T08:45:00.000Z",
  updatedAt: "2026-11-20T09:00:00.000Z",
};

export const ChangeRequestSchema = z
  .object({
    ...requestFields,
    items: z.array(ItemSchema).openapi({ description: "The items, in order" }),
  })
  .openapi("ChangeRequest", {
    description: "A change of prices and records, approved by a second key and applied on a date",
    example: { ...requestExample, items: exampleItems },
  });

export const ChangeRequestSummarySchema = z
  .object({
    ...requestFields,
    itemCount: count("How many items it has (GET it for the items)"),
  })
  .openapi("ChangeRequestSummary", {
    description: "A change request in a list: every field but its items",
    example: { ...requestExample, itemCount: 1 },
  });

export const ChangeRequestListSchema = listOf(ChangeRequestSummarySchema, "ChangeRequestList", {
  path: "/v1/api/change-requests",
  data: [{ ...requestExample, itemCount: 1 }],
});

export type ChangeRequestCreate = z.infer<typeof ChangeRequestCreateSchema>;
export type ChangeRequestUpdate = z.infer<typeof ChangeRequestUpdateSchema>;
