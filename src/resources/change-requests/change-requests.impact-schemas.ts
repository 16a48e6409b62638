import { z } from "@hono/zod-openapi";
import { IsoTimestamp } from "../../core/schemas";
import { MarginSummarySchema } from "../simulations/simulations.schemas";

/* The impact of a change request as answered (docs/api/change-requests.md §17.3). */

const count = (description: string) => z.number().int().openapi({ description });

/**
 * Worked example A (docs/api/change-requests.md §17.3): P-1 and P-2 +3 %, rounded up to …9, P-2's
 * 10+ tier too.
 */
export const impactExample = {
  at: "2027-01-01T00:00:00.000Z",
  channelCodes: ["WEB"],
  quantities: [1, 10],
  pricesCompared: 3,
  pricesChanged: 3,
  pricesAppeared: 0,
  pricesVanished: 0,
  maxRaiseBp: 390,
  maxCutBp: 0,
  totalBefore: 2400,
  totalAfter: 2487,
  distribution: [
    { percent: 3, count: 1 },
    { percent: 4, count: 2 },
  ],
  channelsOmitted: 0,
  productsOmitted: 0,
  customersOmitted: 0,
  quantitiesOmitted: 0,
  margin: {
    before: {
      lines: 3,
      linesWithoutCost: 0,
      revenueAmount: 2400,
      costAmount: 1900,
      marginAmount: 500,
      marginBp: 2083,
    },
    after: {
      lines: 3,
      linesWithoutCost: 0,
      revenueAmount: 2487,
      costAmount: 1900,
      marginAmount: 587,
      marginBp: 2360,
    },
  },
  cumulative: {
    since: null,
    requestIds: [],
    pendingRequestIds: [],
    pricesChanged: 3,
    pricesAppeared: 0,
    pricesVanished: 0,
    maxRaiseBp: 390,
    maxCutBp: 0,
    totalBefore: 2400,
    totalAfter: 2487,
  },
};

/** The figures of a change, the request's own and the cumulative one alike. */
const changeFields = {
  pricesChanged: count("Pairs whose unit price differs (also a price that appears or vanishes)"),
  pricesAppeared: count("Pairs priced after and not before (never approved by the policy)"),
  pricesVanished: count("Pairs priced before and not after (never approved by the policy)"),
  maxRaiseBp: count("The largest rise in basis points, 0 if none"),
  maxCutBp: count("The magnitude of the largest cut in basis points, 0 if none"),
  totalBefore: count("Σ unit prices before, over the pairs priced before and after"),
  totalAfter: count("Σ unit prices after, over the same pairs"),
};

const Ids = (description: string) => z.array(z.number().int()).openapi({ description });

const CumulativeSchema = z
  .object({
    since: IsoTimestamp.nullable().openapi({
      description:
        "The earliest moment of the applied requests counted; its prices are the base (null: none, the figures are the request's own)",
    }),
    requestIds: Ids(
      "The APPLIED requests it stacks with: not in force yet, or applied in the last 24 h by one of its writers",
    ),
    pendingRequestIds: Ids(
      "PENDING_APPROVAL requests naming a record it names (the policy approves none while any is listed)",
    ),
    ...changeFields,
  })
  .openapi({
    description:
      "From the prices in force before the requests it stacks with to the prices with its items, over the same pairs (docs/api/change-requests.md §17.4); absent from impacts computed before it was added",
  });

export const ImpactSchema = z
  .object({
    at: IsoTimestamp.openapi({ description: "The moment simulated: effectiveAt, or the submit" }),
    channelCodes: z.array(z.string()).openapi({
      description: "The channels simulated: active ones where a touched record can price, by code",
    }),
    quantities: z.array(z.number().int()).optional().openapi({
      description:
        "The quantities priced: 1 and every tier (minQuantity) the items touch, ascending; absent from impacts computed before it was added (quantity 1 only)",
    }),
    pricesCompared: count("(buyer, product, quantity) pairs priced in those channels"),
    ...changeFields,
    pricesAppeared: changeFields.pricesAppeared.optional(),
    pricesVanished: changeFields.pricesVanished.optional(),
    distribution: z
      .array(
        z.object({
          percent: count(
            "Whole percent (bp / 100, rounded half away from zero; 100 and more: 100)",
          ),
          count: count("Changed prices in the bucket"),
        }),
      )
      .openapi({ description: "Changed prices by whole percent, ascending, no empty buckets" }),
    channelsOmitted: count("Channels past the first 10 by code, not simulated"),
    productsOmitted: count("Touched products past the first 1,000 by code, not simulated"),
    customersOmitted: count(
      "Customers of the channels simulated that were not priced (past the pair budget)",
    ).optional(),
    quantitiesOmitted: count("Touched tiers past the first 10 quantities, not priced").optional(),
    margin: z
      .object({
        before: MarginSummarySchema.openapi({ description: "Every pair compared, as stored" }),
        after: MarginSummarySchema.openapi({ description: "Every pair compared, with the items" }),
      })
      .optional()
      .openapi({
        description:
          "The margin before and after over every pair compared, as the simulation's summary gives it, summed over the channels simulated; absent from impacts computed before it was added (docs/api/change-requests.md §17.3)",
      }),
    cumulative: CumulativeSchema.optional(),
  })
  .openapi("ChangeRequestImpact", {
    description:
      "The publish simulation of the items at effectiveAt, computed at submit (docs/api/change-requests.md §17.3)",
    example: impactExample,
  });

export type Impact = z.infer<typeof ImpactSchema>;
