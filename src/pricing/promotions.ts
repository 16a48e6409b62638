import type { Audience } from "./conditions";
import { add, clamp, negate, percentOf } from "./money";
import { ascending, decidedBy, descending, pickBest, type Ranking } from "./rank";
import type { Adjustment, PromotionCandidate, PromotionExplain } from "./types";
import { isInWindow, type EdgeTracker } from "./validity";
import type { PromotionOutcome, RankKey } from "./vocabulary";

type StaticGate = "NOT_ACTIVE" | "OTHER_CURRENCY" | "OTHER_CHANNEL" | "NOT_TARGETED";

export interface PreparedPromotion {
  promotion: PromotionCandidate;
  gate: StaticGate | null;
  inWindow: boolean;
  products: ReadonlySet<string> | null;
}

export interface PromotionIndex {
  /** Every promotion, priority desc, id asc (explain order). */
  all: PreparedPromotion[];
  anyProduct: PreparedPromotion[];
  byProduct: Map<string, PreparedPromotion[]>;
}

function staticGate(p: PromotionCandidate, a: Audience): StaticGate | null {
  if (p.status !== "ACTIVE") return "NOT_ACTIVE";
  if (p.discountType === "ABSOLUTE" && p.currency !== a.currency) return "OTHER_CURRENCY";
  if (p.channelCodes.length > 0 && !p.channelCodes.includes(a.channelCode)) return "OTHER_CHANNEL";
  if (p.customerGroupCodes.length > 0 && !p.customerGroupCodes.some((g) => a.groupCodes.has(g))) {
    return "NOT_TARGETED";
  }
  return null;
}

export function preparePromotions(
  promotions: readonly PromotionCandidate[],
  audience: Audience,
): PromotionIndex {
  const all = promotions
    .map((promotion): PreparedPromotion => ({
      promotion,
      gate: staticGate(promotion, audience),
      inWindow: isInWindow(promotion, audience.at),
      products: promotion.productCodes.length > 0 ? new Set(promotion.productCodes) : null,
    }))
    .sort(
      (a, b) =>
        descending(a.promotion.priority, b.promotion.priority) ||
        ascending(a.promotion.id, b.promotion.id),
    );
  const index: PromotionIndex = { all, anyProduct: [], byProduct: new Map() };
  for (const prepared of all) {
    if (prepared.gate) continue;
    if (!prepared.products) {
      index.anyProduct.push(prepared);
      continue;
    }
    for (const code of prepared.products) {
      const list = index.byProduct.get(code);
      if (list) list.push(prepared);
      else index.byProduct.set(code, [prepared]);
    }
  }
  return index;
}

interface Evaluated {
  prepared: PreparedPromotion;
  /** The promotion's own adjustment: −(its saving on the amount it applies to). */
  amount: number;
  /** The unit amount it would give. */
  price: number;
  /** regular − price, floored at 0: a promotion never raises a price. */
  saving: number;
}

/** The single best promotion: largest saving for the customer, then priority, then id. */
const promotionRanking: Ranking<Evaluated> = [
  ["AMOUNT", (a, b) => descending(a.saving, b.saving)],
  ["PRIORITY", (a, b) => descending(a.prepared.promotion.priority, b.prepared.promotion.priority)],
  ["ID", (a, b) => ascending(a.prepared.promotion.id, b.prepared.promotion.id)],
];

/** A promotion's saving on `amount`, between 0 and `amount` so nothing goes negative. */
function savingOn(promotion: PromotionCandidate, amount: number): number {
  const raw =
    promotion.discountType === "ABSOLUTE" ? promotion.value : percentOf(amount, promotion.value);
  return clamp(raw, 0, amount);
}

function evaluate(
  prepared: PreparedPromotion,
  base: number,
  regular: number,
  surchargeTotal: number,
): Evaluated {
  const { promotion } = prepared;
  if (promotion.stacking === "ON_TOP") {
    const saving = savingOn(promotion, regular);
    return { prepared, amount: negate(saving), price: regular - saving, saving };
  }
  // BEST_OF: the promotion replaces the trade conditions but not the charges.
  const onBase = savingOn(promotion, base);
  const price = add(base - onBase, surchargeTotal);
  return { prepared, amount: negate(onBase), price, saving: Math.max(0, regular - price) };
}

export interface PromotionNote {
  outcome: PromotionOutcome;
  decidedBy: RankKey | null;
  amount: number | null;
  saving: number | null;
}

export interface PromotionResult {
  /** The applied promotion, if one saves anything. */
  winner: { promotion: PromotionCandidate; price: number; adjustment: Adjustment } | undefined;
  notes: Map<PreparedPromotion, PromotionNote> | null;
}

/** Step 3 for one priced line. */
export function applyPromotions(
  index: PromotionIndex,
  productCode: string,
  base: number,
  regular: number,
  surchargeTotal: number,
  edges: EdgeTracker,
  explain: boolean,
): PromotionResult {
  const notes = explain ? new Map<PreparedPromotion, PromotionNote>() : null;
  const specific = index.byProduct.get(productCode);
  const candidates = specific ? index.anyProduct.concat(specific) : index.anyProduct;

  const saving: Evaluated[] = [];
  for (const prepared of candidates) {
    edges.note(prepared.promotion);
    if (!prepared.inWindow) {
      notes?.set(prepared, {
        outcome: "OUT_OF_WINDOW",
        decidedBy: null,
        amount: null,
        saving: null,
      });
      continue;
    }
    const e = evaluate(prepared, base, regular, surchargeTotal);
    if (e.saving > 0) saving.push(e);
    else {
      const outcome =
        prepared.promotion.stacking === "ON_TOP" ? "NO_SAVING" : "SUPERSEDED_BY_REGULAR_PRICE";
      notes?.set(prepared, { outcome, decidedBy: null, amount: e.amount, saving: 0 });
    }
  }

  const best = pickBest(promotionRanking, saving);
  if (notes) {
    for (const e of saving) {
      notes.set(e.prepared, {
        outcome: e === best ? "APPLIED" : "LOWER_RANK",
        decidedBy: e === best ? null : decidedBy(promotionRanking, e, best!),
        amount: e.amount,
        saving: e.saving,
      });
    }
  }
  return { winner: best && winnerOf(best), notes };
}

function winnerOf({ prepared: { promotion }, price, amount }: Evaluated) {
  const adjustment: Adjustment = {
    kind: "PROMOTION",
    id: promotion.id,
    scope: null,
    rung: null,
    valueBp: promotion.discountType === "PERCENTAGE" ? promotion.value : null,
    amount,
  };
  return { promotion, price, adjustment };
}

/** Every promotion for one line, with the first failing check or its note. */
export function explainPromotions(
  index: PromotionIndex,
  productCode: string,
  notes: Map<PreparedPromotion, PromotionNote> | null,
): PromotionExplain[] {
  return index.all.map((prepared) => {
    const { promotion } = prepared;
    let n = notes?.get(prepared);
    if (!n) {
      const outcome: PromotionOutcome =
        prepared.gate ??
        (prepared.products && !prepared.products.has(productCode)
          ? "OTHER_PRODUCT"
          : !prepared.inWindow
            ? "OUT_OF_WINDOW"
            : "NO_BASE_PRICE");
      n = { outcome, decidedBy: null, amount: null, saving: null };
    }
    return {
      id: promotion.id,
      name: promotion.name,
      stacking: promotion.stacking,
      priority: promotion.priority,
      outcome: n.outcome,
      decidedBy: n.decidedBy,
      discountType: promotion.discountType,
      value: promotion.value,
      amount: n.amount,
      saving: n.saving,
    };
  });
}
