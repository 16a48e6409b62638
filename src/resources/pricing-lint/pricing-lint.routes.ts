import { requireAdmin } from "../../http/auth";
import { errors, json } from "../../http/openapi";
import { lintList } from "./pricing-lint.list";
import { LintFindingListSchema } from "./pricing-lint.schemas";

/** The group of this resource's operations in /doc. */
export const tag = {
  name: "Pricing lint",
  description: "Findings about the pricing rules in force (admin keys only)",
};

export const list = lintList.route(
  {
    method: "get",
    path: "/v1/api/pricing/lint",
    tags: [tag.name],
    operationId: "listPricingLintFindings",
    summary: "Lint the pricing rules in force (admin keys only)",
    description:
      "Checks the ACTIVE pricelists, trade conditions and promotions whose window has not ended " +
      "(as of now) for terms that can never apply, ties decided by id, price gaps, floors above " +
      "list prices, stackable discounts that add up to 100 % or more, channels without a primary " +
      "pricelist, groups with no products, and records ACTIVE past their window " +
      "(docs/pricing-lint.md: each code, what triggers it, why it matters, how to fix it). A " +
      "finding is only reported when it is certain: the rules may miss a case, never invent " +
      "one. Nothing is written. The facts are read in one D1 round trip whatever the size of " +
      "the data (price rows are aggregated in D1, not loaded), on every call (no cache). " +
      "`filter.severity` and `filter.code` pick findings by what they are; `filter.pricelistId` " +
      "and `filter.productCode` keep the findings that name one of the values among their " +
      "records (`$not`: that name none; a finding naming no pricelist or product is kept by " +
      "neither). Default sort: severity (ERROR, WARNING, INFO), then code, each in that " +
      "vocabulary order.",
    responses: {
      200: json(LintFindingListSchema, "A page of findings"),
      ...errors(400, 401, 403),
    },
  },
  requireAdmin("lint the pricing rules"),
);
