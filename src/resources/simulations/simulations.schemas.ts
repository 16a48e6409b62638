import { z } from "@hono/zod-openapi";
import { Amount, Code, Currency, Instant, IsoTimestamp, PriceUnit } from "../../core/schemas";
import { TARGET_DOCS } from "../../core/targeting";
import { TARGET_FIELDS, type TargetField } from "../../pricing";
import { PRICE_CHANGE_ASPECTS } from "../../pricing/vocabulary";
import { LinePriceSchema, MAX_QUANTITY } from "../prices/prices.schemas";
import { simulationExampleAnswer, simulationExampleRequest } from "./simulations.examples";

/** The bounds of one simulation (docs/simulation.md §2). */
export const MAX_SIMULATED_CUSTOMERS = 100;
export const MAX_SIMULATED_PRODUCTS = 1000;
/** Records per list of `activate` or `deactivate`, and product groups named. */
export const MAX_NAMED_RECORDS = 100;
export const MAX_PRICE_CHANGES = 1000;
/** Rows answered at most (the summary counts them all); about 1 KB of JSON each. */
export const DEFAULT_MAX_ROWS = 1000;
export const MAX_ROWS = 10_000;

type Ctx = z.core.$RefinementCtx<unknown>;

/** Each repeat of a value already named: an issue at its place (`codes.3`). */
function refuseRepeats<T>(
  ctx: Ctx,
  field: string,
  values: readonly T[] | undefined,
  key: (value: T) => string,
  noun: (value: T) => string,
) {
  const seen = new Set<string>();
  (values ?? []).forEach((value, index) => {
    const k = key(value);
    if (seen.has(k)) {
      ctx.addIssue({ code: "custom", path: [field, index], message: `names ${noun(value)} again` });
    }
    seen.add(k);
  });
}

/** Exactly one of `fields` present (none is allowed when `noneOk`), as issues on the object. */
function oneOf(ctx: Ctx, value: Record<string, unknown>, fields: string[], noneOk = false) {
  const present = fields.filter((f) => value[f] !== undefined);
  if (present.length > 1) {
    ctx.addIssue({
      code: "custom",
      path: [present[1]!],
      message: `cannot be sent with ${present[0]}: choose one of ${fields.join(", ")}`,
    });
  } else if (present.length === 0 && !noneOk) {
    ctx.addIssue({ code: "custom", path: [], message: `must have one of ${fields.join(", ")}` });
  }
}

const text = (value: unknown) => String(value);

const SimulatedCustomers = z
  .strictObject({
    codes: z
      .array(Code)
      .min(1, "must name at least one customer")
      .max(MAX_SIMULATED_CUSTOMERS, `must name at most ${MAX_SIMULATED_CUSTOMERS} customers`)
      .optional()
      .openapi({
        description: `Customers by code, 1-${MAX_SIMULATED_CUSTOMERS}, each once; each must buy in the channel`,
        example: ["C-1001"],
      }),
    sample: z
      .number()
      .int()
      .min(1)
      .max(MAX_SIMULATED_CUSTOMERS)
      .optional()
      .openapi({
        description: `The first N customers of the channel by code (1-${MAX_SIMULATED_CUSTOMERS}), as the customer list sorts them`,
        example: 20,
      }),
    anonymous: z.boolean().optional().openapi({
      description:
        "true: also the anonymous buyer (customerCode null), counted in the bound; alone it is a selection of its own",
    }),
  })
  .superRefine((value, ctx) => {
    oneOf(ctx, value, ["codes", "sample"], value.anonymous === true);
    refuseRepeats(ctx, "codes", value.codes, text, (code) => `customer ${code}`);
    // Each list is bounded on its own; only the anonymous buyer can add one too many.
    const named = value.codes?.length ?? value.sample ?? 0;
    if (value.anonymous && named === MAX_SIMULATED_CUSTOMERS) {
      ctx.addIssue({
        code: "custom",
        path: ["anonymous"],
        message: `makes ${named + 1} buyers; at most ${MAX_SIMULATED_CUSTOMERS} per simulation`,
      });
    }
  })
  .openapi("SimulatedCustomers", {
    description:
      "Whose prices to compare: `codes` or `sample`, and/or `anonymous: true`; at most " +
      `${MAX_SIMULATED_CUSTOMERS} buyers in all`,
    example: { codes: ["C-1001", "C-1002"], anonymous: true },
  });

/**
 * Products by the codes of a targeting dimension other than products' own (docs/pricing-rules.md
 * §12): every product such a list would reach.
 */
const SELECTOR_FIELDS = TARGET_FIELDS.filter(
  (field): field is Exclude<TargetField, "productCodes"> => field !== "productCodes",
);

const SELECTED_BY = Object.fromEntries(
  SELECTOR_FIELDS.map((field) => {
    const { noun, what, example } = TARGET_DOCS[field];
    const schema = z
      .array(Code)
      .min(1, `must name at least one ${noun}`)
      .max(MAX_NAMED_RECORDS, `must name at most ${MAX_NAMED_RECORDS} ${noun}s`)
      .optional()
      .openapi({
        description: `Every product of these ${what} (at most ${MAX_SIMULATED_PRODUCTS} in all, else 400)`,
        example: [example],
      });
    return [field, schema];
  }),
) as Record<(typeof SELECTOR_FIELDS)[number], z.ZodOptional<z.ZodArray<typeof Code>>>;

const PRODUCT_SELECTORS = ["codes", ...SELECTOR_FIELDS, "sample"];

const SimulatedProducts = z
  .strictObject({
    codes: z
      .array(Code)
      .min(1, "must name at least one product")
      .max(MAX_SIMULATED_PRODUCTS, `must name at most ${MAX_SIMULATED_PRODUCTS} products`)
      .optional()
      .openapi({
        description: `Products by code, 1-${MAX_SIMULATED_PRODUCTS}, each once`,
        example: ["P-A", "P-B"],
      }),
    ...SELECTED_BY,
    sample: z
      .number()
      .int()
      .min(1)
      .max(MAX_SIMULATED_PRODUCTS)
      .optional()
      .openapi({
        description: `The first N products by code (1-${MAX_SIMULATED_PRODUCTS}), as the product list sorts them`,
        example: 500,
      }),
  })
  .superRefine((value, ctx) => {
    oneOf(ctx, value, PRODUCT_SELECTORS);
    refuseRepeats(ctx, "codes", value.codes, text, (code) => `product ${code}`);
    for (const field of SELECTOR_FIELDS) {
      const noun = TARGET_DOCS[field].noun;
      refuseRepeats(ctx, field, value[field], text, (code) => `${noun} ${code}`);
    }
  })
  .openapi("SimulatedProducts", {
    description: `Which products to price: one of ${PRODUCT_SELECTORS.join(", ")} (at most ${MAX_SIMULATED_PRODUCTS})`,
    example: { productGroupCodes: ["TOOLING"] },
  });

const RecordId = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

const idList = (noun: string) =>
  z
    .array(RecordId)
    .max(MAX_NAMED_RECORDS, `must name at most ${MAX_NAMED_RECORDS} ${noun}s`)
    .optional()
    .openapi({ description: `${noun} ids, at most ${MAX_NAMED_RECORDS}, each once`, example: [5] });

const RecordIdsShape = {
  pricelistIds: idList("pricelist"),
  tradeConditionIds: idList("trade condition"),
  promotionIds: idList("promotion"),
};

const recordIds = (component: string, description: string) =>
  z
    .strictObject(RecordIdsShape)
    .superRefine((value, ctx) => {
      for (const [field, noun] of [
        ["pricelistIds", "pricelist"],
        ["tradeConditionIds", "trade condition"],
        ["promotionIds", "promotion"],
      ] as const) {
        refuseRepeats(ctx, field, value[field], text, (id) => `${noun} ${id}`);
      }
    })
    .openapi(component, { description, example: { tradeConditionIds: [5] } });

const TierChange = z
  .strictObject({
    pricelistId: RecordId.openapi({ description: "The pricelist (SALES or FLOOR)", example: 100 }),
    productCode: Code.openapi({ description: "The product", example: "P-A" }),
    minQuantity: z
      .number()
      .int()
      .min(1)
      .max(MAX_QUANTITY)
      .default(1)
      .openapi({ description: "The tier's first quantity; default 1", example: 1 }),
    amount: Amount.openapi({
      description: "The price of priceUnit pieces, minor units",
      example: 990,
    }),
    priceUnit: PriceUnit.default(1),
  })
  .openapi("SimulatedPrice", {
    description:
      "A tier set as PUT /v1/api/pricelist/{id}/prices would set it: the (product, minQuantity) row gets this amount per priceUnit pieces",
  });

const SimulatedChanges = z
  .strictObject({
    activate: recordIds(
      "SimulatedActivations",
      "Records treated as ACTIVE; each must exist and not be ACTIVE (nor ARCHIVED)",
    ).optional(),
    deactivate: recordIds(
      "SimulatedDeactivations",
      "Records treated as INACTIVE; each must exist and be ACTIVE",
    ).optional(),
    prices: z
      .array(TierChange)
      .max(MAX_PRICE_CHANGES, `must have at most ${MAX_PRICE_CHANGES} prices`)
      .optional()
      .openapi({ description: `Tiers set or overridden, at most ${MAX_PRICE_CHANGES}` }),
  })
  .superRefine((value, ctx) => {
    const named = [value.activate, value.deactivate].flatMap((ids) =>
      Object.values(ids ?? {}).flat(),
    );
    if (named.length === 0 && !value.prices?.length) {
      ctx.addIssue({
        code: "custom",
        path: [],
        message: "must name a record to activate or deactivate, or a price",
      });
    }
    refuseRepeats(
      ctx,
      "prices",
      value.prices,
      (p) => `${p.pricelistId} ${p.productCode} ${p.minQuantity}`,
      (p) => `the tier of ${p.productCode} from ${p.minQuantity} in pricelist ${p.pricelistId}`,
    );
  })
  .openapi("SimulatedChanges", {
    description: "The change set: what would be published",
    example: { activate: { tradeConditionIds: [5] } },
  });

export const SimulationRequestSchema = z
  .strictObject({
    channelCode: Code.openapi({ example: "WEB-DE", description: "The channel to price in" }),
    at: Instant.optional().openapi({
      description: "The instant to price at (ISO 8601 with zone, or a date); default now",
      example: "2025-06-15T10:00:00Z",
    }),
    currency: Currency.optional().openapi({
      description: "Default: the currency of the channel's primary pricelist",
    }),
    quantity: z
      .number()
      .int()
      .min(1)
      .max(MAX_QUANTITY)
      .default(1)
      .openapi({
        description: `Units, 1-${MAX_QUANTITY}, default 1: every product is priced as a one-line order of this quantity`,
        example: 1,
      }),
    customers: SimulatedCustomers,
    products: SimulatedProducts,
    changes: SimulatedChanges,
    maxRows: z
      .number()
      .int()
      .min(0)
      .max(MAX_ROWS)
      .default(DEFAULT_MAX_ROWS)
      .openapi({
        description:
          `Rows to answer at most, 0-${MAX_ROWS}, default ${DEFAULT_MAX_ROWS}: the first in row ` +
          "order (the largest changes); the summary counts every changed pair whatever this says",
        example: DEFAULT_MAX_ROWS,
      }),
  })
  .openapi("PriceSimulationRequest", {
    description: "What to compare, and the change set to compare with",
    example: simulationExampleRequest,
  });

const Difference = z.number().int().nullable();

const PriceChangeItem = {
  customerCode: z
    .string()
    .nullable()
    .openapi({ description: "The customer; null for the anonymous buyer" }),
  productCode: z.string().openapi({ description: "The product" }),
  difference: Difference.openapi({
    description:
      "after.finalUnitAmount − before.finalUnitAmount, minor units per the after line's priceUnit (the before amount taken to it, half up, when the units differ); null when a side has no price (docs/simulation.md §4)",
  }),
  differenceBp: Difference.openapi({
    description:
      "difference × 10000 / before.finalUnitAmount, rounded half away from zero, per piece when the units differ; null when difference is null or before is 0",
  }),
};

const PriceChangeRow = z
  .object({
    ...PriceChangeItem,
    before: LinePriceSchema.openapi({ description: "The line as stored data prices it" }),
    after: LinePriceSchema.openapi({ description: "The line with the change set applied" }),
    changed: z.array(z.enum(PRICE_CHANGE_ASPECTS)).openapi({
      description:
        "What differs, in this order: LEVEL (of the base price), RUNG (of the trade conditions " +
        "applied), BASE (pricelist, tier, amount, tiers, list price), ADJUSTMENTS (conditions " +
        "and promotion applied), FLOOR, AVAILABILITY (the line's status)",
    }),
  })
  .openapi("PriceChangeRow", { description: "A (customer, product) whose line changes" });

const PriceChangeRank = z
  .object(PriceChangeItem)
  .openapi("PriceChangeRank", { description: "A changed pair in a top list" });

const CustomerChanges = z
  .object({
    customerCode: PriceChangeItem.customerCode,
    changed: z.number().int().openapi({ description: "Its changed rows" }),
    raised: z.number().int().openapi({ description: "Of those, higher after" }),
    lowered: z.number().int().openapi({ description: "Of those, lower after" }),
  })
  .openapi("CustomerPriceChanges", { description: "How many of a customer's prices change" });

const top = <T extends z.ZodType>(item: T, description: string) =>
  z.array(item).openapi({ description: `${description}, at most 10` });

const amountOrNull = (description: string) =>
  z
    .number()
    .int()
    .nullable()
    .openapi({ description: `${description}; null past 2^53-1` });

/**
 * One side's margin: the simulation's summary, a change request's impact
 * (docs/api/change-requests.md §17.3).
 */
export const MarginSummarySchema = z
  .object({
    lines: z.number().int().openapi({
      description: "The priced (OK) lines with a cost: those the sums below are over",
    }),
    linesWithoutCost: z
      .number()
      .int()
      .openapi({ description: "Priced lines without a cost, left out of the sums" }),
    revenueAmount: amountOrNull("Σ lineAmount"),
    costAmount: amountOrNull("Σ round(costUnitAmount × quantity / priceUnit)"),
    marginAmount: amountOrNull("revenueAmount − costAmount"),
    marginBp: z.number().int().nullable().openapi({
      description:
        "round_half_up(marginAmount × 10000 / revenueAmount); null when revenue is 0 or a sum is null",
    }),
  })
  .openapi("SimulationMargin", {
    description:
      "What the evaluated lines of one side leave over their cost (docs/pricing-rules.md §26)",
  });

const PriceChangeSummary = z
  .object({
    evaluated: z.number().int().openapi({ description: "Pairs priced: buyers × products" }),
    changed: z.number().int().openapi({ description: "Rows: pairs whose line differs" }),
    raised: z.number().int().openapi({ description: "Rows with difference > 0" }),
    lowered: z.number().int().openapi({ description: "Rows with difference < 0" }),
    largestRises: top(
      PriceChangeRank,
      "Rises, largest differenceBp first (from 0: first), then difference, customer, product",
    ),
    largestCuts: top(
      PriceChangeRank,
      "Cuts, most negative differenceBp first, then difference, customer, product",
    ),
    mostAffectedCustomers: top(
      CustomerChanges,
      "Customers by changed rows, most first, then by code (anonymous first)",
    ),
    distribution: z
      .array(
        z.object({
          percent: z.number().int().openapi({
            description:
              "differenceBp / 100 rounded half away from zero; rises past 100 count at 100",
          }),
          count: z.number().int().openapi({ description: "Changed pairs with that change" }),
        }),
      )
      .openapi({
        description:
          "Every changed pair with a differenceBp (all of them, not only the rows answered) by whole percent, ascending; no empty buckets",
      }),
    margin: z
      .object({
        before: MarginSummarySchema.openapi({ description: "Every evaluated pair, as stored" }),
        after: MarginSummarySchema.openapi({
          description: "Every evaluated pair, with the change set",
        }),
      })
      .openapi({
        description:
          "The margin before and after the change set, over every evaluated pair (not only the changed ones), from the channel's COST pricelists (docs/simulation.md §4)",
      }),
  })
  .openapi("PriceChangeSummary", { description: "The changes in numbers" });

export const SimulationSchema = z
  .object({
    channelCode: z.string().openapi({ description: "The channel, as asked" }),
    currency: z.string().openapi({ description: "The currency of every amount" }),
    at: IsoTimestamp.openapi({ description: "The instant priced at" }),
    quantity: z.number().int().openapi({ description: "The quantity of every line" }),
    rows: z.array(PriceChangeRow).openapi({
      description:
        "Only pairs whose line differs, by |differenceBp| descending (null first), then customer " +
        "(anonymous first), then product; the first maxRows of them",
    }),
    rowsOmitted: z.number().int().openapi({
      description: "Changed pairs past maxRows, not answered as rows (summary.changed − rows)",
    }),
    summary: PriceChangeSummary,
  })
  .openapi("PriceSimulation", {
    description: "Every price the change set would change, before and after",
    example: simulationExampleAnswer,
  });

export type SimulationRequest = z.infer<typeof SimulationRequestSchema>;
