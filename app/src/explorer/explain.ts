import type { Schemas } from "../lib/api";

export type LinePrice = Schemas["LinePrice"];
type Explain = NonNullable<LinePrice["explain"]>;
type Outcome =
  | Schemas["PricelistExplain"]["outcome"]
  | Schemas["TradeConditionExplain"]["outcome"]
  | Schemas["PromotionExplain"]["outcome"]
  | Schemas["FloorExplain"]["outcome"];
type DecidedBy = NonNullable<Schemas["PricelistExplain"]["decidedBy"]>;

/**
 * Why a candidate did not price the line, in words (docs/pricing-rules.md §9). Typed by the
 * client's enums: a new outcome in /doc fails the page's typecheck until it is worded here.
 */
export const OUTCOME_TEXT: Record<Outcome, string> = {
  USED: "used",
  APPLIED: "applied",
  NOT_ACTIVE: "not active",
  OTHER_CURRENCY: "in another currency",
  NO_EXCHANGE_RATE: "its base is in another currency and no exchange rate of that pair holds now",
  NO_PRICE_FOR_PRODUCT: "no price for this product",
  OUT_OF_WINDOW: "outside its validity window at this instant",
  NO_TIER_FOR_QUANTITY: "no tier at this quantity (its tiers start higher)",
  ROUNDS_TO_ZERO:
    "its derived price came out 0 from a positive base (a rate or rounding took it away)",
  LOWER_RANK: "ranked behind the winner",
  LOWER_LEVEL: "a more specific level had a price",
  OTHER_CHANNEL: "limited to other channels",
  NOT_TARGETED: "does not reach this customer",
  OTHER_PRODUCT: "does not reach this product",
  NO_SCALE: "no scale row at this basis value",
  NO_BASE_PRICE: "the line has no base price to adjust",
  NOT_ELIGIBLE: "the line's quantity is not allowed",
  LOWER_RUNG: "a more specific condition (a lower rung) applied",
  SWITCHED_OFF_BY_NET_PRICE: "a net price switched discounts off",
  NOT_DISCOUNTABLE: "the base pricelist allows no trade discounts",
  SUPERSEDED_BY_PROMOTION: "a BEST_OF promotion gave a lower price",
  THRESHOLD_NOT_REACHED: "the order does not reach its threshold",
  SUPERSEDED_BY_REGULAR_PRICE: "the regular price is lower (BEST_OF)",
  NO_SAVING: "it would save nothing",
};

const DECIDED_BY_TEXT: Record<DecidedBy, string> = {
  DISTANCE: "group distance",
  PRIORITY: "priority",
  VALID_TO: "end of validity",
  AMOUNT: "amount",
  ID: "id alone",
};

export const reasonOf = (outcome: Outcome, decidedBy: DecidedBy | null) =>
  decidedBy
    ? `${OUTCOME_TEXT[outcome]}, decided by ${DECIDED_BY_TEXT[decidedBy]}`
    : OUTCOME_TEXT[outcome];

/** The record kinds of the record page (#/record/<kind>/<id>), as the lint findings name them. */
export type RecordKind = Schemas["LintRecord"]["kind"];

/** A record a step or a candidate names, and what the page calls it. */
export interface RecordRef {
  kind: RecordKind;
  id: number;
}

/** Names of the records explain mentions, by "kind:id", for the steps of the waterfall. */
export function namesOf(explain: Explain | null): Map<string, string> {
  const names = new Map<string, string>();
  if (!explain) return names;
  for (const p of explain.pricelists) names.set(`pricelist:${p.pricelistId}`, p.name);
  for (const f of explain.floors) names.set(`pricelist:${f.pricelistId}`, f.name);
  for (const t of explain.tradeConditions) names.set(`tradeCondition:${t.id}`, t.name);
  for (const p of explain.promotions) names.set(`promotion:${p.id}`, p.name);
  return names;
}
