import { z } from "@hono/zod-openapi";
import { IsoTimestamp } from "../../core/schemas";

/*
 * The approval policy in the API (docs/api/change-requests.md §17.4): the limits, and who set and
 * approved them.
 */

const Limit = z
  .number({ error: () => "must be a whole number ≥ 0 of basis points, or null" })
  .int("must be a whole number ≥ 0 of basis points, or null")
  .min(0, "must be a whole number ≥ 0 of basis points, or null")
  .max(1_000_000, "must be at most 1000000")
  .nullable();

const limits = {
  autoApproveMaxRaiseBp: Limit.openapi({
    example: 500,
    description: "Largest rise (bp) approved by the policy; null: none",
  }),
  autoApproveMaxCutBp: Limit.openapi({
    example: 0,
    description: "Largest cut (bp, its magnitude) approved by the policy; null: none",
  }),
};

export const PolicySchema = z.strictObject(limits).openapi("ChangeRequestPolicy", {
  description:
    "With both limits set, a request whose impact stays within them and omits nothing is approved at submit by `policy`",
  example: { autoApproveMaxRaiseBp: 500, autoApproveMaxCutBp: 0 },
});

const owner = (description: string) =>
  z.string().nullable().openapi({ example: "anna", description });

export const PolicyProposalSchema = z
  .object({
    ...limits,
    proposedBy: z
      .string()
      .openapi({ example: "anna", description: "The owner of the key that proposed it" }),
    proposedAt: IsoTimestamp.openapi({ description: "When it was proposed" }),
    proposedByCaller: z.boolean().openapi({
      example: false,
      description: "Whether the caller's key is the proposer's: its approval would be 403",
    }),
  })
  .openapi("ChangeRequestPolicyProposal", {
    description: "Limits approving more than those in force, waiting for another owner",
  });

export const PolicyStateSchema = z
  .object({
    ...limits,
    setBy: owner("The owner whose PUT set the limits in force; null: the default"),
    approvedBy: owner("The owner who approved the limits in force; null: they applied at once"),
    updatedAt: IsoTimestamp.openapi({
      description: "When the policy or its proposal last changed",
    }),
    proposal: PolicyProposalSchema.nullable(),
  })
  .openapi("ChangeRequestPolicyState", {
    description: "The approval policy in force, who set and approved it, and a waiting change",
    example: {
      autoApproveMaxRaiseBp: 200,
      autoApproveMaxCutBp: 0,
      setBy: "anna",
      approvedBy: "ben",
      updatedAt: "2026-11-20T09:00:00.000Z",
      proposal: {
        autoApproveMaxRaiseBp: 500,
        autoApproveMaxCutBp: 0,
        proposedBy: "anna",
        proposedAt: "2026-11-20T09:00:00.000Z",
        proposedByCaller: false,
      },
    },
  });

export type Policy = z.infer<typeof PolicySchema>;
