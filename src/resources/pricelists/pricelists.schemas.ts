import { z } from "@hono/zod-openapi";
import { listOf } from "../../list";
import {
  Amount,
  Code,
  Currency,
  Instant,
  IsoTimestamp,
  Name,
  OptionalInstant,
  PriceUnit,
  Priority,
  Status,
  checkWindow,
} from "../../core/schemas";
import {
  CREATE_STATUSES,
  PRICELIST_KINDS,
  PRICELIST_SCOPES,
  ROUNDING_MODES,
  TIER_MODES,
} from "../../pricing/vocabulary";

export const PricelistKindSchema = z.enum(PRICELIST_KINDS).openapi("PricelistKind", {
  description:
    "SALES: prices products. FLOOR: minimum unit prices of the channels it is assigned to (channels only, never primary). COST: what products cost in the channels it is assigned to (channels only, never primary, never a price; admin keys only: a read key never sees a COST pricelist). Changeable only while DRAFT",
});

export const TierModeSchema = z.enum(TIER_MODES).openapi("TierMode", {
  description:
    "How the pricelist's quantity tiers price a line (docs/pricing-rules.md §29). VOLUME: the whole quantity at the amount of the tier it reaches. GRADUATED (SALES pricelists only): each band of pieces at its own tier's amount plus its flatAmount, the line priced as one lot (priceUnit = quantity)",
});

const Rounding = {
  mode: z.enum(ROUNDING_MODES).openapi({
    description:
      "NEAREST: the closest amount k × step + ending (a tie goes up); UP: the smallest ≥ the amount; DOWN: the largest ≤ it (none: the amount stays)",
  }),
  step: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).openapi({
    example: 10,
    description: "Amounts end on multiples of step (plus ending), ≥ 1",
  }),
  ending: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).openapi({
    example: 9,
    description: "The ending, 0 ≤ ending < step: step 10 ending 9 gives …9, …19, …29",
  }),
};

export const RoundingSchema = z
  .strictObject(Rounding)
  .superRefine((rounding, ctx) => {
    if (rounding.ending >= rounding.step) {
      ctx.addIssue({
        code: "custom",
        path: ["ending"],
        message: `must be less than step (${rounding.step})`,
      });
    }
  })
  .openapi("PricelistRounding", {
    description: "How a derived amount is brought to a price ending",
    example: { mode: "NEAREST", step: 10, ending: 9 },
  });

const derivation = {
  basePricelistId: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).openapi({
    example: 100,
    description:
      "The pricelist whose rows this one transforms: a GENERAL SALES pricelist for a SALES list, a COST pricelist for a FLOOR list (any currency: converted at the rate in force); a chain of bases has at most 3 steps and no cycle",
  }),
  adjustmentBp: z.number().int().min(-9999).max(100_000).openapi({
    example: -1000,
    description: "Basis points added to the base amount, −9999 to 100000 (−1000 = −10 %)",
  }),
};

export const DerivationSchema = z
  .object({
    ...derivation,
    rounding: z
      .object(Rounding)
      .nullable()
      .openapi({ description: "The price ending, or null to keep the adjusted amount" }),
  })
  .openapi("PricelistDerivation", {
    description:
      "Where the pricelist's amounts come from when it has no row of its own for a product: every tier of the base's rows, adjusted and rounded",
    example: {
      basePricelistId: 100,
      adjustmentBp: -1000,
      rounding: { mode: "NEAREST", step: 10, ending: 9 },
    },
  });

/** The derivation as bodies give it; `rounding` may be left out (no rounding). */
export const DerivationInputSchema = z
  .strictObject({
    ...derivation,
    rounding: RoundingSchema.nullable()
      .default(null)
      .openapi({ description: "The price ending; null or absent keeps the adjusted amount" }),
  })
  .openapi("PricelistDerivationInput", {
    description:
      "Derive the pricelist's amounts from a base pricelist (a GENERAL SALES list from a SALES list, a FLOOR list from a COST list); null removes the derivation",
    example: {
      basePricelistId: 100,
      adjustmentBp: -1000,
      rounding: { mode: "NEAREST", step: 10, ending: 9 },
    },
  });

export type Derivation = z.output<typeof DerivationInputSchema>;

export const pricelistExample = {
  id: 100,
  name: "Web DE list",
  scope: "GENERAL",
  status: "ACTIVE",
  currency: "EUR",
  priority: 0,
  validFrom: "2025-01-01T00:00:00.000Z",
  validTo: null,
  taxInclusive: false,
  allowsTradeDiscounts: true,
  customerCode: null,
  kind: "SALES",
  derivation: null,
  tierMode: "VOLUME",
  createdAt: "2025-01-01T00:00:00.000Z",
  updatedAt: "2025-01-01T00:00:00.000Z",
};

export const PricelistSchema = z
  .object({
    id: z.number().int().openapi({ example: 100, description: "Assigned by the service" }),
    name: z.string().openapi({ example: "Web DE list", description: "Display name" }),
    scope: z.enum(PRICELIST_SCOPES).openapi({
      description:
        "GENERAL: assignable to channels, groups and customers. INDIVIDUAL: owned by one customer.",
    }),
    status: Status,
    currency: Currency.openapi({ description: "The currency of every amount in the pricelist" }),
    priority: z.number().int().openapi({ description: "Higher wins inside a pricing level" }),
    validFrom: IsoTimestamp.nullable().openapi({ description: "Inclusive start; null = always" }),
    validTo: IsoTimestamp.nullable().openapi({ description: "Exclusive end; null = open-ended" }),
    taxInclusive: z.boolean().openapi({ description: "Whether the amounts include tax" }),
    allowsTradeDiscounts: z
      .boolean()
      .openapi({ description: "Whether trade conditions may change its prices" }),
    customerCode: Code.nullable().openapi({
      description: "Owner of an INDIVIDUAL pricelist, else null",
    }),
    kind: PricelistKindSchema,
    derivation: DerivationSchema.nullable().openapi({
      description:
        "The base it derives its amounts from, or null. A read key gets null for a FLOOR list derived from a COST list (docs/api/access.md §18)",
    }),
    tierMode: TierModeSchema,
    createdAt: IsoTimestamp.openapi({ description: "When the pricelist was created" }),
    updatedAt: IsoTimestamp.openapi({ description: "When the pricelist last changed" }),
  })
  .openapi("Pricelist", {
    description: "Unit prices per product and quantity tier, in one currency",
    example: pricelistExample,
  });

const common = {
  name: Name.openapi({ example: "Web DE list" }),
  currency: Currency.openapi({ description: "The currency of every amount in the pricelist" }),
  priority: Priority.optional().openapi({
    description: "Higher wins inside a pricing level; default 0",
  }),
  validFrom: OptionalInstant.openapi({ description: "Inclusive start; null or absent = always" }),
  validTo: OptionalInstant.openapi({ description: "Exclusive end; null or absent = open-ended" }),
  taxInclusive: z
    .boolean()
    .optional()
    .openapi({ description: "Whether the amounts include tax; default false" }),
};

export const PricelistCreateSchema = z
  .strictObject({
    ...common,
    status: z
      .enum(CREATE_STATUSES)
      .optional()
      .openapi({ description: "DRAFT (default) or ACTIVE" }),
    allowsTradeDiscounts: z
      .boolean()
      .optional()
      .openapi({ description: "Whether trade conditions may change its prices; default true" }),
    kind: PricelistKindSchema.optional().openapi({
      description: "SALES (default), FLOOR or COST",
    }),
    derivation: DerivationInputSchema.nullable().optional(),
    tierMode: TierModeSchema.optional().openapi({
      description:
        "VOLUME (default) or GRADUATED (SALES pricelists only; docs/pricing-rules.md §29)",
    }),
  })
  .superRefine(checkWindow)
  .openapi("PricelistCreate", {
    description: "A new GENERAL pricelist",
    example: {
      name: "Web DE list",
      currency: "EUR",
      status: "DRAFT",
      priority: 0,
      validFrom: "2025-01-01T00:00:00Z",
      taxInclusive: false,
    },
  });

export const IndividualPricelistCreateSchema = z
  .strictObject({
    customerCode: Code.openapi({ example: "C-1001", description: "The customer who owns it" }),
    ...common,
    allowsTradeDiscounts: z
      .boolean()
      .optional()
      .openapi({ description: "Whether trade conditions may change its prices; default false" }),
    tierMode: TierModeSchema.optional().openapi({
      description: "VOLUME (default) or GRADUATED (docs/pricing-rules.md §29)",
    }),
  })
  .superRefine(checkWindow)
  .openapi("IndividualPricelistCreate", {
    description: "A new INDIVIDUAL pricelist for one customer; it starts as DRAFT",
    example: { customerCode: "C-1001", name: "Muster GmbH contract prices", currency: "EUR" },
  });

export const PricelistUpdateSchema = z
  .strictObject({
    name: common.name.optional(),
    currency: Currency.optional().openapi({ description: "Changeable only while DRAFT" }),
    status: Status.optional(),
    priority: Priority.optional(),
    validFrom: OptionalInstant.openapi({ description: "Inclusive start; null = always" }),
    validTo: OptionalInstant.openapi({ description: "Exclusive end; null = open-ended" }),
    taxInclusive: z
      .boolean()
      .optional()
      .openapi({ description: "Whether the amounts include tax" }),
    allowsTradeDiscounts: z
      .boolean()
      .optional()
      .openapi({ description: "Whether trade conditions may change its prices" }),
    kind: PricelistKindSchema.optional().openapi({
      description:
        "Changeable only while DRAFT; an INDIVIDUAL pricelist is SALES, a derived one SALES or FLOOR (from a COST base), a COST one derives from nothing",
    }),
    derivation: DerivationInputSchema.nullable().optional(),
    tierMode: TierModeSchema.optional().openapi({
      description:
        "VOLUME or GRADUATED (SALES pricelists only); back to VOLUME only once no row has a flatAmount (409 otherwise)",
    }),
  })
  .openapi("PricelistUpdate", {
    description: "The fields to change; absent fields stay as they are",
    example: { status: "ACTIVE" },
  });

export const PricelistListSchema = listOf(PricelistSchema, "PricelistList", {
  path: "/v1/api/pricelist",
  data: [pricelistExample],
});

export type PricelistCreate = z.infer<typeof PricelistCreateSchema>;
export type IndividualPricelistCreate = z.infer<typeof IndividualPricelistCreateSchema>;
export type PricelistUpdate = z.infer<typeof PricelistUpdateSchema>;

export const PriceSchema = z
  .object({
    productCode: Code.openapi({ example: "P-A", description: "The product" }),
    minQuantity: z.number().int().openapi({
      example: 1,
      description: "The tier applies to lines of at least this quantity",
    }),
    amount: z.number().int().openapi({
      example: 1250,
      description:
        "The price of priceUnit pieces, in minor units of the pricelist's currency (docs/pricing-rules.md §20)",
    }),
    priceUnit: z.number().int().openapi({
      example: 1,
      description: "The pieces amount is the price of, 1-10000 (1250 per 1000: 12.50 a thousand)",
    }),
    flatAmount: z.number().int().openapi({
      example: 0,
      description:
        "GRADUATED lists: added once when a line reaches this tier's band (docs/pricing-rules.md §29); 0 on VOLUME lists",
    }),
    validFrom: IsoTimestamp.nullable().openapi({ description: "Inclusive start; null = always" }),
    validTo: IsoTimestamp.nullable().openapi({ description: "Exclusive end; null = open-ended" }),
  })
  .openapi("Price", {
    description: "One quantity tier of a product's price, over a window",
    example: {
      productCode: "P-A",
      minQuantity: 1,
      amount: 1250,
      priceUnit: 1,
      flatAmount: 0,
      validFrom: null,
      validTo: null,
    },
  });

export const PriceListSchema = listOf(PriceSchema, "PriceList", {
  path: "/v1/api/pricelist/100/prices",
  data: [
    {
      productCode: "P-A",
      minQuantity: 1,
      amount: 1250,
      priceUnit: 1,
      flatAmount: 0,
      validFrom: null,
      validTo: null,
    },
    {
      productCode: "P-A",
      minQuantity: 10,
      amount: 1100,
      priceUnit: 1,
      flatAmount: 0,
      validFrom: null,
      validTo: null,
    },
    {
      productCode: "S-1",
      minQuantity: 1,
      amount: 1250,
      priceUnit: 1000,
      flatAmount: 0,
      validFrom: null,
      validTo: null,
    },
  ],
  sortBy: [
    ["productCode", "ASC"],
    ["minQuantity", "ASC"],
  ],
});

/** A row of a prices upsert body; /doc names it `PriceInput`, and clients know that name. */
const PriceUpsertRowSchema = z
  .strictObject({
    productCode: Code.openapi({ example: "P-A", description: "The product" }),
    minQuantity: z
      .number()
      .int()
      .min(1)
      .max(Number.MAX_SAFE_INTEGER)
      .default(1)
      .openapi({ description: "Quantity tier, integer >= 1; default 1", example: 1 }),
    amount: Amount.openapi({
      example: 1250,
      description: "The price of priceUnit pieces, integer minor units >= 0",
    }),
    priceUnit: PriceUnit.default(1).openapi({
      description:
        "The pieces amount is the price of, 1-10000; default 1 (screws: 1250 per 1000 = 12.50 a thousand; docs/pricing-rules.md §20)",
      example: 1,
    }),
    flatAmount: Amount.default(0).openapi({
      example: 0,
      description:
        "GRADUATED lists only: added once when a line reaches this tier's band, integer minor units >= 0; default 0 (a VOLUME list refuses any other value: 400)",
    }),
    validFrom: OptionalInstant.transform((value) => value ?? null).openapi({
      description:
        "Inclusive start; null or absent = always. A row with the same product, minQuantity and validFrom is replaced; else the row running at validFrom is cut there (docs/pricing-rules.md §17)",
    }),
    validTo: OptionalInstant.openapi({
      description:
        "Exclusive end, after validFrom; null = open-ended. Absent: the end of the row it cuts, else the start of the next row of its timeline, else open-ended",
    }),
  })
  .superRefine(checkWindow)
  .openapi("PriceInput", {
    description: "One quantity tier of a product's price, over a window",
    example: {
      productCode: "P-A",
      minQuantity: 10,
      amount: 1100,
      validFrom: "2027-01-01T00:00:00Z",
    },
  });

/**
 * Each (productCode, minQuantity, validFrom) at most once per body: the upsert must not depend on
 * which of two rows for one place in a timeline comes last.
 */
function checkDistinctTiers(
  prices: { productCode: string; minQuantity: number; validFrom: number | null }[],
  ctx: z.RefinementCtx,
): void {
  const first = new Map<string, number>();
  prices.forEach((row, i) => {
    const key = JSON.stringify([row.productCode, row.minQuantity, row.validFrom]);
    const earlier = first.get(key);
    const from =
      row.validFrom === null ? "" : ` and validFrom ${new Date(row.validFrom).toISOString()}`;
    if (earlier === undefined) first.set(key, i);
    else
      ctx.addIssue({
        code: "custom",
        path: ["prices", i],
        message: `repeats productCode ${row.productCode} with minQuantity ${row.minQuantity}${from} of row ${earlier}`,
      });
  });
}

export const PricesUpsertSchema = z
  .strictObject({
    prices: z
      .array(PriceUpsertRowSchema)
      .min(1, "must contain at least one row")
      .max(1000, "must contain at most 1000 rows")
      .openapi({
        description: "1-1000 rows, each (productCode, minQuantity, validFrom) at most once",
      }),
  })
  .superRefine((body, ctx) => checkDistinctTiers(body.prices, ctx))
  .openapi("PricesUpsert", {
    description: "Prices to create or overwrite",
    example: {
      prices: [
        { productCode: "P-A", amount: 1250 },
        { productCode: "P-A", minQuantity: 10, amount: 1100 },
        { productCode: "S-1", minQuantity: 1, amount: 1250, priceUnit: 1000 },
      ],
    },
  });

export const PricesUpsertResultSchema = z
  .object({
    upserted: z.number().int().openapi({
      example: 3,
      description:
        "Rows of the body now stored: inserted, changed, or already as written (then untouched)",
    }),
    closed: z.number().int().openapi({
      example: 1,
      description:
        "Stored rows cut: rows running when a written row starts end there (docs/pricing-rules.md §17)",
    }),
  })
  .openapi("PricesUpsertResult", {
    description: "How many rows of the body are stored, and how many stored rows they cut",
    example: { upserted: 3, closed: 1 },
  });

export const PricesDeleteResultSchema = z
  .object({
    deleted: z.array(Code).openapi({
      description: "Codes of existing products; all their tiers in this pricelist are gone",
    }),
    notFound: z.array(Code).openapi({ description: "Codes that name no product" }),
  })
  .openapi("PricesDeleteResult", {
    description: "What was deleted",
    example: { deleted: ["P-A"], notFound: ["P-X"] },
  });

export type PriceUpsertRow = z.output<typeof PriceUpsertRowSchema>;

export const PricesAtQuery = z.object({
  at: Instant.optional().openapi({
    param: { name: "at", in: "query" },
    example: "2026-06-01T00:00:00Z",
    description: "Only the rows valid at this instant (ISO 8601); absent: every row",
  }),
});

/** The body of every single-pricelist relation call (channels, customers, customer groups). */
export const PricelistRefSchema = z
  .strictObject({
    pricelistId: z
      .number()
      .int("must be a positive integer")
      .positive("must be a positive integer")
      .openapi({ example: 100, description: "The pricelist id" }),
  })
  .openapi("PricelistRef", {
    description: "A pricelist named by id",
    example: { pricelistId: 100 },
  });
