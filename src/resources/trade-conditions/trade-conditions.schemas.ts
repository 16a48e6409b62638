import { z } from "@hono/zod-openapi";
import { listOf } from "../../list";
import {
  Code,
  Currency,
  IsoTimestamp,
  Name,
  OptionalInstant,
  PriceUnit,
  Priority,
  Status,
} from "../../core/schemas";
import {
  codeList,
  noTargets,
  targetListsCreate,
  targetListsRead,
  targetListsUpdate,
} from "../../core/targeting";
import {
  CONDITION_SCOPE_LADDER,
  CONDITION_SCOPES,
  CONDITION_TYPES,
  CREATE_STATUSES,
  DISCOUNT_TYPES,
  SCALE_BASES,
} from "../../pricing/vocabulary";

export const DiscountTypeSchema = z.enum(DISCOUNT_TYPES).openapi("DiscountType", {
  description:
    "PERCENTAGE: value in basis points 1-10000, no currency. ABSOLUTE: value in minor units >= 0, currency required.",
});

export const TradeConditionScopeSchema = z.enum(CONDITION_SCOPES).openapi("TradeConditionScope", {
  description: "Whom the condition targets",
});

export const TradeConditionTypeSchema = z.enum(CONDITION_TYPES).openapi("TradeConditionType", {
  description:
    "DISCOUNT and SURCHARGE change the unit price; NET_PRICE replaces it and is always ABSOLUTE; ACCRUAL is an off-invoice rebate the customer earns: it never changes the price, every ACCRUAL reaching a line applies (never stackable), and only admin keys see ACCRUAL conditions (docs/pricing-rules.md §25)",
});

/** Basis points for PERCENTAGE, minor units for ABSOLUTE; the range depends on discountType. */
export const DiscountValue = z.number().int().openapi({
  description: "Basis points (1-10000) for PERCENTAGE, minor units (>= 0) for ABSOLUTE",
  example: 500,
});

/** Code lists of a create/update body: 0-1000 codes, duplicates counted once, unknown ones refused. */
export { codeList };

/** Only these two statuses may be chosen on create; the rest are reached by transitions. */
export const CreateStatus = z
  .enum(CREATE_STATUSES)
  .openapi({ example: "DRAFT", description: "DRAFT (default) or ACTIVE" });

export const ScaleBasisSchema = z.enum(SCALE_BASES).openapi("ScaleBasis", {
  description:
    "What a scale row's minimum is compared with. LINE_QUANTITY: the line's quantity. " +
    "ORDER_QUANTITY: the quantities of the request's eligible lines the condition reaches. " +
    "ORDER_VALUE: their base amount × quantity, in the condition's currency (required then).",
});

/** A scale row's threshold: a quantity, or minor units for ORDER_VALUE. */
const ScaleMinimum = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

/**
 * A scale row as bodies give it: `minimum`, or its former name `minQuantity` (deprecated, still
 * accepted so that old clients keep working), exactly one of them. Parsed to `{ minimum, value }`.
 */
const ScaleInputSchema = z
  .strictObject({
    minimum: ScaleMinimum.optional().openapi({
      example: 10,
      description:
        "The row applies from this basis value on (a quantity, or minor units for ORDER_VALUE), ≥ 1",
    }),
    minQuantity: ScaleMinimum.optional().openapi({
      deprecated: true,
      description: "Deprecated: the former name of `minimum`; give one of the two",
    }),
    value: DiscountValue.openapi({ example: 700 }),
  })
  .superRefine((row, ctx) => {
    if (row.minimum !== undefined && row.minQuantity !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["minQuantity"],
        message: "must be absent when minimum is given (minQuantity is its deprecated name)",
      });
    } else if (row.minimum === undefined && row.minQuantity === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["minimum"],
        message: "is required (or, deprecated, minQuantity)",
      });
    }
  })
  .transform(({ minimum, minQuantity, value }) => ({ minimum: (minimum ?? minQuantity)!, value }))
  .openapi("TradeConditionScaleInput", {
    description:
      "A scale row: from `minimum` on (compared with the condition's scaleBasis), value replaces the base value. `minQuantity` is the deprecated name of `minimum`",
    example: { minimum: 10, value: 700 },
  });

export type Scale = z.output<typeof ScaleInputSchema>;

const ScaleSchema = z
  .object({
    minimum: z.number().int().openapi({
      example: 10,
      description:
        "The row applies from this basis value on (a quantity, or minor units for ORDER_VALUE)",
    }),
    value: DiscountValue.openapi({ example: 700 }),
    minQuantity: z.number().int().optional().openapi({
      deprecated: true,
      example: 10,
      description:
        "Deprecated: the same number as `minimum`, given only for LINE_QUANTITY conditions so that readers of the former shape keep working",
    }),
  })
  .openapi("TradeConditionScale", {
    description: "A scale row: from minimum on, value replaces the base value",
    example: { minimum: 10, value: 700, minQuantity: 10 },
  });

const Scales = z.array(ScaleInputSchema).max(100, "must have at most 100 rows").openapi({
  description:
    "Scale rows: from minimum on, value replaces the base value. Distinct minimum; values of the discountType.",
});

const tradeConditionExample = {
  id: 7,
  name: "Wholesale 5 %",
  scope: "CUSTOMER_GROUP",
  status: "ACTIVE",
  type: "DISCOUNT",
  discountType: "PERCENTAGE",
  value: 500,
  currency: null,
  priceUnit: 1,
  validFrom: "2025-01-01T00:00:00.000Z",
  validTo: null,
  priority: 0,
  stackable: false,
  ...noTargets(),
  channelCodes: ["WEB-DE"],
  scaleBasis: "LINE_QUANTITY",
  scales: [{ minimum: 100, value: 700, minQuantity: 100 }],
  customerGroupCodes: ["WHOLESALE"],
  customerCodes: [],
  createdAt: "2025-01-01T00:00:00.000Z",
  updatedAt: "2025-01-01T00:00:00.000Z",
};

/** The discount terms trade conditions and promotions share, as the API shows them. */
export const discountTerms = {
  discountType: DiscountTypeSchema,
  value: DiscountValue,
  currency: z.string().nullable().openapi({
    example: null,
    description: "Currency of an ABSOLUTE value; null for PERCENTAGE",
  }),
  priceUnit: z.number().int().openapi({
    example: 1,
    description:
      "The pieces an ABSOLUTE value (a net price) is for, 1-10000; 1 for PERCENTAGE (docs/pricing-rules.md §20)",
  }),
  validFrom: IsoTimestamp.nullable().openapi({ description: "Inclusive start; null = always" }),
  validTo: IsoTimestamp.nullable().openapi({ description: "Exclusive end; null = open-ended" }),
};

export const TradeConditionSchema = z
  .object({
    id: z.number().int().openapi({ example: 7, description: "Assigned by the service" }),
    name: z.string().openapi({ example: "Wholesale 5 %", description: "Display name" }),
    scope: TradeConditionScopeSchema,
    status: Status,
    type: TradeConditionTypeSchema,
    ...discountTerms,
    priority: z.number().int().openapi({
      example: 0,
      description: "Higher wins among conditions of the same type and rung",
    }),
    stackable: z.boolean().openapi({
      description: "Whether it applies on top of the winning condition of its type",
    }),
    ...targetListsRead(),
    channelCodes: z.array(z.string()).openapi({ description: "Empty = all channels" }),
    scaleBasis: ScaleBasisSchema,
    scales: z.array(ScaleSchema).openapi({ description: "Sorted by minimum" }),
    customerGroupCodes: z.array(z.string()).openapi({
      description:
        "Target groups of a CUSTOMER_GROUP-scope condition, sorted (set by POST …/customer-groups); empty for other scopes",
    }),
    customerCodes: z.array(z.string()).openapi({
      description:
        "Target customers of a CUSTOMER-scope condition, sorted (set by POST …/customers); empty for other scopes",
    }),
    createdAt: IsoTimestamp.openapi({ description: "When the condition was created" }),
    updatedAt: IsoTimestamp.openapi({ description: "When the condition last changed" }),
  })
  .openapi("TradeCondition", {
    description: "A discount, surcharge or net price for a scope of customers",
    example: tradeConditionExample,
  });

export const TradeConditionCreateSchema = z
  .strictObject({
    name: Name.openapi({ example: "Wholesale 5 %" }),
    scope: TradeConditionScopeSchema,
    type: TradeConditionTypeSchema,
    discountType: DiscountTypeSchema.optional().openapi({
      description: "Required, except for NET_PRICE, which is always ABSOLUTE (the default)",
    }),
    value: DiscountValue,
    currency: Currency.nullable().optional().openapi({
      description:
        "Required for ABSOLUTE values and for scaleBasis ORDER_VALUE; otherwise absent or null for PERCENTAGE",
    }),
    priceUnit: PriceUnit.default(1).openapi({
      description:
        "The pieces an ABSOLUTE value (a net price) is for, 1-10000; default 1; only 1 for PERCENTAGE (docs/pricing-rules.md §20)",
      example: 1,
    }),
    status: CreateStatus.default("DRAFT"),
    validFrom: OptionalInstant.openapi({ description: "Inclusive start; null or absent = always" }),
    validTo: OptionalInstant.openapi({ description: "Exclusive end; null or absent = open-ended" }),
    priority: Priority.default(0).openapi({
      description: "Higher wins among conditions of the same type and rung; default 0",
    }),
    stackable: z.boolean().default(false).openapi({
      description: "Whether it applies on top of the winning condition of its type; default false",
    }),
    ...targetListsCreate(),
    channelCodes: codeList(["WEB-DE"]).default([]).openapi({
      description:
        "The channels it applies in; empty (default) = all. A CHANNEL-scope condition needs at least one",
    }),
    scaleBasis: ScaleBasisSchema.default("LINE_QUANTITY"),
    scales: Scales.default([]),
  })
  .openapi("TradeConditionCreate", {
    description:
      "A new trade condition. CUSTOMER_GROUP- and CUSTOMER-scope conditions get their targets through POST …/customer-groups and …/customers",
    example: {
      name: "Wholesale 5 %",
      scope: "CUSTOMER_GROUP",
      type: "DISCOUNT",
      discountType: "PERCENTAGE",
      value: 500,
      status: "ACTIVE",
      validFrom: "2025-01-01T00:00:00Z",
      channelCodes: ["WEB-DE"],
      productGroupCodes: ["FAST"],
      scaleBasis: "ORDER_QUANTITY",
      scales: [{ minimum: 1000, value: 700 }],
    },
  });

export const TradeConditionUpdateSchema = z
  .strictObject({
    name: Name.optional(),
    scope: TradeConditionScopeSchema.optional(),
    type: TradeConditionTypeSchema.optional(),
    discountType: DiscountTypeSchema.optional(),
    value: DiscountValue.optional(),
    currency: Currency.nullable().optional().openapi({
      description:
        "Required for ABSOLUTE values and for scaleBasis ORDER_VALUE; otherwise null for PERCENTAGE",
    }),
    priceUnit: PriceUnit.optional().openapi({
      description:
        "The pieces an ABSOLUTE value (a net price) is for, 1-10000; only 1 for PERCENTAGE",
    }),
    status: Status.optional(),
    validFrom: OptionalInstant.openapi({ description: "Inclusive start; null = always" }),
    validTo: OptionalInstant.openapi({ description: "Exclusive end; null = open-ended" }),
    priority: Priority.optional(),
    stackable: z.boolean().optional().openapi({
      description: "Whether it applies on top of the winning condition of its type",
    }),
    ...targetListsUpdate(),
    channelCodes: codeList(["WEB-DE"]).optional().openapi({ description: "Replaces the list" }),
    scaleBasis: ScaleBasisSchema.optional(),
    scales: Scales.optional().openapi({ description: "Replaces the scales" }),
  })
  .openapi("TradeConditionUpdate", {
    description:
      "Any subset of the create fields. The merged record is validated with the create rules; ARCHIVED records cannot be edited.",
    example: { value: 600, scales: [{ minimum: 100, value: 800 }] },
  });

export const TradeConditionListSchema = listOf(TradeConditionSchema, "TradeConditionList", {
  path: "/v1/api/trade-conditions",
  data: [tradeConditionExample],
});

const customerTradeConditionExample = {
  id: 41,
  customerCode: "C-1001",
  via: { kind: "CUSTOMER_GROUP", code: "WHOLESALE" },
  tradeCondition: tradeConditionExample,
};

export const CustomerTradeConditionSchema = z
  .object({
    id: z.number().int().openapi({
      example: 41,
      description:
        "Identifies the link within the customer's list: 4 × the link row's rowid + 0 (CUSTOMER), 1 (CUSTOMER_GROUP), 2 (CHANNEL); 4 × the condition id + 3 (GLOBAL)",
    }),
    customerCode: Code.openapi({ example: "C-1001", description: "The customer" }),
    via: z
      .object({
        kind: z.enum(CONDITION_SCOPE_LADDER).openapi({
          description:
            "CUSTOMER: direct target; CUSTOMER_GROUP: through one of the customer's groups; CHANNEL: through a channel the customer is assigned to; GLOBAL: every customer",
        }),
        code: Code.nullable().openapi({
          example: "WHOLESALE",
          description: "The customer, group or channel code of the link; null for GLOBAL",
        }),
      })
      .openapi("CustomerTradeConditionVia", {
        description: "The link through which the condition reaches the customer",
      }),
    tradeCondition: TradeConditionSchema,
  })
  .openapi("CustomerTradeCondition", {
    description: "A trade condition that reaches a customer (`tradeCondition`), and how (`via`)",
    example: customerTradeConditionExample,
  });

export const CustomerTradeConditionListSchema = listOf(
  CustomerTradeConditionSchema,
  "CustomerTradeConditionList",
  { path: "/v1/api/customer/C-1001/trade-conditions", data: [customerTradeConditionExample] },
);

export const TradeConditionHeaders = z.object({
  "x-channel": Code.optional().openapi({
    param: { name: "x-channel", in: "header", required: false },
    description:
      "Channel code: only conditions that apply in that channel (channelCodes empty or containing it). Unknown channel: 404.",
  }),
});

export type TradeConditionCreate = z.infer<typeof TradeConditionCreateSchema>;
export type TradeConditionUpdate = z.infer<typeof TradeConditionUpdateSchema>;
