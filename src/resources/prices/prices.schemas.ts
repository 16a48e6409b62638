import { z } from "@hono/zod-openapi";
import { Code, CODE_PATTERN, ONE_CODE, Currency, Instant, IsoTimestamp } from "../../core/schemas";
import { notAmong, splitList } from "../../list/parse";
import { selectPattern } from "../../list/patterns";
import { workedExampleAnswer, workedExampleRequest } from "./prices.examples";
import {
  ADMIN_ONLY,
  ConditionExplain,
  CostExplain,
  FloorExplain,
  PricelistExplain,
  PromotionExplain,
  DerivedFrom,
  QuoteExplain,
} from "./prices.explain-schemas";
import {
  ADJUSTMENT_KINDS,
  CONDITION_SCOPES,
  LINE_STATUSES,
  PRICE_SOURCE_KINDS,
  PRICELIST_LEVELS,
  TIER_MODES,
} from "../../pricing";

export const MAX_RESOLVE_LINES = 500;
export const MAX_LOOKUP_PRODUCTS = 100;
export const MAX_QUANTITY = 1_000_000;

export const Quantity = z
  .number()
  .int()
  .min(1)
  .max(MAX_QUANTITY)
  .openapi({ description: `Units, 1-${MAX_QUANTITY}`, example: 10 });

const At = Instant.openapi({
  description: "The instant to price at (ISO 8601 with zone, or a date); default now",
  example: "2025-06-15T10:00:00Z",
});

/**
 * What `select` may name: the fields of a line (LinePrice below), in the answer's order
 * (docs/api/prices.md §9). The type holds the names to LinePrice's keys, every one and no other;
 * they are written out because reading them from the schema would bring LinePrice, an answer's
 * schema that only /doc reads, into the Worker's bundle whole (some 1.6 KiB gzip).
 * test/prices/select.test.ts holds their order to /doc's.
 */
const LINE_KEYS: { [K in keyof z.infer<typeof LinePrice>]-?: 1 } = {
  productCode: 1,
  quantity: 1,
  status: 1,
  finalUnitAmount: 1,
  lineAmount: 1,
  regularUnitAmount: 1,
  listUnitAmount: 1,
  currency: 1,
  priceUnit: 1,
  taxInclusive: 1,
  source: 1,
  adjustments: 1,
  tiers: 1,
  quantityRule: 1,
  suggestedQuantities: 1,
  priceBreak: 1,
  ladder: 1,
  costUnitAmount: 1,
  marginAmount: 1,
  marginBp: 1,
  accruals: 1,
  pocketUnitAmount: 1,
  pocketMarginBp: 1,
  explain: 1,
};
export const LINE_FIELDS = Object.keys(LINE_KEYS);

/** A `select` item; an unknown one is named as the list queries name it (src/list/parse.ts). */
const LineField = z.enum(LINE_FIELDS, {
  error: (issue) => notAmong(String(issue.input), "selectable", LINE_FIELDS),
});

const Line = z.strictObject({
  productCode: Code.openapi({ example: "P-B", description: "The product" }),
  quantity: Quantity,
});

/**
 * A cart line that holds exactly what `Line` asks for, as zod parses it (a new object, its fields
 * in `Line`'s order); undefined for anything else. Zod's parse of 500 lines, an object, a regex
 * and three checks each without the code generation a Worker forbids, was most of a cart's
 * validation.
 */
function parseLine(line: unknown) {
  if (typeof line !== "object" || line === null || Array.isArray(line)) return undefined;
  let fields = 0;
  for (const key in line) {
    if (key !== "productCode" && key !== "quantity") return undefined;
    fields += 1;
  }
  const { productCode, quantity } = line as Record<string, unknown>;
  return fields === 2 &&
    typeof productCode === "string" &&
    CODE_PATTERN.test(productCode) &&
    Number.isInteger(quantity) &&
    (quantity as number) >= 1 &&
    (quantity as number) <= MAX_QUANTITY
    ? { productCode, quantity: quantity as number }
    : undefined;
}

// A line `parseLine` takes is parsed; any other goes to zod's own parse, which names every issue
// as ever. zod's `withParser` does this too, with support for recursive schemas and encoding that
// no request needs, at 0.37 KiB gzip of the bundle.
const parseLineFully = Line._zod.run;
Line._zod.run = (payload, ctx) => {
  const parsed = parseLine(payload.value);
  if (!parsed) return parseLineFully(payload, ctx);
  payload.value = parsed;
  return payload;
};

const SELECT =
  "The line fields to answer besides productCode, quantity and status (and explain, ladder when " +
  "asked for), in the line's own order whatever the order here; a field the key's answer never " +
  "carries (cost and margin for a read key) stays absent; default every field (docs/api/prices.md §9)";

export const PriceResolveSchema = z
  .strictObject({
    channelCode: Code.openapi({ example: "WEB-DE", description: "The channel to price in" }),
    customerCode: Code.nullable().optional().openapi({
      example: "C-1001",
      description: "The customer; omit it or send null for anonymous (public) prices",
    }),
    currency: Currency.optional().openapi({
      description: "Default: the currency of the channel's primary pricelist",
    }),
    at: At.optional(),
    explain: z
      .boolean()
      .optional()
      .openapi({ description: "List every candidate per line and why it lost; default false" }),
    quoteId: z.number().int().min(1).optional().openapi({
      example: 42,
      description:
        "An ACCEPTED quote of this customer in this channel to honour: each line of a product and quantity the quote names is priced from it (docs/pricing-rules.md §28.1). 404 when no such quote exists; 409 QUOTE_MISMATCH, QUOTE_REDEEMED, QUOTE_EXPIRED or QUOTE_NOT_ACCEPTED when it cannot be honoured",
    }),
    ladder: z.boolean().optional().openapi({
      description:
        "true: each OK line carries its ladder, every tier of its base pricelist priced for this buyer (docs/pricing-rules.md §30); default false",
    }),
    lines: z
      .array(Line)
      .min(1, "must have at least one line")
      .max(MAX_RESOLVE_LINES, `must have at most ${MAX_RESOLVE_LINES} lines`)
      .openapi({ description: `The cart lines, 1-${MAX_RESOLVE_LINES}` }),
    select: z.array(LineField).optional().openapi({ description: SELECT }),
  })
  .openapi("PriceResolveRequest", {
    description: "A cart to price: the worked example of the pricing rules",
    example: workedExampleRequest,
  });

/** One `product` value: a code, or codes joined by commas; none of them "." or "..". */
const JOINED_CODES = `^${ONE_CODE}(?:,${ONE_CODE})*$`;

/**
 * `product`, repeated or comma-joined or both (`product=A,B&product=C`), as one list in URL
 * order: each code validated at its place in it (`query.product.1`), 1-100 of them.
 */
const QueryList = z.union([z.string(), z.array(z.string())]);
const ProductList = QueryList.transform((values) =>
  [values].flat().flatMap((value) => value.split(",")),
).pipe(z.array(Code).max(MAX_LOOKUP_PRODUCTS, `at most ${MAX_LOOKUP_PRODUCTS} products`));

const QUANTITY_WORDING = `must be a whole number 1-${MAX_QUANTITY}`;

/** Query of the GET lookup: a product list, one quantity for all. */
export const PriceLookupQuery = z.object({
  channel: Code.openapi({
    param: { name: "channel", in: "query", required: true },
    description: "The channel code to price in",
    example: "WEB-DE",
  }),
  // Empty is absent: a URL's way of saying null (the body's `customerCode: null`).
  customer: z
    .union([Code, z.literal("")])
    .optional()
    .openapi({
      param: { name: "customer", in: "query" },
      type: "string",
      pattern: `^$|${CODE_PATTERN.source}`,
      description:
        "The customer code; omit it or leave it empty (`customer=`) for anonymous (public) prices",
      example: "C-1001",
    }),
  currency: Currency.optional().openapi({
    param: { name: "currency", in: "query" },
    description: "Default: the currency of the channel's primary pricelist",
  }),
  at: At.optional().openapi({ param: { name: "at", in: "query" } }),
  quantity: z
    .string()
    .refine((v) => /^\d{1,7}$/.test(v) && Number(v) >= 1 && Number(v) <= MAX_QUANTITY, {
      message: QUANTITY_WORDING,
    })
    .transform(Number)
    .optional()
    .openapi({
      param: { name: "quantity", in: "query" },
      type: "integer",
      minimum: 1,
      maximum: MAX_QUANTITY,
      description: `Units for every product, 1-${MAX_QUANTITY}; default 1`,
      example: 10,
    }),
  product: ProductList.openapi({
    param: { name: "product", in: "query", required: true, style: "form", explode: true },
    type: "array",
    items: { type: "string", pattern: JOINED_CODES },
    minItems: 1,
    maxItems: MAX_LOOKUP_PRODUCTS,
    description:
      `Product codes, repeated (product=A&product=B), comma-joined (product=A,B) or both, ` +
      `1-${MAX_LOOKUP_PRODUCTS} in all; priced in that order, a code named twice is two lines`,
    example: ["P-A", "P-B", "P-C"],
  }),
  explain: z
    .enum(["true", "false"])
    .optional()
    .openapi({
      param: { name: "explain", in: "query" },
      description: "true: list every candidate per product and why it lost; default false",
    }),
  ladder: z
    .enum(["true", "false"])
    .optional()
    .openapi({
      param: { name: "ladder", in: "query" },
      description:
        "true: each OK product carries its ladder, every tier of its base pricelist priced for this buyer (docs/pricing-rules.md §30); default false",
    }),
  // As the list queries' `select` (docs/list-queries.md §6): pieces trimmed, empty ones dropped.
  select: QueryList.transform((values) => splitList([values].flat()))
    .pipe(z.array(LineField))
    .optional()
    .openapi({
      param: { name: "select", in: "query", style: "form", explode: true },
      type: "array",
      items: { type: "string", pattern: selectPattern(LINE_FIELDS) },
      description: `${SELECT}. Comma-joined, repeated or both, as the list queries' select: spaces around a field and empty pieces ignored, so \`select=\` alone is every field`,
    }),
});

const Band = z
  .object({
    fromQuantity: z
      .number()
      .int()
      .openapi({ description: "The band's first piece (1 for the first band)" }),
    toQuantity: z.number().int().nullable().openapi({
      description:
        "The band's last piece (the next tier's minQuantity − 1); null for the last band",
    }),
    quantity: z
      .number()
      .int()
      .openapi({ description: "The pieces of the line's quantity in this band" }),
    unitAmount: z
      .number()
      .int()
      .openapi({ description: "The band's tier amount, per its priceUnit pieces" }),
    priceUnit: z.number().int().openapi({ description: "The pieces unitAmount is for" }),
    flatAmount: z.number().int().openapi({ description: "The band's flat amount, added once" }),
    amount: z.number().int().openapi({
      description: "round_half_up(quantity × unitAmount / priceUnit) + flatAmount",
    }),
  })
  .openapi("PriceBand", {
    description: "One band of a GRADUATED line's lot (docs/pricing-rules.md §29)",
  });

const LadderEntry = z
  .object({
    minQuantity: z.number().int().openapi({ description: "The tier of the base pricelist" }),
    quantity: z.number().int().openapi({
      description: "The smallest quantity from minQuantity that the product's quantity rule allows",
    }),
    finalUnitAmount: z
      .number()
      .int()
      .openapi({ description: "What this buyer pays per priceUnit pieces at that quantity" }),
    priceUnit: z
      .number()
      .int()
      .openapi({ description: "The pieces finalUnitAmount is for (GRADUATED: the quantity)" }),
    lineAmount: z.number().int().openapi({ description: "What the line costs at that quantity" }),
  })
  .openapi("LadderEntry", {
    description:
      'One tier as this buyer sees it (docs/pricing-rules.md §30): a storefront\'s "from 10 pcs: 85"',
  });

export const Adjustment = z
  .object({
    kind: z.enum(ADJUSTMENT_KINDS).openapi({
      description:
        "The step that made the change: a trade condition's type, PROMOTION, or FLOOR (raised to the line's floor)",
    }),
    id: z.number().int().nullable().openapi({
      description:
        "Trade condition, promotion or FLOOR pricelist id; null for a FLOOR derived from a COST list in an answer to a read key, which never names that list (docs/api/access.md §18)",
    }),
    scope: z
      .enum(CONDITION_SCOPES)
      .nullable()
      .openapi({ description: "The trade condition's scope; null for a promotion or a floor" }),
    rung: z.number().int().nullable().openapi({
      description:
        "1-12 for this line (pricing rules: audience × product listed / group reached / all products); null for a promotion or a floor",
    }),
    valueBp: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "Basis points used (after scales), for percentages; else null" }),
    amount: z.number().int().openapi({
      description:
        "Signed change of the unit amount: negative saves, positive charges (a FLOOR is always positive)",
    }),
  })
  .openapi("PriceAdjustment", {
    description:
      "One step from source.baseUnitAmount to finalUnitAmount, in applied order: base + Σ amount = final",
  });

/**
 * The fields only an admin key's answer has (docs/pricing-rules.md §26, docs/api/access.md §18).
 */

const Accrual = z
  .object({
    id: z.number().int().openapi({ description: "The ACCRUAL trade condition" }),
    amount: z.number().int().openapi({
      description: "What it accrues per priceUnit pieces (≥ 0; the pocket price never below 0)",
    }),
  })
  .openapi("Accrual", {
    description: "An off-invoice rebate earned on a line (docs/pricing-rules.md §25)",
  });

const marginFields = {
  costUnitAmount: z
    .number()
    .int()
    .nullable()
    .optional()
    .openapi({
      description: `${ADMIN_ONLY}The line's cost per priceUnit pieces, from the channel's COST pricelists (docs/pricing-rules.md §23); null without one`,
    }),
  marginAmount: z
    .number()
    .int()
    .nullable()
    .optional()
    .openapi({
      description: `${ADMIN_ONLY}finalUnitAmount − costUnitAmount (negative below cost); null without a cost`,
    }),
  marginBp: z
    .number()
    .int()
    .nullable()
    .optional()
    .openapi({
      description: `${ADMIN_ONLY}round_half_up((final − cost) × 10000 / final); null without a cost or when final is 0`,
    }),
  accruals: z
    .array(Accrual)
    .optional()
    .openapi({
      description: `${ADMIN_ONLY}The ACCRUAL conditions that reach the line, in rung, priority, id order; [] when none`,
    }),
  pocketUnitAmount: z
    .number()
    .int()
    .nullable()
    .optional()
    .openapi({
      description: `${ADMIN_ONLY}finalUnitAmount − Σ accruals (≥ 0); null when the line is not priced`,
    }),
  pocketMarginBp: z
    .number()
    .int()
    .nullable()
    .optional()
    .openapi({
      description: `${ADMIN_ONLY}round_half_up((pocket − cost) × 10000 / pocket); null without a cost or when the pocket price is 0`,
    }),
};

const LinePrice = z
  .object({
    productCode: z.string().openapi({ description: "The product, as asked" }),
    quantity: z.number().int().openapi({ description: "The quantity, as asked" }),
    status: z.enum(LINE_STATUSES).openapi({
      description:
        "OK; NO_PRICE (no pricelist has a price); UNKNOWN_PRODUCT; OUT_OF_RANGE (an amount would exceed 2^53-1); QUANTITY_NOT_ALLOWED (see quantityRule and suggestedQuantities)",
    }),
    finalUnitAmount: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "What the customer pays per priceUnit pieces" }),
    lineAmount: z.number().int().nullable().openapi({
      description:
        "round(finalUnitAmount × quantity / priceUnit), in the channel's roundingMode (docs/pricing-rules.md §20)",
    }),
    regularUnitAmount: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "After trade conditions and the floor, before promotions" }),
    listUnitAmount: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "The public price: the channel's pricelists only" }),
    currency: z.string().openapi({ description: "The currency of every amount of the line" }),
    priceUnit: z.number().int().nullable().openapi({
      description:
        "The pieces every unit amount of the line is for (finalUnitAmount, baseUnitAmount, adjustments, listUnitAmount): the base row's price unit, 1-10000; null when unpriced",
    }),
    taxInclusive: z
      .boolean()
      .nullable()
      .openapi({ description: "Whether the base pricelist's amounts include tax; null unpriced" }),
    source: z
      .object({
        level: z.enum(PRICELIST_LEVELS).openapi({ description: "The level of the base price" }),
        pricelistId: z.number().int().openapi({ description: "The pricelist of the base price" }),
        tierMinQuantity: z.number().int().openapi({ description: "The tier used" }),
        baseUnitAmount: z.number().int().openapi({
          description:
            "The tier's unit amount; GRADUATED: the lot's amount for all quantity pieces (the sum of bands)",
        }),
        derivedFrom: DerivedFrom,
        tierMode: z.enum(TIER_MODES).openapi({
          description:
            "How the base pricelist's tiers price the line (docs/pricing-rules.md §29): VOLUME, the whole quantity at the tier it reaches; GRADUATED, one lot of bands (priceUnit = quantity)",
        }),
        bands: z.array(Band).nullable().openapi({
          description:
            "GRADUATED: the bands the quantity reaches, whose amounts add up to baseUnitAmount; VOLUME: null",
        }),
        kind: z.enum(PRICE_SOURCE_KINDS).optional().openapi({
          description:
            "QUOTE when a quote priced the line (docs/pricing-rules.md §28); absent: the pricelist above. With QUOTE and the quote's price, baseUnitAmount is the quoted amount (no adjustments)",
        }),
        quoteId: z
          .number()
          .int()
          .optional()
          .openapi({ description: "With kind QUOTE: the quote that priced the line" }),
        revision: z
          .number()
          .int()
          .optional()
          .openapi({ description: "With kind QUOTE: the quote's revision" }),
      })
      .nullable()
      .openapi({ description: "Where the base price comes from; null when unpriced" }),
    adjustments: z
      .array(Adjustment)
      .openapi({ description: "Trade conditions and promotion applied, in order" }),
    tiers: z
      .array(
        z.object({
          minQuantity: z.number().int().openapi({ description: "From this quantity on" }),
          amount: z.number().int().openapi({ description: "The price of priceUnit pieces" }),
          priceUnit: z.number().int().openapi({ description: "The pieces amount is for" }),
          flatAmount: z.number().int().openapi({
            description:
              "GRADUATED: added once when a line reaches this tier's band (docs/pricing-rules.md §29); 0 on VOLUME lists",
          }),
        }),
      )
      .openapi({ description: "The base pricelist's tiers for this product" }),
    quantityRule: z
      .object({
        minimum: z.number().int().openapi({ description: "The smallest quantity allowed" }),
        increment: z
          .number()
          .int()
          .openapi({ description: "Allowed quantities are minimum + k × increment" }),
        maximum: z
          .number()
          .int()
          .nullable()
          .openapi({ description: "The largest quantity allowed; null = none" }),
      })
      .nullable()
      .openapi({ description: "The product's quantity rule; null for UNKNOWN_PRODUCT" }),
    suggestedQuantities: z
      .object({
        below: z
          .number()
          .int()
          .nullable()
          .openapi({ description: "The nearest allowed quantity below; null when none" }),
        above: z
          .number()
          .int()
          .nullable()
          .openapi({ description: "The nearest allowed quantity above; null when none" }),
      })
      .nullable()
      .openapi({ description: "Only on QUANTITY_NOT_ALLOWED lines; else null" }),
    priceBreak: z
      .object({
        quantity: z.number().int().openapi({
          description:
            "The smallest allowed quantity above the line's that reaches a higher tier of the base pricelist",
        }),
        lineAmount: z
          .number()
          .int()
          .openapi({ description: "What the line costs at that quantity: no more than now" }),
      })
      .nullable()
      .openapi({
        description:
          "OK lines: buying up to the next tier costs no more than this line (docs/pricing-rules.md §22); else null",
      }),
    ladder: z.array(LadderEntry).nullable().optional().openapi({
      description:
        "Only when the request asked for `ladder`: on OK lines, for each tier of the base pricelist (minQuantity ascending) the line priced for this buyer at the smallest allowed quantity from it, order-level bases unchanged (docs/pricing-rules.md §30); null on other lines",
    }),
    ...marginFields,
    explain: z
      .object({
        pricelists: z.array(PricelistExplain).openapi({
          description: "Most specific level first, then priority desc, id asc",
        }),
        tradeConditions: z.array(ConditionExplain).openapi({
          description: "By type in applied order, then rung, priority desc, id asc",
        }),
        promotions: z.array(PromotionExplain).openapi({ description: "Priority desc, id asc" }),
        floors: z
          .array(FloorExplain)
          .openapi({ description: "The channel's FLOOR pricelists, priority desc, id asc" }),
        costs: z
          .array(CostExplain)
          .optional()
          .openapi({
            description: `${ADMIN_ONLY}The channel's COST pricelists, priority desc, id asc`,
          }),
        quotes: z.array(QuoteExplain).optional().openapi({
          description:
            "Only when the request carries quotes (a named quoteId, or the customer's agreements): every quote naming the product, in rank order",
        }),
      })
      .nullable()
      .openapi({ description: "Only with explain: every candidate and why it lost" }),
  })
  .openapi("LinePrice", { description: "The price of one line" });

export const PriceAnswerSchema = z
  .object({
    channelCode: z.string().openapi({ description: "The channel, as asked" }),
    customerCode: z
      .string()
      .nullable()
      .openapi({ description: "The customer, as asked; null for anonymous prices" }),
    currency: z.string().openapi({ description: "The currency of every amount" }),
    at: IsoTimestamp.openapi({ description: "The instant priced at" }),
    totalAmount: z
      .number()
      .int()
      .nullable()
      .openapi({
        description:
          "The cart's total: the sum of every line's lineAmount when every line is OK (complete); " +
          "null when some line is not OK, or when the sum would exceed 2^53-1",
      }),
    pricedTotalAmount: z
      .number()
      .int()
      .nullable()
      .openapi({
        description:
          "The sum of the OK lines' lineAmount, whatever the other lines say: 0 when no line is OK; " +
          "null only when the sum would exceed 2^53-1. Not the cart's total unless complete",
      }),
    complete: z.boolean().openapi({
      description:
        "True when every line is OK, so totalAmount covers the whole cart (it is still null if the " +
        "sum would exceed 2^53-1); false when some line is NO_PRICE, UNKNOWN_PRODUCT, OUT_OF_RANGE or " +
        "QUANTITY_NOT_ALLOWED",
    }),
    costAmount: z
      .number()
      .int()
      .nullable()
      .optional()
      .openapi({
        description: `${ADMIN_ONLY}Σ round(costUnitAmount × quantity / priceUnit) over the OK lines; null when an OK line has no cost`,
      }),
    marginAmount: z
      .number()
      .int()
      .nullable()
      .optional()
      .openapi({
        description: `${ADMIN_ONLY}pricedTotalAmount − costAmount; null when costAmount is`,
      }),
    validUntil: IsoTimestamp.nullable().openapi({
      description:
        "The answer holds until this instant (the next validity edge); null = no known end",
    }),
    lines: z
      .array(
        LinePrice.partial()
          .required({ productCode: true, quantity: true, status: true })
          .openapi("PriceAnswerLine", {
            description:
              "The price of one line (LinePrice): every field, or with `select` productCode, quantity, status and the fields selected",
          }),
      )
      .openapi({ description: "One per requested line, in order" }),
  })
  .openapi("PriceAnswer", {
    description: "What the customer pays, line by line, and why",
    example: workedExampleAnswer,
  });

/** Conditional request header of the GET lookup. */
export const PriceLookupHeaders = z.object({
  "if-none-match": z
    .string()
    .optional()
    .openapi({
      param: { name: "if-none-match", in: "header" },
      description:
        "An ETag of an earlier answer: 304 (no body) while it still describes the current answer",
      example: 'W/"k3W8qP1wV0c2sQv9Zt4yXbQm"',
    }),
});

export type PriceResolve = z.infer<typeof PriceResolveSchema>;
export type PriceLookup = z.infer<typeof PriceLookupQuery>;

/** A line as the price lookup answers it: the publish simulation shows it before and after. */
export { LinePrice as LinePriceSchema };
